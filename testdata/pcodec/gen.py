"""Writes pco standalone files with the real pco (PyPI pcodec, pinned in
requirements.txt) for lancego's decoder tests.

usage: gen.py OUTDIR [small]
Each case NAME writes NAME.pco (the compressed file) and NAME.raw (the
numbers as little-endian bytes of their dtype). With "small", only the
cases small enough to commit as goldens are written.
"""
import sys, os
import numpy as np
from pcodec import ChunkConfig, ModeSpec, DeltaSpec
from pcodec.standalone import simple_compress


def cases(small):
    rng = np.random.default_rng(42)
    n = 300 if small else 5000
    walk = np.cumsum(rng.integers(-10, 11, n)) / 100 + 100
    smooth = np.sin(np.arange(n) / 50) * 1000
    noise = rng.standard_normal(n)
    quant = (rng.standard_normal(n).astype(np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)
    repeats = np.tile(rng.standard_normal(37), n // 37 + 1)[:n]
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -1.5, 1e300] * (n // 8), dtype=np.float64)
    dictish = rng.choice(np.array([1.5, -2.25, 1e10, 7.0]), n)
    out = []
    for dt in ("f16", "f32", "f64"):
        npdt = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[dt]
        for name, arr in [("walk", walk), ("smooth", smooth), ("noise", noise), ("quant", quant),
                          ("repeats", repeats), ("specials", specials), ("dict", dictish)]:
            a = arr.astype(npdt)
            out.append((f"{dt}_{name}_auto", a, ChunkConfig()))
        a = walk.astype(npdt)
        out.append((f"{dt}_walk_classic_none", a, ChunkConfig(mode_spec=ModeSpec.classic(), delta_spec=DeltaSpec.no_op())))
        out.append((f"{dt}_walk_consec2", a, ChunkConfig(delta_spec=DeltaSpec.try_consecutive(2))))
        out.append((f"{dt}_repeats_lookback", repeats.astype(npdt), ChunkConfig(delta_spec=DeltaSpec.try_lookback())))
        out.append((f"{dt}_walk_floatmult", a, ChunkConfig(mode_spec=ModeSpec.try_float_mult(0.01))))
        out.append((f"{dt}_quant_floatquant", quant.astype(npdt), ChunkConfig(mode_spec=ModeSpec.try_float_quant(4))))
        out.append((f"{dt}_dict", dictish.astype(npdt), ChunkConfig(mode_spec=ModeSpec.try_dict())))
        out.append((f"{dt}_walk_level0", a, ChunkConfig(compression_level=0)))
        out.append((f"{dt}_walk_level12", a, ChunkConfig(compression_level=12)))
    ints = np.cumsum(rng.integers(-3, 4, n)).astype(np.int64) * 7
    out.append(("i64_intmult", ints, ChunkConfig(mode_spec=ModeSpec.try_int_mult(7))))
    out.append(("i32_consec", ints.astype(np.int32), ChunkConfig(delta_spec=DeltaSpec.try_consecutive(1))))
    out.append(("u16_auto", (ints % 2000).astype(np.uint16), ChunkConfig()))
    out.append(("one_value", np.array([3.25]), ChunkConfig()))
    return out


def main():
    outdir = sys.argv[1]
    small = len(sys.argv) > 2 and sys.argv[2] == "small"
    os.makedirs(outdir, exist_ok=True)
    for name, arr, cfg in cases(small):
        data = simple_compress(arr, cfg)
        with open(os.path.join(outdir, name + ".pco"), "wb") as f:
            f.write(data)
        with open(os.path.join(outdir, name + ".raw"), "wb") as f:
            f.write(arr.tobytes())


if __name__ == "__main__":
    main()
