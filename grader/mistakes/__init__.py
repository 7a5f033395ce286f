"""Classic mistakes, one module per exercise, for diagnosing a wrong answer.

Each module defines :class:`grader.compare.Mistake` constants (``id``, what the wrong value
``looks_like``, and a ``hint`` at the idea, never the answer's code) and functions that
compute, on the trusted side, what an implementation making that mistake returns for the
same inputs. Checks pass them to :func:`grader.compare.expect_close` as
``mistakes=[(MISTAKE, lambda: variant(...)), ...]``; they are evaluated lazily, only when
the student's value is wrong, and the first one that matches names the mistake.

The ``candidates(...)`` helper of each module returns such a list for one call.
"""
from __future__ import annotations

import numpy as np


def as_float(x) -> np.ndarray:
    """``x`` as a float array: float dtypes kept, everything else float64 (as the exercises do)."""
    x = np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(np.float64)


def all_mistakes() -> dict:
    """Every Mistake constant of every module, by id (for documentation and tests)."""
    import importlib

    from ..compare import Mistake

    found = {}
    for name in ("softmax", "masking", "attention", "multihead", "positional", "kv_cache", "tiled_attention"):
        module = importlib.import_module(f"{__name__}.{name}")
        for value in vars(module).values():
            if isinstance(value, Mistake):
                found[value.id] = value
    return found
