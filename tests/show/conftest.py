"""Fixtures for the ``attnkit show`` tests (helpers live in showkit.py: import that, not conftest)."""
from __future__ import annotations

import sys

import pytest


@pytest.fixture
def no_matplotlib(monkeypatch):
    """Make every ``import matplotlib...`` fail, as on a machine without the ``plots`` extra."""
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.setitem(sys.modules, name, None)
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg", "matplotlib.ticker"):
        monkeypatch.setitem(sys.modules, name, None)
