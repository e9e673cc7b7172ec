#!/usr/bin/env python3
"""Write a 2.3 file of sparse pages whose null parents own list children.

Arrow lets a null struct slot keep a non-empty child list. Pylance 14.0.2
writes such a list as null and childless in the sparse structure (it
pushes the parent's nulls into the list layer's validity), so no terminal
slot is dropped; the Go tests check that and read every page both ways.
Columns (every top-level field asks for sparse structure):

* s_i32:   struct<l: list<int32>>, null structs owning lists (chunked values)
* s_str:   struct<l: list<utf8>>, few distinct strings (dictionary values)
* s_long:  struct<l: list<utf8>>, long unique strings (zipped values)
* l_sls:   list<struct<a: list<int64>, b: utf8>>, nulls at every level,
           null struct items owning non-empty `a` lists
* ss_l:    struct<t: struct<l: list<int16>>>, null outer structs above
           valid inner ones owning lists

It writes OUT.lance and OUT.expected.json (what pylance reads back, in the
corpus conventions of lancejson.py). The Go tests (layouts, fileread) read
every page both ways and compare with pylance.

Usage: python gen_planar_dropped.py OUT [ROWS]
"""
import json
import os
import random
import sys

import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lancejson  # noqa: E402
import lance.file as lf  # noqa: E402

SPARSE = {"lance-encoding:structural-encoding": "sparse"}


def lists(r, n, item, p_null=0.1, max_len=4):
    return [None if r.random() < p_null else [item(r) for _ in range(r.randint(0, max_len))] for _ in range(n)]


def null_item(p, f):
    return lambda r: None if r.random() < p else f(r)


def struct_of(children, names, r, n, p_null):
    mask = pa.array([r.random() < p_null for _ in range(n)])
    return pa.StructArray.from_arrays(children, names=names, mask=mask)


def build(n):
    r = random.Random(23)
    cols = {}
    ints = pa.array(lists(r, n, null_item(0.1, lambda r: r.randint(-1000, 1000))), pa.list_(pa.int32()))
    cols["s_i32"] = struct_of([ints], ["l"], r, n, 0.3)
    short = pa.array(lists(r, n, null_item(0.1, lambda r: "v%d" % r.randint(0, 20))), pa.list_(pa.utf8()))
    cols["s_str"] = struct_of([short], ["l"], r, n, 0.3)
    long = pa.array(lists(r, n, null_item(0.1, lambda r: "%d-" % r.getrandbits(64) * r.randint(20, 40)), max_len=2),
                    pa.list_(pa.utf8()))
    cols["s_long"] = struct_of([long], ["l"], r, n, 0.3)
    sizes = lists(r, n, lambda r: 0, p_null=0.2)
    m = sum(len(x) for x in sizes if x is not None)
    a = pa.array(lists(r, m, null_item(0.1, lambda r: r.getrandbits(40))), pa.list_(pa.int64()))
    b = pa.array([None if r.random() < 0.2 else "b%d" % r.randint(0, 5) for _ in range(m)], pa.utf8())
    items = struct_of([a, b], ["a", "b"], r, m, 0.25)
    offsets, at = [0], 0
    for x in sizes:
        at += len(x) if x is not None else 0
        offsets.append(at)
    cols["l_sls"] = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), items,
                                             mask=pa.array([x is None for x in sizes]))
    inner_l = pa.array(lists(r, n, null_item(0.1, lambda r: r.randint(-300, 300))), pa.list_(pa.int16()))
    inner = struct_of([inner_l], ["l"], r, n, 0.1)
    cols["ss_l"] = struct_of([inner], ["t"], r, n, 0.3)
    fields = [pa.field(k, v.type, metadata=SPARSE) for k, v in cols.items()]
    return pa.Table.from_arrays(list(cols.values()), schema=pa.schema(fields))


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    table = build(n)
    w = lf.LanceFileWriter(out + ".lance", table.schema, version="2.3")
    w.write_batch(table)
    w.close()
    got = lf.LanceFileReader(out + ".lance").read_all().to_table()
    expected = {"case": os.path.basename(out), "num_rows": got.num_rows, "schema": lancejson.schema_json(got.schema),
                "columns": lancejson.table_json(got)}
    with open(out + ".expected.json", "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
