#!/usr/bin/env python3
"""Generate real Lance test files with pylance's single-file writer.

For each case and file version this writes <out>/<version>/<case>.lance with
lance.file.LanceFileWriter, reads it back with lance.file.LanceFileReader,
checks every value and the schema against the input, and writes
<case>.expected.json (same conventions as the shared corpus, see
testdata/corpus/README.md) and <case>.layout.txt (pages and encodings, from
LanceFileReader.metadata()).

Usage:
    python gen.py [--out DIR] [--versions 2.0,2.1,2.2,2.3] [--only case1,case2] [--list]
    python gen.py --out DIR --versions 2.0 --all-2.0   (every case as 2.0: the Go tests, into a temp dir)

All data comes from seeded PRNGs (one stream per case and column, seeded from
their names), so values are identical on every run.  Exit code 1 if any case
that is expected to work fails; cases the writer rejects are reported in
<out>/index.json under "rejected".
"""
import argparse
import base64
import hashlib
import json
import os
import random
import struct
import sys
import traceback

import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lancejson  # noqa: E402
import inspect_lance  # noqa: E402

import lance  # noqa: E402
import lance.file as lf  # noqa: E402

VERSIONS = ["2.0", "2.1", "2.2", "2.3"]
# Cases with null structs, which pylance refuses to write as 2.0.
NOT_2_0 = {"nested_struct_list_struct", "null_patterns", "meta_encodings"}
# The 2.0 files stored here (small ones: the test data stays under ~2 MB);
# --all-2.0 writes every case pylance accepts as 2.0 (the Go tests do, into
# a temp dir, for the larger v20_* cases and the 2.1+ cases written as 2.0).
CASES_20 = {"fsl_fsl_i16", "large_list_large_utf8", "list_fsl_f32", "many_pages", "nested_list3",
            "scalars_misc", "zstd_columns", "v20_small_types", "v20_small_nested", "v20_small_compression",
            "v20_nulls"}


# ---------------------------------------------------------------------------
# deterministic randomness
# ---------------------------------------------------------------------------

def rng_for(case, column):
    seed = int.from_bytes(hashlib.sha256(f"{case}/{column}".encode()).digest()[:8], "little")
    return random.Random(seed)


def with_nulls(r, p, v):
    return None if r.random() < p else v


WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore "
         "et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip "
         "lance arrow column page chunk vector encoding").split()


def sentence(r, lo, hi):
    return " ".join(r.choice(WORDS) for _ in range(r.randint(lo, hi)))


def printable(r, lo, hi):
    return "".join(chr(r.randint(33, 126)) for _ in range(r.randint(lo, hi)))


def float_array(typ, bits):
    """Build a float array from IEEE bit patterns (None = null), keeping NaN payloads."""
    width = typ.bit_width // 8
    fmt = {2: "<H", 4: "<I", 8: "<Q"}[width]
    data = b"".join(struct.pack(fmt, 0 if b is None else b) for b in bits)
    validity = None
    if any(b is None for b in bits):
        valid = bytearray((len(bits) + 7) // 8)
        for i, b in enumerate(bits):
            if b is not None:
                valid[i // 8] |= 1 << (i % 8)
        validity = pa.py_buffer(bytes(valid))
    return pa.Array.from_buffers(typ, len(bits), [validity, pa.py_buffer(data)])


def decimal_array(typ, unscaled):
    """Build a decimal128/256 array from unscaled Python ints (None = null)."""
    width = typ.bit_width // 8
    data = b"".join((0 if v is None else v).to_bytes(width, "little", signed=True) for v in unscaled)
    validity = None
    if any(v is None for v in unscaled):
        valid = bytearray((len(unscaled) + 7) // 8)
        for i, v in enumerate(unscaled):
            if v is not None:
                valid[i // 8] |= 1 << (i % 8)
        validity = pa.py_buffer(bytes(valid))
    return pa.Array.from_buffers(typ, len(unscaled), [validity, pa.py_buffer(data)])


def F(name, typ, nullable=True, meta=None):
    return pa.field(name, typ, nullable=nullable, metadata=meta)


# ---------------------------------------------------------------------------
# cases
#
# Each case function returns a dict:
#   description: str
#   columns: [(pa.Field, values)]  values = python list (pa.array(values, type)) or a pa.Array
#   optional: versions, batches (list of row counts per write_batch call),
#             writer (extra LanceFileWriter kwargs)
# ---------------------------------------------------------------------------

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def fsst_low_entropy(c):
    """FSST on short strings with few symbols, and a low/high entropy mix."""
    n = 1800
    r = rng_for(c, "ab")
    ab = [with_nulls(r, 0.05, "".join(r.choice("ab") for _ in range(r.randint(8, 30)))) for _ in range(n)]
    r = rng_for(c, "mixed")
    mixed = []
    for i in range(n):
        if r.random() < 0.5:
            mixed.append("".join(r.choice("xyz") for _ in range(r.randint(6, 18))))
        else:
            mixed.append(with_nulls(r, 0.1, printable(r, 6, 18)))
    r = rng_for(c, "large_digits")
    digits = [with_nulls(r, 0.03, "%04d-%02d" % (r.choice([2020, 2021, 2024]), r.randint(1, 12)))
              for _ in range(n)]
    return dict(
        description="FSST: utf8 over the alphabet {a,b} (few symbols, ~34 KB), a 50/50 mix of low-entropy "
                    "{x,y,z} strings and random printable ASCII, and a large_utf8 of repeated date-like strings",
        columns=[(F("ab", pa.utf8()), ab), (F("mixed", pa.utf8()), mixed),
                 (F("large_digits", pa.large_utf8()), digits)])


@case
def zstd_columns(c):
    """lance-encoding:compression=zstd on int, float and string columns (mini-block general compression)."""
    n = 500
    z = {"lance-encoding:compression": "zstd"}
    r = rng_for(c, "i32")
    i32 = [with_nulls(r, 0.1, r.randint(-5000, 5000) * 1000) for _ in range(n)]
    r = rng_for(c, "i64")
    i64 = [r.randint(-2 ** 63, 2 ** 63 - 1) if i % 7 == 0 else 1_700_000_000_000 + i * 17 for i in range(n)]
    r = rng_for(c, "f32")
    f32 = [None if r.random() < 0.05 else struct.unpack("<I", struct.pack("<f", round(r.uniform(-100, 100), 1)))[0]
           for _ in range(n)]
    r = rng_for(c, "f64")
    f64 = [struct.unpack("<Q", struct.pack("<d", round(r.uniform(0, 1000), 2)))[0] for _ in range(n)]
    r = rng_for(c, "s")
    s = [with_nulls(r, 0.05, sentence(r, 1, 4)) for _ in range(n)]
    r = rng_for(c, "s_l9")
    s9 = [sentence(r, 0, 3) for _ in range(n)]
    return dict(
        description="compression=zstd on int32 (nullable), int64, float32, float64 and utf8; utf8 with "
                    "zstd compression-level 9; and an int64 with compression=lz4",
        columns=[(F("i32_zstd", pa.int32(), meta=z), i32),
                 (F("i64_zstd", pa.int64(), nullable=False, meta=z), i64),
                 (F("f32_zstd", pa.float32(), meta=z), float_array(pa.float32(), f32)),
                 (F("f64_zstd", pa.float64(), meta=z), float_array(pa.float64(), f64)),
                 (F("utf8_zstd", pa.utf8(), meta=z), s),
                 (F("utf8_zstd_l9", pa.utf8(), meta={**z, "lance-encoding:compression-level": "9"}), s9),
                 (F("i64_lz4", pa.int64(), meta={"lance-encoding:compression": "lz4"}), list(reversed(i64)))])


@case
def zstd_large_values(c):
    """Full-zip with per-value zstd: a few values over 32 KiB (the writer then compresses each value)."""
    z = {"lance-encoding:compression": "zstd"}
    r = rng_for(c, "text")
    text = [sentence(r, 5400, 5400), "", None, sentence(r, 5500, 5500), sentence(r, 50, 60), sentence(r, 150, 170)]
    r = rng_for(c, "bin")
    binv = [bytes(r.choice(b"ABCD\x00\xff") for _ in range(33000)), None, b"",
            bytes(r.choice(b"AB\x00") for _ in range(700)), b"\x01\x02", bytes(range(256))]
    r = rng_for(c, "text_plain")
    plain = [with_nulls(r, 0.1, sentence(r, 40, 100)) for _ in range(len(text))]
    return dict(
        description="large values (full-zip): utf8 with compression=zstd holding two values over 32 KiB, an "
                    "empty string, a null and two short values; large_binary with compression=zstd holding "
                    "one 33000 B value, a null, an empty value and short values; utf8 of ~250-600 B "
                    "without compression metadata (6 rows)",
        columns=[(F("text_zstd", pa.utf8(), meta=z), text),
                 (F("bin_zstd", pa.large_binary(), meta=z), binv),
                 (F("text_plain", pa.utf8()), plain)])


@case
def large_chunks(c):
    """2.2 mini-block chunks above 64 KiB via lance-encoding:minichunk-size."""
    n = 5000
    r = rng_for(c, "s128k")
    s = [with_nulls(r, 0.02, printable(r, 8, 20)) for _ in range(n)]
    return dict(
        description="2.2 large mini-block chunks: 5000 random printable ASCII strings (8-20 chars, ~70 KB, "
                    "little for FSST to gain) with lance-encoding:minichunk-size=131072, so the chunks are larger "
                    "than 32 KiB (u32 chunk metadata words)",
        versions=["2.2"],
        columns=[(F("s_chunk128k", pa.utf8(), meta={"lance-encoding:minichunk-size": "131072"}), s)])


@case
def nested_list3(c):
    n = 500
    r = rng_for(c, "l3")

    def lvl(depth):
        if depth == 0:
            return with_nulls(r, 0.1, r.randint(-1000, 1000))
        x = r.random()
        if x < 0.08:
            return None
        if x < 0.16:
            return []
        return [lvl(depth - 1) for _ in range(r.randint(1, 3))]
    vals = [lvl(3) for _ in range(n)]
    vals[0] = None
    vals[1] = []
    vals[2] = [[], None, [[]], [None], [[None, 1]]]
    return dict(description="list<list<list<int32>>> with null and empty lists at every level and null items",
                columns=[(F("l3", pa.list_(pa.list_(pa.list_(pa.int32())))), vals)])


@case
def nested_struct_list_struct(c):
    n = 600
    r = rng_for(c, "s")
    vals = []
    for i in range(n):
        x = r.random()
        if x < 0.07:
            vals.append(None)
            continue
        if x < 0.12:
            vals.append({"a": None})
            continue
        if x < 0.17:
            vals.append({"a": {"b": None}})
            continue
        items = []
        for _ in range(r.randint(0, 4)):
            y = r.random()
            items.append(None if y < 0.1 else {"c": None if y < 0.2 else sentence(r, 1, 2)})
        vals.append({"a": {"b": items}})
    typ = pa.struct([F("a", pa.struct([F("b", pa.list_(pa.struct([F("c", pa.utf8())])))]))])
    return dict(description="struct<a: struct<b: list<struct<c: utf8>>>> with nulls at every level and empty lists",
                columns=[(F("s", typ), vals)])


@case
def list_fsl_f32(c):
    n = 400
    r = rng_for(c, "v")
    vals = []
    for i in range(n):
        x = r.random()
        if x < 0.06:
            vals.append(None)
        elif x < 0.12:
            vals.append([])
        else:
            row = []
            for _ in range(r.randint(1, 4)):
                if r.random() < 0.1:
                    row.append(None)
                else:
                    row.append([None if r.random() < 0.05 else round(r.uniform(-1, 1), 3) for _ in range(3)])
            vals.append(row)
    return dict(description="list<fixed_size_list<float32, 3>> with null/empty lists, null vectors and null items",
                columns=[(F("pts", pa.list_(pa.list_(pa.float32(), 3))), vals)])


@case
def fsl_fsl_i16(c):
    n = 500
    r = rng_for(c, "m")
    vals = []
    for i in range(n):
        if r.random() < 0.08:
            vals.append(None)
            continue
        row = []
        for _ in range(3):
            if r.random() < 0.1:
                row.append(None)
            else:
                row.append([None if r.random() < 0.1 else r.randint(-32768, 32767) for _ in range(2)])
        vals.append(row)
    r = rng_for(c, "m_nonnull")
    vals2 = [[[r.randint(-100, 100) for _ in range(2)] for _ in range(3)] for _ in range(n)]
    t = pa.list_(pa.list_(pa.int16(), 2), 3)
    tn = pa.list_(pa.field("item", pa.list_(pa.field("item", pa.int16(), nullable=False), 2), nullable=False), 3)
    return dict(description="fixed_size_list<fixed_size_list<int16, 2>, 3>: nullable at every level (null rows, "
                            "null inner lists, null items), and a fully non-nullable variant",
                schema_read_back="Lance reads fixed_size_list children back as nullable even when they were "
                                 "written non-nullable",
                columns=[(F("m", t), vals), (F("m_nonnull", tn, nullable=False), vals2)])


@case
def map_utf8_list_i64(c):
    n = 500
    r = rng_for(c, "m")
    vals = []
    for i in range(n):
        x = r.random()
        if x < 0.07:
            vals.append(None)
            continue
        if x < 0.14:
            vals.append([])
            continue
        entries = []
        for k in range(r.randint(1, 3)):
            y = r.random()
            v = None if y < 0.1 else ([] if y < 0.2 else [r.randint(-2 ** 63, 2 ** 63 - 1) if r.random() < 0.2
                                                          else r.randint(-50, 50) for _ in range(r.randint(1, 3))])
            entries.append((f"k{k}_{r.randint(0, 9)}", v))
        vals.append(entries)
    return dict(description="map<utf8, list<int64>> with null maps, empty maps, null and empty list values "
                            "(map needs file version >= 2.2)",
                versions=["2.2"],
                columns=[(F("m", pa.map_(pa.utf8(), pa.list_(pa.int64()))), vals)])


@case
def large_list_large_utf8(c):
    n = 700
    r = rng_for(c, "ll")
    vals = []
    for i in range(n):
        x = r.random()
        if x < 0.07:
            vals.append(None)
        elif x < 0.15:
            vals.append([])
        else:
            vals.append([with_nulls(r, 0.1, r.choice(["", "é", "日本", "🚀x", sentence(r, 1, 2)]))
                         for _ in range(r.randint(1, 4))])
    return dict(description="large_list<large_utf8> with null/empty lists, null/empty strings and multi-byte text",
                columns=[(F("ll", pa.large_list(pa.large_utf8())), vals)])


@case
def null_patterns(c):
    n = 2400
    lead = [None if i < 700 else i * 3 for i in range(n)]
    trail = [None if i >= n - 650 else f"v{i % 97}" for i in range(n)]
    r = rng_for(c, "gap")
    # values only in the first and last third: the middle batches are all null
    gap = [None if 800 <= i < 1600 else round(r.uniform(-1, 1), 2) for i in range(n)]
    single = [None] * n
    single[1234] = -7
    r = rng_for(c, "lists")
    lists = []
    for i in range(n):
        m = i % 1024
        if m >= 1020 or m < 4:
            lists.append([])          # empty lists around every 1024-row boundary
        elif m in (500, 501):
            lists.append(None)
        else:
            lists.append([r.randint(0, 9) for _ in range(r.randint(1, 3))])
    r = rng_for(c, "st")
    st = [None if (i // 250) % 3 == 1 else {"x": with_nulls(r, 0.2, r.randint(0, 100))} for i in range(n)]
    return dict(
        description="null patterns over 6 batches of 400 rows with a 64 KiB write cache (several pages per "
                    "column): 700 leading nulls (int32), 650 trailing nulls (utf8), a float32 whose middle third "
                    "is all null (all-null pages), a single non-null int64, list<int8> with empty lists at every "
                    "1024-row boundary, struct<x:int32> with null runs of 250",
        batches=[400] * 6,
        writer=dict(data_cache_bytes=64 * 1024),
        columns=[(F("leading", pa.int32()), lead), (F("trailing", pa.utf8()), trail),
                 (F("middle_gap", pa.float32()), gap), (F("single", pa.int64()), single),
                 (F("lists", pa.list_(pa.int8())), lists), (F("st", pa.struct([F("x", pa.int32())])), st)])


@case
def many_pages(c):
    n = 1200
    r = rng_for(c, "i64")
    i64 = [with_nulls(r, 0.05, r.randint(-10 ** 12, 10 ** 12)) for _ in range(n)]
    r = rng_for(c, "s")
    s = [with_nulls(r, 0.05, sentence(r, 1, 3)) for _ in range(n)]
    r = rng_for(c, "l")
    lst = [with_nulls(r, 0.05, [r.randint(-100, 100) for _ in range(r.randint(0, 4))]) for _ in range(n)]
    r = rng_for(c, "f")
    f32 = [with_nulls(r, 0.05, round(r.uniform(-10, 10), 2)) for _ in range(n)]
    return dict(
        description="many pages per column: 6 batches of 200 rows written with data_cache_bytes=6 KiB "
                    "(int64, utf8, list<int32>, float32, all nullable)",
        batches=[200] * 6,
        writer=dict(data_cache_bytes=6 * 1024),
        columns=[(F("i64", pa.int64()), i64), (F("s", pa.utf8()), s),
                 (F("l", pa.list_(pa.int32())), lst), (F("f32", pa.float32()), f32)])


@case
def big_list_page(c):
    n = 66000
    r = rng_for(c, "l")
    vals = []
    for i in range(n):
        if i in (10000, 33000, 65000):
            vals.append([j % 2 for j in range(2500)])   # long lists that must span chunks
            continue
        x = r.random()
        if x < 0.08:
            vals.append(None)
        elif x < 0.6:
            vals.append([])
        else:
            vals.append([r.randint(0, 9)])
    # Goal was > 65536 rows in ONE mini-block page.  pylance 14.0.2 splits this column into 2 pages
    # (it keeps a nullable/emptyable list page below 65536 rows; 70000 all-valid [x] lists stay in one
    # page), so this file has 66000 rows in 2 pages per column: see README.
    return dict(description="66000 rows of list<int8> (meant as one >65536-row page; the writer cuts it into 2 "
                            "pages): 0-1 items, null and empty lists, three 2500-item lists that span mini-block "
                            "chunks",
                columns=[(F("l", pa.list_(pa.int8())), vals)])


@case
def scalars_misc(c):
    n = 300
    cols = []
    r = rng_for(c, "dict")
    d = pa.array([with_nulls(r, 0.15, r.choice(["red", "green", "blue", "", "ultraviolet"])) for _ in range(n)]
                 ).dictionary_encode()
    cols.append((F("dict_utf8", pa.dictionary(pa.int32(), pa.utf8())), d))
    r = rng_for(c, "u64")
    u64 = [with_nulls(r, 0.05, r.randint(2 ** 63, 2 ** 64 - 1) if r.random() < 0.5 else r.randint(0, 1000))
           for _ in range(n)]
    u64[0], u64[1], u64[2] = 2 ** 64 - 1, 2 ** 63, 0
    cols.append((F("u64", pa.uint64()), u64))
    r = rng_for(c, "i8")
    i8 = [with_nulls(r, 0.05, r.choice([-128, 127, 0, -1, r.randint(-128, 127)])) for _ in range(n)]
    cols.append((F("i8", pa.int8()), i8))
    r = rng_for(c, "i16")
    i16 = [r.choice([-32768, 32767, 0, r.randint(-32768, 32767)]) for _ in range(n)]
    cols.append((F("i16", pa.int16(), nullable=False), i16))
    r = rng_for(c, "b")
    cols.append((F("b", pa.bool_()), [with_nulls(r, 0.2, r.random() < 0.5) for _ in range(n)]))
    r = rng_for(c, "f16")
    specials = [0x7e00, 0xfe00, 0x7c01, 0x7d55, 0xfc01, 0x7fff, 0xffff, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001,
                0x03ff, 0x7bff]
    f16 = [None if r.random() < 0.1 else (r.choice(specials) if r.random() < 0.4 else r.randint(0, 0xffff))
           for _ in range(n)]
    cols.append((F("f16", pa.float16()), float_array(pa.float16(), f16)))
    r = rng_for(c, "dec")
    dec = [with_nulls(r, 0.05, -r.randint(0, 10 ** 70) if r.random() < 0.7 else r.randint(0, 10 ** 70))
           for _ in range(n)]
    dec[0] = -(10 ** 76 - 1)
    dec[1] = 10 ** 76 - 1
    dec[2] = -1
    dec_arr = decimal_array(pa.decimal256(76, 5), dec)
    cols.append((F("dec256", pa.decimal256(76, 5)), dec_arr))
    r = rng_for(c, "ts")
    ts = [with_nulls(r, 0.05, r.randint(-2 ** 62, 2 ** 62)) for _ in range(n)]
    cols.append((F("ts_ns_tz", pa.timestamp("ns", tz="America/New_York")), pa.array(ts, pa.int64()).view(
        pa.timestamp("ns", tz="America/New_York"))))
    r = rng_for(c, "d64")
    d64 = [with_nulls(r, 0.05, r.randint(-10 ** 6, 10 ** 6) * 86400000) for _ in range(n)]
    cols.append((F("date64", pa.date64()), pa.array(d64, pa.int64()).view(pa.date64())))
    r = rng_for(c, "t32")
    t32 = [with_nulls(r, 0.05, r.randint(0, 86399)) for _ in range(n)]
    cols.append((F("time32_s", pa.time32("s")), pa.array(t32, pa.int32()).view(pa.time32("s"))))
    r = rng_for(c, "dur")
    dur = [with_nulls(r, 0.05, r.randint(-2 ** 63, 2 ** 63 - 1)) for _ in range(n)]
    cols.append((F("dur_ms", pa.duration("ms")), pa.array(dur, pa.int64()).view(pa.duration("ms"))))
    r = rng_for(c, "bin")
    binv = [None if r.random() < 0.1 else (b"" if r.random() < 0.3 else
                                           bytes(r.randint(0, 255) for _ in range(r.randint(1, 12))))
            for _ in range(n)]
    cols.append((F("bin", pa.binary()), binv))
    r = rng_for(c, "fsb")
    fsb = [with_nulls(r, 0.15, bytes(r.randint(0, 255) for _ in range(5))) for _ in range(n)]
    cols.append((F("fsb5", pa.binary(5)), fsb))
    return dict(description="scalar odds and ends: dictionary<int32,utf8> with nulls, uint64 above 2^63, "
                            "int8/int16 extremes, bool with nulls, float16 NaN payloads/inf/subnormals, negative "
                            "decimal256(76,5), timestamp(ns, America/New_York), date64, time32(s), duration(ms), "
                            "binary with empty values, fixed_size_binary(5) with nulls",
                columns=cols)


@case
def meta_encodings(c):
    n = 600
    r = rng_for(c, "runs")
    runs, v = [], 0
    while len(runs) < n:
        v = r.randint(-3, 3) * 1000003
        runs.extend([v] * r.randint(1, 40))
    runs = runs[:n]
    r = rng_for(c, "bss")
    bss = [struct.unpack("<I", struct.pack("<f", 20.0 + r.gauss(0, 1)))[0] for _ in range(n)]
    bss64 = [struct.unpack("<Q", struct.pack("<d", 1e6 + r.gauss(0, 1)))[0] for _ in range(n)]
    r = rng_for(c, "lst")
    lst = [with_nulls(r, 0.05, [with_nulls(r, 0.05, r.randint(0, 10 ** 6)) for _ in range(r.randint(0, 5))])
           for _ in range(n)]
    r = rng_for(c, "st")
    st = [with_nulls(r, 0.05, {"a": with_nulls(r, 0.1, r.randint(-99, 99)),
                               "b": with_nulls(r, 0.1, sentence(r, 1, 2))}) for _ in range(n)]
    r = rng_for(c, "ls")
    ls = [with_nulls(r, 0.05, [with_nulls(r, 0.1, sentence(r, 1, 1)) for _ in range(r.randint(0, 3))])
          for _ in range(n)]
    fz = {"lance-encoding:structural-encoding": "fullzip"}
    return dict(
        description="field metadata encodings: rle-threshold 0.5 on runs of int64; bss=on with zstd on float32 "
                    "and float64; structural-encoding=fullzip on list<int32>, struct<a:int32,b:utf8> and "
                    "list<utf8>",
        columns=[(F("runs_rle", pa.int64(), meta={"lance-encoding:rle-threshold": "0.5"}), runs),
                 (F("f32_bss", pa.float32(), meta={"lance-encoding:bss": "on", "lance-encoding:compression": "zstd"}),
                  float_array(pa.float32(), bss)),
                 (F("f64_bss", pa.float64(), meta={"lance-encoding:bss": "on", "lance-encoding:compression": "zstd"}),
                  float_array(pa.float64(), bss64)),
                 (F("list_fullzip", pa.list_(pa.int32()), meta=fz), lst),
                 (F("struct_fullzip", pa.struct([F("a", pa.int32()), F("b", pa.utf8())]), meta=fz), st),
                 (F("list_utf8_fullzip", pa.list_(pa.utf8()), meta=fz), ls)])


@case
def blob_legacy(c):
    r = rng_for(c, "blob")
    vals = []
    for i in range(12):
        if i == 2:
            vals.append(None)
        elif i == 5:
            vals.append(b"")
        else:
            vals.append(bytes(r.choice(b"blob\x00\xff") for _ in range(r.randint(10, 3000))))
    return dict(description="legacy blob: large_binary with lance-encoding:blob=true (null, empty and 10 B .. "
                            "3 KB values)",
                versions=["2.1", "2.2"],  # 2.3 refuses blob v1 pages
                columns=[(F("blob", pa.large_binary(), meta={"lance-encoding:blob": "true"}), vals)])


# ---------------------------------------------------------------------------
# 2.3 planar cases: sparse structure is chosen per field with
# lance-encoding:structural-encoding=sparse (pylance 14.0.2 also writes it for
# all-null pages); dense is the default.
# ---------------------------------------------------------------------------

SPARSE = {"lance-encoding:structural-encoding": "sparse"}

# 2.3 takes the planar cases and most 2.2 cases (the 2.3 test data stays
# under ~3 MB); blob_legacy cannot be written as 2.3 (no blob v1 pages).
CASES_23 = {"large_list_large_utf8", "nested_list3", "nested_struct_list_struct", "list_fsl_f32",
            "map_utf8_list_i64", "fsl_fsl_i16", "zstd_columns", "meta_encodings", "scalars_misc",
            "planar_sparse_scalars", "planar_sparse_nested", "planar_zipped", "planar_constant_pages",
            "planar_sparse_fsl", "dense_fsl_struct", "many_pages", "null_patterns", "large_chunks", "big_list_page",
            "planar_indexed", "planar_dense_nulls", "planar_list_fsl_struct"}


def _dens(c, col, p, n, f):
    r = rng_for(c, col)
    return [None if r.random() < p else f(r, i) for i in range(n)]


@case
def planar_sparse_scalars(c):
    """Sparse primitive and string columns at 0.1%, 50% and 99.9% nulls."""
    n = 1200
    cols = []
    for tag, p in (("p001", 0.001), ("p50", 0.5), ("p999", 0.999)):
        cols += [
            (F("i32_" + tag, pa.int32(), meta=SPARSE), _dens(c, "i32" + tag, p, n, lambda r, i: r.randint(-99, 99))),
            (F("i64_" + tag, pa.int64(), meta=SPARSE), _dens(c, "i64" + tag, p, n, lambda r, i: i * 1_000_003)),
            (F("f64_" + tag, pa.float64(), meta=SPARSE), _dens(c, "f64" + tag, p, n, lambda r, i: i / 7)),
            (F("bool_" + tag, pa.bool_(), meta=SPARSE), _dens(c, "b" + tag, p, n, lambda r, i: r.random() < 0.3)),
            (F("str_" + tag, pa.utf8(), meta=SPARSE), _dens(c, "s" + tag, p, n, lambda r, i: sentence(r, 0, 3))),
            (F("dict_" + tag, pa.utf8(), meta=SPARSE), _dens(c, "d" + tag, p, n, lambda r, i: r.choice(["red", "green", "blue"]))),
        ]
    cols.append((F("i32_dense_p50", pa.int32()), _dens(c, "dense", 0.5, n, lambda r, i: i)))
    return dict(description="2.3 sparse structure (field metadata) on int32, int64, float64, bool, utf8 and a "
                            "low-cardinality utf8 (dictionary) at 0.1%, 50% and 99.9% nulls; one dense int32 at 50%",
                versions=["2.3"], columns=cols)


@case
def planar_sparse_nested(c):
    """Sparse lists, lists of lists, structs, lists of structs, maps, FSLs, with empty and null lists."""
    n = 800
    def lst(r, i):
        k = r.choice([0, 0, 1, 2, 3, 5])
        return [None if r.random() < 0.1 else r.randint(0, 1000) for _ in range(k)]
    def lstr(r, i):
        return [sentence(r, 0, 2) for _ in range(r.choice([0, 1, 2]))]
    def ll(r, i):
        return [None if r.random() < 0.2 else lst(r, i) for _ in range(r.choice([0, 1, 2, 3]))]
    def st(r, i):
        return {"a": None if r.random() < 0.2 else r.randint(0, 9), "b": None if r.random() < 0.3 else sentence(r, 1, 2)}
    def lst_st(r, i):
        return [None if r.random() < 0.15 else st(r, i) for _ in range(r.choice([0, 1, 2, 4]))]
    def mp(r, i):
        return [(sentence(r, 1, 1), None if r.random() < 0.2 else r.randint(0, 5)) for _ in range(r.choice([0, 1, 3]))]
    def fsl(r, i):
        return [None if r.random() < 0.1 else r.uniform(-1, 1) for _ in range(3)]
    stt = pa.struct([F("a", pa.int32()), F("b", pa.utf8())])
    cols = [
        (F("list_i32", pa.list_(pa.int32()), meta=SPARSE), _dens(c, "l", 0.2, n, lst)),
        (F("list_i32_p999", pa.list_(pa.int32()), meta=SPARSE), _dens(c, "l999", 0.999, n, lst)),
        (F("list_str", pa.list_(pa.utf8()), meta=SPARSE), _dens(c, "ls", 0.3, n, lstr)),
        (F("large_list_i64", pa.large_list(pa.int64()), meta=SPARSE), _dens(c, "ll64", 0.1, n, lst)),
        (F("list_list_i16", pa.list_(pa.list_(pa.int16())), meta=SPARSE), _dens(c, "lli", 0.1, n, ll)),
        (F("struct", stt, meta=SPARSE), _dens(c, "st", 0.25, n, st)),
        (F("list_struct", pa.list_(stt), meta=SPARSE), _dens(c, "lst", 0.1, n, lst_st)),
        (F("map", pa.map_(pa.utf8(), pa.int32()), meta=SPARSE), _dens(c, "map", 0.1, n, mp)),
        (F("fsl_f32", pa.list_(pa.float32(), 3), meta=SPARSE), _dens(c, "fsl", 0.3, n, fsl)),
        (F("list_dense", pa.list_(pa.int32())), _dens(c, "ld", 0.2, n, lst)),
    ]
    return dict(description="2.3 sparse lists (empty, null, nullable items), list<utf8>, large_list<int64>, "
                            "list<list<int16>>, struct<int32,utf8>, list<struct>, map<utf8,int32>, "
                            "fixed_size_list<float32,3> with item nulls; one dense list for contrast",
                versions=["2.3"], columns=cols)


@case
def planar_zipped(c):
    """Wide values: zipped (full-zip) value planes, dense and sparse, fixed and variable width."""
    n = 150
    def big(r, i):
        return "v%d-" % i + sentence(r, 30, 60)
    def vec(r, i):
        return [r.uniform(-1, 1) for _ in range(64)]
    cols = [
        (F("big_str", pa.utf8()), _dens(c, "bs", 0.3, n, big)),
        (F("big_str_sparse", pa.utf8(), meta=SPARSE), _dens(c, "bss", 0.3, n, big)),
        (F("big_bin_sparse_p999", pa.large_binary(), meta=SPARSE), _dens(c, "bb", 0.99, n, lambda r, i: big(r, i).encode())),
        (F("vec", pa.list_(pa.float32(), 64)), _dens(c, "v", 0.2, n, vec)),
        (F("vec_sparse", pa.list_(pa.float32(), 64), meta=SPARSE), _dens(c, "vs", 0.5, n, vec)),
        (F("list_big_str_sparse", pa.list_(pa.utf8()), meta=SPARSE),
         _dens(c, "lbs", 0.2, n, lambda r, i: [big(r, i) for _ in range(r.choice([0, 1, 2]))])),
    ]
    return dict(description="2.3 zipped value planes: utf8 of ~200-400 B (dense and sparse), large_binary at 99% "
                            "nulls (sparse), fixed_size_list<float32,64> (dense and sparse), sparse list<utf8> of "
                            "wide strings",
                versions=["2.3"], columns=cols)


@case
def planar_constant_pages(c):
    """All-null and constant pages, multi-page columns (small write cache)."""
    n = 1500
    r = rng_for(c, "mixed")
    cols = [
        (F("all_null_i32", pa.int32()), [None] * n),
        (F("all_null_str", pa.utf8()), [None] * n),
        (F("all_null_list", pa.list_(pa.int32())), [None] * n),
        (F("const_i64", pa.int64()), [42] * n),
        (F("const_f32_sparse", pa.float32(), meta=SPARSE), [1.5] * n),
        (F("const_with_nulls_sparse", pa.int32(), meta=SPARSE), [None if i % 3 == 0 else 7 for i in range(n)]),
        (F("pages_sparse", pa.int64(), meta=SPARSE), [None if r.random() < 0.6 else r.randint(0, 2 ** 40) for _ in range(n)]),
        (F("pages_dense", pa.int64()), [None if r.random() < 0.1 else r.randint(0, 2 ** 40) for _ in range(n)]),
        (F("pages_list_sparse", pa.list_(pa.int32()), meta=SPARSE),
         [None if r.random() < 0.3 else [r.randint(0, 99) for _ in range(r.randint(0, 4))] for _ in range(n)]),
        (F("null_first_half", pa.int32(), meta=SPARSE), [None if i < n // 2 else i for i in range(n)]),
    ]
    return dict(description="2.3 all-null int32/utf8/list pages, constant int64 and (sparse) float32 pages, a "
                            "sparse constant with nulls, and multi-page sparse/dense int64 and sparse list "
                            "columns (6 batches of 250 rows, 8 KiB write cache); a sparse column null in its "
                            "first half",
                versions=["2.3"], batches=[250] * 6, writer=dict(data_cache_bytes=8 * 1024), columns=cols)


@case
def dense_fsl_struct(c):
    """Fixed-size lists of structs in dense pages (2.2, and 2.3 without the sparse key)."""
    n = 400
    stt = pa.struct([F("a", pa.int32()), F("b", pa.utf8())])
    sx = pa.struct([F("x", pa.int64())])
    def st(r, i):
        return {"a": None if r.random() < 0.2 else r.randint(-50, 50), "b": None if r.random() < 0.25 else sentence(r, 0, 2)}
    def pair(r, f, p=0.2):
        return [None if r.random() < p else f(r) for _ in range(2)]
    cols = [
        (F("fsl_struct", pa.list_(stt, 2)), _dens(c, "fs", 0.3, n, lambda r, i: pair(r, lambda r: st(r, i)))),
        (F("fsl_struct_nonnull", pa.list_(pa.field("item", sx, nullable=False), 2), nullable=False),
         [[{"x": i * 1_000_003}, {"x": i % 7}] for i in range(n)]),
        (F("fsl_struct_p001", pa.list_(sx, 2)),
         _dens(c, "f001", 0.001, n, lambda r, i: [{"x": None if r.random() < 0.3 else r.randint(0, 2 ** 40)} for _ in range(2)])),
        (F("fsl_struct_all_null", pa.list_(sx, 2)), [None] * n),
        (F("fsl3_struct", pa.list_(sx, 3)),
         _dens(c, "f3", 0.2, n, lambda r, i: [None if r.random() < 0.2 else {"x": None if r.random() < 0.2 else -i} for _ in range(3)])),
        (F("fsl_struct_const", pa.list_(sx, 2)), [[{"x": 7}, {"x": 7}]] * n),
        (F("struct_fsl_struct", pa.struct([F("v", pa.list_(sx, 2))])),
         _dens(c, "sfs", 0.2, n, lambda r, i: {"v": None if r.random() < 0.2 else pair(r, lambda r: {"x": r.randint(-9, 9)})})),
        (F("fsl_struct_fsl_f32", pa.list_(pa.struct([F("v", pa.list_(pa.float32(), 3))]), 2)),
         _dens(c, "fsf", 0.2, n, lambda r, i: pair(r, lambda r: {"v": None if r.random() < 0.2 else
                                                                 [None if r.random() < 0.1 else r.uniform(-1, 1) for _ in range(3)]}))),
        (F("fsl_struct_dict", pa.list_(pa.struct([F("s", pa.utf8()), F("b", pa.bool_())]), 2)),
         _dens(c, "fsd", 0.1, n, lambda r, i: pair(r, lambda r: {"s": r.choice(["red", "green", "blue", None]),
                                                                 "b": None if r.random() < 0.2 else r.random() < 0.5}))),
        (F("fsl_struct_wide", pa.list_(pa.struct([F("s", pa.utf8())]), 2)),
         _dens(c, "fw", 0.5, n, lambda r, i: [{"s": "w%d-" % i + sentence(r, 30, 50)}, None if r.random() < 0.3 else {"s": None}])),
    ]
    return dict(description="dense fixed_size_list<struct> pages (pylance 14.0.2 writes them from 2.2 on: the list as "
                            "an item layer whose levels repeat per child, the page counted in items): nulls at the "
                            "list, struct and child level, int32/utf8/int64/bool/dictionary strings/fixed_size_list<float32> "
                            "children, dimensions 2 and 3, non-nullable, 0.1% null, all-null and constant lists, one below a struct, wide "
                            "strings (full-zip); pylance 14.0.2 reads each column back alone (its file reader "
                            "miscounts such columns' rows when reading several together); 4 batches, 8 KiB write cache (multi-page columns)",
                versions=["2.2"], batches=[100] * 4, copy_batches=True, writer=dict(data_cache_bytes=8 * 1024),
                verify_apart=True, columns=cols)


@case
def planar_sparse_fsl(c):
    """Sparse fixed-size-list layers: fixed_size_list of structs (pylance 14.0.2 writes a
    fixed_size_list structural layer for them; FSLs of primitives fold into the value codec)."""
    n = 400
    def st(r, i):
        return {"a": None if r.random() < 0.2 else r.randint(-50, 50), "b": None if r.random() < 0.25 else sentence(r, 0, 2)}
    one = [None] * n  # 99.9% null: a single valid row
    one[n * 5 // 8] = [{"x": 5}, None, {"x": 2 ** 33}, {"x": None}]
    def fsl_st(r, i):
        return [None if r.random() < 0.2 else st(r, i) for _ in range(2)]
    def x(r, i):
        return {"x": None if r.random() < 0.3 else r.randint(0, 2 ** 40)}
    def fsl_sl(r, i):
        return [None if r.random() < 0.2 else {"l": None if r.random() < 0.2 else
                                              [None if r.random() < 0.1 else r.randint(0, 99) for _ in range(r.choice([0, 1, 2, 4]))]}
                for _ in range(2)]
    stt = pa.struct([F("a", pa.int32()), F("b", pa.utf8())])
    sx = pa.struct([F("x", pa.int64())])
    sl = pa.struct([F("l", pa.list_(pa.int32()))])
    cols = [
        (F("fsl_struct", pa.list_(stt, 2), meta=SPARSE), _dens(c, "fs", 0.3, n, fsl_st)),
        (F("fsl_struct_p001", pa.list_(sx, 3), meta=SPARSE), _dens(c, "f001", 0.001, n, lambda r, i: [x(r, i) for _ in range(3)])),
        (F("fsl_struct_p999", pa.list_(sx, 4), meta=SPARSE), one),
        (F("fsl_struct_nonnull", pa.list_(pa.field("item", sx, nullable=False), 2), nullable=False, meta=SPARSE),
         [[{"x": i}, {"x": i % 7}] for i in range(n)]),
        (F("fsl_struct_all_null", pa.list_(sx, 2), meta=SPARSE), [None] * n),
        (F("fsl_struct_list", pa.list_(sl, 2), meta=SPARSE), _dens(c, "fsl", 0.25, n, fsl_sl)),
        (F("fsl_struct_wide", pa.list_(pa.struct([F("s", pa.utf8())]), 2), meta=SPARSE),
         _dens(c, "fw", 0.9, n, lambda r, i: [{"s": "w%d-" % i + sentence(r, 30, 50)}, None if r.random() < 0.3 else {"s": None}])),
        (F("fsl_struct_const", pa.list_(sx, 2), meta=SPARSE), [[{"x": 7}, {"x": 7}]] * n),
        (F("struct_fsl_f32", pa.struct([F("v", pa.list_(pa.float32(), 3))]), meta=SPARSE),
         _dens(c, "sf", 0.2, n, lambda r, i: {"v": None if r.random() < 0.2 else
                                              [None if r.random() < 0.1 else r.uniform(-1, 1) for _ in range(3)]})),
        (F("list_fsl_i32", pa.list_(pa.list_(pa.int32(), 2)), meta=SPARSE),
         _dens(c, "lf", 0.2, n, lambda r, i: [None if r.random() < 0.2 else [r.randint(0, 9), None if r.random() < 0.1 else r.randint(0, 9)]
                                              for _ in range(r.choice([0, 1, 3]))])),
    ]
    return dict(description="2.3 sparse fixed_size_list layers: fixed_size_list<struct<int32,utf8>,2> with nulls at "
                            "every level, fixed_size_list<struct<int64>> at 0.1% and 99.9% nulls, "
                            "non-nullable, all-null and constant ones, wide strings (90% null), fixed_size_list<struct<list<int32>>,2> (a list below the "
                            "fixed-size list); struct<fixed_size_list<float32,3>> and list<fixed_size_list<int32,2>>, "
                            "whose fixed-size lists fold into the value codec. pylance 14.0.2 writes "
                            "list<fixed_size_list<struct>> but cannot read it back, and refuses fixed_size_list<list> "
                            "and fixed_size_list<fixed_size_list<struct>>; 4 batches, 8 KiB write cache (multi-page columns)",
                versions=["2.3"], batches=[100] * 4, copy_batches=True, writer=dict(data_cache_bytes=8 * 1024),
                columns=cols)


@case
def planar_list_fsl_struct(c):
    """Fixed-size lists of structs under a list (2.3 only: pylance 14.0.2 panics at 2.2): always
    sparse pages with a list layer above a repeating fixed_size_list layer, nulls at every level."""
    n = 600
    sx = pa.struct([F("x", pa.int64())])
    ab = pa.struct([F("a", pa.int32()), F("b", pa.utf8())])
    def lfs(r, i):
        if r.random() < 0.1:
            return []
        return [None if r.random() < 0.2 else [None if r.random() < 0.25 else {"x": None if r.random() < 0.2 else r.randint(-2 ** 40, 2 ** 40)}
                                                for _ in range(2)] for _ in range(r.choice([1, 2, 3]))]
    def lfs_ab(r, i):
        return [[{"a": r.randint(-9, 9), "b": sentence(r, 0, 2)} for _ in range(3)] for _ in range(r.choice([0, 1, 2]))]
    def s_lfs(r, i):
        return None if r.random() < 0.15 else {"v": lfs(r, i)}
    cols = [
        (F("list_fsl_struct", pa.list_(pa.list_(sx, 2))), _dens(c, "lfs", 0.1, n, lfs)),
        (F("list_fsl_struct_valid", pa.list_(pa.list_(ab, 3))), [lfs_ab(rng_for(c, "ab%d" % i), i) for i in range(n)]),
        (F("large_list_fsl_struct", pa.large_list(pa.list_(sx, 2))), _dens(c, "llfs", 0.5, n, lfs)),
        (F("struct_list_fsl_struct", pa.struct([F("v", pa.list_(pa.list_(sx, 2)))])), [s_lfs(rng_for(c, "s%d" % i), i) for i in range(n)]),
    ]
    return dict(description="2.3 list<fixed_size_list<struct<int64>>,2> with nulls at every level and empty lists "
                            "(10% and 50% null rows, large_list too, and inside a nullable struct), and an all-valid "
                            "list<fixed_size_list<struct<int32,utf8>>,3>: sparse pages whose fixed_size_list layer "
                            "repeats below the list layer. pylance 14.0.2 reads these back; with nulls and two or more "
                            "struct children it cannot read its own file (\"Structural sibling fields have incompatible "
                            "validity metadata\"), so none is here; 3 batches",
                versions=["2.3"], batches=[200] * 3, copy_batches=True, columns=cols)


@case
def planar_dense_nulls(c):
    """Dense (default) 2.3 pages at 0.1%, 50% and 99.9% nulls, with empty and null lists."""
    n = 1000
    def lst(r, i):
        return [None if r.random() < 0.1 else r.randint(-500, 500) for _ in range(r.choice([0, 0, 1, 2, 4]))]
    def dens(col, p, f, fix):  # at least one null and one value at every rate
        v = _dens(c, col, p, n, f)
        v[n // 3], v[n // 2] = None, fix
        return v
    cols = []
    for tag, p in (("p001", 0.001), ("p50", 0.5), ("p999", 0.999)):
        cols += [
            (F("i64_" + tag, pa.int64()), dens("i" + tag, p, lambda r, i: r.randint(-2 ** 40, 2 ** 40), -7)),
            (F("str_" + tag, pa.utf8()), dens("s" + tag, p, lambda r, i: sentence(r, 0, 2), "the only one")),
            (F("list_" + tag, pa.list_(pa.int32())), dens("l" + tag, p, lst, [3, None, 4])),
        ]
    cols.append((F("list_str_empty", pa.list_(pa.utf8())),
                 _dens(c, "lse", 0.2, n, lambda r, i: [] if r.random() < 0.4 else [None if r.random() < 0.2 else sentence(r, 1, 1)])))
    return dict(description="2.3 dense (default) int64, utf8 and list<int32> columns at 0.1%, 50% and 99.9% nulls "
                            "(lists empty, null and with null items); list<utf8> with 40% empty lists",
                versions=["2.3"], columns=cols)


@case
def planar_indexed(c):
    """An indexed value plane: pylance 14.0.2 stores a sparse page of wide, repeated strings as u32
    indices per slot into zipped dictionary items once its dictionary exceeds ~64 KiB."""
    n = 100
    r = rng_for(c, "items")
    items = [printable(r, 3000, 3000) for _ in range(34)]  # ~100 KiB of distinct values
    vals = _dens(c, "s", 0.5, n, lambda r, i: r.choice(items))
    return dict(description="2.3 indexed values: sparse utf8, 50% null, 34 distinct random 3000-byte strings "
                            "(indices flat(32), items zipped with per-value zstd)",
                versions=["2.3"], columns=[(F("s", pa.utf8(), meta=SPARSE), vals)])


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# 2.0-only cases (pylance refuses null structs in 2.0); generated at test time
# ---------------------------------------------------------------------------

@case
def v20_types(c):
    return v20_types_of(c, 2500, [500] * 5, 16 * 1024)


@case
def v20_small_types(c):
    return v20_types_of(c, 400, [80] * 5, 2 * 1024)


def v20_types_of(c, n, batches, cache):
    cols = []
    ints = [("i8", pa.int8(), 7), ("i16", pa.int16(), 15), ("i32", pa.int32(), 31), ("i64", pa.int64(), 63),
            ("u8", pa.uint8(), 8), ("u16", pa.uint16(), 16), ("u32", pa.uint32(), 32), ("u64", pa.uint64(), 64)]
    for name, typ, bits in ints:
        r = rng_for(c, name)
        lo = -(2 ** bits) if bits in (7, 15, 31, 63) else 0
        hi = 2 ** bits - 1
        cols.append((F(name, typ), [with_nulls(r, 0.1, r.randint(lo, hi)) for _ in range(n)]))
    r = rng_for(c, "f32")
    cols.append((F("f32", pa.float32()), [with_nulls(r, 0.1, r.uniform(-1e6, 1e6)) for _ in range(n)]))
    r = rng_for(c, "f64")
    cols.append((F("f64", pa.float64(), nullable=False), [r.uniform(-1e9, 1e9) for _ in range(n)]))
    r = rng_for(c, "b")
    cols.append((F("b", pa.bool_()), [with_nulls(r, 0.2, r.random() < 0.5) for _ in range(n)]))
    r = rng_for(c, "s")
    cols.append((F("s", pa.utf8()), [with_nulls(r, 0.1, sentence(r, 0, 6)) for _ in range(n)]))
    r = rng_for(c, "ls")
    cols.append((F("ls", pa.large_utf8()), [with_nulls(r, 0.1, printable(r, 0, 40)) for _ in range(n)]))
    r = rng_for(c, "bin")
    cols.append((F("bin", pa.binary()), [with_nulls(r, 0.1, r.randbytes(r.randint(0, 20))) for _ in range(n)]))
    r = rng_for(c, "lbin")
    cols.append((F("lbin", pa.large_binary()), [with_nulls(r, 0.1, r.randbytes(r.randint(0, 9))) for _ in range(n)]))
    r = rng_for(c, "fsb")
    cols.append((F("fsb", pa.binary(5)), [with_nulls(r, 0.1, r.randbytes(5)) for _ in range(n)]))
    r = rng_for(c, "dec")
    cols.append((F("dec", pa.decimal128(20, 4)), pa.array(
        [with_nulls(r, 0.1, __import__("decimal").Decimal(r.randint(-10 ** 15, 10 ** 15)).scaleb(-4))
         for _ in range(n)], pa.decimal128(20, 4))))
    r = rng_for(c, "d32")
    cols.append((F("d32", pa.date32()), [with_nulls(r, 0.1, r.randint(0, 40000)) for _ in range(n)]))
    r = rng_for(c, "ts")
    cols.append((F("ts", pa.timestamp("us", tz="UTC")), [with_nulls(r, 0.1, r.randint(0, 2 ** 50)) for _ in range(n)]))
    r = rng_for(c, "t64")
    cols.append((F("t64", pa.time64("ns")), [with_nulls(r, 0.1, r.randint(0, 86399 * 10 ** 9)) for _ in range(n)]))
    r = rng_for(c, "dur")
    cols.append((F("dur", pa.duration("ms")), [with_nulls(r, 0.1, r.randint(-2 ** 40, 2 ** 40)) for _ in range(n)]))
    r = rng_for(c, "vec")
    cols.append((F("vec", pa.list_(pa.float32(), 3)),
                 [with_nulls(r, 0.1, [with_nulls(r, 0.1, r.uniform(-1, 1)) for _ in range(3)]) for _ in range(n)]))
    r = rng_for(c, "cat")
    cols.append((F("cat", pa.utf8()), [with_nulls(r, 0.1, r.choice(["a", "bb", "ccc", ""])) for _ in range(n)]))
    r = rng_for(c, "dict")
    cols.append((F("dict", pa.dictionary(pa.int16(), pa.utf8())), pa.array(
        [with_nulls(r, 0.1, r.choice(["x", "yy", "zzz"])) for _ in range(n)]).dictionary_encode().cast(
        pa.dictionary(pa.int16(), pa.utf8()))))
    return dict(description=f"2.0: every scalar type pylance accepts, nullable, {n} rows in "
                            f"{len(batches)} batches with small pages",
                versions=["2.0"], batches=batches, writer=dict(data_cache_bytes=cache),
                columns=cols)


@case
def v20_nested(c):
    return v20_nested_of(c, 1800, [300] * 6, 8 * 1024)


@case
def v20_small_nested(c):
    return v20_nested_of(c, 360, [60] * 6, 1024)


def v20_nested_of(c, n, batches, cache):
    r = rng_for(c, "l")
    li = [with_nulls(r, 0.1, [with_nulls(r, 0.1, r.randint(-99, 99)) for _ in range(r.randint(0, 5))])
          for _ in range(n)]
    r = rng_for(c, "ll")
    ll = [with_nulls(r, 0.1, [with_nulls(r, 0.1, [sentence(r, 0, 2) for _ in range(r.randint(0, 3))])
                              for _ in range(r.randint(0, 3))]) for _ in range(n)]
    r = rng_for(c, "lst")
    lst = [with_nulls(r, 0.1, [{"x": with_nulls(r, 0.2, r.randint(0, 9)), "y": with_nulls(r, 0.2, sentence(r, 1, 2))}
                               for _ in range(r.randint(0, 4))]) for _ in range(n)]
    r = rng_for(c, "st")
    # (a list or a struct inside this struct makes pylance 14.0.2 panic (arrow-data "end <= self.len()")
    # reading its own 2.0 file written with small pages)
    st = [{"a": with_nulls(r, 0.2, r.random()), "k": with_nulls(r, 0.3, r.randint(0, 10 ** 6))} for _ in range(n)]
    r = rng_for(c, "lfsl")
    lfsl = [with_nulls(r, 0.1, [[r.randint(-5, 5) for _ in range(2)] for _ in range(r.randint(0, 3))])
            for _ in range(n)]
    r = rng_for(c, "big")
    big = [with_nulls(r, 0.05, [r.randint(0, 3) for _ in range(r.randint(0, 40))]) for _ in range(n)]
    r = rng_for(c, "pk")
    pk = [{"p": r.randint(0, 1000), "q": r.uniform(0, 1)} for _ in range(n)]
    st_t = pa.struct([F("a", pa.float64()), F("k", pa.int64())])
    return dict(description="2.0: list<int32>, list<list<utf8>>, list<struct<x,y>>, struct<a, k>, "
                            "list<fixed_size_list<int16,2>>, long lists, a packed struct; "
                            f"nulls everywhere 2.0 can store them, {n} rows in {len(batches)} batches, small pages",
                versions=["2.0"], batches=batches, writer=dict(data_cache_bytes=cache),
                columns=[(F("li", pa.list_(pa.int32())), li), (F("ll", pa.list_(pa.list_(pa.utf8()))), ll),
                         (F("lst", pa.list_(pa.struct([F("x", pa.int32()), F("y", pa.utf8())]))), lst),
                         (F("st", st_t, nullable=False), pa.array(st, st_t)),
                         (F("lfsl", pa.list_(pa.list_(pa.int16(), 2))), lfsl),
                         (F("big", pa.large_list(pa.int8())), big),
                         (F("pk", pa.struct([F("p", pa.int32()), F("q", pa.float64())]), nullable=False,
                            meta={"lance-encoding:packed": "true"}), pk)])


@case
def v20_compression(c):
    return v20_compression_of(c, 3000, [1000] * 3, 300)


@case
def v20_small_compression(c):
    return v20_compression_of(c, 450, [150] * 3, 40)


def v20_compression_of(c, n, batches, blob_max):
    cols = []
    for scheme in ("zstd", "lz4", "fsst", "none"):
        r = rng_for(c, scheme)
        cols.append((F("s_" + scheme, pa.utf8(), meta={"lance-encoding:compression": scheme}),
                     [with_nulls(r, 0.1, sentence(r, 0, 8)) for _ in range(n)]))
    for scheme in ("zstd", "lz4"):
        r = rng_for(c, "i" + scheme)
        cols.append((F("i_" + scheme, pa.int64(), meta={"lance-encoding:compression": scheme}),
                     [with_nulls(r, 0.1, r.randint(0, 1000)) for _ in range(n)]))
    r = rng_for(c, "blob")
    cols.append((F("blob", pa.large_binary(), meta={"lance-encoding:blob": "true"}),
                 [with_nulls(r, 0.1, r.randbytes(r.randint(0, blob_max))) for _ in range(n)]))
    return dict(description=f"2.0: zstd, lz4, fsst and none compression of strings and int64; a legacy blob "
                            f"column; {n} rows in {len(batches)} batches",
                versions=["2.0"], batches=batches, columns=cols)


@case
def v20_nulls(c):
    n = 1000

    def col(name, p, gen):
        r = rng_for(c, name)
        return [with_nulls(r, p, gen(r)) for _ in range(n)]
    edge = [None if i < 50 or i >= n - 50 else i for i in range(n)]
    one = [1.5 if i == n // 2 else None for i in range(n)]
    alt = [None if i % 2 else f"v{i}" for i in range(n)]
    r = rng_for(c, "lists")
    lists = [None if i % 7 == 0 else [] if i % 7 == 1 else [with_nulls(r, 0.3, r.randint(0, 99))
                                                            for _ in range(r.randint(1, 4))] for i in range(n)]
    st_t = pa.struct([F("x", pa.int32()), F("y", pa.utf8())])
    st = [{"x": None, "y": None if i % 3 else "s"} for i in range(n)]
    cols = [(F("all_null_i32", pa.int32()), [None] * n),
            (F("no_null_i64", pa.int64()), col("no_null_i64", 0, lambda r: r.randint(-10 ** 12, 10 ** 12))),
            (F("edges_i32", pa.int32()), edge),
            (F("one_valid_f64", pa.float64()), one),
            (F("alt_utf8", pa.utf8()), alt),
            (F("all_null_utf8", pa.utf8()), [None] * n),
            (F("most_null_bin", pa.binary()), col("most_null_bin", 0.97, lambda r: r.randbytes(r.randint(0, 6)))),
            (F("b", pa.bool_()), col("b", 0.5, lambda r: r.random() < 0.5)),
            (F("lists", pa.list_(pa.int32())), lists),
            (F("all_null_list", pa.list_(pa.utf8())), [None] * n),
            (F("fsl", pa.list_(pa.float32(), 2)),
             col("fsl", 0.2, lambda r: [with_nulls(r, 0.2, r.uniform(-1, 1)) for _ in range(2)])),
            (F("dict", pa.dictionary(pa.int8(), pa.utf8())), pa.array(
                col("dict", 0.6, lambda r: r.choice(["p", "q"]))).dictionary_encode().cast(
                pa.dictionary(pa.int8(), pa.utf8()))),
            (F("st", st_t, nullable=False), pa.array(st, st_t))]
    return dict(description="2.0: null patterns (all null, none, leading and trailing, one valid value, "
                            "alternating, 97% null; null and empty lists with null items; all-null lists; "
                            "fixed-size lists with null rows and items; a dictionary; a non-null struct of "
                            "null children), 1000 rows in 4 batches with small pages",
                versions=["2.0"], batches=[250] * 4, writer=dict(data_cache_bytes=2 * 1024), columns=cols)


def build_table(spec):
    fields, arrays = [], []
    for field, values in spec["columns"]:
        arr = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values, field.type)
        if arr.type != field.type:
            arr = arr.cast(field.type)
        fields.append(field)
        arrays.append(arr)
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def write_file(path, table, version, spec):
    if os.path.exists(path):
        os.remove(path)
    w = lf.LanceFileWriter(path, table.schema, version=version, **spec.get("writer", {}))
    batches = spec.get("batches") or [table.num_rows]
    start = 0
    for k in batches:
        # pylance 14.0.2 panics on sliced fixed-size lists of structs: such
        # cases write copies (take) of their batches.
        part = table.take(list(range(start, start + k))) if spec.get("copy_batches") else table.slice(start, k)
        w.write_batch(part)
        start += k
    assert start == table.num_rows, "batches do not add up to the row count"
    w.close()


def run_case(name, version, out, all_20=False):
    spec = CASES[name](name)
    allowed = spec.get("versions", VERSIONS)
    if version == "2.3" and name not in CASES_23:
        return None
    if version == "2.0" and (name in NOT_2_0 or not (all_20 or name in CASES_20)):
        return None
    if version not in allowed and not (version == "2.3" and "2.2" in allowed):
        return None  # 2.3 (planar pages) takes every case 2.2 does
    table = build_table(spec)
    d = os.path.join(out, version)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name + ".lance")
    write_file(path, table, version, spec)

    # determinism check: write again to a temp file and compare bytes
    tmp = path + ".again"
    write_file(tmp, table, version, spec)
    deterministic = open(path, "rb").read() == open(tmp, "rb").read()
    os.remove(tmp)

    expected = {
        "case": name,
        "description": spec["description"],
        "file_version": version,
        "footer_version": [0, 3] if version == "2.0" else [int(x) for x in version.split(".")],
        "writer": {"pylance": lance.__version__, "pyarrow": pa.__version__},
        "schema": lancejson.schema_json(table.schema),
        "num_rows": table.num_rows,
        "columns": lancejson.table_json(table),
    }
    # round trip through JSON text so the check sees exactly what is stored
    text = json.dumps(expected, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    expected = json.loads(text)

    import verify  # noqa: E402  (same strict checks CI uses)
    if spec.get("schema_read_back"):
        # Lance returns a different schema than the one written (documented per case);
        # record what it returns, like the shared corpus does for blob columns.
        got = lancejson.schema_json(lf.LanceFileReader(path).read_all().to_table().schema)
        if got != expected["schema"]:
            expected["schema_read_back"] = got
            expected["schema_read_back_note"] = spec["schema_read_back"]
            text = json.dumps(expected, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if spec.get("verify_apart"):  # pylance cannot read these columns together
        for col in expected["columns"]:
            verify.verify(path, expected, columns=[col])
    else:
        verify.verify(path, expected)

    with open(os.path.join(d, name + ".expected.json"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(d, name + ".layout.txt"), "w", encoding="utf-8") as f:
        f.write(f"# informational: pages and encodings of {version}/{name}.lance "
                f"(pylance {lance.__version__}, testdata/pylance/inspect_lance.py)\n")
        f.write("\n".join(inspect_lance.layout_lines(path)) + "\n")
    return dict(case=name, version=version, size=os.path.getsize(path),
                sha256=hashlib.sha256(open(path, "rb").read()).hexdigest(), rows=table.num_rows,
                deterministic=deterministic, description=spec["description"])


def merge_index(path, idx, versions):
    """Keep the entries of versions not written in this run (e.g. --versions 2.0
    replaces the 2.0 entries only), ordered by VERSIONS."""
    try:
        with open(path) as f:
            old = json.load(f)
    except FileNotFoundError:
        return idx
    order = {v: i for i, v in enumerate(VERSIONS)}
    for key in ("files", "rejected"):
        kept = [e for e in old.get(key, []) if e["version"] not in versions]
        idx[key] = sorted(kept + idx[key], key=lambda e: order.get(e["version"], len(order)))
    return idx


def merge_cases(path, idx):
    """Replace (or add) the entries of the cases written in this run, keep
    the others, ordered by VERSIONS then as before (new cases last)."""
    with open(path) as f:
        old = json.load(f)
    order = {v: i for i, v in enumerate(VERSIONS)}
    for key in ("files", "rejected"):
        new = {(e["case"], e["version"]): e for e in idx[key]}
        kept = [new.pop((e["case"], e["version"]), e) if (e["case"], e["version"]) in new else e
                for e in old.get(key, [])]
        if key == "rejected":  # a case that now passes leaves the rejected list
            done = {(e["case"], e["version"]) for e in idx["files"]}
            kept = [e for e in kept if (e["case"], e["version"]) not in done]
        idx[key] = sorted(kept + list(new.values()), key=lambda e: order.get(e["version"], len(order)))
    return idx


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--versions", default=",".join(VERSIONS))
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--index", action="store_true",
                    help="with --only: replace those cases' entries in index.json (others are kept)")
    ap.add_argument("--all-2.0", dest="all_20", action="store_true",
                    help="write every case pylance accepts as 2.0, not only the stored ones (CASES_20)")
    a = ap.parse_args()
    if a.list:
        for k in CASES:
            print(k)
        return 0
    names = [x for x in a.only.split(",") if x] or list(CASES)
    files, rejected, failures = [], [], []
    for v in a.versions.split(","):
        for name in names:
            try:
                res = run_case(name, v, a.out, a.all_20)
                if res:
                    files.append(res)
                    print(f"ok   {v}/{name} {res['size']} B{'' if res['deterministic'] else ' (not byte-deterministic)'}")
            except Exception as e:  # noqa: BLE001
                msg = f"{type(e).__name__}: {e}".strip().splitlines()[0][:400]
                print(f"FAIL {v}/{name}: {msg}")
                traceback.print_exc(limit=3)
                failures.append(dict(case=name, version=v, error=msg))
                for ext in (".lance", ".expected.json", ".layout.txt"):
                    p = os.path.join(a.out, v, name + ext)
                    if os.path.exists(p):
                        os.remove(p)
    idx = dict(generator="testdata/pylance/gen.py", pylance=lance.__version__, pyarrow=pa.__version__,
               files=files, rejected=failures)
    if a.only and a.index:
        idx = merge_cases(os.path.join(a.out, "index.json"), idx)
        with open(os.path.join(a.out, "index.json"), "w") as f:
            json.dump(idx, f, indent=1)
            f.write("\n")
    if not a.only:
        idx = merge_index(os.path.join(a.out, "index.json"), idx, a.versions.split(","))
        with open(os.path.join(a.out, "index.json"), "w") as f:
            json.dump(idx, f, indent=1)
            f.write("\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
