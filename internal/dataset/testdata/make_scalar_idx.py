# Writes testdata/scalar_idx.lance with pylance: 3 fragments (one with
# deletions, the last appended after the indices, so unindexed), and a
# BTREE (id), BITMAP (cat), LABEL_LIST (tags) and ZONEMAP (ts) index. The
# fuzz target FuzzIndexedFilter reads it. Run from internal/dataset:
#   $LANCE_PY testdata/make_scalar_idx.py testdata/scalar_idx.lance
import sys, shutil, lance, pyarrow as pa

out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)
cats = ['red', 'blue', 'green', None]
def table(lo, hi):
    r = range(lo, hi)
    return pa.table({
        'id': pa.array([None if i % 37 == 0 else i for i in r], pa.int64()),
        'cat': pa.array([cats[i % 4] for i in r]),
        'tags': pa.array([None if i % 29 == 0 else [['a', 'b', 'c'][j % 3] for j in range(i % 4)] for i in r], pa.list_(pa.string())),
        'ts': pa.array([None if i % 31 == 0 else i * 10 for i in r], pa.int64()),
        'txt': pa.array(['row %d' % i for i in r]),
    })
ds = lance.write_dataset(table(0, 200), out, max_rows_per_file=100)
ds.delete('id % 7 = 3')
ds.create_scalar_index('id', 'BTREE')
ds.create_scalar_index('cat', 'BITMAP')
ds.create_scalar_index('tags', 'LABEL_LIST')
ds.create_scalar_index('ts', 'ZONEMAP')
ds = lance.write_dataset(table(200, 260), out, mode='append')
print(ds.version, len(ds.get_fragments()), [i['type'] for i in ds.list_indices()])
