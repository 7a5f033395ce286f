"""The student release, built once per test session into a temporary folder (helpers: releasekit.py)."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def release(tmp_path_factory) -> Path:
    """``attnkit release <tmp>/student``: the folder (``student.zip`` is beside it)."""
    from attnkit.release import main

    out = tmp_path_factory.mktemp("release") / "student"
    assert main([str(out)]) == 0
    return out
