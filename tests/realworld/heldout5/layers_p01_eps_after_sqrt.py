"""Held-out #5: small GPT-2 helpers written in the compact style of the short NumPy GPT-2 ports (one line per helper,
``np.var`` for the variance). The epsilon is added after the square root, ``(x - mean) / (sqrt(var) + eps)``; for
rows of unit scale it changes the output by about eps / 2, far past the check's tolerance."""
import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "layer_norm_eps_outside_sqrt"}


def _float(x):
    x = np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(np.float64)


def linear(x, params):
    w, b = np.asarray(params["weight"]), np.asarray(params["bias"])
    x = np.asarray(x)
    return x.astype(np.result_type(x, w, b, 1.0), copy=False) @ w + b


def layer_norm(x, gamma, beta, eps=1e-5):
    x = _float(x)
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mu) / (np.sqrt(var) + eps) + beta


def rms_norm(x, weight, eps=1e-6):
    x = _float(x)
    return weight * x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)


def gelu(x):
    x = _float(x)
    c = (2 / np.pi) ** 0.5
    with np.errstate(over="ignore"):
        return 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))


def feed_forward(x, params):
    return linear(gelu(linear(x, params["c_fc"])), params["c_proj"])
