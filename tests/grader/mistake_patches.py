"""Classic mistakes as one textual patch of a copy of solutions/ (used by the tests and by benchmarks/)."""

# (expected mistake id, exercise, module, old text, new text): ONE replacement in ONE module.
PATCHES = [
    ("softmax_no_max_subtraction", "softmax", "softmax",
     "exps = np.exp(x - row_max)", "exps = np.exp(x)"),
    ("softmax_wrong_axis", "softmax", "softmax",
     "row_max = np.max(x, axis=axis, keepdims=True)", "axis = -1\n    row_max = np.max(x, axis=axis, keepdims=True)"),
    ("softmax_global_max", "softmax", "softmax",
     "row_max = np.max(x, axis=axis, keepdims=True)", "row_max = np.max(x)"),
    ("softmax_all_inf_nan", "softmax", "softmax",
     "    row_max = np.where(np.isfinite(row_max), row_max, 0)  # an all -inf slice: shift by 0, not -inf\n"
     "    exps = np.exp(x - row_max)                            # largest entry becomes exp(0) = 1\n"
     "    totals = np.sum(exps, axis=axis, keepdims=True)\n"
     "    return np.divide(exps, totals, out=np.zeros_like(exps), where=totals > 0)",
     "    exps = np.exp(x - row_max)\n    return exps / np.sum(exps, axis=axis, keepdims=True)"),
    ("causal_mask_triu", "masking", "masking",
     "np.tril(np.ones((n, n), dtype=bool))", "np.triu(np.ones((n, n), dtype=bool))"),
    ("causal_mask_strict", "masking", "masking",
     "np.tril(np.ones((n, n), dtype=bool))", "np.tril(np.ones((n, n), dtype=bool), k=-1)"),
    ("padding_mask_off_by_one", "masking", "masking",
     "positions[None, :] < lengths[:, None]", "positions[None, :] <= lengths[:, None]"),
    ("apply_mask_inverted", "masking", "masking",
     "np.where(np.asarray(mask, dtype=bool), scores, -np.inf)", "np.where(np.asarray(mask, dtype=bool), -np.inf, scores)"),
    ("apply_mask_zero", "masking", "masking",
     "np.where(np.asarray(mask, dtype=bool), scores, -np.inf)", "np.where(np.asarray(mask, dtype=bool), scores, 0.0)"),
    ("apply_mask_large_negative", "masking", "masking",
     "np.where(np.asarray(mask, dtype=bool), scores, -np.inf)", "np.where(np.asarray(mask, dtype=bool), scores, -1e9)"),
    ("attention_no_scale", "attention", "attention",
     "scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores"),
    ("attention_divide_by_dk", "attention", "attention",
     "scores = scores * (1.0 / math.sqrt(d_k))", "scores = scores / d_k"),
    ("attention_softmax_wrong_axis", "attention", "attention",
     "weights = softmax(scores, axis=-1)", "weights = softmax(scores, axis=-2)"),
    ("attention_mask_after_softmax", "attention", "attention",
     "    if mask is not None:\n        scores = apply_mask(scores, mask)       # forbidden keys -> -inf, before the softmax\n"
     "    weights = softmax(scores, axis=-1)          # (..., n_q, n_k), normalised over the keys\n",
     "    weights = softmax(scores, axis=-1)\n    if mask is not None:\n        weights = weights * mask\n"),
    ("attention_mask_after_softmax_renormalised", "attention", "attention",
     "    if mask is not None:\n        scores = apply_mask(scores, mask)       # forbidden keys -> -inf, before the softmax\n"
     "    weights = softmax(scores, axis=-1)          # (..., n_q, n_k), normalised over the keys\n",
     "    weights = softmax(scores, axis=-1)\n    if mask is not None:\n        weights = weights * mask\n"
     "        weights = weights / weights.sum(axis=-1, keepdims=True)\n"),
    ("split_heads_no_transpose", "multihead", "multihead",
     "return np.swapaxes(per_head, -3, -2)", "return X.reshape(*batch, n_heads, n, d_head)"),
    ("split_heads_strided", "multihead", "multihead",
     "per_head = X.reshape(*batch, n, n_heads, d_head)",
     "per_head = np.swapaxes(X.reshape(*batch, n, d_head, n_heads), -1, -2)"),
    ("merge_heads_no_transpose", "multihead", "multihead",
     "per_token = np.swapaxes(X, -3, -2)", "per_token = X"),
    ("multihead_scale_d_model", "multihead", "multihead",
     "heads, weights = scaled_dot_product_attention(Q, K, V, mask)",
     "heads, weights = scaled_dot_product_attention(Q * (Q.shape[-1] / X.shape[-1]) ** 0.5, K, V, mask)"),
    ("sinusoidal_sin_cos_swapped", "positional", "positional",
     "    encoding[:, 0::2] = np.sin(angles)\n    encoding[:, 1::2] = np.cos(angles[:, : d_model // 2])",
     "    encoding[:, 0::2] = np.cos(angles)\n    encoding[:, 1::2] = np.sin(angles[:, : d_model // 2])"),
    ("sinusoidal_exponent_i", "positional", "positional",
     "angles = positions / 10000.0 ** (two_i / d_model)", "angles = positions / 10000.0 ** (two_i / 2 / d_model)"),
    ("rope_rotate_half", "positional", "positional",
     "    x_even, x_odd = x[..., 0::2], x[..., 1::2]                          # (..., n, d/2) each\n"
     "    rotated = np.empty_like(x)\n"
     "    rotated[..., 0::2] = x_even * cos - x_odd * sin\n"
     "    rotated[..., 1::2] = x_even * sin + x_odd * cos\n",
     "    x_even, x_odd = x[..., : d // 2], x[..., d // 2:]\n"
     "    rotated = np.empty_like(x)\n"
     "    rotated[..., : d // 2] = x_even * cos - x_odd * sin\n"
     "    rotated[..., d // 2:] = x_even * sin + x_odd * cos\n"),
    ("rope_direction_flipped", "positional", "positional",
     "theta = positions[:, None] * frequencies[None, :]", "theta = -positions[:, None] * frequencies[None, :]"),
    ("rope_exponent_i", "positional", "positional",
     "frequencies = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)",
     "frequencies = base ** (-np.arange(0, d // 2, dtype=np.float64) / d)"),
    ("kv_cache_attend_before_append", "kv_cache", "kv_cache",
     "    cache.append(k, v)                 # the new token attends to itself too\n"
     "    keys, values = cache.keys, cache.values       # (t, d_k), (t, d_v)\n",
     "    keys, values = cache.keys, cache.values\n    cache.append(k, v)\n"),
    ("kv_cache_no_scale", "kv_cache", "kv_cache",
     "scores = (keys @ q) * (1.0 / math.sqrt(q.shape[-1]))", "scores = keys @ q"),
    ("tiled_no_rescale", "tiled_attention", "tiled_attention",
     "        running_sum *= rescale\n        running_sum += weights.sum(axis=1)\n        running_out *= rescale[:, None]\n",
     "        running_sum += weights.sum(axis=1)\n"),
    ("tiled_no_rescale_sum", "tiled_attention", "tiled_attention",
     "        running_sum *= rescale\n", ""),
    ("tiled_no_causal_mask", "tiled_attention", "tiled_attention",
     "np.copyto(scores, -np.inf, where=key_index > query_index)", "pass"),
    ("tiled_strict_causal", "tiled_attention", "tiled_attention",
     "where=key_index > query_index)", "where=key_index >= query_index)"),
    ("tiled_full_matrix", "tiled_attention", "tiled_attention",
     "key_index = np.arange(start, stop)[None, :]",
     "key_index = np.arange(n_k)[None, :] <= query_index  # a full (n_q, n_k) mask\n"
     "            key_index = np.arange(start, stop)[None, :]"),
]
