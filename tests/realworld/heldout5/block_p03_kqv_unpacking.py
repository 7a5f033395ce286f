"""Held-out #5: a GPT-2 block in the style of the HuggingFace port's attention module (``split_heads`` and
``merge_heads`` helpers, a boolean lower-triangular ``bias`` buffer and ``np.where`` with the dtype's minimum),
with the packed projection unpacked in the wrong order: ``key, query, value = np.split(qkv, 3, -1)``. GPT-2 packs
the columns as query | key | value, so the queries and keys trade roles."""
import numpy as np

from .layers import feed_forward, layer_norm, linear

EXPECTED = {"exercise": "block", "mistake": "block_qkv_order"}


def _n_head_ok(n_head, embed_dim):
    if isinstance(n_head, bool) or not isinstance(n_head, (int, np.integer)) or n_head < 1 or embed_dim % n_head:
        raise ValueError(f"embed_dim={embed_dim} is not divisible by num_heads={n_head!r}")


def _split_heads(tensor, num_heads):
    new_shape = tensor.shape[:-1] + (num_heads, tensor.shape[-1] // num_heads)
    return np.moveaxis(tensor.reshape(new_shape), -2, -3)          # (..., heads, seq, head_dim)


def _merge_heads(tensor):
    tensor = np.moveaxis(tensor, -3, -2)                            # (..., seq, heads, head_dim)
    return tensor.reshape(tensor.shape[:-2] + (-1,))


def _attn(query, key, value, causal):
    attn_weights = query @ np.swapaxes(key, -1, -2) / np.sqrt(np.float64(value.shape[-1])).astype(query.dtype)
    if causal:
        q_len, k_len = attn_weights.shape[-2:]
        causal_mask = np.tril(np.ones((k_len, k_len), dtype=bool))[k_len - q_len:k_len, :k_len]
        attn_weights = np.where(causal_mask, attn_weights, np.finfo(attn_weights.dtype).min)
    attn_weights = attn_weights - attn_weights.max(axis=-1, keepdims=True)
    attn_weights = np.exp(attn_weights)
    attn_weights = attn_weights / attn_weights.sum(axis=-1, keepdims=True)
    return attn_weights @ value, attn_weights


def causal_self_attention(x, params, n_head):
    hidden_states = np.asarray(x)
    _n_head_ok(n_head, hidden_states.shape[-1])
    key, query, value = np.split(linear(hidden_states, params["c_attn"]), 3, axis=-1)
    query, key, value = (_split_heads(t, n_head) for t in (query, key, value))
    attn_output, attn_weights = _attn(query, key, value, causal=True)
    return linear(_merge_heads(attn_output), params["c_proj"]), attn_weights


def transformer_block(x, params, n_head):
    hidden_states = np.asarray(x)
    residual = hidden_states
    attn_output, _ = causal_self_attention(
        layer_norm(hidden_states, params["ln_1"]["weight"], params["ln_1"]["bias"]), params["attn"], n_head)
    hidden_states = attn_output + residual
    residual = hidden_states
    feed_forward_hidden_states = feed_forward(
        layer_norm(hidden_states, params["ln_2"]["weight"], params["ln_2"]["bias"]), params["mlp"])
    return residual + feed_forward_hidden_states


def block_decode_step(x_t, params, n_head, cache):
    hidden_states = np.asarray(x_t)
    if hidden_states.ndim != 1:
        raise ValueError(f"x_t must be one position of shape (d,), got {hidden_states.shape}")
    _n_head_ok(n_head, hidden_states.shape[0])
    normed = layer_norm(hidden_states, params["ln_1"]["weight"], params["ln_1"]["bias"])
    key, query, value = np.split(linear(normed, params["attn"]["c_attn"]), 3)
    cache.append(key, value)
    past_key, past_value = np.asarray(cache.keys), np.asarray(cache.values)
    attn_output, _ = _attn(_split_heads(query[None, :], n_head), _split_heads(past_key, n_head),
                           _split_heads(past_value, n_head), causal=False)
    hidden_states = hidden_states + linear(_merge_heads(attn_output)[0], params["attn"]["c_proj"])
    normed = layer_norm(hidden_states, params["ln_2"]["weight"], params["ln_2"]["bias"])
    return hidden_states + feed_forward(normed, params["mlp"])
