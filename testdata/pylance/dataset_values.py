"""Print, as JSON, every version of a Lance dataset as pylance reads it,
values in the corpus conventions (lancejson.py).

Usage: dataset_values.py DATASET [append|create IPC_FILE]
Output: {"<version>": {"num_rows": N, "columns": {...}}, ...}, each
version's rows sorted by its "id" column. With "append IPC_FILE" or
"create IPC_FILE", first writes the table of that Arrow IPC file with
pylance (write_dataset with that mode). LANCE_STORAGE_OPTIONS, if set, is a JSON
object of pylance storage_options.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lancejson  # noqa: E402

import lance  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402

path = sys.argv[1]
so = json.loads(os.environ["LANCE_STORAGE_OPTIONS"]) if os.environ.get("LANCE_STORAGE_OPTIONS") else None
if len(sys.argv) > 3 and sys.argv[2] in ("append", "create"):
    with pa.OSFile(sys.argv[3], "rb") as f:
        t = pa.ipc.open_file(f).read_all()
    # An IPC file's buffers are only 8-byte aligned, which Lance's Rust
    # side refuses for 16-byte values (decimal128): take copies them into
    # fresh (64-byte aligned) buffers.
    t = t.take(pa.array(range(t.num_rows)))
    lance.write_dataset(t, path, mode=sys.argv[2], storage_options=so)
out = {}
for v in lance.dataset(path, storage_options=so).versions():
    t = lance.dataset(path, version=v["version"], storage_options=so).to_table()
    if t.num_rows:
        t = t.take(pc.sort_indices(t.column("id")))
    out[str(v["version"])] = {"num_rows": t.num_rows, "columns": lancejson.table_json(t)}
print(json.dumps(out))
