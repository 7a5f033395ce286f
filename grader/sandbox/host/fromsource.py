"""A trusted folder's modules compiled from their source at every load, never from bytecode.

:func:`grader.sandbox.host.inprocess.trusted_runtime` loads a folder as a fresh package each time
(``_attnkit_trusted_N``). Tests and tools rewrite such a folder's modules between loads, and Python's bytecode
check compares only the source's size and its modification time in whole seconds: two versions of one size
written within one second would share a stale ``__pycache__`` file, and the second load would run the first
version. So these packages' modules are found by :class:`TrustedFinder`, whose loader neither reads nor writes
bytecode. (Children of the sandbox keep their bytecode in a fresh scratch folder per submission instead.)
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys

PREFIX = "_attnkit_trusted_"  # the packages trusted_runtime makes


class SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Compiles the module from its source; the bytecode cache is skipped (no stat: no cached file is trusted)."""

    def path_stats(self, path):
        raise OSError("a trusted folder's modules are compiled from source")


class TrustedFinder:
    """Finds ``_attnkit_trusted_N.<module>`` in its package's folder, with :class:`SourceOnlyLoader`."""

    @classmethod
    def find_spec(cls, name: str, path=None, target=None):
        package, _, module = name.partition(".")
        if not package.startswith(PREFIX) or not module or "." in module:
            return None
        for folder in path or ():
            source = os.path.join(folder, f"{module}.py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(name, source, loader=SourceOnlyLoader(name, source))
        return None


def install() -> None:
    """Put :class:`TrustedFinder` first on ``sys.meta_path`` (once)."""
    if TrustedFinder not in sys.meta_path:
        sys.meta_path.insert(0, TrustedFinder)
