#!/usr/bin/env bash
# Create .venv (once) and install attnkit into it, editable, with the extras named in $1
# (e.g. "test"), and setuptools>=77 + wheel (a fresh venv has setuptools 65: `attnkit gradescope
# build` then builds its wheel offline); further arguments are pip's options (scripts/test.sh: --no-compile). Re-installs only when pyproject.toml changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
shift || true
stamp=".venv/.attnkit-installed${extras:+-$extras}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
  echo "installing attnkit${extras:+ with [$extras]} into .venv (log: .venv/install.log)..."
  if ! .venv/bin/python -m pip install "setuptools>=77" wheel -e ".${extras:+[$extras]}" "$@" >.venv/install.log 2>&1; then
    tail -n 30 .venv/install.log >&2
    echo "setup failed: the full log is .venv/install.log" >&2
    exit 1
  fi
  touch "$stamp"
fi
