#!/usr/bin/env python3
"""Write 2.3/blob_v2_dataset.lance and 2.3/blob_v2_sparse_dataset.lance: a
blob v2 column in a 2.3 file, with dense and with sparse structure.

pylance's single-file writer does not write blob v2; its dataset writer does
(`lance-encoding:blob=true` on a large_binary field, data_storage_version
"2.3"). This writes a one-fragment dataset in a temporary folder, copies its
data file here and writes the expected values from the input table: a
struct<data: large_binary, uri: utf8> per row, null where the input is null
(every third row), uri null (the blobs are stored in the file).

    python gen_blob_v2.py
"""
import base64
import glob
import json
import os
import shutil
import tempfile

import lance
import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
n = 30
vals = [None if i % 3 == 0 else bytes([i % 256]) * (i * 10) for i in range(n)]


def write(case, meta):
    blob = pa.field("blob", pa.large_binary(), metadata={"lance-encoding:blob": "true", **meta})
    table = pa.Table.from_arrays([pa.array(range(n), pa.int32()), pa.array(vals, pa.large_binary())],
                                 schema=pa.schema([pa.field("id", pa.int32(), nullable=False), blob]))
    with tempfile.TemporaryDirectory() as d:
        lance.write_dataset(table, os.path.join(d, "ds"), data_storage_version="2.3")
        files = glob.glob(os.path.join(d, "ds", "data", "*.lance"))
        assert len(files) == 1, files
        out = os.path.join(HERE, "2.3", case + ".lance")
        shutil.copyfile(files[0], out)
    expected = {
        "case": case,
        "description": "blob v2 (lance-encoding:blob=true, written by the dataset writer%s): 30 rows of "
                       "0-290 B, every third null" % (", sparse structure" if meta else ""),
        "file_version": "2.3",
        "footer_version": [2, 3],
        "writer": {"pylance": lance.__version__, "pyarrow": pa.__version__},
        "num_rows": n,
        "columns": {
            "id": list(range(n)),
            "blob": [None if v is None else {"data": base64.b64encode(v).decode(), "uri": None} for v in vals],
        },
    }
    with open(os.path.join(HERE, "2.3", case + ".expected.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
    print("wrote", out, os.path.getsize(out), "bytes")


write("blob_v2_dataset", {})
write("blob_v2_sparse_dataset", {"lance-encoding:structural-encoding": "sparse"})
