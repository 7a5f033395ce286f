"""GPT-2 layers with the LayerNorm of the well-known annotated Transformer walkthrough:
`gamma * (x - mean) / (std + eps) + beta`, here with numpy's (biased) np.std.

Bug: eps is added to the standard deviation, outside the square root, instead of to the variance inside it.
"""
import math

import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "layer_norm_eps_outside_sqrt"}


def linear(x, params):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, params["weight"], 1.0), copy=False)
    return x @ params["weight"] + params["bias"]


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta


def rms_norm(x, weight, eps=1e-6):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    return weight * x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)


def gelu(x):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    with np.errstate(over="ignore"):
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def feed_forward(x, params):
    return linear(gelu(linear(x, params["c_fc"])), params["c_proj"])
