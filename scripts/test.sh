#!/usr/bin/env bash
# Quick start 2: set up and run every test. Installs the test extras, and torch 2.13.0 (CPU)
# for the cross-checks when it can (set ATTNKIT_SKIP_TORCH=1 to skip; those tests then skip). The tests run on
# two cores (pytest-xdist); pass -n 0 to run them in one process (e.g. with --pdb).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
if [ -z "${ATTNKIT_SKIP_TORCH:-}" ] && ! .venv/bin/python -c "import torch" >/dev/null 2>&1; then
  echo "installing torch 2.13.0 (CPU) for the cross-checks (log: .venv/install.log)..."
  .venv/bin/python -m pip install torch==2.13.0 >>.venv/install.log 2>&1 \
    || echo "note: torch 2.13.0 could not be installed; the torch cross-checks will be skipped"
fi
exec .venv/bin/python -m pytest -n 2 "$@"
