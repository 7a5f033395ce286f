"""Comparisons of parameter trees (nested dicts and lists of arrays: a model's weights, gradients, optimiser
steps) and of scalar losses. Not checks themselves (no ``test_`` names here)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..compare import CheckFailed, describe, expect_close

MAX_LEAVES = 4096     # a tree the checks build never has more; bounds the walk of whatever came back


def leaves(tree: Any, path: str = "") -> list[tuple[str, Any]]:
    """``(path, leaf)`` for every leaf of a tree in its own order: ``["h"][0]["attn"]["c_attn"]["weight"]``."""
    found: list[tuple[str, Any]] = []
    stack = [(path, tree)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((f"{where}[{key!r}]", value) for key, value in reversed(list(node.items())))
        elif isinstance(node, (list, tuple)):
            stack.extend((f"{where}[{index}]", value) for index, value in reversed(list(enumerate(node))))
        else:
            found.append((where, node))
    return found


def expect_tree(got: Any, expected: Any, *, call: str, name: str = "grads", dtype: Any = None,
                rtol: float | None = None, atol: float | None = None) -> None:
    """``got`` has exactly ``expected``'s keys and list lengths, and every leaf is close to the expected one
    (each compared with :func:`expect_close`, named by its path, its origin the reference's leaf)."""
    stack = [(name, got, expected)]
    compared = 0
    while stack:
        where, mine, theirs = stack.pop()
        if isinstance(theirs, dict):
            if not isinstance(mine, dict) or set(mine) != set(theirs):
                keys = sorted(map(str, mine)) if isinstance(mine, dict) else describe(mine)
                raise CheckFailed(f"{call}: {where} has keys {keys}; expected exactly {sorted(theirs)}")
            # in the order of the student's keys: the same in the checkout and in the release, whose recorded
            # reference trees come back with their keys sorted
            stack.extend((f"{where}[{key!r}]", mine[key], theirs[key]) for key in reversed(list(mine)))
        elif isinstance(theirs, list):
            if not isinstance(mine, (list, tuple)) or len(mine) != len(theirs):
                raise CheckFailed(f"{call}: {where} is {describe(mine)}; expected a list of {len(theirs)}")
            stack.extend((f"{where}[{index}]", mine[index], theirs[index]) for index in reversed(range(len(theirs))))
        else:
            compared += 1
            if compared > MAX_LEAVES:
                raise CheckFailed(f"{call}: {name} has more than {MAX_LEAVES} arrays; expected {len(leaves(expected))}")
            expect_close(mine, theirs, call=call, what=where, dtype=dtype, rtol=rtol, atol=atol)


def expect_scalar(got: Any, expected: float, *, call: str, what: str = "loss", rtol: float = 1e-7,
                  atol: float = 1e-9, origin: Any = None) -> float:
    """A scalar result (``float(got)`` works: a Python float or a 0-d array) close to ``expected``. ``origin``: the
    ``ref`` result ``expected`` was read from (a wrong number is then diagnosed as a wrong array is)."""
    if isinstance(got, np.ndarray) and got.shape == () or isinstance(got, (float, int, np.floating, np.integer)) \
            and not isinstance(got, bool):
        value = float(got)
        if not np.isclose(value, expected, rtol=rtol, atol=atol):
            raise CheckFailed(f"{call} {what} returned {value:.10g}; expected {expected:.10g} (rtol={rtol:g}, "
                              f"atol={atol:g})", got=np.asarray(got), expected=expected, origin=origin)
        return value
    raise CheckFailed(f"{call} {what} returned {describe(got)}; expected a scalar (a float or a 0-d array)")
