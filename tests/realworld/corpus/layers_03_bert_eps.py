"""GPT-2 layers whose layer_norm signature was carried over from a BERT port: `def layer_norm(x, g, b,
eps=1e-12)`, otherwise the usual mean / np.var form.

Bug: GPT-2's LayerNorms use eps = 1e-5; with 1e-12 a row of small spread is divided by a smaller number.
"""
import math

import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "layer_norm_bert_eps"}


def linear(x, params):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, params["weight"], 1.0), copy=False)
    return x @ params["weight"] + params["bias"]


def layer_norm(x, gamma, beta, eps=1e-12):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta


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
