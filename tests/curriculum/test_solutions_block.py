"""The block reference: GPT-2's causal self-attention against the kit's multi-head attention, the pre-norm block's
residual paths, and the decode step against the full block (the cache's contents and its errors too)."""
import numpy as np
import pytest

from grader.checks.gpt2_params import block_params
from solutions.block import block_decode_step, causal_self_attention, transformer_block
from solutions.kv_cache import KVCache
from solutions.layers import layer_norm, linear
from solutions.masking import causal_mask
from solutions.multihead import multi_head_self_attention


@pytest.fixture
def rng():
    return np.random.default_rng(24)


def test_without_biases_it_is_causal_multi_head_attention(rng):
    d, n_head = 12, 3
    params = block_params(rng, d)["attn"]
    params["c_attn"]["bias"][:] = 0.0
    params["c_proj"]["bias"][:] = 0.0
    x, W = rng.standard_normal((2, 5, d)), params["c_attn"]["weight"]
    got = causal_self_attention(x, params, n_head)
    want = multi_head_self_attention(x, W[:, :d], W[:, d:2 * d], W[:, 2 * d:], params["c_proj"]["weight"], n_head,
                                     causal_mask(5))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-12)
    assert got[1].shape == (2, n_head, 5, 5) and not np.triu(got[1], 1).any()


def test_zero_output_projections_pass_x_through(rng):
    params = block_params(rng, 8)
    for sublayer in (params["attn"], params["mlp"]):
        sublayer["c_proj"] = {key: np.zeros_like(value) for key, value in sublayer["c_proj"].items()}
    x = rng.standard_normal((3, 4, 8))
    np.testing.assert_array_equal(transformer_block(x, params, 2), x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_stepping_equals_the_block_and_fills_the_cache(rng, dtype):
    T, d, n_head = 6, 12, 3
    params, x = block_params(rng, d, 20, dtype), rng.standard_normal((T, d)).astype(dtype)
    cache = KVCache()
    rows = np.stack([block_decode_step(x[t], params, n_head, cache) for t in range(T)])
    assert rows.dtype == dtype
    tolerance = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(rows, transformer_block(x, params, n_head), rtol=tolerance, atol=tolerance)
    qkv = linear(layer_norm(x, params["ln_1"]["weight"], params["ln_1"]["bias"]), params["attn"]["c_attn"])
    np.testing.assert_allclose(cache.keys, qkv[:, d:2 * d], rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(cache.values, qkv[:, 2 * d:], rtol=tolerance, atol=tolerance)


def test_errors_come_before_any_append(rng):
    params, cache = block_params(rng, 8), KVCache()
    x = rng.standard_normal((2, 8))
    for bad in ((x, 2), (x[0], 3), (x[0], 0)):
        with pytest.raises(ValueError):
            block_decode_step(*bad[:1], params, bad[1], cache)
        assert len(cache) == 0
    for n_head in (3, 0):
        with pytest.raises(ValueError):
            causal_self_attention(x, params["attn"], n_head)
        with pytest.raises(ValueError):
            transformer_block(x, params, n_head)


def test_inputs_are_untouched(rng):
    params, x = block_params(rng, 8), rng.standard_normal((3, 8))
    before = (x.copy(), {k: v.copy() for k, v in params["attn"]["c_attn"].items()})
    transformer_block(x, params, 2)
    block_decode_step(x[0], params, 2, KVCache())
    np.testing.assert_array_equal(x, before[0])
    assert all(np.array_equal(params["attn"]["c_attn"][k], v) for k, v in before[1].items())
