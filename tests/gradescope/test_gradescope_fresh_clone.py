"""The README's own path: a fresh clone, ``bash scripts/setup.sh`` (a fresh venv: setuptools 65 from
ensurepip), then ``.venv/bin/attnkit gradescope build`` writes the autograder zip.

Needs PyPI (or pip's cache) for the venv's dependencies, as the quick start does; the clone holds the
committed project (``git clone`` of this repository).
"""
from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="needs git and a checkout")
def test_gradescope_build_in_the_setup_venv_of_a_fresh_clone(tmp_path):
    clone = tmp_path / "attnkit"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, timeout=120)
    setup = subprocess.run(["bash", "scripts/setup.sh"], cwd=clone, capture_output=True, text=True, timeout=600)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    build = subprocess.run([str(clone / ".venv/bin/attnkit"), "gradescope", "build", "-o", "ag.zip"], cwd=clone,
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "Traceback" not in build.stderr
    with zipfile.ZipFile(clone / "ag.zip") as zipped:
        names = zipped.namelist()
    assert {"setup.sh", "run_autograder"} <= set(names) and any(n.startswith("wheels/attnkit-") for n in names)


@pytest.mark.parametrize("found, offline", [((65, 5, 0), False), (None, False), ((77, 0, 0), True)])
def test_an_old_setuptools_builds_in_isolation_and_the_advice_works(tmp_path, monkeypatch, found, offline):
    """setuptools < 77 (or none) in this Python: pip builds the wheel in its isolated environment; if that
    fails, the message names a command that fixes it (-U and the version) for this very Python."""
    from attnkit.gradescope import build

    commands = []

    def pip(command, **kwargs):
        commands.append(command)
        return subprocess.CompletedProcess(command, 1, "", "ERROR: no network")

    monkeypatch.setattr(build, "setuptools_version", lambda: found)
    monkeypatch.setattr(build.subprocess, "run", pip)
    (tmp_path / "work").mkdir()
    with pytest.raises(build.WheelFailed) as failed:
        build.build_wheel(REPO, tmp_path / "work")
    (command,) = commands
    assert ("--no-build-isolation" in command) == offline == ("--no-index" in command)
    message = str(failed.value)
    assert f"{build.sys.executable} -m pip install -U 'setuptools>={build.SETUPTOOLS}' wheel" in message
    assert "ERROR: no network" in message
    assert f'"setuptools>={build.SETUPTOOLS}"' in (REPO / "pyproject.toml").read_text()  # the build requirement
    assert f'"setuptools>={build.SETUPTOOLS}"' in (REPO / "scripts/setup.sh").read_text()  # and the quick start's venv
