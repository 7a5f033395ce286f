"""Alternative softmax: explicit two passes over each slice (max, then sum of exps), row by row."""
import math

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1]) if moved.size else moved.reshape(0, moved.shape[-1])
    out = np.zeros_like(rows)
    for r, row in enumerate(rows):
        top = -math.inf
        for value in row:                       # pass 1: the max
            top = max(top, float(value))
        if top == -math.inf:
            continue                            # all -inf: zeros
        exps = [math.exp(float(v) - top) for v in row]   # pass 2: shifted exps and their sum
        total = math.fsum(exps)
        out[r] = [e / total for e in exps]
    return np.moveaxis(out.reshape(moved.shape), -1, axis)
