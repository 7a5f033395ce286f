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
    # TODO: implement gpt_forward: embed tokens and positions, run every block, final LayerNorm, tied head
    raise NotImplementedError('implement gpt_forward: embed tokens and positions, run every block, final LayerNorm, tied head')


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
    # TODO: implement gpt_decode_step: embed the token at position len(caches[0]), a cached step per block
    raise NotImplementedError('implement gpt_decode_step: embed the token at position len(caches[0]), a cached step per block')


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
    # TODO: implement log_softmax: shift by the max, subtract the log of the sum of the exponentials
    raise NotImplementedError('implement log_softmax: shift by the max, subtract the log of the sum of the exponentials')


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
    # TODO: implement cross_entropy: pick each position's log-probability of its target, average, negate
    raise NotImplementedError("implement cross_entropy: pick each position's log-probability of its target, average, negate")


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
    # TODO: implement lm_loss: the logits of every position but the last against the tokens shifted by one
    raise NotImplementedError('implement lm_loss: the logits of every position but the last against the tokens shifted by one')
