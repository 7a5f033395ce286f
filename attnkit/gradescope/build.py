"""``attnkit gradescope build -o autograder.zip``: the zip to upload as a Gradescope autograder.

The zip holds, at its root (Gradescope's layout): ``setup.sh``, ``run_autograder`` and
``wheels/attnkit-<version>-py3-none-any.whl``, a wheel of this project (grader, checks,
reference solutions included) built from a copy of the source tree: offline with this Python's
setuptools when it is recent enough, else in an isolated build environment pip fills from PyPI.
Written to a temporary file beside the target, then renamed.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from attnkit.archive import write_zip
from grader.sandbox import MEMORY_MB, TIMEOUT_SECONDS

from . import scripts

PROJECT_FILES = ("pyproject.toml", "README.md")
PROJECT_PACKAGES = ("attnkit", "grader", "solutions", "quizzes")
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the zip format's epoch
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*")

EXISTS = "attnkit gradescope build: {path} already exists; pass --force to replace it"
NOT_ZIP = "attnkit gradescope build: {path}: Gradescope takes a .zip; name the output something.zip"
NO_SOURCE = ("attnkit gradescope build: no attnkit source tree at {root} (missing {missing}); run it from a "
             "checkout of attnkit installed with `pip install -e .`")
SETUPTOOLS = 77  # pyproject.toml's [build-system] requires setuptools>=77 (license as an SPDX string)
WHEEL_FAILED = ("attnkit gradescope build: building the attnkit wheel failed. Offline it needs "
                "setuptools>={setuptools} in this Python ({found}): {python} -m pip install -U "
                "'setuptools>={setuptools}' wheel, then run the same command again. pip said:\n{output}")


class BundleError(Exception):
    """A user error: nothing was written."""


class WheelFailed(BundleError):
    """The wheel of the project could not be built: nothing was written."""


@dataclass(frozen=True)
class Bundle:
    path: Path
    wheel: str
    size: int


def project_root() -> Path:
    import attnkit

    root = Path(attnkit.__file__).resolve().parents[1]
    missing = [name for name in PROJECT_FILES + PROJECT_PACKAGES if not (root / name).exists()]
    if missing:
        raise BundleError(NO_SOURCE.format(root=root, missing=", ".join(missing)))
    return root


def build_wheel(root: Path, work: Path, exercises: tuple[str, ...] | None = None) -> Path:
    """A wheel of the project at ``root``, built offline from a copy of its sources in ``work``.

    ``exercises``: a course's subset; its curriculum then lists only them, so only they are graded.
    """
    source = work / "source"
    source.mkdir()
    for name in PROJECT_FILES:
        shutil.copyfile(root / name, source / name)
    for name in PROJECT_PACKAGES:
        shutil.copytree(root / name, source / name, ignore=IGNORED)
    if exercises is not None:
        from grader import curriculum

        (source / "grader" / curriculum.PATH.name).write_text(curriculum.subset_text(exercises), encoding="utf-8")
    wheels = work / "wheels"
    found = setuptools_version()
    # With a recent setuptools here, offline from this Python; otherwise pip fetches the build requirements
    # into an isolated environment (PyPI or pip's cache), so an old setuptools in the venv does not matter.
    offline = ["--no-build-isolation", "--no-index"] if found and found[0] >= SETUPTOOLS else []
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *offline, "--quiet",
                           "--wheel-dir", str(wheels), str(source)],
                          cwd=work, capture_output=True, text=True,
                          env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})  # same sources, same wheel
    built = sorted(wheels.glob("attnkit-*.whl")) if wheels.is_dir() else []
    if done.returncode != 0 or len(built) != 1:
        seen = f"it has setuptools {'.'.join(map(str, found))}" if found else "it has no setuptools"
        raise WheelFailed(WHEEL_FAILED.format(setuptools=SETUPTOOLS, found=seen, python=sys.executable,
                                              output=(done.stderr or done.stdout).strip()[-2000:]))
    return built[0]


def setuptools_version() -> tuple[int, ...] | None:
    """The version of setuptools installed in this Python, as numbers (None when there is none)."""
    import importlib.metadata
    import re

    try:
        text = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return None
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3]) or None


def build(output: Path, force: bool = False, timeout: float = TIMEOUT_SECONDS,
          memory_mb: int = MEMORY_MB, exercises: tuple[str, ...] | None = None) -> Bundle:
    output = Path(output).absolute()
    if output.suffix.lower() != ".zip":
        raise BundleError(NOT_ZIP.format(path=output))
    if output.exists() and not force:
        raise BundleError(EXISTS.format(path=output))
    root = project_root()
    from attnkit import __version__

    output.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=output.parent, prefix=f".{output.name}.", suffix=".tmp"))
    try:
        wheel = build_wheel(root, work, exercises)
        bundle = work / "bundle"
        (bundle / "wheels").mkdir(parents=True)
        shutil.copyfile(wheel, bundle / "wheels" / wheel.name)
        relative = f"wheels/{wheel.name}"
        for name, text in (("setup.sh", scripts.setup_sh(__version__, relative)),
                           ("run_autograder", scripts.run_autograder(timeout, memory_mb))):
            (bundle / name).write_text(text, encoding="utf-8")
            (bundle / name).chmod(0o755)
        zipped = work / "autograder.zip"
        write_zip(bundle, zipped)
        zipped.replace(output)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Bundle(output, wheel.name, output.stat().st_size)
