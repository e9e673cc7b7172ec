#!/usr/bin/env python3
"""Record what pylance reads of the historical datasets under testdata/compat/.

testdata/compat/<release>/<name>/ are datasets written by old Lance releases
(copied, data only, from lancedb/lance's test_data/: their manifests,
data and deletion files; indices and transactions left out). Each carries a
quirk of its release (see testdata/compat/README.md). For each this writes
<name>.expected.json beside it, in gen_datasets.py's format: every version's
rows with _rowid and _rowaddr, a take by offsets and one by row ids.

    python gen_compat.py [--root testdata/compat] [--check]

--check compares with the committed files instead of writing them.
"""
import argparse
import glob
import json
import os
import random
import sys

import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lancejson  # noqa: E402

import lance  # noqa: E402


def with_ids(tbl, ids, addrs):
    return tbl.append_column("_rowid", pa.array(ids, pa.uint64())).append_column(
        "_rowaddr", pa.array(addrs, pa.uint64()))


def version_json(uri, v, rng):
    ds = lance.dataset(uri, version=v)
    full = ds.to_table(with_row_id=True, with_row_address=True)
    n = full.num_rows
    rowids = full.column("_rowid").to_pylist()
    addrs = full.column("_rowaddr").to_pylist()
    cols = [c for c in full.column_names if c not in ("_rowid", "_rowaddr")]
    offsets = sorted(rng.sample(range(n), min(n, 12))) if n else []
    offsets = offsets[::2] + offsets[1::2][::-1]
    if n:
        offsets += [offsets[0], n - 1]
    ids = [rowids[o] for o in offsets]
    take, rows = ds.take(offsets, columns=cols), ds._take_rows(ids, columns=cols)
    if take.num_rows != len(offsets) or rows.num_rows != len(ids):
        # pylance's takes drop rows here (a mixture of file versions):
        # only the scan is recorded
        print(f"{uri} v{v}: takes return {take.num_rows}/{rows.num_rows} rows of {len(ids)}", file=sys.stderr)
        offsets, ids, take, rows = [], [], take.slice(0, 0), rows.slice(0, 0)
    take = with_ids(take, [rowids[o] for o in offsets], [addrs[o] for o in offsets])
    rows = with_ids(rows, ids, [addrs[o] for o in offsets])
    return {
        "version": v, "num_rows": n, "count_rows": ds.count_rows(),
        "schema": lancejson.schema_json(ds.schema),
        "num_fragments": len(ds.get_fragments()),
        "columns": lancejson.table_json(full),
        "take_offsets": offsets, "take": lancejson.table_json(take),
        "take_row_ids": [str(i) for i in ids], "take_rows": lancejson.table_json(rows),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(HERE, "..", "compat"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    bad = 0
    for vdir in sorted(glob.glob(os.path.join(a.root, "*", "*", "_versions"))):
        uri = os.path.dirname(vdir)
        name = os.path.relpath(uri, a.root)
        rng = random.Random(name)
        ds = lance.dataset(uri)
        exp = {"writer": {"pylance": lance.__version__, "pyarrow": pa.__version__},
               "case": name,
               "versions": [version_json(uri, v["version"], rng) for v in ds.versions()]}
        text = json.dumps(exp, separators=(",", ":")) + "\n"
        path = uri + ".expected.json"
        if a.check:
            with open(path) as fh:
                if fh.read() != text:
                    print(f"{path}: pylance reads otherwise", file=sys.stderr)
                    bad += 1
            continue
        with open(path, "w") as fh:
            fh.write(text)
        print(f"{path}: {len(exp['versions'])} versions", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
