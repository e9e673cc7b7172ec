#!/usr/bin/env python3
"""The system's libzstd (through ctypes) as a reference for codecs' zstd
frames. For each path on stdin: writes PATH.zst, PATH compressed by
ZSTD_compress at level 3 (what Lance's default General(zstd) gets from
libzstd), and, when PATH.ours exists, PATH.out, that frame decompressed by
ZSTD_decompress. Exits 3 when no libzstd is found.
codecs' TestZstdLiteralsFrameReference reads these."""
import ctypes
import ctypes.util
import os
import sys

name = ctypes.util.find_library("zstd")
if not name:
    sys.exit(3)
lib = ctypes.CDLL(name)
lib.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
lib.ZSTD_compressBound.restype = ctypes.c_size_t
lib.ZSTD_compress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
lib.ZSTD_compress.restype = ctypes.c_size_t
lib.ZSTD_decompress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
lib.ZSTD_decompress.restype = ctypes.c_size_t
lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
lib.ZSTD_isError.restype = ctypes.c_uint
lib.ZSTD_getErrorName.argtypes = [ctypes.c_size_t]
lib.ZSTD_getErrorName.restype = ctypes.c_char_p
lib.ZSTD_versionString.restype = ctypes.c_char_p
print(lib.ZSTD_versionString().decode(), file=sys.stderr)


def check(n, what, path):
    if lib.ZSTD_isError(n):
        sys.exit(f"{what} {path}: {lib.ZSTD_getErrorName(n).decode()}")
    return n


for line in sys.stdin:
    path = line.strip()
    if not path:
        continue
    with open(path, "rb") as f:
        data = f.read()
    cap = lib.ZSTD_compressBound(len(data))
    out = ctypes.create_string_buffer(cap)
    n = check(lib.ZSTD_compress(out, cap, data, len(data), 3), "ZSTD_compress", path)
    with open(path + ".zst", "wb") as f:
        f.write(out.raw[:n])
    if os.path.exists(path + ".ours"):
        with open(path + ".ours", "rb") as f:
            frame = f.read()
        dec = ctypes.create_string_buffer(len(data) + 1)
        n = check(lib.ZSTD_decompress(dec, len(data) + 1, frame, len(frame)), "ZSTD_decompress", path + ".ours")
        with open(path + ".out", "wb") as f:
            f.write(dec.raw[:n])
