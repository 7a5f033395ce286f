"""Held-out #2: a cache whose ``keys`` returns the stacked keys transposed, ``np.array(self.k).T`` (the author
kept K^T ready for ``q @ K``); the decode step uses it consistently, so only the property's shape is wrong."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "shape_transposed"}


class KVCache:
    def __init__(self):
        self.k, self.v = [], []

    def append(self, k, v):
        k, v = np.array(k), np.array(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("k and v must be 1-D")
        if self.k and (k.shape != self.k[0].shape or v.shape != self.v[0].shape):
            raise ValueError("k or v changed size")
        if k.dtype.kind != "f":
            k, v = k.astype(np.float64), v.astype(np.float64)
        self.k.append(k)
        self.v.append(v)

    @property
    def keys(self):
        return np.array(self.k).T if self.k else np.empty((0, 0))

    @property
    def values(self):
        return np.array(self.v) if self.v else np.empty((0, 0))

    def __len__(self):
        return len(self.k)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    q = x_t @ np.asarray(W_Q)
    cache.append(x_t @ np.asarray(W_K), x_t @ np.asarray(W_V))
    weights = softmax((q @ cache.keys) * (1.0 / math.sqrt(q.shape[-1])))
    return weights @ cache.values
