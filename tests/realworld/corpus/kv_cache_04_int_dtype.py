"""KV cache with preallocated buffers whose dtype is taken from the first key (`np.zeros(..., dtype=k.dtype)`),
as in the fixed-size numpy caches with a `cur_pos` index.

Bug: integer keys/values are cached as integers (the kit wants float64, like every other function).
"""
import math

import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_integer_dtype"}


class KVCache:
    def __init__(self, max_seq_len=4096):
        self.max_seq_len = max_seq_len
        self.k_buf = None
        self.v_buf = None
        self.cur_pos = 0

    def append(self, k, v):
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("k and v must be 1-D")
        if self.k_buf is None:
            self.k_buf = np.zeros((self.max_seq_len, k.shape[0]), dtype=k.dtype)
            self.v_buf = np.zeros((self.max_seq_len, v.shape[0]), dtype=v.dtype)
        if k.shape[0] != self.k_buf.shape[1] or v.shape[0] != self.v_buf.shape[1]:
            raise ValueError("size mismatch")
        if self.cur_pos == self.k_buf.shape[0]:
            self.k_buf = np.concatenate([self.k_buf, np.zeros_like(self.k_buf)])
            self.v_buf = np.concatenate([self.v_buf, np.zeros_like(self.v_buf)])
        self.k_buf[self.cur_pos] = k
        self.v_buf[self.cur_pos] = v
        self.cur_pos += 1

    @property
    def keys(self):
        return np.empty((0, 0)) if self.k_buf is None else self.k_buf[: self.cur_pos].copy()

    @property
    def values(self):
        return np.empty((0, 0)) if self.v_buf is None else self.v_buf[: self.cur_pos].copy()

    def __len__(self):
        return self.cur_pos


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    q = x_t @ np.asarray(W_Q)
    cache.append(x_t @ np.asarray(W_K), x_t @ np.asarray(W_V))
    scores = cache.keys @ q * (1.0 / math.sqrt(q.shape[0]))
    return softmax(scores) @ cache.values
