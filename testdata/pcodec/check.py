"""Checks pco files written by lancego with the real pco (requirements.txt).

usage: check.py DIR
For each NAME.pco with NAME.raw and NAME.meta ("dtype level"), decompresses
NAME.pco with pcodec and compares bit for bit with NAME.raw, then compresses
the same numbers with pcodec at the same level. Prints one line per case:
NAME OK|MISMATCH ours_bytes pco_bytes
"""
import sys, os, glob
import numpy as np
from pcodec import ChunkConfig
from pcodec.standalone import simple_compress, simple_decompress

DT = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64,
      "u32": np.uint32, "u64": np.uint64, "i16": np.int16, "u16": np.uint16}

for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.pco"))):
    base = path[:-4]
    dtype, level = open(base + ".meta").read().split()
    raw = np.frombuffer(open(base + ".raw", "rb").read(), dtype=DT[dtype])
    ours = open(path, "rb").read()
    try:
        got = simple_decompress(ours)
        ok = got.dtype == raw.dtype and got.tobytes() == raw.tobytes()
    except Exception as e:  # report, do not crash
        ok = False
        print(os.path.basename(base), "ERROR", repr(e), file=sys.stderr)
    theirs = simple_compress(raw, ChunkConfig(compression_level=int(level)))
    print(os.path.basename(base), "OK" if ok else "MISMATCH", len(ours), len(theirs))
