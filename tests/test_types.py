"""The type checker keeps the declared interfaces honest: mypy on ``grader/`` and the release's recording, replay and
verification (the files and options are ``[tool.mypy]`` of pyproject.toml; lenient, no --strict), one test run with
the rest. Its cache lives under the pytest cache folder (``.pytest_cache/mypy``): a warm run takes a few seconds,
a cold one about twenty."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def mypy(*files: str) -> subprocess.CompletedProcess:
    """mypy with the project's options (``files``: these instead of the configured ones), its cache shared."""
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir",
                           str(ROOT / ".pytest_cache" / "mypy"), *files], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def checked() -> subprocess.CompletedProcess:
    """mypy on the configured files, once: it fills the cache, and the tests using it share a worker
    (tests/worker_groups.py), so the probe below runs on a warm cache instead of doing the cold work again."""
    return mypy()


@pytest.mark.slow
def test_mypy_passes_on_the_grader(checked):
    assert checked.returncode == 0, f"mypy found type errors:\n{checked.stdout}{checked.stderr}"


@pytest.mark.slow
def test_mypy_refuses_a_transport_without_the_declared_members(checked, tmp_path):
    """The Protocols are checked where they are used: a transport lacking ``dead`` and ``close`` (as the release's
    verification transport once did) is refused at the ``Implementation`` it is handed to."""
    probe = tmp_path / "probe.py"
    probe.write_text("from grader.sandbox.host.proxy import Implementation\n\n\n"
                     "class Partial:\n    exercise = 'softmax'\n\n"
                     "    def request(self, op: str, target: dict, args: tuple = (), kwargs: dict | None = None,\n"
                     "                name: str = '', call: str = '') -> object:\n        return None\n\n\n"
                     "Implementation(Partial())\n", encoding="utf-8")
    run = mypy(str(probe))
    assert run.returncode == 1 and '"Partial"' in run.stdout and "Transport" in run.stdout, run.stdout + run.stderr
