"""Softmax as (exp(x).T / sum(exp(x), axis=-1)).T, the form found in several tutorials' attention files.

Bug: no max subtraction (exp overflows for large scores); the transposes only line up for 2-D input.
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_no_max_subtraction"}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float) if np.asarray(x).dtype.kind != "f" else np.asarray(x)
    e = np.exp(x)
    return (e.T / np.sum(e, axis=axis).T).T
