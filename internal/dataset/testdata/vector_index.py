#!/usr/bin/env python
"""pylance side of create_vector_index_test.go (issue #37 items 2 and 4: IVF indices built by lancego).

  build DIR N DIM [stable]   N clustered float32 vectors of DIM in 3 fragments, 1% of rows deleted
                             (stable: stable row ids, moved by a compaction before the deletions)
  check DIR SPEC.json        SPEC {"name", "type", "metric", "num_partitions", "num_sub_vectors",
                             "queries", "nprobes"}: pylance's view of lancego's index NAME and of a
                             twin built by pylance on a copy (same parameters): listing, plan, its
                             answers for five queries at nprobes 2, and recall@10 (against exact
                             search) of both for each nprobes
"""
import json, shutil, sys
import numpy as np
import pyarrow as pa
import lance


def vectors(n, dim, seed):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((64, dim)).astype(np.float32) * 2
    return (centres[rng.integers(0, 64, n)] + rng.standard_normal((n, dim)).astype(np.float32)).astype(np.float32)


def build(path, n, dim, stable):
    vec = vectors(n, dim, 7)
    tbl = pa.table({"id": pa.array(range(n), pa.int64()),
                    "vec": pa.FixedSizeListArray.from_arrays(pa.array(vec.ravel()), dim)})
    per = n // 3 + 1
    kw = {"enable_stable_row_ids": True} if stable else {}
    if stable:
        ds = lance.write_dataset(tbl.slice(0, per), path, max_rows_per_file=per, **kw)
        ds = lance.write_dataset(tbl.slice(per), path, mode="append", max_rows_per_file=per // 2)
        ds.optimize.compact_files(target_rows_per_fragment=per)
    else:
        ds = lance.write_dataset(tbl, path, max_rows_per_file=per)
    ds = lance.dataset(path)
    ds.delete("id % 100 = 7")


def recall(ds, queries, metric, nprobes, exact):
    hits, rows = 0, 0
    for q, want in zip(queries, exact):
        t = ds.to_table(nearest={"column": "vec", "q": q, "k": 10, "nprobes": nprobes}, columns=["id"])
        got = t.column("id").to_pylist()
        rows += len(got)
        hits += len(set(got) & set(want))
    return hits / (10 * len(queries)), rows


def check(path, spec):
    name, metric = spec["name"], spec["metric"]
    ds = lance.dataset(path)
    twin = path.rstrip("/") + ".twin"
    shutil.rmtree(twin, ignore_errors=True)
    shutil.copytree(path, twin)
    tw = lance.dataset(twin)
    tw.drop_index(name)
    kw = dict(num_partitions=spec["num_partitions"], metric=metric, name=name)
    if "PQ" in spec["type"]:
        kw["num_sub_vectors"] = spec["num_sub_vectors"]
    tw.create_index("vec", spec["type"], **kw)
    tw = lance.dataset(twin)
    vecs = np.stack(ds.to_table(columns=["vec"]).column("vec").to_numpy(zero_copy_only=False))
    rng = np.random.default_rng(3)
    queries = vecs[rng.integers(0, len(vecs), spec["queries"])] + \
        rng.standard_normal((spec["queries"], vecs.shape[1])).astype(np.float32) * np.float32(0.3)
    exact = [ds.to_table(nearest={"column": "vec", "q": q, "k": 10, "use_index": False, "metric": metric},
                         columns=["id"]).column("id").to_pylist() for q in queries]
    out = {"indices": [], "twin_indices": [], "recall": {}, "plan": ""}
    for d, key in ((ds, "indices"), (tw, "twin_indices")):
        for ix in d.list_indices():
            st = d.stats.index_stats(ix["name"])
            out[key].append({"name": ix["name"], "type": ix["type"], "fields": ix["fields"],
                             "fragments": sorted(ix["fragment_ids"]), "rows": st["num_indexed_rows"],
                             "unindexed": st["num_unindexed_rows"], "metric": st["indices"][0]["metric_type"],
                             "partitions": len(st["indices"][0]["partitions"]),
                             "sub_index": {k: v for k, v in st["indices"][0]["sub_index"].items() if k != "bounds"}})
    out["answers"] = []
    for q in queries[:5]:
        t = ds.to_table(nearest={"column": "vec", "q": q, "k": 10, "nprobes": 2}, columns=["id"])
        out["answers"].append({"q": q.tolist(), "ids": t.column("id").to_pylist(),
                               "dist": t.column("_distance").to_pylist()})
    out["plan"] = ds.scanner(nearest={"column": "vec", "q": queries[0], "k": 10}, columns=["id"]).explain_plan()
    for nprobes in spec["nprobes"]:
        ours, rows = recall(ds, queries, metric, nprobes, exact)
        theirs, _ = recall(tw, queries, metric, nprobes, exact)
        out["recall"][str(nprobes)] = {"ours": ours, "pylance": theirs, "rows": rows}
    return out


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "build":
        build(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), len(sys.argv) > 5 and sys.argv[5] == "stable")
    elif cmd == "check":
        print(json.dumps(check(sys.argv[2], json.loads(open(sys.argv[3]).read()))))
    else:
        sys.exit(f"unknown command {cmd}")
