"""Exercise ``layers``: the small functions around attention in a GPT-2 layer.

    linear(x)       = x @ weight + bias                  weight (d_in, d_out): HF's Conv1D layout
    layer_norm(x)   = (x - mean) / sqrt(var + eps) * gamma + beta   over the features of one token
    rms_norm(x)     = x / sqrt(mean(x^2) + eps) * weight             no centring, no bias
    gelu(x)         = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))  the tanh form GPT-2 uses
    feed_forward(x) = linear(gelu(linear(x, c_fc)), c_proj)

The variance is the biased one (divided by d) and is computed from the centred values, so
rows that share a large offset (1e6 + noise) still normalise accurately. Constants are
Python floats so that a float32 input stays float32.
Sources: "Layer Normalization" (2016), "Root Mean Square Layer Normalization" (2019),
"Gaussian Error Linear Units (GELUs)" (2016), "Language Models are Unsupervised Multitask
Learners" (GPT-2, 2019).
"""
import math

import numpy as np


def linear(x, params):
    """An affine map with GPT-2's weight layout: ``x @ weight + bias``.

    Parameters
    ----------
    x : array_like, shape (..., d_in)
    params : dict
        ``{"weight": (d_in, d_out), "bias": (d_out,)}``; the weight is stored (in, out), as
        HuggingFace's ``Conv1D`` does, so it is used without a transpose.

    Returns
    -------
    numpy.ndarray, shape (..., d_out)
        Float dtype of ``x`` and the parameters (float64 for integer or list input).
    """
    ### BEGIN SOLUTION implement linear: x times the (d_in, d_out) weight, plus the bias
    weight, bias = np.asarray(params["weight"]), np.asarray(params["bias"])
    x = np.asarray(x)
    x = x.astype(np.result_type(x, weight, bias, 1.0), copy=False)  # float32 stays float32; ints become float64
    # anchor: linear.return
    return x @ weight + bias  # (..., d_in) @ (d_in, d_out) -> (..., d_out), + (d_out,)
    ### END SOLUTION


# anchor: layer_norm.signature
def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalisation over the last axis (the features of each token).

    Parameters
    ----------
    x : array_like, shape (..., d)
    gamma, beta : array_like, shape (d,)
        The learned scale and shift.
    eps : float, optional
        Added to the variance inside the square root (GPT-2: 1e-5).

    Returns
    -------
    numpy.ndarray, shape (..., d)
        ``(x - mean) / sqrt(var + eps) * gamma + beta`` with the mean and the biased variance
        of each row; a constant row gives ``beta``. Float dtype of ``x`` (float64 for integer
        or list input).
    """
    ### BEGIN SOLUTION implement layer_norm: centre each row, divide by sqrt(biased variance + eps), scale and shift
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)  # float32 stays float32; ints become float64
    # anchor: layer_norm.mean
    mean = np.mean(x, axis=-1, keepdims=True)                  # (..., 1)
    centred = x - mean                                         # (..., d)
    # anchor: layer_norm.variance
    variance = np.mean(centred * centred, axis=-1, keepdims=True)  # (..., 1): divides by d
    # anchor: layer_norm.normalised
    normalised = centred / np.sqrt(variance + eps)             # (..., d)
    # anchor: layer_norm.return
    return normalised * np.asarray(gamma) + np.asarray(beta)   # (..., d) * (d,) + (d,)
    ### END SOLUTION


def rms_norm(x, weight, eps=1e-6):
    """Root-mean-square normalisation over the last axis (LLaMA's norm): no centring, no bias.

    Parameters
    ----------
    x : array_like, shape (..., d)
    weight : array_like, shape (d,)
        The learned scale.
    eps : float, optional
        Added to the mean square inside the square root.

    Returns
    -------
    numpy.ndarray, shape (..., d)
        ``x / sqrt(mean(x**2) + eps) * weight``, row by row; a zero row gives zeros. Float
        dtype of ``x`` (float64 for integer or list input).
    """
    ### BEGIN SOLUTION implement rms_norm: divide each row by the square root of its mean square (+ eps), then scale
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)  # float32 stays float32; ints become float64
    # anchor: rms_norm.mean_square
    mean_square = np.mean(x * x, axis=-1, keepdims=True)  # (..., 1)
    return x / np.sqrt(mean_square + eps) * np.asarray(weight)  # (..., d) / (..., 1) * (d,)
    ### END SOLUTION


def gelu(x):
    """GELU in the tanh approximation GPT-2 was trained with (``gelu_new``).

    Parameters
    ----------
    x : array_like, shape (...)

    Returns
    -------
    numpy.ndarray, shape (...)
        ``0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3)))``; finite for every finite
        ``x`` (the cube may overflow to inf, where tanh is exactly +-1). Float dtype of ``x``
        (float64 for integer or list input).
    """
    ### BEGIN SOLUTION implement gelu: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), with Python-float constants
    x = np.asarray(x)
    x = x.astype(np.result_type(x, 1.0), copy=False)  # float32 stays float32; ints become float64
    with np.errstate(over="ignore"):  # x**3 may overflow to +-inf; tanh(+-inf) = +-1 is the right limit
        # anchor: gelu.inner
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)  # (...)
    # anchor: gelu.return
    return 0.5 * x * (1.0 + np.tanh(inner))
    ### END SOLUTION


def feed_forward(x, params):
    """GPT-2's MLP: expand, GELU, project back.

    Parameters
    ----------
    x : array_like, shape (..., d)
    params : dict
        ``{"c_fc": {"weight": (d, d_ff), "bias": (d_ff,)},
        "c_proj": {"weight": (d_ff, d), "bias": (d,)}}`` (GPT-2: ``d_ff = 4 d``).

    Returns
    -------
    numpy.ndarray, shape (..., d)
        ``linear(gelu(linear(x, c_fc)), c_proj)``. Float dtype of ``x`` and the parameters.
    """
    ### BEGIN SOLUTION implement feed_forward: linear to d_ff, gelu, linear back to d
    # anchor: feed_forward.hidden
    hidden = gelu(linear(x, params["c_fc"]))  # (..., d) @ (d, d_ff) -> (..., d_ff)
    return linear(hidden, params["c_proj"])   # (..., d_ff) @ (d_ff, d) -> (..., d)
    ### END SOLUTION
