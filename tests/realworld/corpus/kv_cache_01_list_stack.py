"""Correct KV cache kept as Python lists of copied vectors, stacked on every read (the "SimpleTransformerDecoder"
note's layout), decode step with a one-line softmax of its own.
"""
import math

import numpy as np

EXPECTED = {"exercise": "kv_cache", "mistake": None}


class KVCache:
    def __init__(self):
        self.key_cache = []
        self.value_cache = []

    def append(self, k, v):
        k = np.array(k, copy=True)
        v = np.array(v, copy=True)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("k and v must be vectors")
        if self.key_cache and (k.shape != self.key_cache[0].shape or v.shape != self.value_cache[0].shape):
            raise ValueError("k/v size differs from the cached ones")
        dtype = np.result_type(k, v, 1.0)
        self.key_cache.append(k.astype(dtype))
        self.value_cache.append(v.astype(dtype))

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
    q, k, v = x_t @ np.asarray(W_Q), x_t @ np.asarray(W_K), x_t @ np.asarray(W_V)
    cache.append(k, v)
    scores = cache.keys @ q / math.sqrt(q.shape[0])
    e = np.exp(scores - scores.max())
    return (e / e.sum()) @ cache.values
