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
        # TODO: implement KVCache.__init__: start with an empty cache
        raise NotImplementedError('implement KVCache.__init__: start with an empty cache')

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
        # TODO: implement KVCache.append: store a copy of k and v after the ones already cached
        raise NotImplementedError('implement KVCache.append: store a copy of k and v after the ones already cached')

    @property
    def keys(self):
        """numpy.ndarray, shape (t, d_k): the cached keys."""
        # TODO: implement KVCache.keys: the t cached keys as one (t, d_k) array
        raise NotImplementedError('implement KVCache.keys: the t cached keys as one (t, d_k) array')

    @property
    def values(self):
        """numpy.ndarray, shape (t, d_v): the cached values."""
        # TODO: implement KVCache.values: the t cached values as one (t, d_v) array
        raise NotImplementedError('implement KVCache.values: the t cached values as one (t, d_v) array')

    def __len__(self):
        # TODO: implement KVCache.__len__: the number of cached positions
        raise NotImplementedError('implement KVCache.__len__: the number of cached positions')


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
    # TODO: implement decode_step: project x_t, append its key and value, then attend over the whole cache
    raise NotImplementedError('implement decode_step: project x_t, append its key and value, then attend over the whole cache')
