#!/usr/bin/env python3
"""Check many Lance files with the real Lance reader in one process.

    python verify_many.py [--ignore-metadata] < LIST

LIST has one "FILE.lance<TAB>EXPECTED.json" pair per line. For each pair the
checks of verify.py run and one line is printed:

    OK <file> <summary>
    MISMATCH <file> <first difference>
    ERROR <file> <exception>

Exits 0 when every file matched, 1 otherwise (2 for usage errors).

A file whose columns pylance 14.0.2 refuses to read together ("cannot read
columns of differing lengths": their pages count different numbers of items
a row, as fixed-size lists of structs of different dimensions do) is checked
one column at a time.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify  # noqa: E402


def check(path, exp_path, ignore_metadata):
    with open(exp_path, encoding="utf-8") as f:
        expected = json.load(f)
    try:
        try:
            return "OK", verify.verify(path, expected, ignore_metadata=ignore_metadata)
        except ValueError as e:
            if "cannot read columns of differing lengths" not in str(e):
                raise
            for col in expected["columns"]:
                msg = verify.verify(path, expected, ignore_metadata=ignore_metadata, columns=[col])
            return "OK", msg + " (columns apart)"
    except verify.Mismatch as e:
        return "MISMATCH", str(e)
    except Exception as e:  # noqa: BLE001 - Lance could not read the file
        return "ERROR", f"{type(e).__name__}: {e}"


def main(argv):
    flags = set(argv[1:])
    if flags - {"--ignore-metadata"}:
        print(__doc__, file=sys.stderr)
        return 2
    ok = True
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        path, exp_path = line.split("\t")
        status, msg = check(path, exp_path, "--ignore-metadata" in flags)
        ok = ok and status == "OK"
        print(f"{status} {path} {msg}".replace("\n", " ")[:4000], flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
