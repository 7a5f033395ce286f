import numpy as np

from .position_bias import biased_attention


def softmax(x, axis=-1):
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.kind == "f" else np.float64
    moved = np.moveaxis(np.atleast_1d(x).astype(dtype), axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    zeros_q, zeros_k = np.zeros((rows.shape[0], 1), dtype), np.zeros((rows.shape[1], 1), dtype)
    weights = biased_attention(zeros_q, zeros_k, zeros_k, bias=rows)[1]   # softmax(0 + bias)
    return np.moveaxis(weights.reshape(moved.shape), -1, axis).reshape(x.shape)
