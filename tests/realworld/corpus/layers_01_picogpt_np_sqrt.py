"""GPT-2 layers in the style of the small numpy GPT-2 ports: np.var LayerNorm, `x @ w + b`, and the GELU written
`np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))`.

Bug: np.sqrt(2 / np.pi) is a NumPy float64 scalar; under NumPy 2 a float32 array multiplied by it becomes
float64, so float32 inputs give float64 results from gelu and feed_forward (values right).
"""
import numpy as np

EXPECTED = {"exercise": "layers", "mistake": "gelu_float64_constant"}


def linear(x, params):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, params["weight"], 1.0), copy=False)
    return x @ params["weight"] + params["bias"]


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta


def rms_norm(x, weight, eps=1e-6):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    return weight * x / np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps)


def gelu(x):
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)
    with np.errstate(over="ignore"):
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def feed_forward(x, params):
    return linear(gelu(linear(x, params["c_fc"])), params["c_proj"])
