#!/usr/bin/env python3
"""Runs filters through pylance on one dataset: reads one filter a line from stdin and prints one JSON
line each, {"ok": true, "ids": [id of kept rows, scan order]} or {"ok": false, "err": "first line of the
message"}. Used by conform_test.go's TestConformanceLive and by gen_filters.py.
Usage: $PY run_filters.py DATASET [ID_COLUMN] < filters"""
import json, re, sys

import lance


def message(e):
    """The first line of an error, without the build path of pylance's source."""
    first = (str(e).splitlines() or [type(e).__name__])[0]
    first = re.sub(r",? /home/runner/[^\s,)]*", "", first)
    return first.replace("\t", " ")[:200]


def run(ds, flt, col="id"):
    """(True, ids) or (False, message)."""
    try:
        return True, ds.to_table(filter=flt, columns=[col]).column(col).to_pylist()
    except Exception as e:  # pylance raises ValueError, OSError, RuntimeError, pyarrow errors
        return False, message(e)


def main():
    ds = lance.dataset(sys.argv[1])
    col = sys.argv[2] if len(sys.argv) > 2 else "id"
    for line in sys.stdin:
        flt = line.rstrip("\n")
        ok, res = run(ds, flt, col)
        print(json.dumps({"ok": True, "ids": res} if ok else {"ok": False, "err": res}), flush=True)


if __name__ == "__main__":
    main()
