"""Held-out #3: a NumPy GPT-2 port whose GELU is the exact form ``0.5 x (1 + erf(x / sqrt 2))`` (math.erf
vectorised), where GPT-2 and this API use the tanh approximation."""
import math

import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "gelu_exact_erf"}

_erf = np.vectorize(math.erf, otypes=[np.float64])


def linear(x, params):
    w, b = np.asarray(params["weight"]), np.asarray(params["bias"])
    x = np.asarray(x)
    return x.astype(np.result_type(x, w, b, 1.0), copy=False) @ w + b


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * np.asarray(gamma) + np.asarray(beta)


def rms_norm(x, weight, eps=1e-6):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * np.asarray(weight)


def gelu(x):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    return (0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))).astype(x.dtype, copy=False)


def feed_forward(x, params):
    return linear(gelu(linear(x, params["c_fc"])), params["c_proj"])
