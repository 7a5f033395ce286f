"""Classic mistakes of the GPT-2 block: norm placement, residuals, c_attn's layout, the mask, the scale, the
projections, and the decode step's cache."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

ATTENTION = ("causal_self_attention", "transformer_block")
BLOCK = ("transformer_block",)
STEP = ("block_decode_step",)
QKV = '    qkv = linear(x, params["c_attn"])          # (..., T, d) @ (d, 3d) -> (..., T, 3d)'
SPLIT = "    q, k, v = np.split(qkv, 3, axis=-1)        # three (..., T, d): q | k | v"
ATTEND = ("    heads, weights = scaled_dot_product_attention(q, k, v, causal_mask(T))  # (..., nh, T, hs), "
          "(..., nh, T, T)")
PROJECT = '    return linear(merged, params["c_proj"]), weights  # (..., T, d) @ (d, d) -> (..., T, d)'
NORMS = '    ln_1, ln_2 = params["ln_1"], params["ln_2"]'
ATTENDED = ('    attended, _ = causal_self_attention(layer_norm(x, ln_1["weight"], ln_1["bias"]), params["attn"], '
            'n_head)')
RESIDUAL = "    h = x + attended                                                                  # (..., T, d)"
OUT = ('    return h + feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])  # (..., T, d)')
STEP_QKV = ('    qkv = linear(layer_norm(x_t, ln_1["weight"], ln_1["bias"]), attn["c_attn"])  # (d,) @ (d, 3d) -> '
            '(3d,)')
APPEND = "    cache.append(k, v)                             # first append: the position attends to itself"
KEYS = "    keys = split_heads(np.asarray(cache.keys), n_head)      # (t, d) -> (nh, t, hs)"
VALUES = "    values = split_heads(np.asarray(cache.values), n_head)  # (t, d) -> (nh, t, hs)"
STEP_ATTEND = "    heads, _ = scaled_dot_product_attention(query, keys, values)  # (nh, 1, hs) over all t cached keys"

POST_NORM = Mistake(
    id="block_post_norm",
    functions=BLOCK,
    looks_like="the LayerNorms came after the residual additions, LN(x + sublayer(x)) as in the 2017 Transformer, "
               "not before each sub-layer as in GPT-2",
    hint="GPT-2 is pre-norm: the residual stream itself is never normalised inside a block. What goes into each "
         "sub-layer, and what is added back?",
    patch=(Edit("transformer_block.attended",
                ATTENDED, "    attended, _ = causal_self_attention(x, params[\"attn\"], n_head)"),
           Edit("transformer_block.h", RESIDUAL, '    h = layer_norm(x + attended, ln_1["weight"], ln_1["bias"])'),
           Edit("transformer_block.return",
                OUT, '    return layer_norm(h + feed_forward(h, params["mlp"]), ln_2["weight"], ln_2["bias"])')),
)
NO_MLP_RESIDUAL = Mistake(
    id="block_missing_mlp_residual",
    functions=BLOCK,
    looks_like="the MLP's output replaced the residual stream instead of being added to it",
    hint="Both sub-layers sit on a residual connection. What does the second one add its output to?",
    patch=(Edit("transformer_block.return",
                OUT, '    return feed_forward(layer_norm(h, ln_2["weight"], ln_2["bias"]), params["mlp"])'),),
)
NO_ATTENTION_RESIDUAL = Mistake(
    id="block_missing_attention_residual",
    functions=BLOCK,
    looks_like="the attention's output replaced the residual stream instead of being added to x",
    hint="Both sub-layers sit on a residual connection. What does the first one add its output to?",
    patch=(Edit("transformer_block.h", RESIDUAL, "    h = attended"),),
)
RESIDUAL_AFTER_NORM = Mistake(
    id="block_residual_after_norm",
    functions=BLOCK,
    looks_like="the residual carried the normalised input, x = ln_1(x); x = x + attn(x), not the raw x",
    hint="The LayerNorm only prepares the sub-layer's input; the residual path must carry x untouched.",
    patch=(Edit("transformer_block.h", RESIDUAL, '    h = layer_norm(x, ln_1["weight"], ln_1["bias"]) + attended'),),
)
ONE_LAYER_NORM = Mistake(
    id="block_one_layer_norm",
    functions=BLOCK,
    looks_like="ln_1 normalised the input of both sub-layers; ln_2's weights were never used",
    hint="A block has two LayerNorms with their own gains and shifts: which one belongs to the MLP?",
    patch=(Edit("transformer_block.ln_1", NORMS, '    ln_1, ln_2 = params["ln_1"], params["ln_1"]'),),
)
QKV_PER_HEAD = Mistake(
    id="block_qkv_split_per_head",
    functions=ATTENTION,
    looks_like="c_attn's columns were read per head, [q_h | k_h | v_h] for each head (GPT-NeoX's layout), instead "
               "of three thirds q | k | v, each split into heads (the same only with one head)",
    hint="GPT-2 packs all queries first, then all keys, then all values. Cut the thirds first; split into heads "
         "after.",
    patch=(Edit("causal_self_attention.q", SPLIT, "    q, k, v = (part.reshape(*batch, T, d) for part in\n"
                   "               np.split(qkv.reshape(*batch, T, n_head, 3 * (d // n_head)), 3, axis=-1))"),),
)
QKV_ORDER = Mistake(
    id="block_qkv_order",
    functions=ATTENTION,
    looks_like="the thirds of c_attn were taken in another order (k | q | v): queries and keys swapped",
    hint="The columns of c_attn hold the queries, then the keys, then the values.",
    patch=(Edit("causal_self_attention.q", SPLIT, "    k, q, v = np.split(qkv, 3, axis=-1)"),),
)
NO_CAUSAL_MASK = Mistake(
    id="block_no_causal_mask",
    functions=ATTENTION,
    looks_like="no causal mask: every position attended to the later ones too (weights above the diagonal)",
    hint="A language model must not see the future. Which of your earlier functions builds the mask, and where "
         "does it go?",
    patch=(Edit("causal_self_attention.heads", ATTEND, "    heads, weights = scaled_dot_product_attention(q, k, v)"),),
)
MASK_AFTER_SOFTMAX = Mistake(
    id="block_mask_after_softmax",
    functions=ATTENTION,
    looks_like="the future was zeroed after the softmax, so the remaining weights of a row no longer sum to 1",
    hint="Masking belongs before the softmax, where a forbidden score becomes -inf.",
    patch=(Edit("causal_self_attention.heads", ATTEND, "    heads, weights = scaled_dot_product_attention(q, k, v)\n"
                    "    weights = weights * causal_mask(T)\n"
                    "    heads = weights @ v"),),
)
SCALE_D_MODEL = Mistake(
    id="block_scale_d_model",
    functions=ATTENTION,
    looks_like="the heads' weights are too flat: their scores were divided by sqrt(d), not sqrt(d_head)",
    hint="Inside a head the dot products have d_head = d / n_head terms.",
    patch=(Edit("causal_self_attention.heads",
                ATTEND, "    heads, weights = scaled_dot_product_attention(q * (q.shape[-1] / d) ** 0.5, k, v, "
                    "causal_mask(T))"),),
)
C_PROJ_TRANSPOSED = Mistake(
    id="block_c_proj_transposed",
    functions=ATTENTION,
    looks_like="c_proj's weight was used transposed: it is square, so the shapes fit and only the values are wrong",
    hint="Every weight of GPT-2 is stored (in, out); no transpose anywhere.",
    patch=(Edit("causal_self_attention.return",
                PROJECT, '    return merged @ params["c_proj"]["weight"].T + params["c_proj"]["bias"], weights'),),
)
NO_BIASES = Mistake(
    id="block_no_biases",
    functions=ATTENTION,
    looks_like="the biases of c_attn and c_proj were left out (part one's attention had none; GPT-2's has them)",
    hint="Each of GPT-2's projections is a linear with a bias.",
    patch=(Edit("causal_self_attention.qkv", QKV, '    qkv = x @ params["c_attn"]["weight"]'),
           Edit("causal_self_attention.return", PROJECT, '    return merged @ params["c_proj"]["weight"], weights')),
)
ATTEND_BEFORE_APPEND = Mistake(
    id="block_decode_attend_before_append",
    functions=STEP,
    looks_like="the step attended over the cache before appending its own key and value: a position cannot see "
               "itself, and the first step sees nothing",
    hint="A position attends to every earlier position and to itself. When must its own key and value be cached?",
    patch=(Edit("block_decode_step.cache", APPEND, ""),
           Edit("block_decode_step.heads",
                STEP_ATTEND, "    heads, _ = scaled_dot_product_attention(query, keys, values)\n"
                         "    cache.append(k, v)")),
)
CACHED_NORMALISED = Mistake(
    id="block_decode_cached_normalised",
    functions=STEP,
    looks_like="the cache holds ln_1(x_t), the normalised input, instead of the position's key and value",
    hint="The cache is shared with other code (the model's decode step, another cache class): per position it "
         "holds the k and v thirds of the c_attn projection, nothing else.",
    mutant=(Edit("block_decode_step.qkv", STEP_QKV, '    normalised = layer_norm(x_t, ln_1["weight"], ln_1["bias"])\n'
                       '    qkv = linear(normalised, attn["c_attn"])'),
            Edit("block_decode_step.cache", APPEND, "    cache.append(normalised, normalised)"),
            Edit("block_decode_step.keys",
                 KEYS, '    keys = split_heads(linear(np.asarray(cache.keys), attn["c_attn"])[:, d:2 * d], n_head)'),
            Edit("block_decode_step.values",
                 VALUES,
                 '    values = split_heads(linear(np.asarray(cache.values), attn["c_attn"])[:, 2 * d:], n_head)')),
)
CACHE_LAYOUT = Mistake(
    id="block_decode_cache_layout",
    functions=STEP,
    looks_like="the cached keys and values hold the heads' columns interleaved, not head h in columns "
               "h*d_head:(h+1)*d_head",
    hint="Whatever reads this cache (the model's decode step, another implementation) expects k and v exactly as "
         "c_attn produced them: all heads side by side, each a contiguous block.",
    mutant=(Edit("block_decode_step.cache",
                 APPEND, "    cache.append(k.reshape(n_head, -1).T.reshape(-1), v.reshape(n_head, -1).T.reshape(-1))"),
            Edit("block_decode_step.keys",
                 KEYS, "    keys = split_heads(np.asarray(cache.keys).reshape(-1, d // n_head, n_head)"
                   ".swapaxes(-1, -2).reshape(-1, d), n_head)"),
            Edit("block_decode_step.values",
                 VALUES, "    values = split_heads(np.asarray(cache.values).reshape(-1, d // n_head, n_head)"
                     ".swapaxes(-1, -2).reshape(-1, d), n_head)")),
)
MODIFIES_INPUT = modifies_input("block", ("causal_self_attention", "transformer_block", "block_decode_step"), "x",
                                "transformer_block.h", RESIDUAL)
