"""Held-out: cache as Python lists that keep the caller's arrays themselves (no copy): a later change of the
caller's k or v changes the cache."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_aliasing"}


class KVCache:
    def __init__(self):
        self.k, self.v = [], []

    def append(self, k, v):
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1 or (self.k and (k.shape != self.k[0].shape or v.shape != self.v[0].shape)):
            raise ValueError("append takes 1-D k and v of the cached sizes")
        if k.dtype.kind != "f":
            k, v = k.astype(float), v.astype(float)
        self.k.append(k)
        self.v.append(v)

    @property
    def keys(self):
        return np.stack(self.k) if self.k else np.empty((0, 0))

    @property
    def values(self):
        return np.stack(self.v) if self.v else np.empty((0, 0))

    def __len__(self):
        return len(self.k)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    q, k, v = x_t @ W_Q, x_t @ W_K, x_t @ W_V
    cache.append(k, v)
    w = softmax(cache.keys @ q * (1.0 / math.sqrt(q.shape[-1])))
    return w @ cache.values
