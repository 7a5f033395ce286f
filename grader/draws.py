"""Arguments a call draws from: random generators (numpy's ``Generator``, the legacy ``RandomState``).

A call moves the generator it is given on by every number it draws, so the diagnosis of a failing check
(``grader.diagnosis``), which runs a recorded call again and again (on mistaken references, under other settings,
with changed arguments, on pairs of mistakes, at other ranks), must hand every run the generator as it was when the
check made the call. Otherwise each run starts where the previous one stopped, and what a mistake returns depends
on which mistakes were tried before it and how many numbers they drew (one that raised halfway through, or drew
nothing at temperature 0, shifts every later run): the mistaken reference then samples other tokens than the
student's code, which ran the same mistaken code on the same seed.

:func:`copied` takes a generator's state (before the reference draws from it: the session keeps that copy with the
recorded call and never runs anything on it), :func:`alone` gives each run a copy of its own. A copy is made
through the generator's own pickling support (``copy.deepcopy``): its bit generator and state, not a subclass's own
attributes.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

import numpy as np

from .sandbox import LEAVES, MAX_DEPTH

GENERATORS = (np.random.Generator, np.random.RandomState)


def holds(value: Any, depth: int = 0) -> bool:
    """True when ``value`` is, or holds in its tuples, lists and dicts (at most ``MAX_DEPTH`` deep), a generator
    (asked of every reference call a check makes: arrays and numbers are passed over first)."""
    kind = type(value)
    if kind in LEAVES:   # what holds no generator
        return False
    if isinstance(value, GENERATORS):
        return True
    if depth >= MAX_DEPTH:
        return False
    if kind is dict:
        value = value.values()
    elif not isinstance(value, (tuple, list)):
        return False
    for item in value:
        if type(item) not in LEAVES and holds(item, depth + 1):
            return True
    return False


def copied(value: Any, depth: int = 0) -> Any:
    """``value`` with every generator in it replaced by a copy of its present state (the tuples, lists and dicts
    that hold one rebuilt around it, at most ``MAX_DEPTH`` deep; everything else, arrays included, shared)."""
    if isinstance(value, GENERATORS):
        return copy.deepcopy(value)
    if not holds(value, depth):
        return value
    if isinstance(value, dict):
        return {key: copied(item, depth + 1) for key, item in value.items()}
    return type(value)(copied(item, depth + 1) for item in value)


def alone(function: Callable) -> Callable:
    """``function``, called with a copy of every generator in its arguments: each run draws from the state the
    arguments hold, and leaves it as it was for the next run."""
    return lambda *args, **kwargs: function(*copied(args), **copied(kwargs))
