#!/usr/bin/env python3
"""Conformance golden for the filter dialect (expr package): writes OUTDIR/conform.lance with pylance
(3 fragments of 40 rows, deletions in two of them, every column type of probe.py plus
int8/int16/uint8/uint32/float32/large_string, NULLs, NaN, -0.0, +-inf, unicode, empty strings, strings
with % _ and backslash) and OUTDIR/conform-pylance-14.0.2.tsv: for each filter of FILTERS,
OK<TAB>filter<TAB>[id of kept rows, scan order] or ERR<TAB>filter<TAB>first line of the message.
Usage: $PY gen_filters.py OUTDIR           (writes both)
       $PY gen_filters.py --rerun DATASET  (prints the golden of an existing dataset to stdout)"""
import datetime as dt, decimal, os, random, shutil, sys

import lance, pyarrow as pa

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_filters import run  # noqa: E402

N, PER_FRAG = 120, 40
DELETE = "(id < 40 OR id >= 80) AND id % 9 = 4 OR id = 119 OR id = 0"
NAN, INF = float("nan"), float("inf")
D, T, Dec = dt.date, dt.datetime, decimal.Decimal


def deleted(i):
    """Whether DELETE removes row id i."""
    return (i < 40 or i >= 80) and i % 9 == 4 or i in (0, 119)


def column(rng, pool, specials, start, stride, nulls=0.1):
    """N values drawn from pool (None with probability nulls), specials spread over live rows."""
    vals = [None if rng.random() < nulls else rng.choice(pool) for _ in range(N)]
    used = set()
    for j, v in enumerate(specials):
        at = (start + j * stride) % N
        while deleted(at) or at in used:
            at = (at + 1) % N
        used.add(at)
        vals[at] = v
    return vals


def table():
    rng = random.Random(20261203)
    ints = lambda lo, hi: list(range(lo, hi + 1))
    strs = ["apple", "Apple", "APPLE", "banana", "Banana", "cherry", "", "a%b", "a_b", "a\\b", "100%",
            "50% off", "x_y_z", "é", "É", "café", "naïve", "日本語", "😀 smile", "  padded  ", "it's",
            "date_x", "hello world", "Hello World", "the quick brown fox", "apple pie", "line\nbreak"]
    dates = [D(2021, 1, 1), D(2021, 6, 15), D(2020, 2, 29), D(1970, 1, 1), D(1969, 12, 31), D(2000, 1, 1),
             D(2022, 12, 31), D(1900, 1, 1), D(2021, 1, 2)]
    tss = [T(2021, 1, 1), T(2021, 1, 1, 12, 34, 56, 789000), T(2021, 6, 15, 8), T(1970, 1, 1),
           T(1969, 12, 31, 23, 59, 59, 999999), T(2000, 2, 29, 23, 59, 59), T(2022, 12, 31, 0, 0, 0, 1),
           T(1900, 1, 1), T(2021, 1, 2)]
    decs = [Dec(s) for s in ["0.000", "1.000", "-1.000", "2.500", "3.125", "0.001", "1.500", "-0.500", "10.000"]]
    lists = [[1, 2], [1], [], [1, 2, 3], [3, 2, 1], [1, None, 3], [-3, 9], [1, 1, 2], [5], [None]]
    tags = [["a", "b"], ["b"], ["a"], [], ["é", "A"], ["", "a"], ["a", "b", "c"], ["c", "a"], [None, "b"]]
    vecs = [[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 0, 0], [0.5, 0.5, 0.5, 0.5], [1.0, 2.0, 3.0, 4.0], [-1.0, 0, 0, 0]]
    bins = [b"", b"\x00", b"\x01", b"ab", b"\xff\xfe", b"abc", b"a"]
    maps = [[("k1", "v1")], [("k2", "x")], [], [("k1", "v1"), ("k3", "y")], [("k2", "v2"), ("k1", "z")]]
    sts = [{"x": x, "y": y} for x in [0.5, 1.0, 2.0, None, -1.5] for y in ["a", "b", None, "", "é"]]
    cols = {
        "id": pa.array(range(N), pa.int64()),
        "i8": pa.array(column(rng, ints(-5, 5), [-128, 127, 0, -1, None, 1], 1, 7), pa.int8()),
        "i16": pa.array(column(rng, ints(-300, 300), [-32768, 32767, 0, None], 2, 11), pa.int16()),
        "i32": pa.array(column(rng, ints(-10, 10), [-2147483648, 2147483647, 0, None, 5], 3, 13), pa.int32()),
        "j": pa.array(column(rng, ints(-10, 10), [0, None, 5], 4, 17), pa.int32()),
        "i64": pa.array(column(rng, ints(-1000, 1000), [2**63 - 1, -2**63, 0, 2**40, None], 5, 19), pa.int64()),
        "u8": pa.array(column(rng, ints(0, 20), [0, 255, None], 6, 23), pa.uint8()),
        "u32": pa.array(column(rng, ints(0, 1000), [0, 2**32 - 1, 1000, None], 7, 29), pa.uint32()),
        "u64": pa.array(column(rng, ints(0, 100), [0, 2**63, 2**64 - 1, 2**63 - 1, None], 8, 31), pa.uint64()),
        "f32": pa.array(column(rng, [0.5, 1.5, -2.25, 0.1, 3.0, 100.0, 2.0],
                               [NAN, -0.0, 0.0, INF, -INF, 1e-45, 3.4e38, None], 9, 37), pa.float32()),
        "f64": pa.array(column(rng, [round(rng.uniform(-10, 10), 2) for _ in range(30)] + [1.0, 2.0, 0.5],
                               [NAN, -0.0, 0.0, INF, -INF, 1e300, -1e-300, 0.1, 5e-324, None, NAN], 10, 41), pa.float64()),
        "s": pa.array(column(rng, strs, strs + [None], 11, 43), pa.string()),
        "ls": pa.array(column(rng, strs, ["zebra", "", "Ωmega", None], 12, 47), pa.large_string()),
        "b": pa.array(column(rng, [True, False], [None, True, False], 13, 53, 0.15), pa.bool_()),
        "d": pa.array(column(rng, dates, dates + [None], 14, 59), pa.date32()),
        "ts": pa.array(column(rng, tss, tss + [None], 15, 61), pa.timestamp("us")),
        "dec": pa.array(column(rng, decs, [Dec("99999.999"), Dec("-99999.999"), None], 16, 67), pa.decimal128(8, 3)),
        "st": pa.array(column(rng, sts, [None, {"x": None, "y": None}], 17, 71),
                       pa.struct([("x", pa.float32()), ("y", pa.string())])),
        "l": pa.array(column(rng, lists, [None, []], 18, 73), pa.list_(pa.int64())),
        "tags": pa.array(column(rng, tags, [None, []], 19, 77), pa.list_(pa.string())),
        "vec": pa.array(column(rng, vecs, [None], 20, 79, 0.05), pa.list_(pa.float32(), 4)),
        "bin": pa.array(column(rng, bins, [None, b""], 21, 83), pa.binary()),
        "m": pa.array(column(rng, maps, [None, []], 22, 89), pa.map_(pa.string(), pa.string())),
        "CUBE": pa.array([i % 5 for i in range(N)], pa.int32()),
        "col with space": pa.array([i % 3 for i in range(N)], pa.int32()),
        "MixedCase": pa.array([i % 4 for i in range(N)], pa.int32()),
    }
    return pa.table(cols)


def cmp_filters():
    """Comparisons per type against literals, out-of-range and lossy literals included."""
    f = []
    for col, lits in [
        ("i8", ["0", "-1", "-128", "127", "128", "-129", "1000", "3", "1.0"]),
        ("i16", ["0", "32767", "32768", "-100", "-32768"]),
        ("i32", ["0", "5", "-2147483648", "2147483647", "2147483648", "-5"]),
        ("i64", ["0", "500", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1099511627776"]),
        ("u8", ["0", "255", "256", "-1", "10"]),
        ("u32", ["0", "4294967295", "4294967296", "500", "-1"]),
        ("u64", ["0", "9223372036854775807", "9223372036854775808", "18446744073709551615",
                 "18446744073709551616", "-1", "50"]),
        ("f32", ["0.5", "0.1", "1.0", "0.0", "-0.0", "3.4e38", "1", "1e39", "1e-45"]),
        ("f64", ["0.0", "-0.0", "0.1", "1e300", "5e-324", "1e308", "2", "1E1", ".5", "5.", "1e400"]),
        ("dec", ["1", "0", "-1", "1.000", "99999", "100000", "decimal(8,3) '2.500'"]),
    ]:
        for i, lit in enumerate(lits):
            ops = ["=", "<", ">="] if i < 3 else ["="] if i % 2 else [">"]
            f += [f"{col} {op} {lit}" for op in ops]
    f += ["0 > i8", "i8 != 0", "i8 <> -1", "i8 <= -128", "-1 = i8", "i32 == 5", "2147483647 <= i32",
          "u64 > -1", "u64 < 10", "f64 != 0.0", "f64 <= 0.0", "f64 > 5.0", "f64 < -1e308",
          "f32 > 1e-46", "f32 < 0", "dec <= -1", "dec > 0", "dec != 1"]
    f += ["s = 'apple'", "s = 'Apple'", "s != 'apple'", "s < 'B'", "s > 'b'", "s >= ''", "s = ''", "s > ''",
          "s = 'é'", "s > 'z'", "s = '日本語'", "s = 'it''s'", "s = \"apple\"", "s = 'a\\b'", "s <= 'Apple'",
          "'apple' = s", "s LIKE 'line%'", "s = '  padded  '", "s < 'É'", "s = \"it's\""]
    f += ["ls = 'zebra'", "ls > 'm'", "ls = ''", "ls = 'Ωmega'", "ls < 'B'", "ls = \"zebra\""]
    f += ["b", "NOT b", "b = false", "b != true", "b IS TRUE", "b IS NOT FALSE", "b IS NOT NULL AND NOT b", "b < true",
          "b > false", "b = b", "b = 'true'", "b IS NOT TRUE", "b IS FALSE", "b = NULL"]
    f += ["d = date '2021-01-01'", "d < date '1970-01-01'", "d >= date '2000-01-01'", "d = date '2020-02-29'",
          "d = date '2021-02-29'", "d > timestamp '2021-01-01 00:00:00'", "d = CAST('1969-12-31' AS date)",
          "d != date '2021-01-01'", "d = '2021-01-01'", "d = 18628", "d <= DATE '1900-01-01'",
          "d = date '2021-1-2'", "d = date 'garbage'", "d = timestamp '2021-01-01 00:00:00'"]
    f += ["ts = timestamp '2021-01-01 00:00:00'", "ts > timestamp '2021-01-01 12:34:56.789'",
          "ts < timestamp '1970-01-01'", "ts = timestamp '2021-01-01 12:34:56.789'", "ts >= date '2021-01-01'",
          "ts = timestamp(3) '2021-01-01 12:34:56.789'", "ts = timestamp(0) '2021-01-01 12:34:56.789'",
          "ts = timestamp '1969-12-31 23:59:59.999999'", "ts = timestamp '2021-01-01 00:00:00Z'",
          "ts = timestamp '2021-01-01T00:00:00+01:00'", "ts = datetime '2021-01-01 12:34:56.789'",
          "ts = timestamp(9) '2022-12-31 00:00:00.000001'", "ts = timestamp(3) '2022-12-31 00:00:00.000001'",
          "ts > timestamp '2021-13-01'", "ts = 0", "ts = '2021-01-01 00:00:00'", "ts = date '2021-01-02'",
          "ts = TIMESTAMP '2021-06-15T08:00:00'", "ts != timestamp '2021-01-01'"]
    f += ["bin = X''", "bin = X'00'", "bin > X'61'", "bin = 'ab'", "bin < X'ff'", "bin = x'FFFE'", "bin = X'0'",
          "bin >= X'6162'", "bin = 1"]
    return f


def column_filters():
    """Column against column, across types."""
    return ["i8 < i16", "i8 = i32", "i32 = j", "i32 < j", "i32 != j", "i32 IS DISTINCT FROM j",
            "i32 IS NOT DISTINCT FROM j", "i64 > u64", "u8 = i8", "u32 > i64", "f32 < f64", "f32 = f64",
            "i32 < f64", "dec > i32", "dec < f64", "s = ls", "s < ls", "d < ts", "d = ts", "CUBE = MixedCase",
            "u64 = i64", "u8 < u32", "i16 >= f32", "j <= dec", "b = (i32 > 0)", "b != (j > 0)",
            "s = bin", "d = i32", "ts > i64", "l = tags", "st.x = f32", "st.x < f64", "vec = l"]


def null_filters():
    cols = ["i8", "i16", "i32", "j", "i64", "u8", "u32", "u64", "f32", "f64", "s", "ls", "b", "d", "ts", "dec",
            "st", "l", "tags", "vec", "bin", "m"]
    f = [f"{c} IS NULL" for c in cols] + [f"{c} IS NOT NULL" for c in ["i32", "f64", "s", "st", "l", "m"]]
    f += ["i32 = NULL", "NULL = NULL", "NULL IS NULL", "NULL IS NOT NULL", "i32 IS DISTINCT FROM NULL",
          "i32 IS NOT DISTINCT FROM NULL", "NOT (i32 = 1)", "NOT (i32 != 1)", "coalesce(i32, j, 0) = 0",
          "i32 + NULL IS NULL", "st.x IS NULL", "st.y IS NULL", "st.y = ''", "l[1] IS NULL", "tags[1] IS NULL",
          "NULL AND FALSE", "NULL OR TRUE", "NOT NULL", "NULL IS TRUE", "s IS NOT DISTINCT FROM ls",
          "f64 IS DISTINCT FROM f32", "i32 < NULL", "NULL", "i32 IS NULL = j IS NULL"]
    return f


def logic_filters():
    """Three-valued logic and nested AND/OR/NOT."""
    return ["b AND i32 > 0", "b OR i32 > 0", "NOT (b AND i32 > 0)", "NOT (b OR i32 > 0)", "(b AND NULL) IS NULL",
            "(b OR NULL) IS NULL", "b AND NULL", "b OR NULL", "NOT (b OR NULL)", "NOT (b AND NULL)",
            "(i32 > 0) IS TRUE", "(i32 > 0) IS NOT TRUE", "(i32 > 0) IS FALSE", "(i32 > 0) IS NOT FALSE",
            "(i32 > 0) = b", "(i32 > 0) != b", "b IS DISTINCT FROM (i32 > 0)", "FALSE OR NULL", "TRUE AND b",
            "NOT NOT NOT b", "b AND NOT b", "b OR NOT b", "(b OR NOT b) IS NULL",
            "i32 > 0 AND j > 0 OR i32 < 0 AND j < 0", "i32 > 0 AND (j > 0 OR i32 < 0) AND j < 0",
            "NOT (i32 > 0 AND j > 0) OR b", "NOT (i32 > 0 OR j > 0 OR b)", "NOT i32 > 0 OR NOT j > 0",
            "(i8 > 0 OR i16 > 0) AND (u8 > 10 OR f64 < 0)", "s LIKE 'a%' OR s LIKE 'b%' AND b",
            "(s LIKE 'a%' OR s LIKE 'b%') AND b", "NOT (s IS NULL OR ls IS NULL)", "NOT s IS NULL AND NOT b",
            "id < 10 OR id > 110 AND NOT (id = 115 OR id = 116)", "NOT (NOT (id < 5) AND id < 100)",
            "(i32 > 0 AND b) OR (i32 < 0 AND NOT b) OR (i32 IS NULL AND b IS NULL)",
            "i32 BETWEEN -3 AND 3 AND (f64 > 0 OR isnan(f64)) AND NOT s IN ('apple', '')",
            "id > 100 AND (i32 = 1 OR i32 = 2 OR (j = 3 AND NOT b))", "true AND false OR true",
            "false OR true AND false", "NOT true = false", "NOT (1 = 1) OR id = 7"]


def float_filters():
    """NaN, signed zeros and infinities."""
    return ["isnan(f64)", "isnan(f32)", "NOT isnan(f64)", "f64 = CAST('NaN' AS double)",
            "f64 > CAST('inf' AS double)", "f64 = CAST('inf' AS double)", "f64 = CAST('-inf' AS double)",
            "f64 = CAST('Infinity' AS double)", "f32 = CAST('inf' AS float)", "f64 != f64", "f64 = f64",
            "f64 >= 1e308", "f64 BETWEEN -1e308 AND 1e308", "f64 IN (0.0)", "f64 IN (-0.0)", "f32 = -0.0",
            "f32 > 0", "f64 = 'NaN'", "f64 / 0.0 > 0", "f64 / 0 IS NULL", "1.0 / 0.0 > 0", "f64 * 0 = 0",
            "signum(f64) = -1", "signum(f64) = 0", "nanvl(f64, -1) = -1", "nanvl(f32, 0) = 0",
            "greatest(f64, 0.0) = 0.0", "abs(f64) = 0.0", "f64 IS NOT NULL AND NOT isnan(f64)", "-f64 < 0",
            "f64 = -f64", "CAST(f64 AS float) = f32", "f32 > 3e38", "f64 < -1e300", "f64 > 0 AND f64 < 1e-300",
            "f64 = 5e-324", "f64 + 1 = 1", "f64 - f64 = 0", "isnan(f64 - f64)", "f32 * 2 > f32",
            "f64 NOT BETWEEN 0.0 AND 1e308", "f64 NOT IN (0.0, 1.0)", "f64 IN (CAST('NaN' AS double))",
            "f64 * -1 = f64", "f64 = 0.0 - f64", "-f64 = f64", "f64 = CAST(-0.0 AS double)", "f64 > -0.0",
            "f64 <= -0.0", "-0.0 = f64", "f64 IS DISTINCT FROM 0.0", "f32 = f32 * 1", "f64 > CAST('NaN' AS double)",
            "f64 < CAST('NaN' AS double)", "greatest(f64, CAST('NaN' AS double)) = f64", "f64 IN (0.0, -0.0)"]


def like_filters():
    return ["s LIKE 'a%'", "s LIKE '%a%'", "s LIKE '%'", "s LIKE ''", "s LIKE '_'", "s LIKE '__'",
            "s LIKE 'a\\%b'", "s LIKE 'a\\_b'", "s LIKE 'a_b'", "s LIKE '%\\%'", "s LIKE '%\\%%'",
            "s LIKE 'a\\\\b'", "s LIKE 'a\\b'", "s LIKE '%\\'", "s LIKE 'caf_'", "s LIKE '___'", "s ILIKE 'APPLE'",
            "s ILIKE 'é'", "s ILIKE 'CAFÉ'", "s NOT LIKE '%a%'", "s NOT ILIKE '%A%'", "s LIKE 'a%' ESCAPE '\\'",
            "s LIKE 'a$%' ESCAPE '$'", "s LIKE NULL", "NULL LIKE 'a'", "s LIKE s", "s LIKE ls", "ls LIKE '%e'",
            "ls ILIKE '%E'", "i32 LIKE '1%'", "s LIKE '%%'", "s LIKE '%_%'", "s LIKE 'it''s'",
            "s LIKE '%o%' AND s NOT LIKE '%w%'", "s LIKE '100%'", "s LIKE '100\\%'", "s LIKE '[a]%'",
            "s LIKE '.*'", "lower(s) LIKE 'apple'", "s LIKE '😀%'", "s LIKE '% %'", "s LIKE 'line_break'",
            "s NOT LIKE ''", "s ILIKE '%Ö%'", "s ILIKE 'naÏve'", "ls NOT ILIKE 'z%'", "'abc' LIKE 'a%'",
            "s LIKE 'x\\_y\\_z'", "s LIKE 'x_y_z'", "st.y LIKE '_'", "s ILIKE '%\\%%'",
            "regexp_like(s, '^a')", "regexp_like(s, 'A', 'i')", "regexp_like(s, '^.{3}$')", "regexp_like(s, '\\d')",
            "regexp_match(s, 'an')", "regexp_like(s, '(?i)apple')", "regexp_like(s, '[')", "regexp_like(ls, 'e$')",
            "regexp_like(s, NULL)", "regexp_like(s, '^$')", "regexp_like(s, 'a.b')", "regexp_like(s, 'é')",
            "regexp_like(s, '^\\w+$')", "regexp_like(s, 'o', 'x')", "NOT regexp_like(s, 'a')"]


def coercion_filters():
    return ["i32 = '1'", "s = 1", "s = 1.5", "d = 1", "b = 0", "i32 = true", "f64 = '1.5'", "l = 1", "l = ['a']",
            "tags = [1]", "vec = [1, 2]", "i32 IN ('1')", "i32 BETWEEN 1 AND 2.5", "i64 BETWEEN 1.5 AND 2",
            "u8 IN (1, 300)", "i32 + 1.5 > 2", "i32 = 1 + 0.5", "i32 = 2 * 1", "dec = 1.0", "dec = 1e0",
            "f32 = '0.5'", "s = X'61'", "f32 = 1.5", "f64 = 1", "i8 = 5 - 10", "u8 = 3 - 5", "i16 = 40000 - 39990",
            "i32 > -2147483649", "u32 IN (0, 4294967296)", "dec IN (1, 1.5)", "i32 = CAST('1' AS int)",
            "i32 = '1'::int", "d = CAST('2021-01-01' AS timestamp)", "ts = CAST('2021-01-01' AS date)",
            "dec = CAST(1 AS decimal(8,3))", "dec = decimal(10,2) '1.00'", "dec = decimal(8,3) '3.1255'",
            "dec = decimal(5,1) '2.5'", "dec > decimal(38,10) '1'", "dec = '1.5'", "f32 = 0.5e0", "f64 = 1e-1"]


def arith_filters():
    return ["i32 + 1 = 0", "i32 - j = 0", "i32 * j > 10", "i32 / 2 = -1", "i32 % 3 = -1", "i32 / j = 1",
            "i64 / 0 = 1", "i32 % 0 = 1", "i64 / i64 = 1", "i8 + 1 > 0", "i8 * 2 < 0", "i8 - 1 > 0", "-i8 > 0",
            "abs(i8) > 100", "i64 + 1 < 0", "i64 * 2 > 0", "i64 - 1 > 0", "u64 + 1 = 0", "u64 - 1 > 0",
            "u8 + u8 > 200", "u8 - 1 > 0", "u32 * u32 > 0", "i32 + i64 = 0", "i8 + i16 = 0", "f32 + f64 > 0",
            "f64 * 2 > 1e300", "dec + 1 > 2", "dec * 2 = 5", "dec / 2 > 1", "dec - dec = 0", "dec + 0.5 > 2",
            "i32 << 2 = 4", "i64 >> 60 > 0", "i32 << 40 > 0", "i32 / 2.0 = 0.5", "5 / 2 = 2", "-7 / 2 = -3",
            "-7 % 2 = -1", "7 % -2 = 1", "i32 % 2 = 0", "1 / 0 = 1", "s || ls = 'appleapple'", "s || 1 = 'apple1'",
            "i32 || 'x' = '1x'", "s || NULL IS NULL", "(i32 + j) * 2 > 10", "i32 + j IS NULL", "- - i32 = 1",
            "i32 - -1 = 0", "u64 * 2 = 0", "u8 * 20 > 255", "i16 * i16 > 1000000", "i32 * 100000 > 0",
            "u32 + 1 = 0", "i64 % j = 0", "f64 % 2 = 1", "i64 / 3 = 0", "id * 2 + 1 = 21", "id - 200 > -90",
            "id / 10 = 3", "i8 / 0 = 0", "f32 / 0 > 0", "dec / 0 > 0", "-u8 = 0", "-dec > 0", "-f32 = 0",
            "i32 * 2 = i32 + i32", "i64 >> 1 = i64 / 2", "2 * i32 > 1 + j", "u64 + 1 IS NULL",
            "arrow_typeof(u64 + 1) = 'UInt64'", "CAST(u64 + 1 AS string) = '18446744073709551616'",
            "arrow_typeof(u64 + u8) = 'UInt64'", "u64 + u8 < 5", "arrow_typeof(i8 * 2) = 'Int8'", "i8 * i8 = 1",
            "i8 + i8 = -2", "abs(j) = 5", "abs(i16) > 32000"]


def cast_filters():
    return ["CAST(s AS int) = 1", "TRY_CAST(s AS int) = 1", "CAST(i64 AS tinyint) = 0", "TRY_CAST(i64 AS tinyint) IS NULL",
            "CAST(f64 AS bigint) = 0", "TRY_CAST(f64 AS bigint) IS NULL", "CAST(i32 AS double) = 5.0",
            "CAST(s AS date) IS NULL", "CAST('2021-13-01' AS date) = d", "CAST(dec AS int) = 1", "CAST(b AS int) = 1",
            "CAST(i32 AS boolean)", "CAST(ts AS date) = d", "CAST(d AS timestamp) = ts", "CAST(bin AS string) = 'ab'",
            "CAST(s AS binary) = X'6162'", "i32::bigint = 5", "i32::string = '5'", "f64::string = 'NaN'",
            "arrow_cast(i32, 'Int8') = 5", "arrow_cast(f64, 'Float32') = f32", "arrow_cast(i8, 'Utf8') = '-1'",
            "CAST(i8 AS tinyint unsigned) = 1", "CAST(u64 AS bigint) = 0", "CAST(f64 AS float) = 0",
            "CAST(ls AS string) = s", "CAST(dec AS decimal(5,2)) = 1", "CAST(dec AS decimal(3,1)) = 1",
            "CAST(i32 AS varchar) = '5'", "CAST(i32 AS text) = '5'", "CAST(u8 AS smallint) = 255",
            "CAST(i16 AS int unsigned) = 0", "CAST(i32 AS float) = 5", "CAST(s AS double) > 0",
            "TRY_CAST(s AS double) > 0", "CAST(f32 AS decimal(8,3)) = 0.5", "CAST(f64 AS int) = 0",
            "CAST(b AS string) = 'true'", "CAST(d AS string) = '2021-01-01'", "CAST(ts AS string) LIKE '2021%'",
            "CAST(dec AS string) = '1.000'", "CAST(i32 AS decimal(4,1)) = 5", "CAST(u32 AS int) = 0",
            "CAST(d AS bigint) = 0", "CAST(ts AS bigint) = 0", "CAST(i64 AS timestamp) IS NULL",
            "CAST(s AS boolean)", "TRY_CAST(s AS boolean) IS NULL", "CAST('true' AS boolean) AND b",
            "CAST(i32 AS timestamp(3)) IS NULL", "CAST(ts AS datetime(0)) = ts", "CAST(ts AS timestamp(0)) = ts",
            "CAST(NULL AS int) IS NULL", "CAST(i32 AS nope) = 1", "TRY_CAST('x' AS date) IS NULL",
            "CAST(CAST(i32 AS string) AS int) = i32", "arrow_cast(i32, 'Nope') = 1", "CAST(l AS string) IS NULL"]


def in_between_filters():
    return ["i32 IN (1, NULL)", "i32 NOT IN (1, NULL)", "i32 IN (NULL)", "i32 NOT IN (NULL)", "i8 IN (-128, 127)",
            "u64 IN (0, 18446744073709551615)", "s IN ('', 'é', NULL)", "s NOT IN ('', 'apple')",
            "f64 IN (0.0, CAST('NaN' AS double))", "d IN (date '2021-01-01', date '1970-01-01')",
            "ts IN (timestamp '2021-01-01 00:00:00')", "dec IN (1, 2)", "dec IN (decimal(8,3) '2.500')",
            "b IN (true)", "b NOT IN (true)", "i32 IN (j, 0)", "i32 IN (i8, i16)", "i32 + 1 IN (1, 2)",
            "NULL IN (1, 2)", "1 IN (i32, j)", "bin IN (X'00', X'')", "l IN ([1], [])", "CUBE IN (1, 2)",
            "st.x IN (0.5)", "i32 IN (1, 'a')", "s IN (1, 2)", "ls IN ('zebra', 'apple')", "i32 NOT IN (j, 0)",
            "NOT i32 IN (1, 2, 3)", "i32 IN (1, 2, 3) IS NULL", "i32 IN (-2147483648, 2147483648)",
            "i32 BETWEEN -1 AND 1", "i32 BETWEEN 1 AND -1", "i32 NOT BETWEEN -1 AND 1", "i32 BETWEEN j AND 5",
            "i32 BETWEEN NULL AND 5", "i32 NOT BETWEEN NULL AND 5", "f64 BETWEEN 0.0 AND 1e308",
            "f64 NOT BETWEEN -1.0 AND 1.0", "s BETWEEN 'a' AND 'c'", "d BETWEEN date '2000-01-01' AND date '2021-12-31'",
            "ts BETWEEN date '2021-01-01' AND date '2021-01-02'", "dec BETWEEN 0 AND 3",
            "u64 BETWEEN 1 AND 9223372036854775808", "i8 BETWEEN -128 AND -1", "i64 BETWEEN i32 AND j",
            "i32 BETWEEN 1 AND 2 AND j = 0", "NOT i32 BETWEEN 1 AND 2", "ls NOT BETWEEN '' AND 'b'",
            "i32 BETWEEN 1 AND 2 OR i32 BETWEEN 5 AND 6", "f32 BETWEEN -0.0 AND 0.0", "bin BETWEEN X'00' AND X'61'"]


def function_filters():
    strs = ["lower(s) = 'apple'", "lower(s) = 'é'", "upper(s) = 'CAFÉ'", "upper(ls) = 'ZEBRA'", "lower(ls) = 'ωmega'",
            "length(s) = 3", "length(s) = 0", "length(s) IS NULL", "character_length(ls) > 5", "char_length(s) = 1",
            "length(i32) = 1", "starts_with(s, 'a')", "starts_with(s, '')", "starts_with(s, NULL)",
            "starts_with(ls, 'z')", "starts_with(s, ls)", "ends_with(s, '%')", "ends_with(s, '')",
            "contains(s, '%')", "contains(s, '')", "contains(ls, 'an')", "strpos(s, 'a') = 1", "strpos(s, '語') = 3",
            "strpos(s, '') = 1", "strpos(s, 'z') = 0", "concat(s, ls) = 'applezebra'", "concat(s, NULL) = s",
            "concat(i32, s) = '5apple'", "concat('a', 'b') = 'ab'", "concat(s, '-', ls) = '-'",
            "replace(s, '%', '') = 'ab'", "replace(s, '', 'x') = 'apple'", "replace(s, 'p', ls) = s",
            "split_part(s, ' ', 2) = 'world'", "split_part(s, '_', -1) = 'z'", "split_part(s, 'x', 1) = s",
            "split_part(s, ' ', 0) = ''", "btrim(s) = 'padded'", "btrim(s, 'a') = 'pple'", "ltrim(s) LIKE 'padded%'",
            "ltrim(s, 'a') = 'pple'", "reverse(s) = '語本日'", "repeat(s, 0) = ''", "repeat(s, 2) = 'éé'",
            "repeat(s, -1) = ''", "lpad(s, 2) = 'ap'", "lpad(s, 8, 'xy') = 'xyxapple'", "lpad(s, 4) = '   é'",
            "left(s, 1) = 'a'", "left(s, -2) = 'app'", "right(s, 1) = 'e'", "right(s, -1) = 'pple'",
            "left(s, 0) = ''", "md5(s) = '1f3870be274f6c49b3e31a0c6728957f'", "md5(s) = 'd41d8cd98f00b204e9800998ecf8427e'",
            "md5(ls) IS NULL", "digest(s, 'sha256') = digest('apple', 'sha256')", "digest(s, 'md5') = decode(md5(s), 'hex')",
            "digest(s, 'nope') IS NULL", "encode(bin, 'hex') = ''", "encode(bin, 'base64') = 'YWI='",
            "encode(bin, 'hex') = 'fffe'", "decode('6162', 'hex') = bin", "decode('YWI=', 'base64') = bin",
            "decode('zz', 'hex') = bin", "string_to_array(s, ' ') = ['hello', 'world']",
            "array_length(string_to_array(s, '_')) = 3", "string_to_array(s, '') = ['apple']",
            "string_to_array(s, ',', 'apple') = [NULL]", "octet_length(s) = 2", "octet_length(bin) = 2",
            "contains_tokens(s, 'quick')", "contains_tokens(s, 'Quick')", "contains_tokens(s, 'quick brown')",
            "contains_tokens(ls, 'world')", "contains_tokens(s, 'app')", "contains_tokens(s, 'pie apple')"]
    nums = ["abs(i32) = 5", "abs(i64) = 9223372036854775807", "abs(f64) > 1e300", "abs(dec) = 1", "round(f64) = 1",
            "round(f64, 1) = 0.1", "round(f32) = 2", "round(dec) = 3", "round(i32) = 5", "round(f64, -1) = 10",
            "sqrt(f64) > 2", "isnan(sqrt(f64))", "sqrt(i32) = 2", "power(i32, 2) = 4", "power(f64, 0.5) > 1",
            "power(2, i32) > 100", "power(i64, 3) > 0", "ln(f64) > 0", "ln(0) < 0", "ln(i64) > 6", "log10(u32) = 3",
            "log10(f64) < -299", "signum(i32) = -1", "signum(dec) = 1", "signum(u8) = 0", "isnan(i32)",
            "nanvl(f64, 0) = 0", "nanvl(f32, 1.0) = 1", "greatest(i32, j) = 5", "greatest(i32, NULL) IS NULL",
            "greatest(f64, 1.0) = 1.0", "greatest(s, ls) = 'zebra'", "greatest(i8, i16, i32) > 100",
            "greatest(d, date '2021-01-01') = d", "coalesce(i32, 0) = 0", "coalesce(s, ls, 'none') = 'none'",
            "coalesce(NULL, NULL) IS NULL", "coalesce(i32, 'x') = 'x'", "coalesce(f64, i32) = 0",
            "nullif(i32, 0) IS NULL", "nullif(s, '') IS NULL", "nvl(s, '') = ''", "ifnull(f64, 0) = 0",
            "nvl(i32, j) = 0", "ifnull(b, false)", "nullif(f64, f64) IS NULL"]
    dates = ["date_trunc('month', ts) = timestamp '2021-01-01 00:00:00'", "date_trunc('year', ts) = timestamp '2021-01-01'",
             "date_trunc('hour', ts) = ts", "date_trunc('day', d) = timestamp '2021-01-01'",
             "date_trunc('nope', ts) = ts", "date_part('year', d) = 2021", "date_part('month', ts) = 1",
             "date_part('day', d) = 29", "date_part('dow', d) = 5", "date_part('hour', ts) = 12",
             "date_part('epoch', ts) = 0", "date_part('microsecond', ts) > 0", "date_part('nope', ts) = 1",
             "date_part('year', ts) < 1970", "to_timestamp('2021-01-01 12:34:56.789') = ts", "to_timestamp(s) IS NULL",
             "to_timestamp(i64) > timestamp '1970-01-01 00:16:00'", "to_timestamp('2021-01-01') < ts",
             "to_date('2021-01-01') = d", "to_date(s) = d", "to_date('1969-12-31') = d",
             "to_char(d, '%Y-%m-%d') = '2021-01-01'", "to_char(ts, '%H:%M') = '12:34'", "to_char(ts, '%Y') < '1970'",
             "make_date(2020, 2, 29) = d", "make_date(2021, 2, 29) = d", "make_date(i32, 1, 1) = d", "make_date(j + 2011, 1, 1) = d",
             "to_timestamp(j) < timestamp '1970-01-01 00:00:05'", "to_timestamp(d) = ts", "to_date(ts) = d",
             "date_bin(interval '1 day', ts) = ts", "date_bin(interval '1 hour', ts) < ts",
             "date_bin(interval '1 day', ts, timestamp '2000-01-01 12:00:00') < ts", "now() > ts",
             "current_date > d", "d < current_date()", "ts > now()", "date_part('year', now()) > 2000"]
    lists = ["array_has(l, 1)", "array_has(l, -3)", "array_has(l, NULL)", "array_has(tags, '')", "array_has(tags, 'é')",
             "array_contains(tags, 'a')", "list_has(l, 0)", "array_has(l, i64)", "array_has(l, 'a')",
             "array_has_any(l, [1, 2])", "array_has_any(tags, ['a', 'é'])", "array_has_any(l, [])",
             "array_has_all(l, [1, 2])", "array_has_all(l, [])", "array_has_all(tags, ['a'])",
             "array_length(l) = 0", "array_length(l) IS NULL", "array_length(tags) = 3", "array_length(vec) = 4",
             "cardinality(l) = 0", "cardinality(tags) > 1", "list_length(l) = 1", "array_ndims(l) = 1",
             "array_ndims(vec) = 1", "empty(l)", "empty(tags)", "NOT empty(l)", "array_position(l, 1) = 1",
             "array_position(tags, 'b') = 2", "array_position(l, 99) IS NULL", "array_position(l, 1, 2) = 2",
             "array_element(l, 1) = 1", "array_element(l, -1) = 9", "array_element(l, 0) IS NULL",
             "array_element(tags, 2) = 'b'", "array_max(l) = 9", "array_max(l) IS NULL", "array_min(l) < 0",
             "array_min(vec) = 0", "array_max(tags) = 'c'", "array_distinct(l) = [1, 2]", "array_sort(l) = [1, 2, 3]",
             "array_sort(l, 'DESC') = [3, 2, 1]", "array_sort(l, 'ASC', 'NULLS LAST') = [1, 3, NULL]",
             "array_slice(l, 2, 3) = [2, 3]", "array_slice(l, -1, -1) = [1]", "array_slice(l, 1, 0) = []",
             "array_concat(l, l) = [1, 1]", "array_concat(tags, ['z']) = ['z']", "array_remove(l, 1) = []",
             "array_remove(tags, 'a') = ['b']", "array_intersect(l, [1, 2]) = [1, 2]",
             "array_to_string(l, '-') = '1-2'", "array_to_string(tags, ',') = 'a,b'",
             "array_to_string(l, ',', 'N') = '1,N,3'", "array_to_string(l, ',') = '1,3'",
             "flatten([[1, 2], [3]]) = [1, 2, 3]", "l[1] = 1", "l[2] IS NULL", "l[-1] = 9", "tags[1] = 'a'",
             "vec[1] = 1.0", "vec[4] > 0", "l = []", "l = [1, 2]", "l != [1]", "tags = []", "vec = [0.0, 0.0, 0.0, 0.0]",
             "vec = [1.0, 2.0, 3.0, 4.0]", "l[1] + 1 = 2", "l[i32] = 1", "l > [1]", "l = [1, NULL]", "l = [1.5]",
             "tags < ['b']", "array_has(vec, 1.0)", "l IS NOT NULL AND NOT empty(l) AND l[1] IS NULL"]
    structs = ["st.x > 1", "st.x = 0.5", "st['y'] = 'a'", "get_field(st, 'y') = 'b'", "get_field(st, 'nope') = 1",
               "st IS NOT NULL AND st.x IS NULL", "st.y LIKE '%'", "struct(i32, s) IS NULL",
               "named_struct('a', i32, 'b', s) IS NOT NULL", "get_field(named_struct('a', i32), 'a') = 1",
               "get_field(struct(i32, s), 'c0') = 1", "element_at(m, 'k1') = ['v1']", "element_at(m, 'nope') = []",
               "map_extract(m, 'k2') = ['x']", "array_length(map_keys(m)) = 2", "array_has(map_keys(m), 'k3')",
               "map_keys(m) = ['k1']", "array_element(map_extract(m, 'k1'), 1) = 'v1'", "m['k1'] = ['v1']",
               "ST.x = 0.5", "st.X = 0.5", "st.x + st.x = 1", "`st`.`y` = 'é'", "st['x'] IS NULL",
               "is_valid(s)", "is_valid(st)", "is_valid(l)", "NOT is_valid(f64)", "is_valid(NULL)",
               "arrow_typeof(i8) = 'Int8'", "arrow_typeof(ls) = 'LargeUtf8'", "arrow_typeof(dec) = 'Decimal128(8, 3)'",
               "arrow_typeof(ts) = 'Timestamp(Microsecond, None)'", "arrow_typeof(ts) = 'Timestamp(µs)'",
               "arrow_typeof(d) = 'Date32'", "arrow_typeof(f32) = 'Float32'", "arrow_typeof(u64) = 'UInt64'",
               "arrow_typeof(s) = 'Utf8'", "arrow_typeof(1) = 'Int64'", "arrow_typeof(1.5) = 'Float64'",
               "arrow_typeof(vec) LIKE 'FixedSizeList%'", "arrow_typeof(i32 + i8) = 'Int32'",
               "arrow_typeof(u8 + i8) = 'Int16'", "arrow_typeof(i32 / 2) = 'Int64'", "arrow_typeof(f32 + 1) = 'Float32'"]
    return strs + nums + dates + lists + structs


def misc_filters():
    """Row ids and offsets, identifiers, literal forms, trailing text, syntax errors."""
    return ["_rowid < 40", "_rowid >= 4294967296 AND _rowid < 8589934592", "_rowaddr = 8589934592",
            "_rowaddr = 8589934595", "_rowid = _rowaddr", "_rowaddr % 4294967296 = 0", "_rowaddr > 4294967296 + 38",
            "_rowid IN (0, 4294967297)", "_rowaddr >> 32 = 2", "_rowoffset = 0", "_rowoffset = 50",
            "_rowoffset IN (0, 1, 2)", "_rowoffset = 5 AND id > 0", "_rowoffset < 3", "_rowoffset = 1 OR id = 2",
            "_rowoffset = 200", "NOT _rowoffset = 4", "_rowoffset = -1", "_score > 0", "_rowid = -1",
            "CUBE = 1", "cube = 1", "`CUBE` = 1", "`cube` = 1", "MIXEDCASE = 2", "`mixedcase` = 2",
            "`col with space` = 0", "`col with space` + CUBE = 5", "I8 = 0", "ID = 5", "`id` = 5", "\"id\" = 5",
            "`ID` = 5", "id = 5 -- x", "id = 5; garbage", "id = +5", "id = 0x05", "id = 5e0", "id = 5.0",
            "id = 1_000", "id > -  5", "id = (2 + 3)", "id = 10 / 2", "id = 11 % 6", "id = 2 * 2 + 1", "id = 1 << 2",
            "id = 5 AND TRUE", "TRUE OR id = 1", "id IN (5)", "id = 5 OR FALSE", "false AND true", "NOT TRUE",
            "NOT FALSE", "'a' = 'a'", "'a' < 'b'", "1 < 2", "1 = 1.0", "id = CAST('5' AS bigint)",
            "id = '5'::bigint", "id::string = '5'", "id::double = 5.0", "id = = 5", "(id = 5", "id = 5)",
            "id IN 5", "WHERE id = 5", "SELECT 1", "id = 5 LIMIT 1", "id = 5 ORDER BY id", "id", "i32 + 1",
            "s", "interval '1 day' IS NOT NULL", "id = 5 /* c */", "id = 5 # x", "id BETWEEN 3 AND 1 + 2",
            "id = 5 AND id = 5 AND id = 5 AND id = 5", "id = 9223372036854775807 + 1", "id = -9223372036854775808",
            "id = 99999999999999999999", "id = 5 OR id = 6 OR id = 7 OR id = 8 OR id = 9 OR id = 10",
            "id NOT IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) AND id < 20", "id >= 40 AND id < 80 AND id % 9 = 4",
            "id % 9 = 4", "id = 0", "id = 119", "id = 'x'", "ID IS NULL", "id != id", "`id with space` = 1",
            "id = 5 AND nope = 1", "nope(id) = 1", "id = 5 AND random() >= 0", "id IN (SELECT id)", "id = ANY([1])",
            "id LIKE 5", "id IS TRUE", "b IS 1", "s = 'apple' COLLATE \"C\"", "id = $1", "id = ?", "id = :x",
            "id = @x", "id == 5 AND s == s", "version() IS NOT NULL", "uuid() IS NOT NULL AND id < 3",
            "length(uuid()) = 36", "random() < 0"]


def unresolved_filters():
    """Lance converts literals strictly only outside NOT and IS: under them DataFusion's coercion applies
    (found by TestConformanceLive). Also IN lists with NULL per type."""
    return ["NOT (u32 BETWEEN 4294967296 AND 1)", "NOT (u32 = 4294967296)", "NOT (i32 = 1.5)", "NOT (i32 = '1')",
            "NOT i32 = 1.5", "NOT (i8 BETWEEN -200 AND 1)", "NOT (i8 IN (1, 1000))", "NOT (d = '2021-01-01')",
            "(u32 BETWEEN 4294967296 AND 1) IS FALSE", "NOT (NOT (u32 = 4294967296))", "NOT (i8 > 1000)", "NOT (b = 1)",
            "id > 0 AND NOT (i8 = 1000)", "NOT (i8 = 1000) OR id = 1", "(i8 = 1000) IS NOT TRUE", "(i32 = 1.5) IS NULL",
            "NOT (i8 = 1.0)", "NOT (i8 + 1 = 1000)", "coalesce(i32 = 1.5, false)", "(i32 = 1.5) = true",
            "NOT (i32 IN (1, 2.5))", "NOT (i32 BETWEEN 1 AND 2.5)", "NOT (s = 1)", "NOT (ts > '2021-01-01T06:00:00')",
            "NOT (f64 = 'NaN')", "NOT (dec > 1.5)", "NOT (u64 = -1)", "NOT (u8 < -1)", "NOT (i64 = 1e1)",
            "NOT (f32 = '0.5')", "NOT (d < '2000-01-01')", "NOT (ts = '2021-01-01 00:00:00')", "(i32 = '5') IS TRUE",
            "(s = 5) IS NOT FALSE", "NOT (i32 = 1.5 AND s = 'apple')", "NOT (i32 = 1.5 OR b)", "NOT (bin = 'ab')",
            "d NOT IN (NULL, date '1970-01-01')", "d IN (NULL, date '1970-01-01')", "f64 IN (NULL, 1.0, 1.0)",
            "NOT (f64 IN (NULL, 1.0))", "f64 NOT IN (NULL, 1.0)", "ts NOT IN (NULL, timestamp '2021-01-01 00:00:00')",
            "ts IN (NULL, timestamp '2021-01-01 00:00:00')", "s NOT IN (NULL, 'apple')", "dec NOT IN (NULL, 1)",
            "dec IN (NULL, 1)", "b NOT IN (NULL, true)", "b IN (NULL, false)", "i8 NOT IN (NULL, 1)",
            "NOT (s = 'é' AND f64 IN (NULL, 1.0))", "u32 BETWEEN 4294967296 AND 2", "i8 BETWEEN -200 AND 200",
            "u8 BETWEEN 1.5 AND 3", "i32 BETWEEN '1' AND 3", "u64 BETWEEN -1 AND 5"]


FILTERS = (cmp_filters() + column_filters() + null_filters() + logic_filters() + float_filters() + like_filters()
           + coercion_filters() + arith_filters() + cast_filters() + in_between_filters() + function_filters()
           + misc_filters() + unresolved_filters())


def golden(ds):
    dup = sorted({f for f in FILTERS if FILTERS.count(f) > 1})
    assert not dup, dup
    out = []
    for flt in FILTERS:
        assert "\t" not in flt and "\n" not in flt, flt
        ok, res = run(ds, flt)
        out.append(f"OK\t{flt}\t{res}" if ok else f"ERR\t{flt}\t{res}")
    return out


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--rerun":
        print("\n".join(golden(lance.dataset(sys.argv[2]))))
        return
    out = sys.argv[1]
    url = os.path.join(out, "conform.lance")
    shutil.rmtree(url, ignore_errors=True)
    ds = lance.write_dataset(table(), url, max_rows_per_file=PER_FRAG)
    ds.delete(DELETE)
    ds = lance.dataset(url)
    with open(os.path.join(out, "conform-pylance-14.0.2.tsv"), "w") as w:
        w.write("\n".join(golden(ds)) + "\n")


if __name__ == "__main__":
    main()
