"""Held-out #3: a cache that keeps the caller's own arrays in its lists (``self.keys_list.append(k)``, no copy),
as small inference demos do: a caller that reuses its buffer changes what the cache holds."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_aliasing"}


class KVCache:
    def __init__(self):
        self.keys_list, self.values_list = [], []

    def append(self, k, v):
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("append expects 1-D k and v")
        if self.keys_list and (k.shape != self.keys_list[0].shape or v.shape != self.values_list[0].shape):
            raise ValueError("k and v must keep the sizes of the first append")
        self.keys_list.append(k)
        self.values_list.append(v)

    @property
    def keys(self):
        if not self.keys_list:
            return np.empty((0, 0))
        return np.stack(self.keys_list).astype(np.result_type(self.keys_list[0], 1.0), copy=False)

    @property
    def values(self):
        if not self.values_list:
            return np.empty((0, 0))
        return np.stack(self.values_list).astype(np.result_type(self.values_list[0], 1.0), copy=False)

    def __len__(self):
        return len(self.keys_list)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    q = x_t @ np.asarray(W_Q)
    cache.append(x_t @ np.asarray(W_K), x_t @ np.asarray(W_V))
    scores = (cache.keys @ q) * (1.0 / math.sqrt(q.shape[-1]))
    return softmax(scores) @ cache.values
