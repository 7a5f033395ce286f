"""Multi-head attention that forgets to pass the mask on to the per-head attention call.

Bug: the mask is ignored.
"""
import numpy as np

from .attention import scaled_dot_product_attention

EXPECTED = {"exercise": "multihead", "mistake": "multihead_mask_ignored"}


def split_heads(X, n_heads):
    X = np.asarray(X)
    n, d_model = X.shape[-2:]
    if not (0 < n_heads <= d_model and d_model % n_heads == 0):
        raise ValueError("d_model must be divisible by n_heads")
    X = X.reshape(*X.shape[:-1], n_heads, d_model // n_heads)
    perm = list(range(X.ndim))
    perm[-3], perm[-2] = perm[-2], perm[-3]
    return X.transpose(perm)


def merge_heads(X):
    X = np.asarray(X)
    perm = list(range(X.ndim))
    perm[-3], perm[-2] = perm[-2], perm[-3]
    Y = X.transpose(perm)
    return Y.reshape(*Y.shape[:-2], Y.shape[-2] * Y.shape[-1])

def multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, mask=None):
    X = np.asarray(X)
    proj = {name: split_heads(X @ np.asarray(W), n_heads) for name, W in (("q", W_Q), ("k", W_K), ("v", W_V))}
    out, attn = scaled_dot_product_attention(proj["q"], proj["k"], proj["v"])
    return merge_heads(out) @ np.asarray(W_O), attn
