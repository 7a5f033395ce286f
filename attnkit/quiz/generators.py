"""Generated numeric questions, PrairieLearn style: ``seed -> (params, answer)``.

A bank question names a generator (``generator: softmax_max_weight``); its ``prompt`` and
``explanation`` are ``str.format`` templates filled with the generator's params. The same seed
always gives the same variant. Answers are computed here with numpy, from the formulas (not
with the reference ``solutions``, which the student release does not ship).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

GENERATORS: dict[str, Callable[[np.random.Generator], "Variant"]] = {}


@dataclass(frozen=True)
class Variant:
    params: dict
    answer: float


def generator(name: str):
    def register(function):
        GENERATORS[name] = function
        return function

    return register


def generate(name: str, seed: int) -> Variant:
    """The variant of generator ``name`` for ``seed`` (deterministic)."""
    return GENERATORS[name](np.random.default_rng(int(seed)))


def _vec(values) -> str:
    return "[" + ", ".join(_num(v) for v in values) + "]"


def _mat(rows) -> str:
    return "[" + ", ".join(_vec(row) for row in rows) + "]"


def _softmax_rows(scores: np.ndarray) -> np.ndarray:
    """exp(s) / sum(exp(s)) along the last axis: the definition, enough for the quiz's small scores."""
    exps = np.exp(scores)
    return exps / exps.sum(axis=-1, keepdims=True)


def _num(value) -> str:
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:g}"


@generator("softmax_max_weight")
def softmax_max_weight(rng):
    logits = np.round(rng.uniform(-2.0, 3.0, size=3), 1)
    while len(set(logits.tolist())) < 3:
        logits = np.round(rng.uniform(-2.0, 3.0, size=3), 1)
    weights = _softmax_rows(logits)
    return Variant({"logits": _vec(logits), "weights": _vec(np.round(weights, 4))},
                   round(float(weights.max()), 3))


@generator("attention_weight_0_2")
def attention_weight_0_2(rng):
    Q = rng.integers(-2, 3, size=(3, 2)).astype(float)
    K = rng.integers(-2, 3, size=(3, 2)).astype(float)
    while not Q[0].any() or len(set((Q[0] @ K.T).tolist())) < 3:  # avoid a trivial uniform row
        Q[0] = rng.integers(-2, 3, size=2)
        K = rng.integers(-2, 3, size=(3, 2)).astype(float)
    weights = _softmax_rows((Q @ K.T) * (1.0 / math.sqrt(2)))  # row i: query i's weights over the 3 keys
    scores = Q[0] @ K.T / math.sqrt(2)
    return Variant({"Q": _mat(Q), "K": _mat(K), "scores": _vec(np.round(scores, 4)),
                    "row": _vec(np.round(weights[0], 4))}, round(float(weights[0, 2]), 3))


@generator("scaled_score")
def scaled_score(rng):
    d_k = int(rng.choice([4, 9, 16]))
    q = rng.integers(-3, 4, size=d_k)
    k = rng.integers(-3, 4, size=d_k)
    dot = int(q @ k)
    return Variant({"q": _vec(q), "k": _vec(k), "d_k": d_k, "dot": dot, "root": _num(math.sqrt(d_k))},
                   round(dot / math.sqrt(d_k), 2))


@generator("head_memory_mb")
def head_memory_mb(rng):
    n = int(rng.choice([512, 1024, 2048, 4096, 8192, 16384]))
    megabytes = n * n * 4 / 2**20
    return Variant({"n": n, "floats": n * n, "bytes": n * n * 4}, megabytes)


@generator("causal_allowed_count")
def causal_allowed_count(rng):
    n = int(rng.integers(3, 13))
    allowed = n * (n + 1) // 2  # query i may attend the i + 1 keys j <= i
    return Variant({"n": n, "n_squared": n * n}, float(allowed))


@generator("head_dim")
def head_dim(rng):
    n_heads = int(rng.choice([2, 4, 6, 8, 12, 16]))
    d_k = int(rng.choice([32, 48, 64, 80, 128]))
    return Variant({"d_model": n_heads * d_k, "n_heads": n_heads}, float(d_k))


@generator("sinusoidal_value")
def sinusoidal_value(rng):
    d_model = int(rng.choice([4, 8, 16]))
    pos = int(rng.integers(1, 11))
    column = int(rng.integers(0, d_model))
    pair = column - column % 2
    function = "sin" if column % 2 == 0 else "cos"
    angle = np.float64(pos) / 10000.0 ** (np.float64(pair) / d_model)  # PE[pos, 2i] = sin, PE[pos, 2i+1] = cos
    value = float(np.sin(angle) if function == "sin" else np.cos(angle))
    return Variant({"d_model": d_model, "pos": pos, "col": column, "pair": pair, "fn": function},
                   round(value, 3))


@generator("kv_dot_products")
def kv_dot_products(rng):
    n = int(rng.integers(4, 41))
    return Variant({"n": n, "cached": n * (n + 1) // 2, "naive": sum(t * t for t in range(1, n + 1))},
                   float(n * (n + 1) // 2))


@generator("causal_tiles")
def causal_tiles(rng):
    block = int(rng.choice([32, 64, 128]))
    blocks = int(rng.integers(3, 17))
    n = block * blocks
    return Variant({"n": n, "block": block, "blocks": blocks, "all": blocks * blocks},
                   float(blocks * (blocks + 1) // 2))
