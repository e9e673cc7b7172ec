#!/usr/bin/env python3
"""Print the pages and encodings of a Lance v2 file, using pylance.

    python inspect_lance.py FILE.lance [--raw]

For each column: one line per page with the sizes of its buffers and a compact
summary of its PageLayout (mini-block / full-zip / constant / blob, and the
compression tree: flat, bitpacking, rle, fsst, dictionary, bss, general
lz4/zstd, ...).  --raw prints the Rust Debug text pylance returns instead.

(Named inspect_lance.py, not inspect.py: a file called inspect.py next to
gen.py/verify.py would shadow Python's standard `inspect` module, which
pyarrow and pylance import.)

The data comes from lance.file.LanceFileReader(path).metadata(); the compact
form is produced by lancedebug.py.  Informational only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lancedebug  # noqa: E402

import lance.file as lf  # noqa: E402


def _field_lines(schema):
    out = []

    def walk(f, depth):
        md = ""
        if f.metadata:
            md = " " + ",".join(f"{k.decode()}={v.decode()}" for k, v in sorted(f.metadata.items()))
        out.append(f"  {'  ' * depth}field {f.name}: {f.type}{'' if f.nullable else ' not null'}{md}")
        t = f.type
        kids = []
        if hasattr(t, "num_fields") and not hasattr(t, "value_type"):
            kids = [t.field(i) for i in range(t.num_fields)]
        elif hasattr(t, "value_field"):
            kids = [t.value_field]
        for k in kids:
            walk(k, depth + 1)
    for f in schema:
        walk(f, 0)
    return out


def layout_lines(path, raw=False):
    r = lf.LanceFileReader(path)
    m = r.metadata()
    lines = [f"format {m.major_version}.{m.minor_version} size={os.path.getsize(path)} rows={m.num_rows} "
             f"columns={len(m.columns)} global_buffers={len(m.global_buffers)}"]
    lines += _field_lines(m.schema)
    for ci, col in enumerate(m.columns):
        cb = f" column_buffers={[b.size for b in col.column_buffers]}" if col.column_buffers else ""
        lines.append(f"  column {ci}: {len(col.pages)} page(s){cb}")
        for p in col.pages:
            bufs = "[" + ",".join(str(b.size) for b in p.buffers) + "]"
            if raw:
                lines.append(f"    bufs={bufs}")
                lines += ["      " + x for x in p.encoding.splitlines()]
            else:
                try:
                    s = lancedebug.summarize(p.encoding)
                except Exception as e:  # noqa: BLE001 - never fail on an unknown shape
                    s = f"<unparsed: {e}> " + " ".join(p.encoding.split())[:300]
                lines.append(f"    bufs={bufs} {s}")
    return lines


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    raw = "--raw" in argv
    for path in [a for a in argv[1:] if a != "--raw"]:
        print("\n".join(layout_lines(path, raw)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
