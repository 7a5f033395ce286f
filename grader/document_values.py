"""Loader for ``document_values.yaml``: the worked numbers of the seed documents as numpy arrays."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

PATH = Path(__file__).with_name("document_values.yaml")


@dataclass(frozen=True)
class Expected:
    """A printed value: the array, the tolerance it was printed to, and where it is printed."""

    value: np.ndarray
    atol: float
    printed_under: str


@lru_cache(maxsize=1)
def raw() -> dict:
    """The parsed YAML file (through its parsed copy in a built kit: ``grader.parsed``)."""
    from .parsed import load

    return load(PATH)


def _expected(entry: dict) -> Expected:
    return Expected(np.array(entry["value"], dtype=np.float64), float(entry["atol"]), entry["printed_under"])


def india_inputs() -> dict[str, np.ndarray]:
    """X (3, 4) and W_Q, W_K, W_V (4, 4) of the "India is great" example (003)."""
    return {name: np.array(rows, dtype=np.float64) for name, rows in raw()["india_is_great"]["inputs"].items()}


def india_expected() -> dict[str, Expected]:
    """Q, K, V (3, 4), raw_scores (3, 3), weights (3, 3), output (3, 4) as printed in 003."""
    return {name: _expected(entry) for name, entry in raw()["india_is_great"]["expected"].items()}


def two_heads_weights() -> dict[str, np.ndarray]:
    """The two-head example's matrices, drawn exactly as 003 does (np.random.seed(1), rand in order).

    Returns the per-head draws and the packed ``W_Q``, ``W_K``, ``W_V`` (4, 4) whose columns
    ``[0:2]`` are head 1 and ``[2:4]`` head 2, plus ``W_O`` (4, 4).
    """
    spec = raw()["india_two_heads"]
    state = np.random.RandomState(spec["random_seed"])  # the legacy generator np.random.seed uses
    draws = {name: state.random_sample(tuple(shape)) for name, shape in spec["draws"]}
    draws["W_Q"] = np.concatenate([draws["Wq1"], draws["Wq2"]], axis=1)
    draws["W_K"] = np.concatenate([draws["Wk1"], draws["Wk2"]], axis=1)
    draws["W_V"] = np.concatenate([draws["Wv1"], draws["Wv2"]], axis=1)
    return draws


def two_heads_expected() -> Expected:
    """The printed multi-head output (3, 4) of 003."""
    return _expected(raw()["india_two_heads"]["expected"]["output"])


def shapes() -> list[dict]:
    """The shapes printed in the seeds' example code, with their sizes and source."""
    return raw()["shapes"]


def causal_mask_5() -> np.ndarray:
    """The 5 x 5 causal mask drawn in 002, as bool (5, 5)."""
    return np.array(raw()["causal_mask_5"]["value"], dtype=bool)


def memory() -> dict:
    """The memory figures of 002 ("Memory: The Quadratic Problem")."""
    return raw()["memory"]
