"""Held-out #2: a list-backed cache whose decode step calls ``cache.append(v, k)`` (the argument order of another
codebase's ``update(value, key)``): keys and values trade places."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_keys_values_swapped"}


class KVCache:
    def __init__(self):
        self._k, self._v = [], []

    def append(self, k, v):
        k, v = np.array(k), np.array(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("k and v must be 1-D")
        if self._k and (k.shape != self._k[0].shape or v.shape != self._v[0].shape):
            raise ValueError("k or v changed size")
        if k.dtype.kind != "f":
            k, v = k.astype(np.float64), v.astype(np.float64)
        self._k.append(k)
        self._v.append(v)

    @property
    def keys(self):
        return np.stack(self._k) if self._k else np.empty((0, 0))

    @property
    def values(self):
        return np.stack(self._v) if self._v else np.empty((0, 0))

    def __len__(self):
        return len(self._k)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    q, k, v = x_t @ np.asarray(W_Q), x_t @ np.asarray(W_K), x_t @ np.asarray(W_V)
    cache.append(v, k)
    scores = cache.keys @ q * (1.0 / math.sqrt(q.shape[-1]))
    return softmax(scores) @ cache.values
