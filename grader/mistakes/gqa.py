"""Classic grouped-query attention mistakes: which key/value head a query head uses, and cache sizes."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

REPEAT = "return np.repeat(x, n_rep, axis=-3)"
ATTEND = "heads, weights = scaled_dot_product_attention(Q, K, V, mask)"
PROJECT = "return concat @ np.asarray(W_O), weights"
BYTES = "return int(keys_and_values * n_layers * batch * n_kv_heads * seq_len * d_head * bytes_per_value)"

REPEAT_TILED = Mistake(
    id="gqa_repeat_tiled",
    functions=("repeat_kv", "grouped_query_attention"),
    looks_like="the key/value heads were repeated as a whole block (kv0, kv1, kv0, kv1) instead of each head "
               "in turn (kv0, kv0, kv1, kv1)",
    hint="Query heads 0 and 1 form the first group and share one key/value head. Which head must sit at "
         "positions 0 and 1 after the repetition?",
    patch=(Edit("repeat_kv.return", REPEAT, "return np.tile(x, (1,) * (x.ndim - 3) + (n_rep, 1, 1))"),),
)
SCALE_BY_D_MODEL = Mistake(
    id="gqa_scale_by_d_model",
    functions=("grouped_query_attention",),
    looks_like="the weights are too flat: each head's scores were divided by sqrt(d_model) instead of sqrt(d_head)",
    hint="Each head takes dot products of d_head numbers; the scale follows the size of those vectors.",
    patch=(Edit("grouped_query_attention.heads",
                ATTEND, "heads, weights = scaled_dot_product_attention(Q * np.sqrt(d_head / d_model), K, V, mask)"),),
)
NO_OUTPUT_PROJECTION = Mistake(
    id="gqa_no_output_projection",
    functions=("grouped_query_attention",),
    looks_like="the weights are right but the output is not: the merged heads were returned without W_O",
    hint="After the heads are concatenated, one more matrix mixes them.",
    patch=(Edit("grouped_query_attention.return", PROJECT, "return concat, weights"),),
)
CACHE_KEYS_ONLY = Mistake(
    id="gqa_cache_keys_only",
    functions=("kv_cache_bytes",),
    looks_like="the size is half the expected one: only the keys were counted, not the values",
    hint="What does each layer store for every earlier token, besides its key?",
    mutant=(Edit("kv_cache_bytes.return",
                 BYTES, "return int(n_layers * batch * n_kv_heads * seq_len * d_head * bytes_per_value)"),),
)
CACHE_NO_BYTES = Mistake(
    id="gqa_cache_counts_values",
    functions=("kv_cache_bytes",),
    looks_like="the result counts numbers, not bytes: bytes_per_value was left out",
    hint="The size is asked in bytes: how big is each number the cache holds?",
    mutant=(Edit("kv_cache_bytes.return",
                 BYTES, "return int(keys_and_values * n_layers * batch * n_kv_heads * seq_len * d_head)"),),
)
CACHE_ONE_LAYER = Mistake(
    id="gqa_cache_one_layer",
    functions=("kv_cache_bytes",),
    looks_like="the result is the size of one layer's cache: n_layers was left out",
    hint="Every layer of the decoder attends, so every layer keeps its own keys and values.",
    mutant=(Edit("kv_cache_bytes.return",
                 BYTES, "return int(keys_and_values * batch * n_kv_heads * seq_len * d_head * bytes_per_value)"),),
)


def cache_mistake(got: int, expected: int, n_layers: int, bytes_per_value: int) -> Mistake | None:
    """The kv_cache_bytes mistake that leaves out exactly the factor by which ``got`` is too small, if any.

    Results are Python ints, which diagnosis by mistaken references does not compare, so the check
    asks this instead; call it with sizes whose factors 2, ``n_layers`` and ``bytes_per_value`` differ.
    """
    for mistake, factor in ((CACHE_KEYS_ONLY, 2), (CACHE_NO_BYTES, bytes_per_value), (CACHE_ONE_LAYER, n_layers)):
        if factor > 1 and got * factor == expected:
            return mistake
    return None
MODIFIES_INPUT = modifies_input(
    "gqa", ("repeat_kv", "grouped_query_attention"), "W_V",
    "grouped_query_attention.return", "    return concat @ np.asarray(W_O), weights")
