"""Cached against uncached generation with the reference ``sampling.generate``: the same tokens, and how much less
the KV cache costs (d = 256, 150 new tokens by default; greedy and sampled with one seed)."""
from __future__ import annotations

import time

import numpy as np

from grader.checks.gpt_model import model_params
from solutions.sampling import generate

from .measure import median


def _seconds(repeats: int, *args, **kwargs) -> tuple[float, np.ndarray]:
    """Median wall time of ``generate(*args, **kwargs)`` and its tokens (sampling seeded with 0 every time)."""
    times, tokens = [], None
    for _ in range(repeats):
        rng = np.random.default_rng(0) if kwargs.get("temperature") else None
        start = time.perf_counter()
        tokens = generate(*args, rng=rng, **kwargs)
        times.append(time.perf_counter() - start)
    return median(times), tokens


def run(d: int = 256, n_new: int = 150, n_layer: int = 2, n_head: int = 8, prompt_length: int = 10,
        repeats: int = 3) -> dict:
    rng = np.random.default_rng(0)
    V, n_ctx = 64, prompt_length + n_new
    params = model_params(rng, V, d, n_ctx, n_layer)
    prompt = rng.integers(0, V, prompt_length)
    rows = []
    for mode, options in (("greedy", {}), ("sampled (T 0.8, top-k 20, top-p 0.95)",
                                          {"temperature": 0.8, "top_k": 20, "top_p": 0.95})):
        cached_s, cached = _seconds(repeats, prompt, params, n_head, n_new, use_cache=True, **options)
        full_s, full = _seconds(repeats, prompt, params, n_head, n_new, use_cache=False, **options)
        rows.append({"mode": mode, "cached_ms": cached_s * 1000, "uncached_ms": full_s * 1000,
                     "speedup": full_s / cached_s, "identical": bool(np.array_equal(cached, full))})
    return {"d": d, "n_new": n_new, "n_layer": n_layer, "n_head": n_head, "prompt": prompt_length, "rows": rows}
