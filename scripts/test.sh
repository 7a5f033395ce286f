#!/usr/bin/env bash
# Quick start 2: set up and run every test. Installs the test extras; then, in the background while the tests run,
# torch 2.13.0 (CPU) and transformers 5.24.0 for the cross-checks when it can (set ATTNKIT_SKIP_TORCH=1 to skip both;
# those tests then skip), and Debian's chromium and chromium-driver for the browser tests (ATTNKIT_SKIP_BROWSER=1
# skips; those tests then skip). The tests needing either are taken last and wait for it.
# The tests run on two cores (pytest-xdist); pass -n 0 to run them in one process (e.g. with --pdb).
# pip installs without compiling. Only numpy is byte-compiled beforehand, on every core at once: the sandbox's zygote
# imports it with -B (writing no bytecode), so it must be compiled already. Every other package is compiled by the
# test processes as they import it, which is a small part of the 1.5 GB installed (compiling all of it took 12 s of
# the set-up's 40).
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium comes from apt, which does not touch the venv: it is installed in the background while pip works and the
# tests run; the browser tests are taken last and wait for the file ATTNKIT_BROWSER_INSTALLED names (its exit status)
if [ -z "${ATTNKIT_SKIP_BROWSER:-}" ] && ! { command -v chromium && command -v chromedriver; } >/dev/null 2>&1; then
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo -n"
  if command -v apt-get >/dev/null 2>&1 && $as_root true >/dev/null 2>&1; then
    mkdir -p .venv
    export ATTNKIT_BROWSER_INSTALLED="$PWD/.venv/chromium-installed"
    rm -f "$ATTNKIT_BROWSER_INSTALLED"
    echo "installing chromium and chromium-driver for the browser tests, in the background (log: .venv/chromium.log)..."
    # without the recommended packages (a printer dialog, a power daemon, a notification service, extra fonts):
    # headless chromium needs none of them, and unpacking them competed with the tests for the cores
    { status=0; { $as_root apt-get update && $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
        --no-install-recommends chromium chromium-driver; } \
        >.venv/chromium.log 2>&1 || status=$?; echo "$status" >"$ATTNKIT_BROWSER_INSTALLED"; } &
  else
    echo "note: no chromium and no way to install it (apt-get as root); the browser tests will be skipped"
  fi
fi
missing() { ! .venv/bin/python -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('$1') is None)"; }
bash scripts/setup.sh test --no-compile
# torch and transformers (the cross-checks) are installed in the background too, while numpy is compiled and the
# tests run: pip only adds packages the test extras do not hold, and the tests using them are taken last and wait for
# the file ATTNKIT_CROSSCHECK_INSTALLED names (tests/background_install.py)
crosscheck_install() {
  install() { .venv/bin/python -m pip install --no-compile "$@"; }
  install torch==2.13.0 transformers==5.24.0 || true  # one pip run; if it fails, each alone below says which
  if missing torch && ! install torch==2.13.0; then
    echo "note: torch 2.13.0 could not be installed; the torch cross-checks will be skipped"
  fi
  if missing transformers && ! install transformers==5.24.0; then
    echo "note: transformers 5.24.0 could not be installed; the GPT-2 cross-checks will be skipped"
  fi
  ! missing torch && ! missing transformers
}
if [ -z "${ATTNKIT_SKIP_TORCH:-}" ] && { missing torch || missing transformers; }; then
  export ATTNKIT_CROSSCHECK_INSTALLED="$PWD/.venv/crosscheck-installed"
  rm -f "$ATTNKIT_CROSSCHECK_INSTALLED"
  echo "installing torch 2.13.0 (CPU) and transformers 5.24.0 for the cross-checks, in the background" \
       "(log: .venv/crosscheck.log)..."
  { status=0; crosscheck_install >.venv/crosscheck.log 2>&1 || status=$?
    echo "$status" >"$ATTNKIT_CROSSCHECK_INSTALLED"; } &
fi
numpy_dir=$(.venv/bin/python -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('numpy').origin))")
compiled=.venv/.attnkit-compiled  # newer than numpy's folder once it is compiled
if [ ! -f "$compiled" ] || [ "$numpy_dir" -nt "$compiled" ]; then
  echo "byte-compiling numpy for the sandbox (log: .venv/install.log)..."
  # a package's own test data may hold files that do not compile (pip skips those too)
  .venv/bin/python -m compileall -q -j 0 "$numpy_dir" >>.venv/install.log 2>&1 || true
  touch "$compiled"
fi
export HF_HUB_OFFLINE=1   # the cross-checks build random models; nothing is ever downloaded
echo "set up in ${SECONDS} s; running the tests on two cores..."
exec .venv/bin/python -m pytest -n 2 "$@"
