#!/usr/bin/env python3
"""Write legacy (v1, data_storage_version="legacy") Lance datasets with pylance.

For each case this writes <out>/<case>/ (a one-fragment dataset, several
batches per data file via max_rows_per_group) and <out>/<case>.expected.json
holding what pylance itself reads back (ds.to_table(): legacy files drop the
nulls of fixed-width values, lists and structs), in the corpus conventions
(lancejson.py). The Go tests (legacy_test.go) read the data file with the
fields of the dataset's manifest and compare.

Usage: python gen_legacy.py OUT [case1,case2]
"""
import decimal
import json
import os
import sys

import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lancejson  # noqa: E402
from gen import rng_for, with_nulls, sentence, printable  # noqa: E402

import lance  # noqa: E402


def legacy_types(c):
    n = 1000
    cols = {}
    for name, typ, lo, hi in [("i8", pa.int8(), -128, 127), ("i16", pa.int16(), -2 ** 15, 2 ** 15 - 1),
                              ("i32", pa.int32(), -2 ** 31, 2 ** 31 - 1), ("i64", pa.int64(), -2 ** 63, 2 ** 63 - 1),
                              ("u8", pa.uint8(), 0, 255), ("u32", pa.uint32(), 0, 2 ** 32 - 1),
                              ("u64", pa.uint64(), 0, 2 ** 64 - 1)]:
        r = rng_for(c, name)
        cols[name] = pa.array([with_nulls(r, 0.1, r.randint(lo, hi)) for _ in range(n)], typ)
    r = rng_for(c, "f32")
    cols["f32"] = pa.array([with_nulls(r, 0.1, r.uniform(-1, 1)) for _ in range(n)], pa.float32())
    r = rng_for(c, "f64")
    cols["f64"] = pa.array([r.uniform(-1e9, 1e9) for _ in range(n)], pa.float64())
    r = rng_for(c, "b")
    cols["b"] = pa.array([with_nulls(r, 0.1, r.random() < 0.3) for _ in range(n)], pa.bool_())
    r = rng_for(c, "s")
    cols["s"] = pa.array([with_nulls(r, 0.1, sentence(r, 0, 4)) for _ in range(n)], pa.utf8())
    r = rng_for(c, "ls")
    cols["ls"] = pa.array([with_nulls(r, 0.1, printable(r, 0, 30)) for _ in range(n)], pa.large_utf8())
    r = rng_for(c, "bin")
    cols["bin"] = pa.array([with_nulls(r, 0.1, r.randbytes(r.randint(0, 12))) for _ in range(n)], pa.binary())
    r = rng_for(c, "vec")
    cols["vec"] = pa.array([[r.uniform(-1, 1) for _ in range(3)] for _ in range(n)], pa.list_(pa.float32(), 3))
    r = rng_for(c, "fsb")
    cols["fsb"] = pa.array([r.randbytes(4) for _ in range(n)], pa.binary(4))
    r = rng_for(c, "dec")
    cols["dec"] = pa.array([decimal.Decimal(r.randint(-10 ** 12, 10 ** 12)).scaleb(-3) for _ in range(n)],
                           pa.decimal128(18, 3))
    r = rng_for(c, "d32")
    cols["d32"] = pa.array([r.randint(0, 30000) for _ in range(n)], pa.date32())
    r = rng_for(c, "ts")
    cols["ts"] = pa.array([r.randint(0, 2 ** 50) for _ in range(n)], pa.timestamp("us"))
    r = rng_for(c, "dict")
    cols["dict"] = pa.array([with_nulls(r, 0.1, r.choice(["red", "green", "", "blue"])) for _ in range(n)]
                            ).dictionary_encode()
    r = rng_for(c, "dict_i")
    cols["dict_i"] = pa.array([r.choice([7, -1, 300]) for _ in range(n)], pa.int16()).dictionary_encode()
    return pa.table(cols)


def legacy_nested(c):
    n = 900
    r = rng_for(c, "l")
    li = [with_nulls(r, 0.1, [r.randint(-99, 99) for _ in range(r.randint(0, 5))]) for _ in range(n)]
    r = rng_for(c, "ll")
    ll = [with_nulls(r, 0.1, [[r.randint(0, 9) for _ in range(r.randint(0, 3))] for _ in range(r.randint(0, 3))])
          for _ in range(n)]
    r = rng_for(c, "lls")
    lls = [[sentence(r, 0, 2) for _ in range(r.randint(0, 4))] for _ in range(n)]
    r = rng_for(c, "st")
    st = [{"a": r.randint(0, 100), "b": with_nulls(r, 0.2, sentence(r, 1, 2)),
           "c": [r.randint(0, 5) for _ in range(r.randint(0, 3))]} for _ in range(n)]
    r = rng_for(c, "lst")
    lst = [[{"x": r.randint(0, 9), "y": sentence(r, 1, 1)} for _ in range(r.randint(0, 3))] for _ in range(n)]
    st_t = pa.struct([("a", pa.int32()), ("b", pa.utf8()), ("c", pa.list_(pa.int16()))])
    return pa.table({"li": pa.array(li, pa.list_(pa.int32())), "ll": pa.array(ll, pa.list_(pa.list_(pa.int64()))),
                     "lls": pa.array(lls, pa.large_list(pa.utf8())), "st": pa.array(st, st_t),
                     "lst": pa.array(lst, pa.list_(pa.struct([("x", pa.int32()), ("y", pa.utf8())])))})


def legacy_small(c):
    # the golden legacy file (testdata/legacy): every page kind in 10 rows, 3 batches
    return pa.table({
        "i": pa.array([1, None, -3, 4, 5, 6, None, 8, 9, 10], pa.int32()),
        "b": pa.array([True, False, None, True, False, True, True, None, False, True]),
        "s": pa.array(["a", None, "", "ccc", "dd", "e", None, "ff", "", "g"]),
        "l": pa.array([[1, 2], None, [], [3], [4, 5, 6], [7], [], None, [8, 9], [10]], pa.list_(pa.int32())),
        "st": pa.array([{"x": i, "y": str(i) * (i % 3)} for i in range(10)],
                       pa.struct([("x", pa.int64()), ("y", pa.utf8())])),
        "v": pa.array([[float(i), -float(i)] for i in range(10)], pa.list_(pa.float32(), 2)),
        "d": pa.array(["x", None, "yy", "x", "", "yy", "x", None, "zz", "x"]).dictionary_encode(),
    })


CASES = {"legacy_types": legacy_types, "legacy_nested": legacy_nested, "legacy_small": legacy_small}


def main():
    out = sys.argv[1]
    only = sys.argv[2].split(",") if len(sys.argv) > 2 else list(CASES)
    for name, fn in ((k, CASES[k]) for k in only):
        table = fn(name)
        ds = lance.write_dataset(table, os.path.join(out, name), data_storage_version="legacy",
                                 max_rows_per_group=4 if name == "legacy_small" else 256)
        assert ds.data_storage_version in ("0.1", "legacy"), ds.data_storage_version
        got = ds.to_table()
        expected = {"case": name, "num_rows": got.num_rows, "schema": lancejson.schema_json(got.schema),
                    "columns": lancejson.table_json(got)}
        with open(os.path.join(out, name + ".expected.json"), "w", encoding="utf-8") as f:
            json.dump(expected, f, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        print("ok", name, ds.data_storage_version)
    return 0


if __name__ == "__main__":
    sys.exit(main())
