"""Print, as JSON, every version of a Lance dataset as pylance reads it.

Usage: dataset_rows.py DATASET [append N | create N | stale N]
Output: {"<version>": [[a, s], ...] sorted by a, ...}. With "append N",
first appends N rows (a = 1_000_000 + i, s = "py<i>") with pylance; with
"create N", first creates the dataset with rows a = i, s = "s<i>"; with
"stale N", appends like "append" but commits on read_version 1, so that
Lance's conflict resolution must read the transaction files of every
later version. The environment variable LANCE_STORAGE_OPTIONS, if set,
is a JSON object of pylance storage_options (e.g. for an s3:// endpoint).
"""
import json
import os
import sys

import lance
import pyarrow as pa

path = sys.argv[1]
so = json.loads(os.environ["LANCE_STORAGE_OPTIONS"]) if os.environ.get("LANCE_STORAGE_OPTIONS") else None
if len(sys.argv) > 3 and sys.argv[2] in ("append", "stale"):
    n = int(sys.argv[3])
    ds = lance.dataset(path, storage_options=so)
    t = pa.table({"a": pa.array([1_000_000 + i for i in range(n)], ds.schema.field("a").type),
                  "s": pa.array([f"py{i}" for i in range(n)], ds.schema.field("s").type)})
    if sys.argv[2] == "append":
        lance.write_dataset(t, path, mode="append", storage_options=so)
    else:
        frags = lance.fragment.write_fragments(t, path, storage_options=so)
        lance.LanceDataset.commit(path, lance.LanceOperation.Append(frags), read_version=1, storage_options=so)
if len(sys.argv) > 3 and sys.argv[2] == "create":
    n = int(sys.argv[3])
    t = pa.table({"a": pa.array(range(n), pa.int64()), "s": pa.array([f"s{i}" for i in range(n)])})
    lance.write_dataset(t, path, mode="create", storage_options=so)
out = {}
for v in lance.dataset(path, storage_options=so).versions():
    t = lance.dataset(path, version=v["version"], storage_options=so).to_table()
    rows = sorted(zip(t.column("a").to_pylist(), t.column("s").to_pylist()))
    out[str(v["version"])] = rows
print(json.dumps(out))
