"""KV cache decode step that attends over the cache first and appends the new key/value afterwards
("the cache holds the past"), with a fallback for the very first token.

Bug: the new token does not attend to itself.
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_attend_before_append"}


class KVCache:
    def __init__(self):
        self.k, self.v = [], []

    def append(self, k, v):
        k = np.array(k, dtype=np.result_type(np.asarray(k), 1.0))
        v = np.array(v, dtype=np.result_type(np.asarray(v), 1.0))
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("1-D k and v expected")
        if self.k and (k.size != self.k[0].size or v.size != self.v[0].size):
            raise ValueError("size mismatch")
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
    if len(cache) == 0:
        out = v
    else:
        out = softmax(cache.keys @ q / math.sqrt(q.size)) @ cache.values
    cache.append(k, v)
    return out
