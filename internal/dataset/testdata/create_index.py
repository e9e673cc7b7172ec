#!/usr/bin/env python
"""pylance side of create_index_test.go (issue #37 item 2: scalar indices built by lancego).

  build DIR [stable|big]  3 fragments x 1500 rows of many column types, 40 rows deleted
                        (stable: with stable row ids moved by a compaction; big: 20000 + 10000 rows)
  twin DIR SPEC.json    pylance builds the same indices: [[column, type, name], ...]
  optimize DIR          pylance's optimize_indices() with its defaults
  state DIR             JSON: indices, transaction of the last version, and per filter the
                        answer with indices, the answer of a scan without them, and the plan
  files DIR NAME        JSON: the index's files as tables: for BTREE the (value, id) pairs
                        sorted (Lance leaves ties of equal values in no fixed order), the page
                        lookup and the schemas; for BITMAP the keys and each bitmap's rows
"""
import datetime, json, struct, sys
import numpy as np
import pyarrow as pa
import lance
from lance.file import LanceFileReader

N = 4500
NEG_NAN = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000000))[0]  # sorts first in IEEE total order

def table(n, seed):
    rng = np.random.default_rng(seed)
    i = np.arange(n)
    perm = rng.permutation(n)
    f = (i % 701) / 7.0
    return pa.table({
        "id": pa.array(perm, pa.int64()),
        "i32": pa.array([None if k % 13 == 0 else int((k * 7919) % 1000) - 500 for k in i], pa.int32()),
        "u8": pa.array((i % 200).astype(np.uint8)),
        "f64": pa.array([None if k % 33 == 0 else (NEG_NAN if k % 100 == 0 else float("nan") if k % 50 == 0 else (-0.0 if k % 97 == 0 else f[k])) for k in i], pa.float64()),
        "f32": pa.array(((i % 300) / 3.0).astype(np.float32)),
        "cat": pa.array([None if k % 17 == 0 else ["red", "green", "blue", "amber"][k % 4] for k in i]),
        "s": pa.array([None if k % 29 == 0 else f"s{(k * 31) % 997:04d}" for k in i]),
        "b": pa.array([None if k % 11 == 0 else k % 3 == 0 for k in i], pa.bool_()),
        "dt": pa.array([datetime.date(2020, 1, 1) + datetime.timedelta(days=int(k % 400)) for k in i], pa.date32()),
        "ts": pa.array([datetime.datetime(2021, 5, 1) + datetime.timedelta(minutes=int(k % 1000)) for k in i], pa.timestamp("us")),
        "bin": pa.array([bytes([k % 7, (k * 3) % 5]) for k in i], pa.binary()),
        "tags": pa.array([None if k % 19 == 0 else [] if k % 23 == 0 else
                          [["a", "b", None, "c", "dd"][(k * m) % 5] for m in range(k % 4)] for k in i], pa.list_(pa.string())),
        "doc": pa.array([None if k % 37 == 0 else f"Word{k % 7} fruit{k % 5} item{k} {'Über' if k % 3 == 0 else 'uber'}" for k in i]),
        "k": pa.array([None if x % 41 == 0 else int((x * 3) % 1000) for x in i], pa.int64()),
        "w": pa.array([f"word{x % 50}" for x in i]),
        "nums": pa.array([None if k % 31 == 0 else [int(k % 9), int(k % 9), int(k % 5)] for k in i], pa.list_(pa.int32())),
    })

def build(d, stable=""):
    if stable == "big":  # fragments of several zones (8192 rows each)
        ds = lance.write_dataset(table(30000, 5), d, max_rows_per_file=20000)
        ds.delete("id % 113 = 0 OR (id >= 9000 AND id < 9100)")
        return
    ds = lance.write_dataset(table(N, 5), d, max_rows_per_file=1500, enable_stable_row_ids=bool(stable))
    ds.delete("id % 113 = 0")
    if stable:
        # a compaction moves rows, so row ids and addresses differ
        ds = lance.dataset(d)
        ds.optimize.compact_files(target_rows_per_fragment=3000, materialize_deletions_threshold=0.001)

def optimize(d):
    lance.dataset(d).optimize.optimize_indices()

def twin(d, spec):
    ds = lance.dataset(d)
    for col, typ, name in json.load(open(spec)):
        ds.create_scalar_index(col, typ.upper(), name=name)
        ds = lance.dataset(d)

FILTERS = [
    ("id", ["id = 4242", "id = 1", "id IN (7, 8, 9, 4000)", "id > 4490", "id BETWEEN 100 AND 120", "id < 3 OR id > 4497"]),
    ("i32", ["i32 = -3", "i32 IS NULL", "i32 >= 490", "i32 < -495 AND id < 3000"]),
    ("u8", ["u8 = 199", "u8 < 2"]),
    ("f64", ["f64 > 99", "f64 IS NULL", "f64 = 50.0", "f64 < 0.2", "f64 = 0.0", "f64 < 0", "f64 >= -0.0"]),
    ("f32", ["f32 = 10.0", "f32 > 99.5"]),
    ("cat", ["cat = 'red'", "cat IS NULL", "cat IN ('blue', 'amber')", "cat > 'green'", "cat = 'red' AND id < 100"]),
    ("s", ["s = 's0031'", "s >= 's0990'", "s IS NULL", "s LIKE 's000%'", "starts_with(s, 's09')", "s NOT LIKE 's0%'"]),
    ("k", ["k = 300", "k IN (3, 999, 1002)", "k IS NULL"]),
    ("w", ["w = 'word7'", "w IN ('word1', 'nope')"]),
    ("doc", ["contains(doc, 'fruit3')", "contains(doc, 'Item12')", "contains(doc, 'xyz')", "contains(doc, 'Über')"]),
    ("b", ["b = true", "b IS NULL", "b = false AND id < 50"]),
    ("dt", ["dt = date '2020-02-01'", "dt > date '2021-02-01'"]),
    ("ts", ["ts = timestamp '2021-05-01 00:10:00'", "ts < timestamp '2021-05-01 00:03:00'"]),
    ("tags", ["array_has_any(tags, ['a'])", "array_has_all(tags, ['b', 'c'])", "array_contains(tags, 'dd')",
              "NOT array_has_any(tags, ['a', 'c'])"]),
    # int32 elements: pylance plans with the index only for int32 literals
    ("nums", ["array_has_any(nums, [arrow_cast(3, 'Int32'), arrow_cast(7, 'Int32')])",
              "array_has_all(nums, [arrow_cast(2, 'Int32'), arrow_cast(4, 'Int32')])"]),
]

def state(d):
    ds = lance.dataset(d)
    out = {"version": ds.version, "rows": ds.count_rows()}
    out["indices"] = sorted([{"name": i["name"], "type": i["type"], "fields": i["fields"],
                              "fragment_ids": sorted(i["fragment_ids"])} for i in ds.list_indices()],
                            key=lambda x: x["name"])
    out["describe"] = sorted([[x.name, x.type_url, x.num_rows_indexed] for x in ds.describe_indices()])
    names = {i["fields"][0]: i["name"] for i in ds.list_indices()}
    filters = {}
    for col, fs in FILTERS:
        for f in fs:
            filters[f] = {
                "column": col,
                "index": names.get(col),
                "answer": sorted(ds.to_table(filter=f, columns=["id"])["id"].to_pylist()),
                "scan": sorted(ds.to_table(filter=f, columns=["id"], use_scalar_index=False)["id"].to_pylist()),
                "count": ds.count_rows(f),
                "plan": ds.scanner(filter=f, columns=["id"]).explain_plan(),
            }
    out["filters"] = filters
    txns = ds.get_transactions(1)
    out["txn"] = type(txns[0].operation).__name__ if txns and txns[0] is not None else None
    print(json.dumps(out))

def decode_rows(b):
    """RowAddrTreeMap -> sorted row addresses (roaring decoded by hand: array and bitmap containers)."""
    n = struct.unpack_from("<I", b, 0)[0]
    pos, rows = 4, []
    for _ in range(n):
        frag, size = struct.unpack_from("<II", b, pos)
        pos += 8
        rows += [(frag << 32) | r for r in decode_roaring(b[pos:pos + size])]
        pos += size
    return rows

def decode_roaring(b):
    cookie = struct.unpack_from("<I", b, 0)[0]
    assert cookie == 12346, cookie
    n = struct.unpack_from("<I", b, 4)[0]
    keys = [struct.unpack_from("<HH", b, 8 + 4 * i) for i in range(n)]
    offs = [struct.unpack_from("<I", b, 8 + 4 * n + 4 * i)[0] for i in range(n)]
    out = []
    for (key, card1), off in zip(keys, offs):
        card = card1 + 1
        if card <= 4096:
            out += [(key << 16) | v for v in struct.unpack_from(f"<{card}H", b, off)]
        else:
            words = struct.unpack_from("<1024Q", b, off)
            out += [(key << 16) | (w * 64 + j) for w, x in enumerate(words) for j in range(64) if x >> j & 1]
    return out

def norm(v):
    if isinstance(v, float) and v != v:
        return "NaN:" + struct.pack("<d", v).hex()  # sign and payload matter (a -NaN bound excludes its zone)
    if isinstance(v, float) and v == 0 and str(v).startswith("-"):
        return "-0.0"
    if isinstance(v, (bytes, datetime.date, datetime.datetime)):
        return repr(v)
    return v

def files(d, name):
    ds = lance.dataset(d)
    ix = [i for i in ds.list_indices() if i["name"] == name][0]
    base = f"{d}/_indices/{ix['uuid']}/"
    out = {"type": ix["type"]}
    def read(f):
        r = LanceFileReader(base + f)
        md = r.metadata()
        sch = md.schema
        meta = sorted((k.decode(), v.decode()) for k, v in (sch.metadata or {}).items())
        return r.read_all().to_table(), [str(sch.remove_metadata()), meta], [md.major_version, md.minor_version]
    if ix["type"] == "BTree":
        t, sch, ver = read("page_data.lance")
        pairs = sorted(zip([json.dumps(norm(v)) for v in t["values"].to_pylist()], t["ids"].to_pylist()))
        lk, lsch, lver = read("page_lookup.lance")
        out.update(pairs=pairs, page_data_schema=sch, version=ver, lookup_schema=lsch, lookup_version=lver,
                   lookup={c: [norm(v) for v in lk[c].to_pylist()] for c in lk.column_names},
                   rows=t.num_rows)
    elif ix["type"] == "BloomFilter":
        t, sch, ver = read("bloomfilter.lance")
        r = LanceFileReader(base + "bloomfilter.lance")
        out.update(zones=[{k: (v.hex() if isinstance(v, bytes) else v) for k, v in z.items()} for z in t.to_pylist()],
                   schema=sch, version=ver, nulls=decode_rows(bytes(r.read_global_buffer(1))))
    elif ix["type"] == "NGram":
        t, sch, ver = read("ngram_postings.lance")
        out.update(tokens=t["tokens"].to_pylist(), postings=[b.hex() for b in t["posting_list"].to_pylist()],
                   schema=sch, version=ver)
    elif ix["type"] == "ZoneMap":
        t, sch, ver = read("zonemap.lance")
        r = LanceFileReader(base + "zonemap.lance")
        out.update(zones=[{k: norm(v) for k, v in z.items()} for z in t.to_pylist()], schema=sch, version=ver,
                   nulls=decode_rows(bytes(r.read_global_buffer(1))))
    else:
        t, sch, ver = read("bitmap_page_lookup.lance")
        out.update(keys=[norm(v) for v in t["keys"].to_pylist()], schema=sch, version=ver,
                   bitmaps=[decode_rows(b) for b in t["bitmaps"].to_pylist()])
        if ix["type"] == "LabelList":
            out["null_lists"] = decode_rows(bytes(LanceFileReader(base + "bitmap_page_lookup.lance").read_global_buffer(1)))
    print(json.dumps(out))

if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"build": build, "twin": twin, "state": state, "files": files, "optimize": optimize}[cmd](*args)
