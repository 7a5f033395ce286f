"""Classic multi-head attention mistakes: splitting, merging, scaling and projecting the heads."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

MHSA = "multi_head_self_attention"
ATTEND = "heads, weights = scaled_dot_product_attention(Q, K, V, mask)"

SPLIT_NO_TRANSPOSE = Mistake(
    id="split_heads_no_transpose",
    functions=("split_heads", MHSA),
    looks_like="tokens and heads got mixed: the heads came from a plain reshape to (..., n_heads, n, d_head)",
    hint="A reshape only regroups numbers in memory order. Which axis should be split while the tokens stay "
         "where they are, and when may the head axis move?",
    patch=(Edit("split_heads.return",
                "return np.swapaxes(per_head, -3, -2)", "return X.reshape(*batch, n_heads, n, d_head)"),),
)
SPLIT_STRIDED = Mistake(
    id="split_heads_strided",
    functions=("split_heads", MHSA),
    looks_like="each head took every n_heads-th column instead of a contiguous block of d_head columns",
    hint="Head h owns one contiguous block of columns. In which order do (n_heads, d_head) split the last axis?",
    patch=(Edit("split_heads.per_head", "per_head = X.reshape(*batch, n, n_heads, d_head)",
            "per_head = np.swapaxes(X.reshape(*batch, n, d_head, n_heads), -1, -2)"),),
)
MERGE_NO_TRANSPOSE = Mistake(
    id="merge_heads_no_transpose",
    functions=("merge_heads", MHSA),
    looks_like="tokens and heads got mixed: the heads were merged with a plain reshape, the head axis still "
               "in front of the tokens",
    hint="Merging must undo splitting step by step, in reverse order.",
    patch=(Edit("merge_heads.per_token", "per_token = np.swapaxes(X, -3, -2)", "per_token = X"),),
)
SCALE_D_MODEL = Mistake(
    id="multihead_scale_d_model",
    functions=(MHSA,),
    looks_like="the heads' weights are too flat: their scores were divided by sqrt(d_model), not sqrt(d_head)",
    hint="Inside a head the dot products have d_head = d_model / n_heads terms.",
    patch=(Edit("multi_head_self_attention.heads", ATTEND, "heads, weights = scaled_dot_product_attention(\n"
                    "        Q * (Q.shape[-1] / X.shape[-1]) ** 0.5, K, V, mask)"),),
)
NO_SCALE = Mistake(
    id="multihead_no_scale",
    functions=(MHSA,),
    looks_like="the heads' weights are too peaked: their scores were not divided by sqrt(d_head)",
    hint="Every head is a scaled dot-product attention of its own.",
    patch=(Edit("multi_head_self_attention.heads",
                ATTEND, "heads, weights = scaled_dot_product_attention(Q * Q.shape[-1] ** 0.5, K, V, mask)"),),
)
NO_OUTPUT_PROJECTION = Mistake(
    id="multihead_no_output_projection",
    functions=(MHSA,),
    looks_like="the output is the concatenated heads, never mixed by the output projection W_O",
    hint="MultiHead(X) = Concat(head_1, ..., head_h) W_O: what happens after the heads are merged?",
    patch=(Edit("multi_head_self_attention.return",
                "return concat @ np.asarray(W_O), weights", "return concat, weights"),),
)
MASK_NOT_APPLIED = Mistake(
    id="multihead_mask_ignored",
    functions=(MHSA,),
    looks_like="the mask was ignored: every query attended to every key",
    hint="The heads add an axis the (n, n) mask does not have; the same mask must reach every head before "
         "the softmax.",
    patch=(Edit("multi_head_self_attention.heads", ATTEND, "heads, weights = scaled_dot_product_attention(Q, K, V)"),),
)
HARD_CODED_AXES = Mistake(
    id="split_heads_hard_coded_axes",
    functions=("split_heads", MHSA),
    looks_like="the axes were written for a (batch, n, d_model) input only, so an input with another number of "
               "leading axes failed",
    hint="The docstring allows any number of leading axes. Can you name the axes from the end instead?",
    patch=(Edit("split_heads.batch", "*batch, n, d_model = X.shape", "B, n, d_model = X.shape\n    batch = [B]"),),
)
MASK_LEADING_AXIS = Mistake(
    id="multihead_mask_leading_axis",
    functions=(MHSA,),
    looks_like="the mask's head axis was added in front of it, so a batched (B, n, n) mask lined up its batch "
               "axis with the heads",
    hint="The head axis sits right before the (n, n) axes; for a batched mask, where does a new axis of size 1 go?",
    patch=(Edit("multi_head_self_attention.mask", "mask = np.expand_dims(mask, -3)", "mask = mask[None]"),),
)
SQRT_PROMOTES_FLOAT32 = Mistake(
    id="multihead_sqrt_promotes_float32",
    functions=(MHSA,),
    looks_like="float32 inputs gave float64 results: np.sqrt(d_head) is a NumPy float64 scalar, and NumPy 2 "
               "promotes a float32 array divided by it to float64",
    hint="A NumPy float64 scalar is not a Python float. Which kind of number keeps float32 arrays float32?",
    patch=(Edit("multi_head_self_attention.heads",
                ATTEND, "heads, weights = scaled_dot_product_attention(Q / np.sqrt(1.0), K, V, mask)  # float64 now"),),
)
MODIFIES_INPUT = modifies_input(
    "multihead", ("split_heads", "merge_heads", "multi_head_self_attention"), "W_V",
    "multi_head_self_attention.return", "    return concat @ np.asarray(W_O), weights")
