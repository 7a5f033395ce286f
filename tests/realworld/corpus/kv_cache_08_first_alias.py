"""KV cache in the "cache dict" style: the first key/value are stored as given (`cache['K'] = k[None]`,
a view), later ones by np.concatenate (which copies).

Bug: while the cache holds one position, it aliases the caller's first k and v (changing k after the
first append changes the cache; the next append's concatenate copies).
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_aliasing"}


class KVCache:
    def __init__(self):
        self.cache = {"K": None, "V": None}

    def append(self, k, v):
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("k and v must be 1-D")
        if k.dtype.kind != "f":
            k = k.astype(np.float64)
        if v.dtype.kind != "f":
            v = v.astype(np.float64)
        if self.cache["K"] is None:
            self.cache["K"], self.cache["V"] = k[None, :], v[None, :]
            return
        if k.shape[0] != self.cache["K"].shape[1] or v.shape[0] != self.cache["V"].shape[1]:
            raise ValueError("size differs from the cache")
        self.cache["K"] = np.concatenate((self.cache["K"], k[None, :]), axis=0)
        self.cache["V"] = np.concatenate((self.cache["V"], v[None, :]), axis=0)

    @property
    def keys(self):
        return np.empty((0, 0)) if self.cache["K"] is None else self.cache["K"]

    @property
    def values(self):
        return np.empty((0, 0)) if self.cache["V"] is None else self.cache["V"]

    def __len__(self):
        return 0 if self.cache["K"] is None else len(self.cache["K"])


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    q = x_t @ W_Q
    cache.append(x_t @ W_K, x_t @ W_V)
    QK_t = cache.keys @ q
    return softmax(QK_t * (1.0 / math.sqrt(q.shape[0]))) @ cache.values
