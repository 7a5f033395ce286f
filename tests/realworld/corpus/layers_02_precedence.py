"""GPT-2 layers with the GELU constant written out as a literal, as in several compiler test files and ports:
`tanh(0.7978845608028654 * x + 0.044715 * x**3)`.

Bug: the parentheses around x + 0.044715 x^3 are missing, so sqrt(2 / pi) scales x only and the cubic term is
too large by a factor 1 / 0.798.
"""
import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "gelu_cubic_unscaled"}


def linear(x, params):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, params["weight"], 1.0), copy=False)
    return np.matmul(x, params["weight"]) + params["bias"]


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + eps) * gamma + beta


def rms_norm(x, weight, eps=1e-6):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    return x / np.sqrt((x**2).mean(axis=-1, keepdims=True) + eps) * weight


def gelu(x):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    with np.errstate(over="ignore"):
        return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * x + 0.044715 * x**3))


def feed_forward(x, params):
    return linear(gelu(linear(x, params["c_fc"])), params["c_proj"])
