#!/usr/bin/env python3
"""Write the 2.3 planar benchmark file with pylance: 1,000,000 rows of
int64 (sparse at 50% and 99.9% nulls, dense at 50%) and a sparse utf8 at 50%.

    python gen.py OUT.lance
"""
import sys

import numpy as np
import pyarrow as pa
import lance.file as lf

SPARSE = {"lance-encoding:structural-encoding": "sparse"}
n = 1_000_000
rng = np.random.default_rng(1)


def nullable(values, p):
    return pa.array(values, mask=rng.random(n) < p)


cols = {
    "i64_sparse50": (nullable(rng.integers(0, 1 << 40, n), 0.5), SPARSE),
    "i64_dense50": (nullable(rng.integers(0, 1 << 40, n), 0.5), None),
    "i64_sparse999": (nullable(rng.integers(0, 1 << 40, n), 0.999), SPARSE),
    "str_sparse50": (pa.array([None if i % 2 else "s%d" % (i % 1000) for i in range(n)]), SPARSE),
}
fields = [pa.field(k, v[0].type, metadata=v[1]) for k, v in cols.items()]
table = pa.Table.from_arrays([v[0] for v in cols.values()], schema=pa.schema(fields))
w = lf.LanceFileWriter(sys.argv[1], table.schema, version="2.3")
w.write_batch(table)
w.close()
