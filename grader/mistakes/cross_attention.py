"""Classic cross-attention mistakes: which sequence asks, which answers, and the key padding mask."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

FUNCTIONS = ("cross_attention",)
KEYS = "K = Z @ np.asarray(W_K)"
VALUES = "V = Z @ np.asarray(W_V)"
QUERIES = "Q = X @ np.asarray(W_Q)"
PADDING = "mask = key_padding_mask[..., None, :]"
ATTEND = "return scaled_dot_product_attention(Q, K, V, mask)"

KEYS_FROM_X = Mistake(
    id="cross_keys_from_x",
    functions=FUNCTIONS,
    looks_like="the keys and values were projected from X, the sequence that asks: this is self-attention on X",
    hint="In cross-attention one sequence asks and the other answers. Which of X and Z holds the answers?",
    patch=(Edit("cross_attention.k", KEYS, "K = X @ np.asarray(W_K)"),
           Edit("cross_attention.v", VALUES, "V = X @ np.asarray(W_V)")),
)
ROLES_SWAPPED = Mistake(
    id="cross_roles_swapped",
    functions=FUNCTIONS,
    looks_like="the queries came from Z and the keys and values from X: the two sequences swapped roles",
    hint="The output has one row per token of the sequence that asks. Which argument is that?",
    patch=(Edit("cross_attention.q", QUERIES, "Q = Z @ np.asarray(W_Q)"),
           Edit("cross_attention.k", KEYS, "K = X @ np.asarray(W_K)"),
           Edit("cross_attention.v", VALUES, "V = X @ np.asarray(W_V)")),
)
PADDING_INVERTED = Mistake(
    id="cross_padding_inverted",
    functions=FUNCTIONS,
    looks_like="the padding tokens of Z got the weight and the real ones none: True was read as 'padding'",
    hint="Some libraries mark padding with True; in this kit key_padding_mask is True where Z's token is real.",
    patch=(Edit("cross_attention.mask", PADDING, "mask = ~key_padding_mask[..., None, :]"),),
)
PADDING_ON_QUERIES = Mistake(
    id="cross_padding_on_queries",
    functions=FUNCTIONS,
    looks_like="the padding mask removed rows (queries) instead of columns (keys) of the weights",
    hint="key_padding_mask describes the tokens of Z. Which axis of the (n_q, n_kv) weights belongs to Z?",
    patch=(Edit("cross_attention.mask", PADDING, "mask = key_padding_mask[..., :, None]"),),
)
PADDING_IGNORED = Mistake(
    id="cross_padding_ignored",
    functions=FUNCTIONS,
    looks_like="the padding tokens of Z still got weight: the key padding mask was not applied",
    hint="A padded token of Z carries no information; what must its weight be for every query?",
    patch=(Edit("cross_attention.return", ATTEND, "return scaled_dot_product_attention(Q, K, V)"),),
)
SCALE_BY_INPUT_WIDTH = Mistake(
    id="cross_scale_by_input_width",
    functions=FUNCTIONS,
    looks_like="the scores were divided by the square root of X's width d_x instead of the key size d_k",
    hint="The scale belongs to the dot product q . k: how many terms does it add up?",
    patch=(Edit("cross_attention.return",
                ATTEND, "return scaled_dot_product_attention(Q * np.sqrt(Q.shape[-1] / X.shape[-1]), K, V, mask)"),),
)
NO_SCALE = Mistake(
    id="cross_no_scale",
    functions=FUNCTIONS,
    looks_like="the weights are too peaked: the scores were not divided by sqrt(d_k)",
    hint="Dot products of d_k-dimensional vectors grow with d_k; what keeps their spread near 1?",
    patch=(Edit("cross_attention.return",
                ATTEND, "return scaled_dot_product_attention(Q * np.sqrt(Q.shape[-1]), K, V, mask)"),),
)
FULLY_PADDED_NAN = Mistake(
    id="cross_fully_padded_nan",
    functions=FUNCTIONS,
    looks_like="a query with no real token of Z to attend to came out as NaN",
    hint="When every key of a row is forbidden there is nothing to share the weight: the row should be zeros, "
         "not 0/0.",
    patch=(Edit("cross_attention.return", ATTEND, "scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])\n"
                    "    if mask is not None:\n"
                    "        scores = np.where(mask, scores, -np.inf)\n"
                    "    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
                    "    weights = exps / exps.sum(axis=-1, keepdims=True)\n"
                    "    return weights @ V, weights"),),
)
MODIFIES_INPUT = modifies_input(
    "cross_attention", ("cross_attention",), "Z",
    "cross_attention.return", "    return scaled_dot_product_attention(Q, K, V, mask)")
