"""Exercise ``gpt``: the whole GPT-2 model (embeddings, blocks, final LayerNorm, tied head) and its loss.

    x = wte[tokens] + wpe[0:T]            (..., T, d)   token + learned position embeddings
    x = block_L(... block_1(x))           (..., T, d)   pre-norm transformer blocks, in order
    logits = layer_norm(x, ln_f) @ wte^T  (..., T, V)   the head shares the token embedding

The parameters are one tree in GPT-2's own names (``params["h"][i]["attn"]["c_attn"]["weight"]``), so a
HuggingFace ``GPT2LMHeadModel`` state dict maps onto it key by key. The language-model loss is the mean
cross-entropy of the logits at position t against the token at t + 1. Sources: "Language Models are
Unsupervised Multitask Learners" (Radford et al., 2019); "Layer Normalization" (Ba et al., 2016).
"""
import numpy as np

from .block import block_decode_step, transformer_block
from .layers import layer_norm


def gpt_forward(tokens, params, n_head):
    """The logits of every position of a GPT-2 model.

    Parameters
    ----------
    tokens : array_like of int, shape (..., T)
        Token ids in ``[0, V)``, ``1 <= T <= n_ctx``.
    params : dict
        The model's tree: ``wte.weight (V, d)``, ``wpe.weight (n_ctx, d)``, ``h`` (a list of blocks),
        ``ln_f.weight``, ``ln_f.bias`` ``(d,)``.
    n_head : int
        Heads per block; must divide ``d``.

    Returns
    -------
    numpy.ndarray, shape (..., T, V)
        Logit of every vocabulary entry at every position; the dtype of the params.

    Raises
    ------
    ValueError
        If ``tokens`` are not integers, ``T`` is 0 or larger than ``n_ctx``, or an id lies outside ``[0, V)``.
    """
    ### BEGIN SOLUTION implement gpt_forward: embed tokens and positions, run every block, final LayerNorm, tied head
    tokens = np.asarray(tokens)
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]   # (V, d), (n_ctx, d)
    V, n_ctx = wte.shape[0], wpe.shape[0]
    if tokens.dtype.kind not in "iu" or tokens.ndim == 0:
        raise ValueError(f"tokens must be an integer array of shape (..., T); got {tokens.dtype} {tokens.shape}")
    T = tokens.shape[-1]
    if not 1 <= T <= n_ctx:
        raise ValueError(f"the sequence has T={T} tokens; the model takes 1 to n_ctx={n_ctx}")
    # anchor: gpt_forward.if_tokens
    if tokens.size and (tokens.min() < 0 or tokens.max() >= V):
        raise ValueError(f"token ids must lie in [0, V={V}); got ids from {tokens.min()} to {tokens.max()}")
    # anchor: gpt_forward.embed
    x = wte[tokens] + wpe[:T]                     # (..., T, d) + (T, d) -> (..., T, d)
    for block in params["h"]:
        x = transformer_block(x, block, n_head)   # (..., T, d)
    # anchor: gpt_forward.x
    x = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"])  # (..., T, d); eps 1e-5 as in GPT-2
    # anchor: gpt_forward.return
    return x @ wte.T                              # (..., T, d) @ (d, V) -> (..., T, V)
    ### END SOLUTION


def gpt_decode_step(token, params, n_head, caches):
    """The logits after one more token, reading the earlier positions from one KV cache per layer.

    Parameters
    ----------
    token : int
        The new token's id, in ``[0, V)``.
    params : dict
        The model's tree (see :func:`gpt_forward`).
    n_head : int
        Heads per block.
    caches : list of KVCache
        One cache per block, each holding the ``t`` positions already seen; the new token sits at position
        ``t = len(caches[0])``. Each block's step appends the new position's key and value to its cache.

    Returns
    -------
    numpy.ndarray, shape (V,)
        Equal to ``gpt_forward(tokens)[t]`` when the caches were filled by stepping ``tokens[:t]``.

    Raises
    ------
    ValueError
        Before any cache changes: ``len(caches) != n_layer``, ``t >= n_ctx``, or the id is not an integer
        in ``[0, V)``.
    """
    ### BEGIN SOLUTION implement gpt_decode_step: embed the token at position len(caches[0]), a cached step per block
    wte, wpe = params["wte"]["weight"], params["wpe"]["weight"]   # (V, d), (n_ctx, d)
    V, n_ctx = wte.shape[0], wpe.shape[0]
    blocks = params["h"]
    if len(caches) != len(blocks) or not blocks:
        raise ValueError(f"got {len(caches)} caches for a model of {len(blocks)} blocks; expected one per block")
    # anchor: gpt_decode_step.position
    position = len(caches[0])                     # every cache holds the positions already seen
    if position >= n_ctx:
        raise ValueError(f"the caches hold {position} positions; the model has room for n_ctx={n_ctx}")
    token = np.asarray(token)
    if token.ndim != 0 or token.dtype.kind not in "iu" or not 0 <= token < V:
        raise ValueError(f"token must be one integer id in [0, V={V}); got {token!r}")
    # anchor: gpt_decode_step.embed
    x = wte[token] + wpe[position]                # (d,) + (d,) -> (d,)
    for block, cache in zip(blocks, caches):
        x = block_decode_step(x, block, n_head, cache)   # (d,); appends this position to the block's cache
    # anchor: gpt_decode_step.x
    x = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"])  # (d,); eps 1e-5 as in GPT-2
    # anchor: gpt_decode_step.return
    return x @ wte.T                              # (d,) @ (d, V) -> (V,)
    ### END SOLUTION


def log_softmax(x, axis=-1):
    """``log(softmax(x))`` along ``axis``, computed without ever taking ``log(0)``.

    Parameters
    ----------
    x : array_like, shape (...)
        Scores; ``-inf`` entries are allowed (in slices with at least one finite entry).
    axis : int, optional
        The axis that is normalised (default: the last one).

    Returns
    -------
    numpy.ndarray, shape (...) (same as ``x``)
        ``x - logsumexp(x, axis)``: ``[0, -1000]`` gives ``[0, -1000]``, ``[1000, 0]`` gives
        ``[0, -1000]``, ``-inf`` stays ``-inf``. Same float dtype as ``x`` (float64 for integer or list
        input).
    """
    ### BEGIN SOLUTION implement log_softmax: shift by the max, subtract the log of the sum of the exponentials
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    row_max = np.max(x, axis=axis, keepdims=True)          # (..., 1, ...) along axis
    row_max = np.where(np.isfinite(row_max), row_max, 0)  # an all -inf slice: shift by 0, not -inf
    # anchor: log_softmax.shifted
    shifted = x - row_max                                 # the largest entry becomes 0, the others <= 0
    # anchor: log_softmax.return
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))  # the sum is >= 1: no log(0)
    ### END SOLUTION


def cross_entropy(logits, targets):
    """The mean over every position of ``-log_softmax(logits)[target]``.

    Parameters
    ----------
    logits : array_like, shape (..., V)
    targets : array_like of int, shape (...) (``logits.shape[:-1]``)
        The right class at each position, in ``[0, V)``.

    Returns
    -------
    scalar
        The mean negative log-likelihood (= torch ``F.cross_entropy``, reduction "mean"), in the logits'
        float dtype.

    Raises
    ------
    ValueError
        If ``targets`` is not integer, its shape is not ``logits.shape[:-1]``, it is empty, or a target lies
        outside ``[0, V)``.
    """
    ### BEGIN SOLUTION implement cross_entropy: pick each position's log-probability of its target, average, negate
    logits, targets = np.asarray(logits), np.asarray(targets)
    if logits.ndim == 0 or targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets of shape {targets.shape} do not match logits of shape {logits.shape}; "
                         "expected targets of shape logits.shape[:-1]")
    V = logits.shape[-1]
    if targets.dtype.kind not in "iu" or targets.size == 0:
        raise ValueError(f"targets must be a non-empty integer array; got {targets.dtype} of shape {targets.shape}")
    if targets.min() < 0 or targets.max() >= V:
        raise ValueError(f"targets must lie in [0, V={V}); got targets from {targets.min()} to {targets.max()}")
    log_probs = log_softmax(logits, axis=-1)                                    # (..., V)
    # anchor: cross_entropy.picked
    picked = np.take_along_axis(log_probs, targets[..., None], axis=-1)[..., 0]  # (..., 1) -> (...)
    # anchor: cross_entropy.return
    return -np.mean(picked)
    ### END SOLUTION


def lm_loss(tokens, params, n_head):
    """The next-token loss of a sequence: position t predicts token t + 1.

    Parameters
    ----------
    tokens : array_like of int, shape (..., T)
        ``2 <= T <= n_ctx``.
    params : dict
        The model's tree (see :func:`gpt_forward`).
    n_head : int

    Returns
    -------
    scalar
        ``cross_entropy(gpt_forward(tokens[..., :-1]), tokens[..., 1:])`` (= HuggingFace
        ``model(ids, labels=ids).loss``).

    Raises
    ------
    ValueError
        If ``T < 2`` or ``T > n_ctx``, and as :func:`gpt_forward`.
    """
    ### BEGIN SOLUTION implement lm_loss: the logits of every position but the last against the tokens shifted by one
    tokens = np.asarray(tokens)
    n_ctx = params["wpe"]["weight"].shape[0]
    if tokens.ndim == 0 or not 2 <= tokens.shape[-1] <= n_ctx:
        raise ValueError(f"lm_loss needs 2 to n_ctx={n_ctx} tokens per sequence; got shape {tokens.shape}")
    # anchor: lm_loss.logits
    logits = gpt_forward(tokens[..., :-1], params, n_head)   # (..., T-1, V): position t predicts token t+1
    # anchor: lm_loss.return
    return cross_entropy(logits, tokens[..., 1:])           # targets (..., T-1)
    ### END SOLUTION
