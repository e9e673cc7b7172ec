#!/usr/bin/env python3
"""Rebuild, with pylance 14.0.2, the quirks of lancedb/lance's newer test_data
entries whose data files this project could not copy.

lancedb/lance keeps `test_data/list_struct_field_reorder` (pylance
2.0.0-beta.8) and `test_data/v8.0.0/decimal_zonemap` (Lance 8.0.0); their
data files are binary and were not in the snapshot available here (see
testdata/compat/README.md). This script writes datasets with the same
data-level quirks under testdata/compat/14.0.2/:

  list_struct_field_reorder[_v2_0]  a List<Struct<a, b, c>> column, then an
      append whose struct is <c, b> and lacks the top-level column `extra`:
      the second fragment's data file lists the struct leaves in the order
      c, b (field ids 5, 4) against the schema's a, b, c, and lacks a and
      extra (read as nulls). 2.1 files (as Lance's entry) and 2.0 files.
  decimal_zonemap  Decimal128 values (nulls, a fragment of nulls only) with a
      ZONEMAP scalar index listed in the manifest: the data reads as usual,
      the index is ignored.

    python gen_compat_regen.py [--root testdata/compat]

Then run gen_compat.py to record what pylance reads of them. Data file names
are random: rerunning rewrites the datasets with new names.
"""
import argparse
import decimal
import os
import shutil

import pyarrow as pa

import lance

assert lance.__version__ == "14.0.2", lance.__version__


def list_struct_reorder(path, version):
    inner = pa.struct([("a", pa.utf8()), ("b", pa.utf8()), ("c", pa.utf8())])
    # 2.0 files do not encode struct validity: no null struct item there
    item2 = None if version != "2.0" else {"a": "a2b", "b": "b2b", "c": None}
    first = pa.table({
        "id": pa.array([1, 2], pa.int32()),
        "data": pa.array([[{"a": "a1", "b": "b1", "c": "c1"}],
                          [{"a": "a2", "b": None, "c": "c2"}, item2]], pa.list_(inner)),
        "extra": pa.array(["x1", None], pa.utf8()),
    })
    lance.write_dataset(first, path, data_storage_version=version)
    swapped = pa.struct([("c", pa.utf8()), ("b", pa.utf8())])
    second = pa.table({
        "id": pa.array([3, 4, 5, 6], pa.int32()),
        "data": pa.array([[{"c": "c3", "b": "b3"}, {"c": None, "b": "b3b"}], [], None,
                          [{"c": "c6", "b": None}]], pa.list_(swapped)),
    })
    ds = lance.write_dataset(second, path, mode="append")
    fields = [df.fields for f in ds.get_fragments() for df in f.metadata.data_files()]
    assert fields[1][-2:] == [5, 4], fields  # the quirk: c before b


def decimal_zonemap(path):
    t = pa.decimal128(12, 3)
    vals = [decimal.Decimal(f"{i * 37 - 500}.{i % 1000:03d}") if i % 7 else None for i in range(300)]
    lance.write_dataset(pa.table({"id": pa.array(range(300), pa.int64()),
                                  "amount": pa.array(vals, t)}), path, max_rows_per_file=200)
    lance.write_dataset(pa.table({"id": pa.array(range(300, 310), pa.int64()),
                                  "amount": pa.array([None] * 10, t)}), path, mode="append")
    ds = lance.dataset(path)
    ds.create_scalar_index("amount", "ZONEMAP")
    ds = lance.dataset(path)
    ds.delete("id % 50 = 3")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compat"))
    a = ap.parse_args()
    out = os.path.join(a.root, "14.0.2")
    cases = {
        "list_struct_field_reorder": lambda p: list_struct_reorder(p, "2.1"),
        "list_struct_field_reorder_v2_0": lambda p: list_struct_reorder(p, "2.0"),
        "decimal_zonemap": decimal_zonemap,
    }
    for name, build in cases.items():
        path = os.path.join(out, name)
        shutil.rmtree(path, ignore_errors=True)
        build(path)
        # data only, as for the copied entries: no transactions, no index files
        shutil.rmtree(os.path.join(path, "_transactions"), ignore_errors=True)
        shutil.rmtree(os.path.join(path, "_indices"), ignore_errors=True)
        print(path)


if __name__ == "__main__":
    main()
