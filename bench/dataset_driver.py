"""Dataset benchmark driver for real Lance (pylance): `lance bench-datasets`.

    python dataset_driver.py make DIR ROWS ROWS_PER_FRAGMENT   # build the dataset once
    python dataset_driver.py run < request.json                # time operations

The request is {"url": ..., "storage_options": {...} or null, "reps": N,
"ops": [{"op": "open"} | {"op": "scan"} | {"op": "take", "offsets": [...]} |
{"op": "filter", "filter": "..."}]}; the answer {"results": [{"seconds": best,
"rows": n}, ...]}, times measured with time.perf_counter inside Python.
"""
import json
import sys
import time

import pyarrow as pa
import lance


def make(root, rows, per_frag):
    ids = pa.array(range(rows), pa.int64())
    t = pa.table({
        "id": ids,
        "name": pa.array([f"name-{i % 1000}" for i in range(rows)]),
        "score": pa.array([i * 0.5 for i in range(rows)], pa.float64()),
    })
    lance.write_dataset(t, root, data_storage_version="2.1", max_rows_per_file=per_frag, mode="overwrite")
    lance.dataset(root).delete("id % 100 = 7")   # Arrow deletion files in every fragment


def best(fn, reps):
    out, secs = None, float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        secs = min(secs, time.perf_counter() - t0)
    return secs, out


def run(req):
    url, so, reps = req["url"], req.get("storage_options"), req.get("reps", 3)
    ds = lance.dataset(url, storage_options=so)
    res = []
    for op in req["ops"]:
        kind = op["op"]
        if kind == "open":
            secs, d = best(lambda: lance.dataset(url, storage_options=so), reps)
            rows = 0
        elif kind == "scan":
            secs, t = best(lambda: ds.to_table(), reps)
            rows = t.num_rows
        elif kind == "take":
            secs, t = best(lambda: ds.take(op["offsets"]), reps)
            rows = t.num_rows
        elif kind == "filter":
            secs, t = best(lambda: ds.to_table(filter=op["filter"]), reps)
            rows = t.num_rows
        else:
            raise ValueError(kind)
        res.append({"seconds": secs, "rows": rows})
    return {"results": res}


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        json.dump(run(json.load(sys.stdin)), sys.stdout)
