#!/usr/bin/env bash
# Create (or reuse) the Python venv for testdata/pylance and install the pinned
# requirements.  Prints the venv's python path on the last line of stdout.
#
#   bash testdata/pylance/setup.sh            # venv at $LANCE_PY_VENV or <repo>/.ci/venv
#   LANCE_PY_VENV=/tmp/v bash testdata/pylance/setup.sh
#
# Cached: if the venv already has every pinned package at the pinned version,
# nothing is installed.  Needs python3 (>= 3.9) with the venv module and access
# to PyPI on the first run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${LANCE_PY_VENV:-$repo/.ci/venv}"
req="$here/requirements.txt"
py="$venv/bin/python"

if [ ! -x "$py" ]; then
  echo "setup.sh: creating venv $venv" >&2
  python3 -m venv "$venv"
fi

# Is every pinned requirement installed at exactly that version?
if "$py" - "$req" <<'PYEOF' >&2
import sys
from importlib import metadata
ok = True
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, _, ver = line.partition("==")
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        have = None
    if have != ver:
        print(f"setup.sh: {name}: want {ver}, have {have}")
        ok = False
sys.exit(0 if ok else 1)
PYEOF
then
  echo "setup.sh: requirements already satisfied in $venv" >&2
else
  "$py" -m pip install --disable-pip-version-check -q -r "$req" >&2
fi
"$py" -c "import lance, pyarrow; print('setup.sh: pylance', lance.__version__, 'pyarrow', pyarrow.__version__)" >&2
echo "$py"
