"""Exercise ``kv_cache``: autoregressive decoding with a key/value cache.

During generation each new token only needs its own query; the keys and values of the
earlier tokens are cached, so a step costs O(t) instead of recomputing O(t^2).
Reading: "Fast Transformer Decoding: One Write-Head is All You Need" (2019), on incremental decoding.
"""
import math

import numpy as np

from .softmax import softmax


class KVCache:
    """Growing store of the keys and values of the tokens decoded so far.

    Attributes
    ----------
    keys : numpy.ndarray, shape (t, d_k)
        The cached keys, oldest first (read-only view).
    values : numpy.ndarray, shape (t, d_v)
        The cached values, oldest first (read-only view).

    ``len(cache)`` is ``t``, the number of cached positions.
    """

    def __init__(self):
        ### BEGIN SOLUTION implement KVCache.__init__: start with an empty cache
        self._keys = None    # (capacity, d_k) buffer, allocated on the first append
        self._values = None  # (capacity, d_v)
        self._length = 0
        ### END SOLUTION

    def append(self, k, v):
        """Add one position's key and value.

        Parameters
        ----------
        k : array_like, shape (d_k,)
        v : array_like, shape (d_v,)

        Raises
        ------
        ValueError
            If ``k`` or ``v`` is not 1-D or its size differs from the cached ones.
        """
        ### BEGIN SOLUTION implement KVCache.append: store a copy of k and v after the ones already cached
        k, v = np.asarray(k), np.asarray(v)
        if k.ndim != 1 or v.ndim != 1:
            raise ValueError(f"append expects 1-D k and v, got shapes {k.shape} and {v.shape}")
        if self._keys is None:
            # anchor: append.dtype
            dtype = np.result_type(k, v, 1.0)  # float32 stays float32; ints become float64
            self._keys = np.empty((16, k.shape[0]), dtype=dtype)
            self._values = np.empty((16, v.shape[0]), dtype=dtype)
        if k.shape[0] != self._keys.shape[1] or v.shape[0] != self._values.shape[1]:
            raise ValueError(
                f"append got k {k.shape} and v {v.shape}; the cache holds d_k={self._keys.shape[1]}, "
                f"d_v={self._values.shape[1]}"
            )
        if self._length == self._keys.shape[0]:  # full: double the capacity (amortised O(1) appends)
            self._keys = np.concatenate([self._keys, np.empty_like(self._keys)])
            self._values = np.concatenate([self._values, np.empty_like(self._values)])
        self._keys[self._length] = k
        self._values[self._length] = v
        # anchor: append.count
        self._length += 1
        ### END SOLUTION

    @property
    def keys(self):
        """numpy.ndarray, shape (t, d_k): the cached keys."""
        ### BEGIN SOLUTION implement KVCache.keys: the t cached keys as one (t, d_k) array
        if self._keys is None:
            return np.empty((0, 0))
        # anchor: keys.stored
        view = self._keys[: self._length]
        view.flags.writeable = False
        return view
        ### END SOLUTION

    @property
    def values(self):
        """numpy.ndarray, shape (t, d_v): the cached values."""
        ### BEGIN SOLUTION implement KVCache.values: the t cached values as one (t, d_v) array
        if self._values is None:
            return np.empty((0, 0))
        view = self._values[: self._length]
        view.flags.writeable = False
        return view
        ### END SOLUTION

    def __len__(self):
        ### BEGIN SOLUTION implement KVCache.__len__: the number of cached positions
        return self._length
        ### END SOLUTION


def decode_step(x_t, W_Q, W_K, W_V, cache):
    """One autoregressive step: project the new token, cache its key and value, attend.

    Parameters
    ----------
    x_t : array_like, shape (d_model,)
        The newest token's embedding.
    W_Q, W_K : array_like, shape (d_model, d_k)
    W_V : array_like, shape (d_model, d_v)
    cache : KVCache
        Holds the earlier tokens' keys and values; this step appends its own.

    Returns
    -------
    numpy.ndarray, shape (d_v,)
        The new token's attention output over every cached position (itself included).
        Stacking ``decode_step`` over a sequence equals
        ``self_attention(X, W_Q, W_K, W_V, causal_mask(n))[0]``.
    """
    ### BEGIN SOLUTION implement decode_step: project x_t, append its key and value, then attend over the whole cache
    x_t = np.asarray(x_t)
    q = x_t @ np.asarray(W_Q)          # (d_model,) @ (d_model, d_k) -> (d_k,)
    k = x_t @ np.asarray(W_K)          # (d_k,)
    v = x_t @ np.asarray(W_V)          # (d_v,)
    # anchor: decode_step.cache
    cache.append(k, v)                 # the new token attends to itself too
    # anchor: decode_step.keys
    keys, values = cache.keys, cache.values       # (t, d_k), (t, d_v)
    # anchor: decode_step.scores
    scores = (keys @ q) * (1.0 / math.sqrt(q.shape[-1]))  # (t, d_k) @ (d_k,) -> (t,)
    weights = softmax(scores)          # (t,)
    return weights @ values            # (t,) @ (t, d_v) -> (d_v,)
    ### END SOLUTION
