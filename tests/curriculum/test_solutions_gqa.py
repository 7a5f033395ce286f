"""repeat_kv, grouped_query_attention and kv_cache_bytes ("GQA" 2023, "Fast Transformer Decoding" 2019)."""
import math

import numpy as np
import pytest

from solutions.attention import scaled_dot_product_attention
from solutions.gqa import grouped_query_attention, kv_cache_bytes, repeat_kv
from solutions.masking import causal_mask, padding_mask
from solutions.multihead import multi_head_self_attention

CLOSE = {"rtol": 1e-12, "atol": 1e-14}
GiB, MiB = 2**30, 2**20


def weights_for(rng, d_model, n_heads, n_kv_heads, dtype=np.float64):
    d_kv = n_kv_heads * (d_model // n_heads)
    shapes = ((d_model, d_model), (d_model, d_kv), (d_model, d_kv), (d_model, d_model))
    return [(rng.standard_normal(shape) / math.sqrt(d_model)).astype(dtype) for shape in shapes]


def test_repeat_kv_output_head_j_is_input_head_j_div_n_rep():
    x = np.arange(2 * 3 * 2 * 4).reshape(2, 3, 2, 4)     # (batch, n_kv_heads=3, n, d), integer: dtype kept
    y = repeat_kv(x, 2)
    assert y.shape == (2, 6, 2, 4) and y.dtype == x.dtype
    for j in range(6):
        np.testing.assert_array_equal(y[:, j], x[:, j // 2])   # kv0, kv0, kv1, kv1, kv2, kv2
    np.testing.assert_array_equal(repeat_kv(x, 1), x)
    assert not np.shares_memory(repeat_kv(x, 1), x)
    with pytest.raises(ValueError, match="n_rep"):
        repeat_kv(x, 0)


@pytest.mark.parametrize("n, d_model, n_heads, masked", [(5, 8, 2, False), (6, 12, 3, True), (7, 16, 4, True)])
def test_n_kv_heads_equal_to_n_heads_is_multi_head_self_attention(n, d_model, n_heads, masked):
    rng = np.random.default_rng(n)
    X = rng.standard_normal((2, n, d_model))
    W = weights_for(rng, d_model, n_heads, n_heads)
    mask = causal_mask(n) if masked else None
    got = grouped_query_attention(X, *W, n_heads, n_heads, mask)
    want = multi_head_self_attention(X, *W, n_heads, mask)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, **CLOSE)


def loop_gqa(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, mask=None):
    """Query head h attends with kv head h // (n_heads // n_kv_heads): a loop, one head at a time."""
    d_head = X.shape[-1] // n_heads
    group = n_heads // n_kv_heads
    outs, weights = [], []
    for h in range(n_heads):
        q_cols, kv_cols = slice(h * d_head, (h + 1) * d_head), slice((h // group) * d_head, (h // group + 1) * d_head)
        out, w = scaled_dot_product_attention(X @ W_Q[:, q_cols], X @ W_K[:, kv_cols], X @ W_V[:, kv_cols], mask)
        outs.append(out)
        weights.append(w)
    return np.concatenate(outs, axis=-1) @ W_O, np.stack(weights, axis=-3)


@pytest.mark.parametrize("n_heads, n_kv_heads", [(4, 2), (4, 1), (6, 3), (8, 2), (8, 8)])
def test_equals_a_loop_over_query_heads(n_heads, n_kv_heads):
    rng = np.random.default_rng(n_heads * 10 + n_kv_heads)
    n, d_model = 5, 2 * n_heads
    X = rng.standard_normal((n, d_model))
    W = weights_for(rng, d_model, n_heads, n_kv_heads)
    for mask in (None, causal_mask(n)):
        got = grouped_query_attention(X, *W, n_heads, n_kv_heads, mask)
        want = loop_gqa(X, *W, n_heads, n_kv_heads, mask)
        assert got[0].shape == (n, d_model) and got[1].shape == (n_heads, n, n)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, **CLOSE)


def test_one_kv_head_every_query_head_shares_the_keys():
    rng = np.random.default_rng(1)
    n, d_model, n_heads = 6, 8, 4
    X = rng.standard_normal((n, d_model))
    W_Q, W_K, W_V, W_O = weights_for(rng, d_model, n_heads, 1)
    same_queries = np.tile(W_Q[:, :2], (1, n_heads))       # every query head the same projection
    weights = grouped_query_attention(X, same_queries, W_K, W_V, W_O, n_heads, 1)[1]
    for h in range(1, n_heads):                             # same queries + shared keys = same weights
        np.testing.assert_allclose(weights[h], weights[0], **CLOSE)
    weights = grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, 1)[1]
    K = X @ W_K                                              # the single key head
    for h in range(n_heads):
        want = scaled_dot_product_attention(X @ W_Q[:, 2 * h:2 * h + 2], K, K)[1]
        np.testing.assert_allclose(weights[h], want, **CLOSE)


def test_masks_broadcast_to_every_head_one_dimensional_key_mask_included():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((2, 4, 8))
    W = weights_for(rng, 8, 4, 2)
    key_mask = padding_mask([4, 2], 4)[:, None, :]            # (batch, 1, n)
    out, weights = grouped_query_attention(X, *W, 4, 2, key_mask)
    np.testing.assert_array_equal(weights[1, :, :, 2:], 0)
    one_d = np.array([True, True, True, False])
    got = grouped_query_attention(X[0], *W, 4, 2, one_d)
    want = loop_gqa(X[0], *W, 4, 2, np.broadcast_to(one_d, (4, 4)))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, **CLOSE)


@pytest.mark.parametrize("d_model, n_heads, n_kv_heads, match", [(10, 3, 1, "n_heads=3"), (8, 4, 3, "n_kv_heads=3"),
                                                                 (8, 2, 4, "n_kv_heads=4")])
def test_value_errors(d_model, n_heads, n_kv_heads, match):
    X = np.zeros((3, d_model))
    W = np.zeros((d_model, d_model))
    with pytest.raises(ValueError, match=match):
        grouped_query_attention(X, W, W, W, W, n_heads, n_kv_heads)


def test_wrong_kv_projection_width_is_a_value_error():
    X, W = np.zeros((3, 8)), np.zeros((8, 8))
    with pytest.raises(ValueError, match="W_K has 8 columns"):
        grouped_query_attention(X, W, W, W, W, 4, 2)              # 2 kv heads of 2 need 4 columns


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_kept_and_inputs_untouched(dtype):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((2, 5, 8)).astype(dtype)
    W = weights_for(rng, 8, 4, 2, dtype)
    copies = [a.copy() for a in (X, *W)]
    out, weights = grouped_query_attention(X, *W, 4, 2, causal_mask(5))
    assert out.dtype == weights.dtype == dtype
    for before, after in zip(copies, (X, *W)):
        np.testing.assert_array_equal(after, before)


def test_kv_cache_bytes_shows_the_saving():
    # 32 layers, 32 query heads of 128 (d_model 4096), 4096 tokens, float16
    sizes = {"n_layers": 32, "d_head": 128, "seq_len": 4096}
    assert kv_cache_bytes(n_kv_heads=32, **sizes) == 2 * GiB         # multi-head attention
    assert kv_cache_bytes(n_kv_heads=8, **sizes) == 512 * MiB        # grouped-query attention, 8 groups
    assert kv_cache_bytes(n_kv_heads=1, **sizes) == 64 * MiB         # multi-query attention
    # for comparison: one head's n x n float32 attention weights at n = 4096 are 64 MiB
    assert 4096 * 4096 * 4 == 64 * MiB
    assert kv_cache_bytes(32, 8, 128, 4096, batch=4, bytes_per_value=4) == 4 * GiB
    assert isinstance(kv_cache_bytes(80, 8, 128, 131072, batch=64), int)
    assert kv_cache_bytes(80, 8, 128, 131072, batch=64) == 2 * 80 * 64 * 8 * 131072 * 128 * 2
    with pytest.raises(ValueError, match="seq_len"):
        kv_cache_bytes(32, 8, 128, -1)
