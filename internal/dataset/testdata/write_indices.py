#!/usr/bin/env python
"""pylance side of write_indices_test.go (issue #37 item 1).

  build DIR NEW.arrow   dataset of 3x200 rows with BTREE(id), BITMAP(cat), INVERTED(doc),
                        IVF_PQ(vec); NEW.arrow gets 100 more rows (ids 600..699)
  build_reuse DIR NEW.arrow  BTREE(id) then compaction with a deferred index remap (__lance_frag_reuse)
  simple_state DIR      JSON: indices, and per filter [indexed answer, scan answer, plan uses id_idx]
  twin DIR OPS.json     apply the same writes with pylance: [["append", file] | ["delete", f] | ["overwrite", file]]
  state DIR             JSON: indices (list_indices/describe_indices), plans, answers
  rows FILE START N     rows START.. of the same table as an Arrow IPC file
  stale DIR V FILE      commit an append of FILE read at version V (conflict resolution)
"""
import json, sys
import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc
import lance
from lance import LanceOperation

DIM = 16

def table(start, n):
    ids = np.arange(start, start + n)
    rng = np.random.default_rng(start + 7)
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "cat": pa.array([["red", "green", "blue"][i % 3] for i in ids]),
        "doc": pa.array([f"word{i % 7} fruit{i % 5} text" for i in ids]),
        "vec": pa.FixedSizeListArray.from_arrays(pa.array(rng.normal(size=n * DIM).astype(np.float32)), DIM),
    })

def read_ipc(path):
    with pa.memory_map(path) as f:
        return ipc.open_file(f).read_all()

def rows(path, start, n):
    t = table(int(start), int(n))
    with ipc.new_file(path, t.schema) as w:
        w.write_table(t)

def build(d, new):
    ds = lance.write_dataset(table(0, 600), d, max_rows_per_file=200)
    ds.create_scalar_index("id", "BTREE")
    ds.create_scalar_index("cat", "BITMAP")
    ds.create_scalar_index("doc", "INVERTED")
    ds.create_index("vec", "IVF_PQ", num_partitions=2, num_sub_vectors=4)
    t = table(600, 100)
    with ipc.new_file(new, t.schema) as w:
        w.write_table(t)

def build_reuse(d, new):
    """BTREE(id) over 6x50 rows compacted with defer_index_remap: a fragment reuse index."""
    ids = np.arange(300)
    ds = lance.write_dataset(pa.table({"id": pa.array(ids), "v": pa.array(ids * 2)}), d, max_rows_per_file=50)
    ds.create_scalar_index("id", "BTREE")
    ds.optimize.compact_files(target_rows_per_fragment=150, defer_index_remap=True)
    ids = np.arange(300, 320)
    t = pa.table({"id": pa.array(ids), "v": pa.array(ids * 2)})
    with ipc.new_file(new, t.schema) as w:
        w.write_table(t)

def simple_state(d):
    ds = lance.dataset(d)
    out = {"version": ds.version, "rows": ds.count_rows(),
           "indices": sorted([[i["name"], i["uuid"], sorted(i["fragment_ids"])] for i in ds.list_indices()])}
    for f in ["id = 3", "id = 200", "id = 310", "id >= 140 AND id < 160"]:
        out[f] = [sorted(ds.to_table(filter=f)["id"].to_pylist()),
                  sorted(ds.to_table(filter=f, use_scalar_index=False)["id"].to_pylist()),
                  "@id_idx" in ds.scanner(filter=f).explain_plan()]
    print(json.dumps(out))

def twin(d, ops):
    for op in json.load(open(ops)):
        if op[0] == "append":
            lance.write_dataset(read_ipc(op[1]), d, mode="append")
        elif op[0] == "overwrite":
            lance.write_dataset(read_ipc(op[1]), d, mode="overwrite")
        elif op[0] == "delete":
            lance.dataset(d).delete(op[1])

FILTERS = ["id = 650", "id = 5", "id < 12", "id >= 595 AND id < 605", "cat = 'red' AND id > 590", "cat = 'blue'"]
FTS = ["word3", "fruit2 word1"]

def state(d):
    ds = lance.dataset(d)
    out = {"version": ds.version, "rows": ds.count_rows()}
    idx = []
    for i in ds.list_indices():
        idx.append({"name": i["name"], "type": i["type"], "uuid": i["uuid"], "fields": i["fields"],
                    "fragment_ids": sorted(i["fragment_ids"]), "version": i["version"]})
    out["indices"] = sorted(idx, key=lambda x: x["name"])
    out["describe"] = sorted([[x.name, x.type_url, x.num_rows_indexed, len(x.segments) if hasattr(x, "segments") else None] for x in ds.describe_indices()])
    live = ds.to_table(columns=["id", "doc", "vec"])
    ids = live["id"].to_pylist()
    out["ids"] = sorted(ids)
    plans, answers, scans = {}, {}, {}
    for f in FILTERS:
        plans[f] = ds.scanner(filter=f, columns=["id"]).explain_plan()
        answers[f] = sorted(ds.to_table(filter=f, columns=["id"])["id"].to_pylist())
        scans[f] = sorted(ds.to_table(filter=f, columns=["id"], use_scalar_index=False)["id"].to_pylist())
    fts, fts_expect = {}, {}
    docs = dict(zip(ids, live["doc"].to_pylist()))
    has_fts = any(i["type"] == "Inverted" for i in ds.list_indices())
    for q in FTS if has_fts else []:
        t = ds.to_table(full_text_query=q, columns=["id"])
        plans["fts:" + q] = ds.scanner(full_text_query=q, columns=["id"]).explain_plan()
        fts[q] = sorted(zip(t["id"].to_pylist(), [round(s, 4) for s in t["_score"].to_pylist()]))
        words = q.split()
        fts_expect[q] = sorted(i for i, doc in docs.items() if any(w in doc.split() for w in words))
    vecs = dict(zip(ids, live["vec"].to_pylist()))
    nn = {}
    for q in [650, 10, 250]:
        if q not in vecs:
            continue
        nq = {"column": "vec", "q": vecs[q], "k": 5, "nprobes": 2}
        t = ds.to_table(nearest=nq, columns=["id"])
        plans[f"nearest:{q}"] = ds.scanner(nearest=nq, columns=["id"]).explain_plan()
        nn[str(q)] = t["id"].to_pylist()
    out.update(plans=plans, answers=answers, scans=scans, fts=fts, fts_expect=fts_expect, nearest=nn)
    txns = ds.get_transactions(1)
    out["txn"] = type(txns[0].operation).__name__ if txns and txns[0] is not None else None
    print(json.dumps(out))

def stale(d, v, path):
    frags = lance.fragment.write_fragments(read_ipc(path), d)
    lance.LanceDataset.commit(d, LanceOperation.Append(frags), read_version=int(v))
    print(lance.dataset(d).version)

if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"build": build, "build_reuse": build_reuse, "simple_state": simple_state, "rows": rows, "twin": twin, "state": state, "stale": stale}[cmd](*args)
