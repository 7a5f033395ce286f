"""The two scripts Gradescope runs: ``setup.sh`` (once, as root, when it builds the image) and
``run_autograder`` (once per submission, working directory /autograder).

Both honour ``ATTNKIT_GRADESCOPE_ROOT`` (default ``/autograder``) so the bundle can be run in a
folder laid out like Gradescope's; ``run_autograder`` also honours ``ATTNKIT_PYTHON`` (default
the virtual environment ``setup.sh`` made).
"""
from __future__ import annotations

from string import Template

VENV = "attnkit-venv"

SETUP_SH = Template('''#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (see docs/gradescope.md).
# It installs attnkit $version from the wheel in this zip, with numpy and the rest from PyPI.
set -euo pipefail
cd "$$(dirname "$$0")"
ROOT="$${ATTNKIT_GRADESCOPE_ROOT:-/autograder}"
if ! python3 -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  apt-get update
  apt-get install -y python3 python3-venv python3-pip
fi
python3 -m venv "$$ROOT/$venv"
"$$ROOT/$venv/bin/python" -m pip install --upgrade pip
"$$ROOT/$venv/bin/python" -m pip install "./$wheel"
"$$ROOT/$venv/bin/python" -I -c \
  "import attnkit, grader, solutions, numpy; print('attnkit', attnkit.__version__, 'ready')"
# Student children run as user nobody: the reference and the checks are not theirs to read
# (a second layer under Landlock and the audit hook; see SECURITY.md).
SITE="$$("$$ROOT/$venv/bin/python" -I -c \
  "import os, solutions; print(os.path.dirname(os.path.dirname(solutions.__file__)))")"
chmod -R o-rwx "$$SITE/solutions" "$$SITE/grader"
"$$ROOT/$venv/bin/python" "$$SITE/grader/sandbox/inside/landlock.py" || true  # does the kernel confine children?
''')

RUN_AUTOGRADER = Template('''#!/usr/bin/env bash
# Gradescope runs this for every submission: it grades $$ROOT/submission with attnkit's sandboxed
# grader (the code path of `attnkit grade`) and writes $$ROOT/results/results.json.
set -euo pipefail
ROOT="$${ATTNKIT_GRADESCOPE_ROOT:-/autograder}"
PYTHON="$${ATTNKIT_PYTHON:-$$ROOT/$venv/bin/python}"
# -I (isolated): the folder it runs from and PYTHONPATH never come before the installed attnkit
exec "$$PYTHON" -I -m attnkit gradescope run --root "$$ROOT" --timeout $timeout --memory-mb $memory_mb
''')


def setup_sh(version: str, wheel: str) -> str:
    return SETUP_SH.substitute(version=version, wheel=wheel, venv=VENV)


def run_autograder(timeout: float, memory_mb: int) -> str:
    return RUN_AUTOGRADER.substitute(timeout=f"{timeout:g}", memory_mb=int(memory_mb), venv=VENV)
