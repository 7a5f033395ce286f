"""Correct softmax written as a loop over rows after moving the axis last (beginner, C-like style).

Imitates: course notebooks that only know 1-D softmax and apply it row by row.
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": None}


def _softmax_1d(row):
    best = row.max() if row.size else 0.0
    if best == -np.inf:
        return np.zeros_like(row)
    e = np.exp(row - best)
    return e / e.sum()


def softmax(x, axis=-1):
    arr = np.array(x)  # a copy: the caller's array is never touched
    if arr.dtype.kind not in "f":
        arr = arr.astype(np.float64)
    moved = np.moveaxis(arr, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1]) if moved.ndim else moved.reshape(1, 1)
    result = np.empty_like(flat)
    for r in range(flat.shape[0]):
        result[r] = _softmax_1d(flat[r])
    return np.moveaxis(result.reshape(moved.shape), -1, axis)
