"""Held-out #3: layer norm with ``x.std(axis=-1, ddof=1, keepdims=True)`` (the sample standard deviation, as a
pandas-minded helper computes it) and eps added inside the root: the variance divides by d - 1."""
import math

import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "layer_norm_unbiased_variance"}


def linear(x, params):
    w, b = np.asarray(params["weight"]), np.asarray(params["bias"])
    x = np.asarray(x)
    return x.astype(np.result_type(x, w, b, 1.0), copy=False) @ w + b


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    mean = x.mean(axis=-1, keepdims=True)
    std = np.sqrt(np.square(x.std(axis=-1, ddof=1, keepdims=True)) + eps)
    return (x - mean) / std * np.asarray(gamma) + np.asarray(beta)


def rms_norm(x, weight, eps=1e-6):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * np.asarray(weight)


def gelu(x):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    with np.errstate(over="ignore"):
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)
    return 0.5 * x * (1.0 + np.tanh(inner))


def feed_forward(x, params):
    return linear(gelu(linear(x, params["c_fc"])), params["c_proj"])
