#!/usr/bin/env bash
# Quick start 2: set up and run every test. Installs the test extras, and torch 2.13.0 (CPU) and transformers
# 5.24.0 for the cross-checks when it can (set ATTNKIT_SKIP_TORCH=1 to skip both; those tests then skip).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
if [ -z "${ATTNKIT_SKIP_TORCH:-}" ] && ! .venv/bin/python -c "import torch" >/dev/null 2>&1; then
  echo "installing torch 2.13.0 (CPU) for the cross-checks (log: .venv/install.log)..."
  .venv/bin/python -m pip install torch==2.13.0 >>.venv/install.log 2>&1 \
    || echo "note: torch 2.13.0 could not be installed; the torch cross-checks will be skipped"
fi
if [ -z "${ATTNKIT_SKIP_TORCH:-}" ] && ! .venv/bin/python -c "import transformers" >/dev/null 2>&1; then
  echo "installing transformers 5.24.0 for the GPT-2 cross-checks (log: .venv/install.log)..."
  .venv/bin/python -m pip install transformers==5.24.0 >>.venv/install.log 2>&1 \
    || echo "note: transformers 5.24.0 could not be installed; the GPT-2 cross-checks will be skipped"
fi
export HF_HUB_OFFLINE=1   # the cross-checks build random models; nothing is ever downloaded
exec .venv/bin/python -m pytest "$@"
