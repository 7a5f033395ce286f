"""Exercise ``training``: backpropagation through the whole GPT, and the AdamW optimiser.

The model of ``gpt.py`` is differentiated by hand, piece by piece, with the chain rule run
backwards through what the forward pass computed:

    LayerNorm   y = xhat * gamma + beta, xhat = (x - mean) / sqrt(var + eps): the mean and the
                variance depend on x, so dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * gamma
    GELU        d/dx of 0.5 x (1 + tanh(u)), u = c (x + a x^3): 0.5 (1 + tanh u) + 0.5 x sech^2(u) c (1 + 3a x^2)
    loss        the mean cross-entropy over N positions: dlogits = (softmax(logits) - one_hot(targets)) / N
    attention   the kit's attention_backward, heads as a leading batch axis, with the causal mask

The token embedding is used twice (to embed, and as the tied output head), so its gradient is
the sum of both contributions; a token that occurs several times accumulates one embedding
gradient per occurrence (``np.add.at``, not ``dwte[tokens] += ...``).

AdamW (Adam: "Adam: A Method for Stochastic Optimization", 2014; decoupled weight decay:
"Decoupled Weight Decay Regularization", 2017) keeps running means of the gradient and of its
square, corrects their start-up bias, and shrinks the weights separately from the gradient
step. Functional here: new trees every step, the caller's arrays untouched.
Sources: "Language Models are Unsupervised Multitask Learners" (GPT-2, 2019); "Layer
Normalization" (2016); "Gaussian Error Linear Units (GELUs)" (2016).
"""
import copy
import math

import numpy as np

from .attention import scaled_dot_product_attention
from .attention_backward import attention_backward
from .gpt import cross_entropy, log_softmax
from .layers import gelu, layer_norm, linear
from .masking import causal_mask
from .multihead import merge_heads, split_heads

EPS = 1e-5  # every LayerNorm of GPT-2 (layer_norm_epsilon)


def layer_norm_backward(x, gamma, dy, eps=1e-5):
    """Gradients of ``sum(dy * layer_norm(x, gamma, beta, eps))`` (the norm is over the last axis).

    Parameters
    ----------
    x : array_like, shape (..., d)
        The LayerNorm's input.
    gamma : array_like, shape (d,)
        Its scale (beta, the shift, does not enter any gradient).
    dy : array_like, shape (..., d) (same as ``x``)
        The gradient of the loss with respect to the LayerNorm's output.
    eps : float, optional
        Added to the variance inside the square root (default 1e-5, GPT-2's).

    Returns
    -------
    dx : numpy.ndarray, shape (..., d)
    dgamma : numpy.ndarray, shape (d,)
    dbeta : numpy.ndarray, shape (d,)
        ``dgamma`` and ``dbeta`` are summed over every leading axis. Float dtype of the inputs
        (float64 for integer or list input).

    Raises
    ------
    ValueError
        If ``dy`` does not have the shape of ``x``, or ``gamma`` is not of shape ``(d,)``.
    """
    # TODO: implement layer_norm_backward: recompute xhat and 1/std, then the three gradients
    raise NotImplementedError('implement layer_norm_backward: recompute xhat and 1/std, then the three gradients')


def gelu_backward(x, dy):
    """Gradient of ``sum(dy * gelu(x))``: ``dy * gelu'(x)`` for GPT-2's tanh approximation.

    Parameters
    ----------
    x : array_like, shape (...)
        GELU's input.
    dy : array_like, shape (...) (same as ``x``)
        The gradient of the loss with respect to GELU's output.

    Returns
    -------
    numpy.ndarray, shape (...)
        ``dy * gelu'(x)``, finite for every finite ``x`` (1 far right, 0 far left). Float dtype of
        the inputs (float64 for integer or list input).

    Raises
    ------
    ValueError
        If ``dy`` does not have the shape of ``x``.
    """
    # TODO: implement gelu_backward: the product rule on 0.5 x (1 + tanh(u)), and the chain rule into u
    raise NotImplementedError('implement gelu_backward: the product rule on 0.5 x (1 + tanh(u)), and the chain rule into u')


def cross_entropy_backward(logits, targets):
    """Gradient of ``cross_entropy(logits, targets)`` (the mean over every position) for the logits.

    Parameters
    ----------
    logits : array_like, shape (..., V)
    targets : array_like of int, shape (...) (``logits.shape[:-1]``)
        The correct class of each position, in ``[0, V)``.

    Returns
    -------
    numpy.ndarray, shape (..., V)
        ``(softmax(logits) - one_hot(targets)) / N``, N the number of positions. Float dtype of
        ``logits`` (float64 for integer or list input).

    Raises
    ------
    ValueError
        If ``targets`` is not integer, its shape is not ``logits.shape[:-1]``, or a target lies outside ``[0, V)``.
    """
    # TODO: implement cross_entropy_backward: softmax minus the one-hot targets, divided by the positions
    raise NotImplementedError('implement cross_entropy_backward: softmax minus the one-hot targets, divided by the positions')


def gpt_backward(tokens, params, n_head):
    """The next-token loss of the GPT and its gradient for every parameter.

    Parameters
    ----------
    tokens : array_like of int, shape (..., T)
        Token ids in ``[0, V)``, ``2 <= T <= n_ctx``; the model reads ``tokens[..., :-1]`` and
        predicts ``tokens[..., 1:]``.
    params : dict
        The GPT-2 parameter tree (``wte``, ``wpe``, ``h``, ``ln_f``), as in ``gpt.py``.
    n_head : int
        Number of heads; divides d.

    Returns
    -------
    loss : float
        ``lm_loss(tokens, params, n_head)``.
    grads : dict
        The gradient of ``loss`` for every parameter: a tree with exactly the keys, list lengths,
        shapes and float dtype of ``params``. ``wte``'s gradient is the sum of the embedding's
        (a repeated token accumulates) and the tied output head's.

    Raises
    ------
    ValueError
        If the tokens are not integer, ``T < 2``, ``T > n_ctx``, an id lies outside ``[0, V)``, or
        ``n_head`` does not divide d.
    """
    # TODO: implement gpt_backward: a forward pass keeping what backward needs, then every layer in reverse
    raise NotImplementedError('implement gpt_backward: a forward pass keeping what backward needs, then every layer in reverse')


def adam_step(params, grads, state=None, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    """One AdamW step (``torch.optim.AdamW``'s update) on every array of a parameter tree.

    Parameters
    ----------
    params : dict or list
        A tree (nested dicts and lists) of float arrays.
    grads : dict or list
        Their gradients: the same keys, list lengths and shapes.
    state : dict, optional
        None before the first step, else the state this function returned last time.
    lr : float, optional
        The learning rate.
    betas : tuple of float, optional
        ``(b1, b2)``: the decay rates of the running mean of the gradient and of its square.
    eps : float, optional
        Added to ``sqrt(v_hat)``, outside the square root.
    weight_decay : float, optional
        Decoupled decay: every array is multiplied by ``1 - lr * weight_decay`` before the step.

    Returns
    -------
    new_params : dict or list
        A new tree of the same structure, shapes and dtypes as ``params``.
    new_state : dict
        The step count ``t`` and the running means ``m`` and ``v`` (trees like ``params``).

    Raises
    ------
    ValueError
        If ``grads`` (or the state's trees) do not have ``params``' structure and shapes, or
        ``lr``, ``eps`` or ``weight_decay`` is negative, or a beta lies outside ``[0, 1)``.
    """
    # TODO: implement adam_step: t + 1, both running means, bias correction, decoupled decay; new trees
    raise NotImplementedError('implement adam_step: t + 1, both running means, bias correction, decoupled decay; new trees')


def train(tokens, params, n_head, n_steps, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    """Full-batch training: ``n_steps`` of ``gpt_backward`` then ``adam_step``.

    Parameters
    ----------
    tokens : array_like of int, shape (..., T)
        The training text as ids (every row is one sequence), ``2 <= T <= n_ctx``.
    params : dict
        The initial GPT-2 parameter tree (left unchanged).
    n_head : int
        Number of heads.
    n_steps : int
        Number of optimiser steps, >= 0.
    lr, betas, eps, weight_decay :
        As in :func:`adam_step`.

    Returns
    -------
    params : dict
        The trained tree (a copy of the input when ``n_steps == 0``).
    losses : numpy.ndarray of float64, shape (n_steps,)
        The loss before each step: ``losses[0]`` is the loss of the params passed in.

    Raises
    ------
    ValueError
        If ``n_steps`` is not an integer >= 0 (and as :func:`gpt_backward` and :func:`adam_step`).
    """
    # TODO: implement train: record the loss, then step; repeat n_steps times
    raise NotImplementedError('implement train: record the loss, then step; repeat n_steps times')
