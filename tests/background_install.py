"""Waiting for what scripts/test.sh installs in the background while the tests run.

On a new machine scripts/test.sh starts two installs and runs the tests meanwhile: Debian's chromium and
chromium-driver (the browser tests) and torch with transformers (the cross-checks). For each it exports an
environment variable naming a file, and writes the install's exit status to that file once it has ended. The
tests needing an install carry ``@pytest.mark.installing(VARIABLE)``, so tests/worker_groups.py takes them last,
and their fixture calls :func:`wait` before it looks for what was installed.
"""
from __future__ import annotations

import importlib
import os
import time

WAIT_SECONDS = 900  # at most (apt-get took 100 s for chromium on a new machine of this kind; pip 20 s for torch)
POLL_SECONDS = 0.5


def wait(variable: str, what: str, log: str) -> str | None:
    """Wait for the background install of ``what`` that the file named by ``variable`` reports on, if one runs.
    None when none runs or it succeeded, else why not (naming its ``log``). The import system's caches are
    cleared after an install, so that the packages it added are found by a process that started before them."""
    flag = os.environ.get(variable)
    if not flag:
        return None
    deadline = time.monotonic() + WAIT_SECONDS
    while not os.path.exists(flag):
        if time.monotonic() > deadline:
            return f"the install of {what} by scripts/test.sh did not end within {WAIT_SECONDS} s ({log})"
        time.sleep(POLL_SECONDS)
    importlib.invalidate_caches()
    with open(flag, encoding="utf-8") as handle:
        status = handle.read().strip()
    return None if status == "0" else f"{what} could not be installed (exit status {status or '?'}; see {log})"
