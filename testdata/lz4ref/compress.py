#!/usr/bin/env python3
"""Compress files with the reference LZ4 library's default block mode
(LZ4_compress_default of the system's liblz4, through ctypes: the function
Lance's lz4 crate calls for General(lz4)); for each path on stdin, writes
PATH.lz4 (no size prefix). Exits 3 when no liblz4 is found.
codecs' TestLZ4MatchesReference compares our blocks with these.

(python-lz4's lz4.block.compress is not this reference: its default mode
gives other blocks for some inputs.)"""
import ctypes
import ctypes.util
import sys

name = ctypes.util.find_library("lz4")
if not name:
    sys.exit(3)
lib = ctypes.CDLL(name)
lib.LZ4_compress_default.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
lib.LZ4_compress_default.restype = ctypes.c_int
lib.LZ4_versionString.restype = ctypes.c_char_p
print(lib.LZ4_versionString().decode(), file=sys.stderr)

for line in sys.stdin:
    path = line.strip()
    if not path:
        continue
    with open(path, "rb") as f:
        data = f.read()
    cap = len(data) + len(data) // 255 + 64
    out = ctypes.create_string_buffer(cap)
    n = lib.LZ4_compress_default(data, out, len(data), cap)
    if n <= 0 and data:
        sys.exit(f"LZ4_compress_default failed on {path}")
    with open(path + ".lz4", "wb") as f:
        f.write(out.raw[:n])
