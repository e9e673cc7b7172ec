#!/usr/bin/env python3
"""Check a Lance data file against an expected.json with the real Lance reader.

    python verify.py FILE.lance EXPECTED.json [--ignore-metadata] [--quiet] [--apart]

Reads FILE.lance with pylance (lance.file.LanceFileReader): read_all(), a few
read_range() windows and take_rows() for seeded random row indices, converts
the Arrow results to the expected.json conventions (see lancejson.py and
testdata/corpus/README.md) and compares:

  * the footer version (LanceFileReader.metadata() major/minor) with
    "footer_version",
  * the row count with "num_rows",
  * the Arrow schema stored in the file with "schema" (names, types, type
    parameters, nullability and field metadata; --ignore-metadata skips the
    field metadata),
  * every value of every column, strictly: JSON types must match, floats are
    compared as bit patterns, 64-bit integers as decimal strings.

--apart reads each column alone (pylance 14.0.2's file reader refuses to read
together columns whose pages count different numbers of items a row, such as
fixed-size lists of structs of different dimensions).

Exits 0 when everything matches; otherwise prints the first difference and
exits 1 (2 for usage errors, 3 when Lance cannot read the file at all).
Works with expected.json files from the shared corpus too.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lancejson  # noqa: E402

import lance.file as lf  # noqa: E402


class Mismatch(Exception):
    pass


def _strip_metadata(fields):
    out = []
    for f in fields:
        g = dict(f)
        g["metadata"] = {}
        if "children" in g:
            g["children"] = _strip_metadata(g["children"])
        out.append(g)
    return out


def _check(what, expected, actual):
    d = lancejson.first_difference(expected, actual, what)
    if d:
        raise Mismatch(d)


def verify(path, expected, ignore_metadata=False, take_samples=64, log=None, columns=None):
    """Raise Mismatch on the first difference; return a short summary on success.

    columns reads only those top-level columns (pylance 14.0.2 cannot read
    columns of differing item counts together, such as fixed-size lists of
    structs of different dimensions)."""
    reader = lf.LanceFileReader(path, columns=columns)
    meta = reader.metadata()
    if "footer_version" in expected:
        _check("footer_version", list(expected["footer_version"]), [meta.major_version, meta.minor_version])
    n = expected["num_rows"]
    _check("num_rows", n, reader.num_rows())

    table = reader.read_all(batch_size=1000).to_table()
    # schema_read_back: the written schema differs from what Lance returns (see README)
    # (the shared corpus uses a dict-shaped schema_read_back for LanceDB descriptor read-back;
    # the single-file reader returns the written schema there, so only a list is used)
    exp_schema = expected["schema"]
    if columns is not None:
        exp_schema = [f for f in exp_schema if f["name"] in columns]
    if isinstance(expected.get("schema_read_back"), list):
        exp_schema = expected["schema_read_back"]
    act_schema = lancejson.schema_json(table.schema)
    if ignore_metadata:
        exp_schema, act_schema = _strip_metadata(exp_schema), _strip_metadata(act_schema)
    _check("schema", exp_schema, act_schema)
    _check("num_rows(read_all)", n, table.num_rows)

    cols = expected["columns"]
    if columns is not None:
        cols = {k: v for k, v in cols.items() if k in columns}
    _check("column names", list(cols.keys()), table.column_names)
    for name in table.column_names:
        exp = cols[name]
        if len(exp) != n:
            raise Mismatch(f"expected.json column {name!r} has {len(exp)} values, num_rows is {n}")
        _check(f"columns.{name}", exp, lancejson.array_json(table.column(name)))

    if n == 0:
        return "ok (0 rows)"
    r = random.Random(f"verify/{os.path.basename(path)}/{n}")

    # a few ranges, including the first and last row
    ranges = [(0, min(n, 7)), (max(0, n - 5), min(n, 5)), (n // 2, min(n - n // 2, 300))]
    for _ in range(3):
        s = r.randrange(n)
        ranges.append((s, min(n - s, r.randint(1, 2000))))
    for start, k in ranges:
        if k <= 0:
            continue
        t = reader.read_range(start, k, batch_size=257).to_table()
        for name in t.column_names:
            _check(f"read_range({start},{k}).{name}", cols[name][start:start + k], lancejson.array_json(t.column(name)))

    # random takes (sorted, unique: what LanceFileReader.take_rows expects)
    idx = sorted(set([0, n - 1] + [r.randrange(n) for _ in range(take_samples)]))
    t = reader.take_rows(idx).to_table()
    for name in t.column_names:
        got = lancejson.array_json(t.column(name))
        want = [cols[name][i] for i in idx]
        _check(f"take_rows({len(idx)} rows).{name}", want, got)
    return f"ok ({n} rows, {len(cols)} columns, {len(ranges)} ranges, {len(idx)} taken rows)"


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = {a for a in argv[1:] if a.startswith("--")}
    if len(args) != 2 or flags - {"--ignore-metadata", "--quiet", "--apart"}:
        print(__doc__, file=sys.stderr)
        return 2
    path, exp_path = args
    with open(exp_path, encoding="utf-8") as f:
        expected = json.load(f)
    try:
        if "--apart" in flags:  # one column at a time (see verify's columns)
            for col in expected["columns"]:
                msg = verify(path, expected, ignore_metadata="--ignore-metadata" in flags, columns=[col])
        else:
            msg = verify(path, expected, ignore_metadata="--ignore-metadata" in flags)
    except Mismatch as e:
        print(f"MISMATCH {path}: {e}")
        return 1
    except Exception as e:  # noqa: BLE001 - Lance could not read the file
        print(f"ERROR {path}: Lance failed to read the file: {type(e).__name__}: {e}")
        return 3
    if "--quiet" not in flags:
        print(f"{path}: {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
