# Builds the scalar-index datasets with make_indices.py and prints, per
# index, its directory and, for each filter given, the row addresses pylance
# selects at the index's build version without the index (the rows the index
# must hold). Usage: scalar_expect.py OUTDIR FILTERS_JSON
import json, subprocess, sys, lance

out, filters = sys.argv[1], json.loads(sys.argv[2])
subprocess.run([sys.executable, "/work/shared/spec/indices/make_indices.py", out],
               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
res = {}
for name, items in filters.items():
    ds_name, idx = name.split("/")
    path = f"{out}/{ds_name}"
    ds = lance.dataset(path)
    meta = [i for i in ds.list_indices() if i["name"] == idx][0]
    old = lance.dataset(path, version=meta["version"])
    answers = []
    for flt in items:
        t = old.to_table(columns=[], filter=flt, with_row_address=True, use_scalar_index=False)
        answers.append(sorted(t.column("_rowaddr").to_pylist()))
    res[name] = {"dir": f"{path}/_indices/{meta['uuid']}", "rows": answers}
print(json.dumps(res))
