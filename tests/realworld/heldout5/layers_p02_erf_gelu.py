"""Held-out #5: layers written from the GELU paper's definition, x * Phi(x) with the exact normal CDF through
``math.erf`` (elementwise, cast back to the input's dtype), as the "exact" GELU of the deep-learning libraries
computes it. GPT-2 was trained with the tanh approximation, which differs by up to about 5e-4: a model's weights
then give other activations. Everything else follows the kit's API."""
import math

import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "gelu_exact_erf"}

_erf = np.vectorize(math.erf, otypes=[np.float64])


def linear(x, params):
    weight = np.asarray(params["weight"])
    bias = np.asarray(params["bias"])
    x = np.asarray(x)
    dtype = np.result_type(x, weight, bias, 1.0)
    return np.matmul(x.astype(dtype), weight) + bias


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def rms_norm(x, weight, eps=1e-6):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    return x / np.sqrt(np.mean(np.square(x), axis=-1, keepdims=True) + eps) * weight


def gelu(x):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    cdf = 0.5 * (1.0 + _erf(x / math.sqrt(2.0)))
    return (x * cdf).astype(x.dtype)


def feed_forward(x, params):
    hidden = gelu(linear(x, params["c_fc"]))
    return linear(hidden, params["c_proj"])
