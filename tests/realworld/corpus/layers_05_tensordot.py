"""GPT-2 layers written with np.tensordot and np.einsum, float32 kept by casting the constants to the input's
dtype, GELU's cube guarded by clipping (tanh is exactly +-1 beyond |x| = 10). Correct."""
import numpy as np

EXPECTED = {"exercise": "layers", "mistake": None}


def _floats(x):
    x = np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(np.float64)


def linear(x, params):
    x = _floats(x)
    return np.tensordot(x, params["weight"], axes=([-1], [0])) + params["bias"]


def layer_norm(x, gamma, beta, eps=1e-5):
    x = _floats(x)
    d = x.shape[-1]
    centred = x - np.einsum("...i->...", x)[..., None] / d
    variance = np.einsum("...i,...i->...", centred, centred)[..., None] / d
    return centred / np.sqrt(variance + x.dtype.type(eps)) * gamma + beta


def rms_norm(x, weight, eps=1e-6):
    x = _floats(x)
    return x / np.sqrt(np.einsum("...i,...i->...", x, x)[..., None] / x.shape[-1] + x.dtype.type(eps)) * weight


def gelu(x):
    x = _floats(x)
    c = np.clip(x, -10, 10)
    k = x.dtype.type(np.sqrt(2 / np.pi))
    return x / 2 * (np.tanh(k * (c + x.dtype.type(0.044715) * c**3)) + 1)


def feed_forward(x, params):
    return linear(gelu(linear(x, params["c_fc"])), params["c_proj"])
