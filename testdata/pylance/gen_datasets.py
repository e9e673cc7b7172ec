#!/usr/bin/env python3
"""Build real Lance datasets with pylance and record what pylance reads back.

For each case and data storage version this writes <out>/<version>/<case>/
(a Lance dataset with several versions: appends, deletes of a few rows and of
more than 5,000 rows of one fragment, update, add_columns, drop_columns,
compaction, overwrite) and <out>/<version>/<case>.expected.json:

    {"writer": {...}, "case": ..., "data_storage_version": ...,
     "versions": [{"version": N, "num_rows": R, "schema": [...],
                   "columns": {... all rows, plus _rowid and _rowaddr ...},
                   "take_offsets": [...], "take": {...},
                   "take_row_ids": [...], "take_rows": {...}}]}

Values follow lancejson.py (the corpus conventions: 64-bit integers as decimal
strings, ...). "take" is ds.take(take_offsets) and "take_rows" is
ds._take_rows(take_row_ids), both with _rowid and _rowaddr appended.

    python gen_datasets.py --out DIR [--versions 2.1,2.2,2.3] [--only case,...] [--small DIR]

--small DIR writes only the small dataset kept under testdata/datasets/.
"""
import argparse
import json
import os
import random
import shutil
import sys

import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lancejson  # noqa: E402

import lance  # noqa: E402

VERSIONS = ["2.1", "2.2", "2.3"]


def table(lo, hi, tag="a"):
    ids = list(range(lo, hi))
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "s": pa.array([None if i % 13 == 0 else f"{tag}{i}" for i in ids], pa.string()),
        "f": pa.array([i / 4 for i in ids], pa.float64()),
        "st": pa.array([{"a": i % 7, "b": f"b{i % 5}"} for i in ids],
                       pa.struct([("a", pa.int32()), ("b", pa.string())])),
        "l": pa.array([list(range(i % 4)) if i % 11 else None for i in ids], pa.list_(pa.int32())),
    })


def history(uri, version, **kw):
    """Every write operation once; returns nothing (versions are on disk)."""
    lance.write_dataset(table(0, 16000), uri, data_storage_version=version,
                        max_rows_per_file=8000, **kw)           # v1: 2 fragments
    lance.write_dataset(table(16000, 18000, "b"), uri, mode="append")  # v2
    lance.write_dataset(table(18000, 18500, "c"), uri, mode="append")  # v3
    ds = lance.dataset(uri)
    ds.delete("id % 97 = 0")                                    # v4: a few rows, Arrow files
    ds = lance.dataset(uri)
    ds.delete("id >= 100 AND id < 5300")                        # v5: > 5,000 rows of fragment 0: roaring
    ds = lance.dataset(uri)
    ds.update({"s": "'upd'"}, where="id % 50 = 1")              # v6: rows move to a new fragment
    ds = lance.dataset(uri)
    if version == "legacy":
        # legacy add_columns refuses fragments missing many rows: compact first
        ds.optimize.compact_files(materialize_deletions_threshold=0.01)
        ds = lance.dataset(uri)
    ds.add_columns({"x": "id * 2"})                             # v7: a second data file per fragment
    ds = lance.dataset(uri)
    ds.drop_columns(["f"])                                      # v8
    ds = lance.dataset(uri)
    ds.optimize.compact_files(target_rows_per_fragment=6000)    # v9
    lance.write_dataset(table(0, 300, "o"), uri, mode="overwrite")  # v10


def small(uri, version, **kw):
    """The committed dataset: a few KB, appends and deletes."""
    t = pa.table({"id": pa.array(range(6), pa.int64()),
                  "name": pa.array(["ann", "bob", None, "dan", "eve", "fay"])})
    lance.write_dataset(t, uri, data_storage_version=version, **kw)        # v1
    t2 = pa.table({"id": pa.array(range(6, 10), pa.int64()),
                   "name": pa.array(["gus", "hal", "ivy", "jo"])})
    lance.write_dataset(t2, uri, mode="append")                             # v2
    lance.dataset(uri).delete("id = 1 OR id = 7")                           # v3
    lance.write_dataset(t2, uri, mode="append")                             # v4


def stable_small(uri, version, **kw):
    """The committed stable-row-id dataset: a roaring deletion file (more
    than 5,000 rows of one fragment) and an update, which moves rows and
    their ids to a new fragment."""
    t = pa.table({"id": pa.array(range(6000), pa.int32())})
    lance.write_dataset(t, uri, data_storage_version=version, enable_stable_row_ids=True)  # v1
    ds = lance.dataset(uri)
    ds.delete("id >= 10 AND id < 5200")                                      # v2: roaring
    ds = lance.dataset(uri)
    ds.update({"id": "id + 100000"}, where="id % 7 = 3")                     # v3


def blob_bytes(i):
    return bytes([i % 256]) * (i % 7)


def types(uri, version, **kw):
    """Dictionary, blob and field-metadata columns, with a delete and an
    add_columns. pylance's to_table returns a blob column as descriptors
    (position, size); the expected values hold the bytes written instead,
    which is what lancego returns (as for files)."""
    n = 3000
    schema = pa.schema([pa.field("id", pa.int64()),
                        pa.field("cat", pa.dictionary(pa.int32(), pa.string())),
                        pa.field("blob", pa.large_binary(), metadata={"lance-encoding:blob": "true"}),
                        pa.field("meta", pa.float32(), metadata={"unit": "m"})])
    t = pa.table({
        "id": pa.array(range(n), pa.int64()),
        "cat": pa.array([["x", "y", None, "z"][i % 4] for i in range(n)]).dictionary_encode(),
        "blob": pa.array([blob_bytes(i) for i in range(n)], pa.large_binary()),
        "meta": pa.array([i * 1.5 for i in range(n)], pa.float32()),
    }).cast(schema)
    lance.write_dataset(t, uri, data_storage_version=version, max_rows_per_file=1000, **kw)   # v1
    lance.dataset(uri).delete("id % 10 = 3")                                                  # v2
    lance.dataset(uri).add_columns({"twice": "id * 2"})                                       # v3


def fix_blobs(tbl, ids):
    """Replaces a blob column's descriptors by the bytes written."""
    if "blob" not in tbl.column_names:
        return tbl
    i = tbl.column_names.index("blob")
    return tbl.set_column(i, tbl.schema.field(i).with_type(pa.large_binary()),
                          pa.array([blob_bytes(x) for x in ids], pa.large_binary()))


CASES = {
    "types": (types, {}),
    "stable_small": (stable_small, {}),
    "history": (history, {}),
    "stable": (history, {"enable_stable_row_ids": True}),
    "v1paths": (history, {"enable_v2_manifest_paths": False}),
    "small": (small, {}),
}


def with_ids(ds, tbl, ids, addrs):
    return tbl.append_column("_rowid", pa.array(ids, pa.uint64())).append_column(
        "_rowaddr", pa.array(addrs, pa.uint64()))


def version_json(uri, v, rng):
    ds = lance.dataset(uri, version=v)
    full = ds.to_table(with_row_id=True, with_row_address=True)
    full = fix_blobs(full, full.column("id").to_pylist())
    n = full.num_rows
    rowids = full.column("_rowid").to_pylist()
    addrs = full.column("_rowaddr").to_pylist()
    data_cols = [c for c in full.column_names if c not in ("_rowid", "_rowaddr")]
    offsets = sorted(rng.sample(range(n), min(n, 40))) if n else []
    offsets = offsets[::2] + offsets[1::2][::-1]            # not sorted
    if n:
        offsets += [offsets[0], n - 1]                      # a repeat and the last row
    take = ds.take(offsets, columns=data_cols)
    take = fix_blobs(take, take.column("id").to_pylist())
    take = with_ids(ds, take, [rowids[o] for o in offsets], [addrs[o] for o in offsets])
    ids = [rowids[o] for o in offsets]
    rows = ds._take_rows(ids, columns=data_cols)
    rows = fix_blobs(rows, rows.column("id").to_pylist())
    rows = with_ids(ds, rows, ids, [addrs[o] for o in offsets])
    return {
        "version": v, "num_rows": n, "count_rows": ds.count_rows(),
        "schema": lancejson.schema_json(ds.schema),
        "num_fragments": len(ds.get_fragments()),
        "columns": lancejson.table_json(full),
        "take_offsets": offsets, "take": lancejson.table_json(take),
        "take_row_ids": [str(i) for i in ids], "take_rows": lancejson.table_json(rows),
    }


def build(out, version, case):
    if case == "types" and version != "2.1":
        # 2.2 and 2.3 store such a column as blob v2, which pylance hands out
        # as an extension type whose values are descriptors: compared for 2.1
        # only
        print(f"{case}: data storage version 2.1 only", file=sys.stderr)
        return
    fn, kw = CASES[case]
    uri = os.path.join(out, case)
    shutil.rmtree(uri, ignore_errors=True)
    fn(uri, version, **kw)
    rng = random.Random(f"{case}/{version}")
    ds = lance.dataset(uri)
    exp = {"writer": {"pylance": lance.__version__, "pyarrow": pa.__version__},
           "case": case, "data_storage_version": version,
           "versions": [version_json(uri, v["version"], rng) for v in ds.versions()]}
    with open(uri + ".expected.json", "w") as fh:
        json.dump(exp, fh, separators=(",", ":"))
        fh.write("\n")
    print(f"{uri}: {len(exp['versions'])} versions", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/lance-datasets")
    ap.add_argument("--versions", default=",".join(VERSIONS))
    ap.add_argument("--only", default="history,stable,v1paths,types")
    ap.add_argument("--small", default="")
    a = ap.parse_args()
    if a.small:
        os.makedirs(a.small, exist_ok=True)
        build(a.small, "2.1", "small")
        build(a.small, "2.1", "stable_small")
        return
    for v in a.versions.split(","):
        d = os.path.join(a.out, v)
        os.makedirs(d, exist_ok=True)
        for case in a.only.split(","):
            build(d, v, case)


if __name__ == "__main__":
    main()
