"""Alternative KV cache: Python lists of rows, stacked on demand."""
import numpy as np

from .softmax import softmax


class KVCache:
    def __init__(self):
        self._k, self._v = [], []

    def append(self, k, v):
        k, v = np.array(k, copy=True), np.array(v, copy=True)
        if k.ndim != 1 or v.ndim != 1 or (self._k and (k.size, v.size) != (self._k[0].size, self._v[0].size)):
            raise ValueError(f"append takes 1-D k and v of the cached sizes, got {k.shape} and {v.shape}")
        if k.dtype.kind != "f":
            k, v = k.astype(np.float64), v.astype(np.float64)
        self._k.append(k)
        self._v.append(v)

    @property
    def keys(self):
        return np.stack(self._k) if self._k else np.empty((0, 0))

    @property
    def values(self):
        return np.stack(self._v) if self._v else np.empty((0, 0))

    def __len__(self):
        return len(self._k)


def decode_step(x_t, W_Q, W_K, W_V, cache):
    x_t = np.asarray(x_t)
    cache.append(x_t @ W_K, x_t @ W_V)
    q = x_t @ W_Q
    scores = np.array([float(key @ q) for key in cache.keys], dtype=q.dtype) / np.sqrt(q.shape[0]).astype(q.dtype)
    return softmax(scores) @ cache.values
