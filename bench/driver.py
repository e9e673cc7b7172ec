"""Benchmark driver for real Lance (pylance) and pyarrow Parquet.

Reads one JSON request {"ops": [...]} on stdin and prints one JSON object
{"results": [...]} on stdout, one result per op, in order. Every time is
measured inside Python with time.perf_counter, so interpreter start-up and
imports are excluded. Used by the Go package github.com/lancego/lancego/bench.
"""
import json
import os
import sys
import time
import urllib.request

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
from lance.file import LanceFileReader, LanceFileWriter


def now():
    return time.perf_counter()


def mark(op):
    """Returns and resets the proxy's request/byte counts (None locally)."""
    url = op.get("mark_url")
    if not url:
        return None
    with urllib.request.urlopen(url) as resp:
        return json.load(resp)


def reader(op, columns=None):
    return LanceFileReader(op["path"], storage_options=op.get("storage_options"), columns=columns)


def timed_writes(table, out, op):
    """Writes table to out with LanceFileWriter warmups + reps times and
    returns the timed runs (the warm-ups untimed: pylance's first writes
    in a process are 2-3x slower than its later ones)."""
    batches = table.to_batches()
    runs = []
    for i in range(op.get("warmups", 0) + op.get("reps", 1)):
        if os.path.exists(out):
            os.remove(out)
        t0 = now()
        w = LanceFileWriter(out, table.schema, version=op.get("version", "2.1"))
        for b in batches:
            w.write_batch(b)
        w.close()
        if i >= op.get("warmups", 0):
            runs.append(now() - t0)
    return runs


def op_write(op):
    """Writes the IPC table warmups + reps times in this process and
    returns the timed runs."""
    table = ipc.open_file(op["ipc"]).read_all()
    runs = timed_writes(table, op["out"], op)
    return {"seconds": runs[-1], "runs": runs, "rows": table.num_rows, "bytes": os.path.getsize(op["out"])}


def op_write_columns(op):
    """Writes each named column of the IPC table alone, warmups + reps
    times per column in this process, and returns each column's timed
    runs and file size."""
    table = ipc.open_file(op["ipc"]).read_all()
    out = op["out"]
    res = {}
    for col in op["columns"]:
        runs = timed_writes(table.select([col]), out, op)
        res[col] = {"runs": runs, "bytes": os.path.getsize(out)}
        os.remove(out)
    return res


def drain(results):
    rows = 0
    for b in results.to_batches():
        rows += b.num_rows
    return rows


def repeat_more(op, i, spent):
    """Whether a timed run follows i runs that took spent seconds: at least
    reps, and more while they total under min_seconds, up to max_reps (the
    bench's Repeat, the same for every engine)."""
    if i < max(1, op.get("reps", 1)):
        return True
    return spent < op.get("min_seconds", 0) and i < op.get("max_reps", 0)


def timed_best(op, run):
    """Runs run() warmups times untimed, then as repeat_more says; returns
    the fastest timed run's seconds and the last run's result."""
    for _ in range(op.get("warmups", 0)):
        run()
    best, spent, i, out = None, 0.0, 0, None
    while repeat_more(op, i, spent):
        dt, out = run()
        best = dt if best is None else min(best, dt)
        spent += dt
        i += 1
    return best, out


def op_scan(op):
    out = {}
    for col in op["columns"]:
        def run():
            r = reader(op, [col])
            mark(op)
            t0 = now()
            rows = drain(r.read_all(batch_size=op.get("batch_size", 8192)))
            dt = now() - t0
            return dt, (rows, mark(op))

        best, (rows, io) = timed_best(op, run)
        out[col] = {"seconds": best, "rows": rows, "io": io}
    return out


def cpu_seconds():
    """CPU time (user + system) of this process, all threads (0 without resource)."""
    try:
        import resource
    except ImportError:
        return 0.0
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def op_take(op):
    r = reader(op, op.get("columns"))
    drain(r.take_rows(op["warmup"]))
    mark(op)
    cpu0 = cpu_seconds()
    times = []
    for idx in op["index_sets"]:
        t0 = now()
        n = drain(r.take_rows(idx))
        times.append(now() - t0)
        if n != len(idx):
            raise RuntimeError("take returned %d rows, want %d" % (n, len(idx)))
    cpu = cpu_seconds() - cpu0
    return {"seconds": times, "io": mark(op), "cpu_seconds": cpu}


def op_open(op):
    times = []
    mark(op)
    for _ in range(op.get("reps", 1)):
        t0 = now()
        r = reader(op)
        r.num_rows()
        times.append(now() - t0)
    return {"seconds": times, "io": mark(op)}


def op_pq_scan(op):
    out = {}
    for col in op["columns"]:
        def run():
            t0 = now()
            pf = pq.ParquetFile(op["path"])
            rows = 0
            for b in pf.iter_batches(batch_size=op.get("batch_size", 8192), columns=[col], use_threads=False):
                rows += b.num_rows
            return now() - t0, rows

        best, rows = timed_best(op, run)
        out[col] = {"seconds": best, "rows": rows}
    return out


def op_pq_take(op):
    pf = pq.ParquetFile(op["path"])
    md = pf.metadata
    starts, s = [], 0
    for i in range(md.num_row_groups):
        starts.append(s)
        s += md.row_group(i).num_rows
    times = []
    for idx in op["index_sets"]:
        t0 = now()
        groups = sorted({bisect(starts, i) for i in idx})
        tbl = pf.read_row_groups(groups, columns=op.get("columns"), use_threads=False)
        base, offs = {}, 0
        for g in groups:
            base[g] = offs
            offs += md.row_group(g).num_rows
        local = [base[bisect(starts, i)] + i - starts[bisect(starts, i)] for i in idx]
        got = tbl.take(pa.array(local, type=pa.int64()))
        times.append(now() - t0)
        if got.num_rows != len(idx):
            raise RuntimeError("parquet take returned wrong row count")
    return {"seconds": times}


def bisect(starts, i):
    lo, hi = 0, len(starts)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if starts[mid] <= i:
            lo = mid
        else:
            hi = mid
    return lo


OPS = {"write": op_write, "write_columns": op_write_columns, "scan": op_scan, "take": op_take, "open": op_open,
       "pq_scan": op_pq_scan, "pq_take": op_pq_take}


def main():
    req = json.load(sys.stdin)
    results = []
    for op in req["ops"]:
        results.append(OPS[op["op"]](op))
        print("driver: done %s" % op["op"], file=sys.stderr, flush=True)
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
