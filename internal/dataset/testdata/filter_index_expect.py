# Builds pylance datasets carrying scalar indices (make_indices.py groups
# "scalar" and "misc", plus a delta-segment copy of scalar.lance) and prints,
# for each dataset and filter, pylance's answer with its indices: the row
# addresses and ids in scan order, count_rows, and whether its plan used a
# scalar index. Usage: filter_index_expect.py OUTDIR CASES_JSON
import json, shutil, subprocess, sys, lance

out, cases = sys.argv[1], json.loads(sys.argv[2])
subprocess.run([sys.executable, "/work/shared/spec/indices/make_indices.py", out, "scalar", "misc"],
               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
shutil.copytree(f"{out}/scalar.lance", f"{out}/scalar_delta.lance")
d = lance.dataset(f"{out}/scalar_delta.lance")
d.optimize.optimize_indices(num_indices_to_merge=0)
d = lance.write_dataset(d.to_table(filter="id >= 300 AND id < 320"), f"{out}/scalar_delta.lance", mode="append")
d.delete("id = 305")
res = {}
for name, filters in cases.items():
    ds = lance.dataset(f"{out}/{name}")
    answers = []
    for f in filters:
        t = ds.to_table(columns=["id"], filter=f, with_row_address=True)
        plan = ds.scanner(columns=["id"], filter=f).explain_plan()
        answers.append({"rowaddr": [str(x) for x in t.column("_rowaddr").to_pylist()],
                        "id": t.column("id").to_pylist(), "count": ds.count_rows(filter=f),
                        "indexed": "ScalarIndexQuery" in plan or "MaterializeIndex" in plan})
    res[name] = answers
print(json.dumps({"dir": out, "cases": res}))
