"""The cross-checks' optional heavy packages (torch, transformers: the ``crosscheck`` extra), imported when a test
first uses them, not when the test module is collected.

Both pytest-xdist workers collect every test module, so a module-level ``import torch`` costs each worker the whole
import (seconds of CPU) even though one of them runs the torch tests. A module names them with :func:`lazy` instead
and uses the session fixture of the same name (tests/conftest.py): the fixture skips the test where the package is
not installed, and puts every test using it into one worker group (tests/worker_groups.py), so one worker imports it.
"""
from __future__ import annotations

import importlib


class Lazy:
    """A module by name, imported on the first access to one of its public attributes."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attribute: str):
        if attribute.startswith("_"):  # pytest looks for its own markers on module globals while collecting
            raise AttributeError(attribute)
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self) -> str:
        return f"<{self._name}, imported on first use>"


def lazy(name: str) -> Lazy:
    return Lazy(name)
