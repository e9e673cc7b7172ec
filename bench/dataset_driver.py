"""Dataset benchmark driver for real Lance (pylance): `lance bench-datasets`.

    python dataset_driver.py make DIR ROWS ROWS_PER_FRAGMENT   # build the dataset once
    python dataset_driver.py run < request.json                # time operations
    python dataset_driver.py append-serve ROWS BATCH           # time appends (one JSON line each)
    python dataset_driver.py index-serve                       # time index builds (one JSON line each)

The request is {"url": ..., "storage_options": {...} or null, "reps": N,
"mark_url": proxy mark URL or null, "ops": [{"op": "open"} | {"op": "scan"} |
{"op": "take", "offsets": [...]} | {"op": "cold_take", "offsets": [...]} |
{"op": "filter", "filter": "..."}]}; the answer {"results": [{"seconds": best,
"rows": n, "io": ..., "open_io": ...}, ...]}, times measured with
time.perf_counter inside Python. With a mark_url (the benchmark's S3 proxy,
bench/proxy.go) "io" is what the proxy counted during the last repetition
({"requests", "bytes"}); a cold_take opens the dataset afresh before each
repetition (not timed; its requests are "open_io") and times the take alone.
"""
import json
import sys
import time
import urllib.request

import numpy
import pyarrow as pa
import lance


CATS = ["red", "green", "blue", "black", "white", "gray", "pink", "teal"]


def make(root, rows, per_frag):
    """id 0..; name "name-{id % 1000}"; score id / 2; cat one of 8 CATS
    (12.5% each) and x uniform in [0, 1), both drawn independently from a
    seeded generator (no correlation with id, so no zone prunes them)."""
    rng = numpy.random.default_rng(34)
    ids = pa.array(range(rows), pa.int64())
    t = pa.table({
        "id": ids,
        "name": pa.array([f"name-{i % 1000}" for i in range(rows)]),
        "score": pa.array([i * 0.5 for i in range(rows)], pa.float64()),
        "cat": pa.array(numpy.array(CATS)[rng.integers(0, len(CATS), rows)].tolist(), pa.string()),
        "x": pa.array(rng.random(rows), pa.float64()),
    })
    lance.write_dataset(t, root, data_storage_version="2.1", max_rows_per_file=per_frag, mode="overwrite")
    lance.dataset(root).delete("id % 100 = 7")   # Arrow deletion files in every fragment


def mark(url):
    """Returns and resets the proxy's counts since its previous mark."""
    if not url:
        return None
    with urllib.request.urlopen(url) as resp:
        return json.load(resp)


def best(fn, reps, mark_url=None, before=None):
    """Best time of reps calls of fn (before(), if given, runs untimed
    ahead of each); the proxy counts of the last call and of its before."""
    out, secs, io, pre_io = None, float("inf"), None, None
    for i in range(reps):
        last = i == reps - 1
        if last:
            mark(mark_url)
        if before is not None:
            before()
            if last:
                pre_io = mark(mark_url)
        t0 = time.perf_counter()
        out = fn()
        secs = min(secs, time.perf_counter() - t0)
        if last:
            io = mark(mark_url)
    return secs, out, io, pre_io


def run(req):
    url, so, reps, mu = req["url"], req.get("storage_options"), req.get("reps", 3), req.get("mark_url")
    ds = lance.dataset(url, storage_options=so)
    res = []
    for op in req["ops"]:
        kind = op["op"]
        pre_io = None
        if kind == "open":
            secs, d, io, _ = best(lambda: lance.dataset(url, storage_options=so), reps, mu)
            rows = 0
        elif kind == "scan":
            secs, t, io, _ = best(lambda: ds.to_table(), reps, mu)
            rows = t.num_rows
        elif kind == "take":
            secs, t, io, _ = best(lambda: ds.take(op["offsets"]), reps, mu)
            rows = t.num_rows
        elif kind == "cold_take":
            fresh = {}

            def reopen():
                fresh["ds"] = lance.dataset(url, storage_options=so)

            secs, t, io, pre_io = best(lambda: fresh["ds"].take(op["offsets"]), reps, mu, reopen)
            rows = t.num_rows
        elif kind == "filter":
            secs, t, io, _ = best(lambda: ds.to_table(filter=op["filter"]), reps, mu)
            rows = t.num_rows
        else:
            raise ValueError(kind)
        res.append({"seconds": secs, "rows": rows, "io": io, "open_io": pre_io})
    return {"results": res}


def append_rows(rows, batch):
    """The rows lancego builds alike: id i, name "name-{i % 5000}", score i * 0.5."""
    out = []
    for off in range(0, rows, batch):
        r = range(off, min(rows, off + batch))
        out.append(pa.record_batch({
            "id": pa.array(r, pa.int64()),
            "name": pa.array([f"name-{i % 5000}" for i in r]),
            "score": pa.array([i * 0.5 for i in r], pa.float64()),
        }))
    return pa.Table.from_batches(out)


def append_serve(rows, batch):
    """Answers {"op": "base", "url"} (write the base dataset: the first
    batch, pylance's defaults) and {"op": "append", "url"} (time
    write_dataset(mode="append") of the whole table: wall and process CPU
    seconds, all threads) one line at a time."""
    tbl = append_rows(rows, batch)
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "base":
            lance.write_dataset(tbl.slice(0, batch), req["url"], mode="overwrite")
            secs = cpu = 0.0
        else:
            t0, c0 = time.perf_counter(), time.process_time()
            lance.write_dataset(tbl, req["url"], mode="append")
            secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        rows_after = lance.dataset(req["url"]).count_rows()
        print(json.dumps({"seconds": secs, "cpu_seconds": cpu, "rows": rows_after}), flush=True)


def index_serve():
    """Answers {"url", "column", "type", "name"} lines: times
    create_scalar_index on the dataset at url (opened untimed) and prints
    {"seconds", "cpu_seconds", "rows"} (rows: the index's rows indexed)."""
    for line in sys.stdin:
        req = json.loads(line)
        ds = lance.dataset(req["url"])
        t0, c0 = time.perf_counter(), time.process_time()
        ds.create_scalar_index(req["column"], req["type"].upper(), name=req["name"])
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        stats = lance.dataset(req["url"]).stats.index_stats(req["name"])
        print(json.dumps({"seconds": secs, "cpu_seconds": cpu, "rows": stats["num_indexed_rows"]}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "index-serve":
        index_serve()
    elif sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "append-serve":
        append_serve(int(sys.argv[2]), int(sys.argv[3]))
    else:
        json.dump(run(json.load(sys.stdin)), sys.stdout)
