#!/usr/bin/env bash
# Quick start 1: set up and run the demo (the seed's worked example, then the grader at work).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/attnkit demo
