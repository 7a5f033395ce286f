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
    ### BEGIN SOLUTION implement layer_norm_backward: recompute xhat and 1/std, then the three gradients
    x, gamma, dy = np.asarray(x), np.asarray(gamma), np.asarray(dy)
    if dy.shape != x.shape:
        raise ValueError(f"dy has shape {dy.shape} but x has shape {x.shape}; they must be equal")
    d = x.shape[-1]
    if gamma.shape != (d,):
        raise ValueError(f"gamma has shape {gamma.shape}; expected ({d},), the size of x's last axis")
    dtype = np.result_type(x, gamma, dy, 1.0)
    x, gamma, dy = (a.astype(dtype, copy=False) for a in (x, gamma, dy))
    centred = x - x.mean(axis=-1, keepdims=True)               # (..., d)
    rstd = 1.0 / np.sqrt(np.mean(centred**2, axis=-1, keepdims=True) + eps)   # (..., 1), biased variance
    xhat = centred * rstd                                      # (..., d)
    # anchor: layer_norm_backward.dbeta
    dbeta = dy.reshape(-1, d).sum(axis=0)                      # (N, d) -> (d,)
    # anchor: layer_norm_backward.dgamma
    dgamma = (dy * xhat).reshape(-1, d).sum(axis=0)            # (N, d) -> (d,)
    # anchor: layer_norm_backward.dxhat
    dxhat = dy * gamma                                         # (..., d)
    # the mean and the variance depend on every entry of the row: two correction terms
    # anchor: layer_norm_backward.dx
    dx = rstd * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                 - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))   # (..., d)
    return dx, dgamma, dbeta
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement gelu_backward: the product rule on 0.5 x (1 + tanh(u)), and the chain rule into u
    x, dy = np.asarray(x), np.asarray(dy)
    if dy.shape != x.shape:
        raise ValueError(f"dy has shape {dy.shape} but x has shape {x.shape}; they must be equal")
    dtype = np.result_type(x, dy, 1.0)
    x, dy = x.astype(dtype, copy=False), dy.astype(dtype, copy=False)
    # beyond |x| = 20 the tanh is exactly +-1 in float32 and float64 and sech^2 exactly 0, so clipping
    # changes nothing there, and keeps x^3 and x^2 from overflowing into inf * 0 = NaN
    x = np.clip(x, -20.0, 20.0)
    c, a = math.sqrt(2.0 / math.pi), 0.044715
    tanh_u = np.tanh(c * (x + a * x**3))                       # (...)
    # anchor: gelu_backward.du_dx
    du_dx = c * (1.0 + 3.0 * a * x**2)                         # the inner derivative
    # anchor: gelu_backward.slope
    slope = 0.5 * (1.0 + tanh_u) + 0.5 * x * (1.0 - tanh_u**2) * du_dx
    return dy * slope
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement cross_entropy_backward: softmax minus the one-hot targets, divided by the positions
    logits, targets = np.asarray(logits), np.asarray(targets)
    logits = logits.astype(np.result_type(logits, 1.0), copy=False)
    V = logits.shape[-1]
    if targets.dtype.kind not in "iu":
        raise ValueError(f"targets must be integer class ids; got dtype {targets.dtype}")
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}; expected logits.shape[:-1] = {logits.shape[:-1]}")
    if targets.size and (targets.min() < 0 or targets.max() >= V):
        raise ValueError(f"a target lies outside [0, {V}): min {targets.min()}, max {targets.max()}")
    n_positions = max(targets.size, 1)
    probs = np.exp(log_softmax(logits, axis=-1))               # (..., V)
    one_hot = np.arange(V) == targets[..., None]               # (..., V) bool
    # anchor: cross_entropy_backward.return
    return (probs - one_hot) / n_positions
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement gpt_backward: a forward pass keeping what backward needs, then every layer in reverse
    tokens = np.asarray(tokens)
    wte, wpe = np.asarray(params["wte"]["weight"]), np.asarray(params["wpe"]["weight"])
    (V, d), n_ctx = wte.shape, wpe.shape[0]
    if tokens.dtype.kind not in "iu" or tokens.ndim < 1:
        raise ValueError(f"tokens must be an integer array of shape (..., T); got dtype {tokens.dtype}")
    if not 2 <= tokens.shape[-1] <= n_ctx:
        raise ValueError(f"T = {tokens.shape[-1]} tokens; the loss needs 2 <= T <= n_ctx = {n_ctx}")
    if tokens.min() < 0 or tokens.max() >= V:
        raise ValueError(f"a token id lies outside [0, {V}): min {tokens.min()}, max {tokens.max()}")
    if n_head < 1 or d % n_head:
        raise ValueError(f"n_head = {n_head} must be >= 1 and divide d = {d}")
    inputs, targets = tokens[..., :-1], tokens[..., 1:]      # (..., T): predict the next token
    T = inputs.shape[-1]
    mask = causal_mask(T)                                    # (T, T), True where a query may attend

    def linear_backward(x, layer, dy):
        """dx, and the linear's {"weight", "bias"} gradient, of y = x @ weight + bias."""
        weight = np.asarray(layer["weight"])
        dweight = x.reshape(-1, x.shape[-1]).T @ dy.reshape(-1, dy.shape[-1])   # (d_in, N) @ (N, d_out)
        grads = {"weight": dweight, "bias": dy.reshape(-1, dy.shape[-1]).sum(axis=0)}
        return dy @ weight.T, grads                                              # (..., d_out) @ (d_out, d_in)

    # forward, keeping every layer's input and intermediate
    x = wte[inputs] + wpe[:T]                                # (..., T, d)
    saved = []
    for block in params["h"]:
        attn, mlp = block["attn"], block["mlp"]
        normed_1 = layer_norm(x, block["ln_1"]["weight"], block["ln_1"]["bias"], EPS)
        q, k, v = np.split(linear(normed_1, attn["c_attn"]), 3, axis=-1)      # 3 x (..., T, d)
        Q, K, Vh = (split_heads(part, n_head) for part in (q, k, v))           # (..., nh, T, hs)
        heads, _ = scaled_dot_product_attention(Q, K, Vh, mask)                # (..., nh, T, hs)
        merged = merge_heads(heads)                                            # (..., T, d)
        h = x + linear(merged, attn["c_proj"])                                 # (..., T, d)
        normed_2 = layer_norm(h, block["ln_2"]["weight"], block["ln_2"]["bias"], EPS)
        hidden = linear(normed_2, mlp["c_fc"])                                 # (..., T, d_ff)
        activated = gelu(hidden)
        saved.append((x, normed_1, Q, K, Vh, merged, h, normed_2, hidden, activated))
        x = h + linear(activated, mlp["c_proj"])                               # (..., T, d)
    final = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"], EPS)   # (..., T, d)
    logits = final @ wte.T                                   # (..., T, d) @ (d, V) -> (..., T, V)
    loss = cross_entropy(logits, targets)

    # backward, in reverse
    dlogits = cross_entropy_backward(logits, targets)        # (..., T, V)
    # anchor: gpt_backward.dwte
    dwte = dlogits.reshape(-1, V).T @ final.reshape(-1, d)   # (V, N) @ (N, d): the tied head's share
    dfinal = dlogits @ wte                                   # (..., T, V) @ (V, d) -> (..., T, d)
    dx, dgamma, dbeta = layer_norm_backward(x, params["ln_f"]["weight"], dfinal, EPS)
    grads = {"ln_f": {"weight": dgamma, "bias": dbeta}}
    block_grads = []
    for block, (x_in, normed_1, Q, K, Vh, merged, h, normed_2, hidden, activated) in zip(
            reversed(params["h"]), reversed(saved)):
        attn, mlp = block["attn"], block["mlp"]
        dactivated, g_mlp_proj = linear_backward(activated, mlp["c_proj"], dx)   # the MLP's residual branch
        dnormed_2, g_fc = linear_backward(normed_2, mlp["c_fc"], gelu_backward(hidden, dactivated))
        dh_norm, dg_2, db_2 = layer_norm_backward(h, block["ln_2"]["weight"], dnormed_2, EPS)
        dh = dx + dh_norm                                                    # residual: both paths add
        dmerged, g_attn_proj = linear_backward(merged, attn["c_proj"], dh)
        # anchor: gpt_backward.dq
        dQ, dK, dV = attention_backward(Q, K, Vh, split_heads(dmerged, n_head), mask)   # (..., nh, T, hs)
        # anchor: gpt_backward.dqkv
        dqkv = np.concatenate([merge_heads(g) for g in (dQ, dK, dV)], axis=-1)          # (..., T, 3d): q | k | v
        dnormed_1, g_attn = linear_backward(normed_1, attn["c_attn"], dqkv)
        dx_norm, dg_1, db_1 = layer_norm_backward(x_in, block["ln_1"]["weight"], dnormed_1, EPS)
        dx = dh + dx_norm
        block_grads.append({"ln_1": {"weight": dg_1, "bias": db_1},
                            "attn": {"c_attn": g_attn, "c_proj": g_attn_proj},
                            "ln_2": {"weight": dg_2, "bias": db_2},
                            "mlp": {"c_fc": g_fc, "c_proj": g_mlp_proj}})
    grads["h"] = block_grads[::-1]
    dx_rows = dx.reshape(-1, d)                              # (N, d), one row per input position
    # anchor: gpt_backward.add
    np.add.at(dwte, inputs.reshape(-1), dx_rows)             # repeated tokens accumulate
    dwpe = np.zeros_like(wpe, dtype=dwte.dtype)              # (n_ctx, d): positions >= T get 0
    dwpe[:T] = dx.reshape(-1, T, d).sum(axis=0)              # summed over the batch
    grads["wte"], grads["wpe"] = {"weight": dwte}, {"weight": dwpe}
    return float(loss), grads
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement adam_step: t + 1, both running means, bias correction, decoupled decay; new trees
    b1, b2 = betas
    if lr < 0 or eps < 0 or weight_decay < 0 or not (0 <= b1 < 1 and 0 <= b2 < 1):
        raise ValueError(f"lr={lr}, eps={eps} and weight_decay={weight_decay} must be >= 0 and both betas "
                         f"in [0, 1); got betas={betas}")

    def zip_trees(*trees, where="params"):
        """Yield the aligned leaves of trees of one structure, as tuples, checking the structure."""
        first = trees[0]
        if isinstance(first, dict):
            for other in trees[1:]:
                if not isinstance(other, dict) or set(other) != set(first):
                    raise ValueError(f"{where}: keys {sorted(first)} do not match those of the gradients or state")
            for key in first:
                yield from zip_trees(*(tree[key] for tree in trees), where=f"{where}[{key!r}]")
        elif isinstance(first, (list, tuple)):
            for other in trees[1:]:
                if not isinstance(other, (list, tuple)) or len(other) != len(first):
                    raise ValueError(f"{where}: a list of {len(first)} that the gradients or state do not match")
            for index in range(len(first)):
                yield from zip_trees(*(tree[index] for tree in trees), where=f"{where}[{index}]")
        else:
            arrays = tuple(np.asarray(leaf) for leaf in trees)
            if any(a.shape != arrays[0].shape for a in arrays):
                raise ValueError(f"{where}: shapes {[a.shape for a in arrays]} differ from the parameter's")
            yield arrays

    def rebuild(tree, leaves):
        """A tree of ``tree``'s structure holding the next values of ``leaves`` (an iterator)."""
        if isinstance(tree, dict):
            return {key: rebuild(value, leaves) for key, value in tree.items()}
        if isinstance(tree, (list, tuple)):
            return [rebuild(value, leaves) for value in tree]
        return next(leaves)

    if state is None:
        state = {"t": 0, "m": rebuild(params, (np.zeros_like(p, dtype=np.result_type(p, 1.0))
                                               for (p,) in zip_trees(params))),
                 "v": rebuild(params, (np.zeros_like(p, dtype=np.result_type(p, 1.0))
                                       for (p,) in zip_trees(params)))}
    t = state["t"] + 1                                         # t = 1 at the first step
    # anchor: adam_step.correction_1
    correction_1, correction_2 = 1.0 - b1**t, 1.0 - b2**t     # Python floats: the dtype stays the params'
    new_p, new_m, new_v = [], [], []
    for p, g, m, v in zip_trees(params, grads, state["m"], state["v"]):
        # anchor: adam_step.g
        g = g.astype(m.dtype, copy=False)
        m = b1 * m + (1.0 - b1) * g                            # running mean of the gradient
        # anchor: adam_step.v
        v = b2 * v + (1.0 - b2) * (g * g)                      # running mean of its square
        # anchor: adam_step.denominator
        denominator = np.sqrt(v) / math.sqrt(correction_2) + eps     # sqrt(v_hat) + eps
        step = (lr / correction_1) * m / denominator                 # lr * m_hat / (sqrt(v_hat) + eps)
        # anchor: adam_step.new_p
        new_p.append((p * (1.0 - lr * weight_decay) - step).astype(p.dtype, copy=False))
        new_m.append(m)
        new_v.append(v)
    new_state = {"t": t, "m": rebuild(params, iter(new_m)), "v": rebuild(params, iter(new_v))}
    return rebuild(params, iter(new_p)), new_state
    ### END SOLUTION


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
    ### BEGIN SOLUTION implement train: record the loss, then step; repeat n_steps times
    if isinstance(n_steps, bool) or not isinstance(n_steps, (int, np.integer)) or n_steps < 0:
        raise ValueError(f"n_steps must be an integer >= 0; got {n_steps!r}")
    params, state = copy.deepcopy(params), None
    losses = np.zeros(n_steps, dtype=np.float64)
    for step in range(n_steps):
        # anchor: train.losses
        losses[step], grads = gpt_backward(tokens, params, n_head)   # the loss before this step
        params, state = adam_step(params, grads, state, lr, betas, eps, weight_decay)
    return params, losses
    ### END SOLUTION
