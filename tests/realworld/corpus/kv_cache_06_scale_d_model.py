"""KV cache decode step that scales by sqrt(d_model) (the width of x_t), as the decoder note did with
`math.sqrt(self.d_model)`.

Bug: scores divided by sqrt(d_model) instead of sqrt(d_k).
"""
import math

import numpy as np

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_scale_d_model"}


def _softmax(x):
    e_x = np.exp(x - np.max(x))
    return e_x / e_x.sum()


class KVCache:
    def __init__(self):
        self.key_cache = []
        self.value_cache = []

    def append(self, k, v):
        k = np.asarray(k).astype(np.result_type(np.asarray(k), 1.0), copy=True)
        v = np.asarray(v).astype(np.result_type(np.asarray(v), 1.0), copy=True)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("vectors only")
        if self.key_cache and (k.shape != self.key_cache[-1].shape or v.shape != self.value_cache[-1].shape):
            raise ValueError("size mismatch")
        self.key_cache.append(k)
        self.value_cache.append(v)

    @property
    def keys(self):
        return np.stack(self.key_cache, axis=0) if self.key_cache else np.empty((0, 0))

    @property
    def values(self):
        return np.stack(self.value_cache, axis=0) if self.value_cache else np.empty((0, 0))

    def __len__(self):
        return len(self.key_cache)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    token_embedding = np.asarray(x_t)
    d_model = token_embedding.shape[-1]
    q = token_embedding @ W_Q
    cache.append(token_embedding @ W_K, token_embedding @ W_V)
    scores = np.dot(q, cache.keys.T) / math.sqrt(d_model)
    return np.dot(_softmax(scores), cache.values)
