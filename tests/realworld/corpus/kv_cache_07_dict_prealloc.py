"""Correct KV cache as a dict of preallocated buffers grown by doubling, with a `pos` index (the
numpy "KVCache(batch, heads, max_seq_len, head_dim)" layout reduced to one head), decode step via einsum.
"""
import math

import numpy as np

EXPECTED = {"exercise": "kv_cache", "mistake": None}


class KVCache:
    def __init__(self):
        self.store = {"k": None, "v": None}
        self.pos = 0

    def append(self, k, v):
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("append takes one key vector and one value vector")
        if self.store["k"] is None:
            dt = np.result_type(k, v, 1.0)
            self.store = {"k": np.zeros((8, k.size), dt), "v": np.zeros((8, v.size), dt)}
        bk, bv = self.store["k"], self.store["v"]
        if k.size != bk.shape[1] or v.size != bv.shape[1]:
            raise ValueError("k or v has a different size from the cached ones")
        if self.pos == bk.shape[0]:
            self.store = {"k": np.resize(bk, (2 * bk.shape[0], bk.shape[1])),
                          "v": np.resize(bv, (2 * bv.shape[0], bv.shape[1]))}
        self.store["k"][self.pos] = k
        self.store["v"][self.pos] = v
        self.pos += 1

    @property
    def keys(self):
        return np.empty((0, 0)) if self.store["k"] is None else self.store["k"][: self.pos].copy()

    @property
    def values(self):
        return np.empty((0, 0)) if self.store["v"] is None else self.store["v"][: self.pos].copy()

    def __len__(self):
        return self.pos


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x = np.asarray(x_t)
    q = np.einsum("d,dk->k", x, np.asarray(W_Q))
    cache.append(np.einsum("d,dk->k", x, np.asarray(W_K)), np.einsum("d,dv->v", x, np.asarray(W_V)))
    s = np.einsum("tk,k->t", cache.keys, q) / math.sqrt(q.size)
    s = np.exp(s - s.max())
    return np.einsum("t,tv->v", s / s.sum(), cache.values)
