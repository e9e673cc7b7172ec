#!/usr/bin/env python3
"""Rewrite Lance files with pylance's LanceFileWriter and print their sizes.

    python rewrite_sizes.py OUTDIR VERSION FILE.lance...

Each FILE is read with LanceFileReader.read_all() and written again, with the
schema (and its lance-encoding:* field metadata) it reads back, to
OUTDIR/<VERSION>_<name>.lance in one write_batch call, so the pages are cut
by Lance itself. Prints "<name> <bytes>" per file ("<name> ERROR <msg>" when
Lance cannot round-trip it, e.g. blob v2 descriptors). Used for the pylance
column of docs/writer-sizes.md.
"""
import os
import sys

import lance.file as lf


def rewrite(src, dst, version):
    table = lf.LanceFileReader(src).read_all(batch_size=1 << 20).to_table()
    w = lf.LanceFileWriter(dst, table.schema, version=version)
    for batch in table.to_batches():
        w.write_batch(batch)
    w.close()
    return os.path.getsize(dst)


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    out, version = argv[1], argv[2]
    for src in argv[3:]:
        name = os.path.basename(src)[: -len(".lance")]
        dst = os.path.join(out, f"{version}_{name}.lance")
        try:
            print(name, rewrite(src, dst, version), flush=True)
        except Exception as e:  # noqa: BLE001
            print(name, "ERROR", f"{type(e).__name__}: {e}".replace("\n", " ")[:300], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
