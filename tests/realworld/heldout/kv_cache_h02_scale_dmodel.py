"""Held-out: decode step scaled by the model width (``x_t.shape[-1]``) instead of the key size. Style: a minimal
GPT inference loop where d_model == d_k."""
import numpy as np

from .softmax import softmax

EXPECTED = {"exercise": "kv_cache", "mistake": "kv_cache_scale_d_model"}


class KVCache:
    def __init__(self):
        self._k = None
        self._v = None

    def append(self, k, v):
        k = np.array(k, ndmin=1, copy=True)
        v = np.array(v, ndmin=1, copy=True)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError("k and v must be 1-D")
        if k.dtype.kind != "f":
            k, v = k.astype(float), v.astype(float)
        if self._k is None:
            self._k, self._v = k[None], v[None]
        elif k.shape[0] != self._k.shape[1] or v.shape[0] != self._v.shape[1]:
            raise ValueError("size differs from the cached ones")
        else:
            self._k, self._v = np.vstack([self._k, k]), np.vstack([self._v, v])

    @property
    def keys(self):
        return np.empty((0, 0)) if self._k is None else self._k

    @property
    def values(self):
        return np.empty((0, 0)) if self._v is None else self._v

    def __len__(self):
        return 0 if self._k is None else len(self._k)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    cache.append(x_t @ W_K, x_t @ W_V)
    s = cache.keys @ (x_t @ W_Q) / np.float64(x_t.shape[-1]) ** 0.5
    return softmax(s.astype(cache.keys.dtype)) @ cache.values
