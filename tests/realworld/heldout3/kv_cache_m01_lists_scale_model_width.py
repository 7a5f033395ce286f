"""Held-out #3: a note-style decoder whose cache is two Python lists stacked at every step, attention scaled by
``sqrt(d_model)`` (the width of the projection's input, ``W_Q.shape[0]``) instead of the key width."""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_scale_d_model"}


class KVCache:
    def __init__(self):
        self.key_cache, self.value_cache = [], []

    def append(self, k, v):
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("append expects 1-D k and v")
        if self.key_cache and (k.shape != self.key_cache[0].shape or v.shape != self.value_cache[0].shape):
            raise ValueError("k and v must keep the sizes of the first append")
        dtype = np.result_type(k, v, 1.0)
        self.key_cache.append(k.astype(dtype, copy=True))
        self.value_cache.append(v.astype(dtype, copy=True))

    @property
    def keys(self):
        return np.stack(self.key_cache) if self.key_cache else np.empty((0, 0))

    @property
    def values(self):
        return np.stack(self.value_cache) if self.value_cache else np.empty((0, 0))

    def __len__(self):
        return len(self.key_cache)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    W_Q = np.asarray(W_Q)
    q, k, v = x_t @ W_Q, x_t @ np.asarray(W_K), x_t @ np.asarray(W_V)
    cache.append(k, v)
    scores = cache.keys @ q / math.sqrt(W_Q.shape[0])
    return softmax(scores) @ cache.values
