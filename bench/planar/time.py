#!/usr/bin/env python3
"""Time pylance on the planar benchmark file: best of 5 full scans of one
column (8192-row batches) and best of 5 takes of the same 1000 random rows
(sorted; seed 1).

    python time.py FILE COL[,COL...]
"""
import random
import sys
import time

import lance.file as lf

path = sys.argv[1]
for col in sys.argv[2].split(","):
    r = lf.LanceFileReader(path, columns=[col])
    scan = take = 1e9
    rows = sorted(random.Random(1).sample(range(r.num_rows()), 1000))
    for _ in range(5):
        t0 = time.perf_counter()
        r.read_all(batch_size=8192).to_table()
        scan = min(scan, time.perf_counter() - t0)
        t0 = time.perf_counter()
        r.take_rows(rows).to_table()
        take = min(take, time.perf_counter() - t0)
    print(f"pylance {col}: scan {scan * 1000:.1f} ms, take1000 {take * 1000:.2f} ms")
