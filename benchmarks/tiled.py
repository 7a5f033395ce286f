"""Tiled (flash-style) attention against plain attention: time, peak memory, largest n in 1 GiB."""
from __future__ import annotations

import time
import tracemalloc

import numpy as np

from solutions.attention import scaled_dot_product_attention
from solutions.tiled_attention import tiled_attention

from .measure import median

GIB = 2**30


def _plain(Q, K, V):
    return scaled_dot_product_attention(Q, K, V)[0]


def _tiled(Q, K, V):
    return tiled_attention(Q, K, V, block_size=64)


def _peak(function, *args) -> int:
    tracemalloc.start()
    try:
        function(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _seconds(function, *args, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return median(times)


def run(sizes=(1024, 2048, 4096), d: int = 64, repeats: int = 3) -> dict:
    rng = np.random.default_rng(0)
    rows = []
    for n in sizes:
        Q, K, V = (rng.standard_normal((n, d)) for _ in range(3))
        plain_s, tiled_s = _seconds(_plain, Q, K, V, repeats=repeats), _seconds(_tiled, Q, K, V, repeats=repeats)
        plain_b, tiled_b = _peak(_plain, Q, K, V), _peak(_tiled, Q, K, V)
        rows.append({"n": n, "d": d, "plain_ms": plain_s * 1000, "tiled_ms": tiled_s * 1000,
                     "time_ratio": tiled_s / plain_s,
                     "plain_peak_mb": plain_b / 2**20, "tiled_peak_mb": tiled_b / 2**20,
                     "memory_percent": 100 * tiled_b / plain_b})
    # Fit the measured peaks: plain grows as n^2 (the weights), tiled as n (a (n, block) block and
    # the (n, d) running output). Solve for the n whose peak (inputs included) is 1 GiB.
    largest = rows[-1]
    n = largest["n"]
    inputs = 3 * n * d * 8
    plain_per_n2 = largest["plain_peak_mb"] * 2**20 / n**2
    tiled_per_n = largest["tiled_peak_mb"] * 2**20 / n
    per_input_row = 3 * d * 8  # the inputs (3 n d floats) are memory too when deciding what fits
    fit_plain = int((-per_input_row + (per_input_row**2 + 4 * plain_per_n2 * GIB) ** 0.5) / (2 * plain_per_n2))
    fit_tiled = int(GIB / (tiled_per_n + per_input_row))
    return {"rows": rows, "fits_in_1gib": {"plain": fit_plain, "tiled": fit_tiled},
            "note": f"1 GiB fit from the n = {n} peaks (plain ~ n^2, tiled ~ n), inputs of {inputs >> 20} MiB included"}
