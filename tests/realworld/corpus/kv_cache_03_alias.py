"""KV cache that keeps the caller's arrays in a list (`self.key_cache.append(k)`), no copy, as most
tutorial caches do with freshly projected vectors.

Bug: the cache aliases the caller's arrays: changing k after append changes the cache.
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_aliasing"}


class KVCache:
    def __init__(self):
        self._k, self._v = [], []

    def append(self, k, v):
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("append expects 1-D arrays")
        if self._k and (len(k) != len(self._k[0]) or len(v) != len(self._v[0])):
            raise ValueError("inconsistent sizes")
        if k.dtype.kind != "f":
            k = k.astype(np.float64)
        if v.dtype.kind != "f":
            v = v.astype(np.float64)
        self._k.append(k)
        self._v.append(v)

    @property
    def keys(self):
        return np.array(self._k) if self._k else np.empty((0, 0))

    @property
    def values(self):
        return np.array(self._v) if self._v else np.empty((0, 0))

    def __len__(self):
        return len(self._k)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    q = x_t @ W_Q
    cache.append(x_t @ W_K, x_t @ W_V)
    return softmax(cache.keys @ q / math.sqrt(len(q))) @ cache.values
