#!/usr/bin/env python3
"""Write Arrow IPC files as Lance files with pylance's LanceFileWriter.

    python write_many.py < LIST

LIST has one "IN.arrow<TAB>OUT.lance<TAB>VERSION" line per file. Each IPC
file is read whole and written with LanceFileWriter(OUT, schema,
version=VERSION) in one write_batch call (the schema, with its field
metadata such as lance-encoding:*, comes from the IPC file), so Lance cuts
the pages itself. One line is printed per file:

    OK <out>
    ERROR <out> <exception>

Used by the writer tests that compare our pages with pylance's.
"""
import sys
import warnings

import pyarrow as pa
import pyarrow.ipc as ipc

import lance.file as lf


def write(src, dst, version):
    with pa.memory_map(src) as f:
        table = ipc.open_file(f).read_all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with lf.LanceFileWriter(dst, table.schema, version=version) as w:
            w.write_batch(table)


def main():
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        src, dst, version = line.split("\t")
        try:
            write(src, dst, version)
            print(f"OK {dst}", flush=True)
        except Exception as e:  # noqa: BLE001 - reported to the test
            msg = f"{type(e).__name__}: {e}".replace("\n", " ")[:2000]
            print(f"ERROR {dst} {msg}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
