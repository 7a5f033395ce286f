"""The quiz's scheduler with and without the optional ``fsrs`` package."""
import sys

import pytest

from attnkit.quiz import schedule


@pytest.fixture
def without_fsrs(monkeypatch):
    """``import fsrs`` fails, as when the package is not installed: the quiz falls back on Leitner boxes."""
    schedule.fsrs_module.cache_clear()
    monkeypatch.setitem(sys.modules, "fsrs", None)
    assert schedule.kind() == schedule.Kind.LEITNER
    yield
    schedule.fsrs_module.cache_clear()


@pytest.fixture
def with_fsrs():
    """The installed ``fsrs`` package (the test extra installs it)."""
    schedule.fsrs_module.cache_clear()
    assert schedule.kind() == schedule.Kind.FSRS, "the fsrs package is not installed: pip install -e '.[test]'"
