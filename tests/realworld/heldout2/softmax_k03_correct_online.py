"""Held-out #2 (correct): the two-pass online softmax (running maximum and rescaled running sum, from the
"online normalizer calculation for softmax" note, 2018) walked along the axis with a Python loop."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": None}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    moved = np.moveaxis(x, axis, -1)
    running_max = np.full(moved.shape[:-1], -np.inf, dtype=x.dtype)
    running_sum = np.zeros(moved.shape[:-1], dtype=x.dtype)
    for j in range(moved.shape[-1]):
        col = moved[..., j]
        new_max = np.maximum(running_max, col)
        safe = np.where(np.isfinite(new_max), new_max, 0)
        running_sum = running_sum * np.exp(running_max - safe) + np.exp(col - safe)
        running_max = new_max
    safe = np.where(np.isfinite(running_max), running_max, 0)[..., None]
    e = np.exp(moved - safe)
    denom = running_sum[..., None]
    out = np.divide(e, denom, out=np.zeros_like(e), where=denom > 0)
    return np.moveaxis(out, -1, axis)
