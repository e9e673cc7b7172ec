#!/usr/bin/env python3
"""Substrait filters for expr's FromSubstrait test: each pyarrow compute
expression is serialized with Expression.to_substrait against the probe
dataset's schema and run by pylance 14.0.2 as a filter (pylance sends it
to DataFusion as Substrait). Prints NAME<TAB>base64<TAB>[i64 of kept rows]
or NAME<TAB>base64<TAB>ERR message. Usage: $PY gen_substrait.py > substrait-pylance-14.0.2.tsv"""
import base64, lance, pyarrow as pa, pyarrow.compute as pc, re

ds = lance.dataset(__file__.rsplit("/", 1)[0] + "/probe.lance")
# the fields Substrait can describe (pyarrow refuses fixed-size lists, maps)
fields = []
for fl in ds.schema:
    try:
        (pc.field(fl.name).is_valid()).to_substrait(pa.schema([fl]))
        fields.append(fl)
    except Exception:
        pass
schema = pa.schema(fields)
f = pc.field
cases = {
    "gt_i32": f("i") > 3,
    "eq_str": f("s") == "apple",
    "and_or": (f("i") > 1) & ((f("s") == "cherry") | f("b")),
    "not": ~(f("f") < 2.5),
    "is_null": f("s").is_null(),
    "is_valid": f("i").is_valid(),
    "isin_i64": f("i64").isin([10, 30, 70]),
    "isin_str": f("s").isin(["apple", "date_x"]),
    "add": (f("i64") + 1) > 20,
    "sub_mul": (f("i") * 2 - 1) >= 5,
    "struct_field": f(("st", "x")) == 2.0,
    "struct_field_str": f(("st", "y")) == "a",
    "starts_with": pc.starts_with(f("s"), "ch"),
    "ends_with": pc.ends_with(f("s"), "y"),
    "f64_gt": f("f") > 1.0,
    "f32_lit": f(("st", "x")) > pa.scalar(1.5, pa.float32()),
    "between": (f("i") >= 2) & (f("i") <= 4),
    "cast": f("i").cast(pa.int64(), safe=False) == 3,
    "u64": f("u") > pa.scalar(2**63 - 1, pa.uint64()),
    "date": f("d") == pa.scalar(__import__("datetime").date(2021, 1, 1)),
    "ts": f("ts") > pa.scalar(__import__("datetime").datetime(2021, 1, 1), pa.timestamp("us")),
    "bool_col": f("b"),
    "ne": f("i") != 3,
    "is_nan": pc.is_nan(f("f")),
    "neg_lit": f("i") > -1,
}
for name, e in cases.items():
    b64 = base64.b64encode(bytes(e.to_substrait(schema))).decode()
    try:
        rows = ds.to_table(filter=e, columns=["i64"]).column("i64").to_pylist()
        print(f"{name}\t{b64}\t{rows}")
    except Exception as ex:
        msg = re.sub(r"\s+", " ", str(ex).splitlines()[0])[:160]
        print(f"{name}\t{b64}\tERR {msg}")
