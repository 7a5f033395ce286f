"""dtype rules of every solution: float32 stays float32, float64 stays float64, int and list input
give float64; no input is ever modified; float32 results agree with float64 ones."""
import copy

import numpy as np
import pytest

from solutions.attention import scaled_dot_product_attention, self_attention
from solutions.kv_cache import KVCache, decode_step
from solutions.masking import apply_mask, causal_mask, padding_mask
from solutions.multihead import merge_heads, multi_head_self_attention, split_heads
from solutions.positional import apply_rope, sinusoidal_encoding
from solutions.softmax import softmax
from solutions.tiled_attention import tiled_attention


def decode_all(X, W_Q, W_K, W_V):
    """decode_step over every row of X with one fresh cache: (stacked outputs, cached keys, cached values)."""
    cache = KVCache()
    outs = [decode_step(x, W_Q, W_K, W_V, cache) for x in X]   # rows of an array, or lists
    return np.stack(outs), cache.keys, cache.values


def kv_append_all(K, V):
    cache = KVCache()
    for k, v in zip(K, V):
        cache.append(k, v)
    return cache.keys, cache.values


MASK = causal_mask(4)

# name -> (function, shapes of its array arguments, extra keyword arguments)
CASES = {
    "softmax": (softmax, [(4, 4)], {}),
    "softmax_axis0": (lambda x: softmax(x, axis=0), [(4, 3)], {}),
    "apply_mask": (lambda s: apply_mask(s, MASK), [(4, 4)], {}),
    "scaled_dot_product_attention": (scaled_dot_product_attention, [(4, 3), (4, 3), (4, 2)], {"mask": MASK}),
    "scaled_dot_product_attention_nomask": (scaled_dot_product_attention, [(4, 3), (5, 3), (5, 2)], {}),
    "self_attention": (self_attention, [(4, 4), (4, 3), (4, 3), (4, 2)], {"mask": MASK}),
    "multi_head_self_attention": (lambda *a: multi_head_self_attention(*a, 2, mask=MASK), [(4, 4)] * 5, {}),
    "apply_rope": (apply_rope, [(4, 6)], {}),
    "apply_rope_positions": (lambda x: apply_rope(x, [3, 1, 4, 1]), [(4, 6)], {}),
    "kv_cache": (kv_append_all, [(4, 3), (4, 2)], {}),
    "decode_step": (decode_all, [(4, 4), (4, 3), (4, 3), (4, 2)], {}),
    "tiled_attention": (lambda *a: tiled_attention(*a, block_size=3), [(4, 3), (5, 3), (5, 2)], {}),
    "tiled_attention_causal": (lambda *a: tiled_attention(*a, block_size=2, causal=True), [(4, 3), (4, 3), (4, 2)], {}),
}


def make_inputs(shapes, kind, seed):
    rng = np.random.default_rng(seed)
    if kind == "int":
        return [rng.integers(-3, 4, size=shape) for shape in shapes]
    arrays = [rng.standard_normal(shape) for shape in shapes]
    if kind == "list":
        return [a.tolist() for a in arrays]
    return [a.astype(kind) for a in arrays]


def outputs(result):
    return list(result) if isinstance(result, tuple) else [result]


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("kind, want", [("float32", np.float32), ("float64", np.float64),
                                        ("int", np.float64), ("list", np.float64)])
def test_dtype_rules_and_inputs_untouched(name, kind, want):
    function, shapes, kwargs = CASES[name]
    args = make_inputs(shapes, kind, seed=len(name))
    before = copy.deepcopy(args)
    results = outputs(function(*args, **kwargs))
    for result in results:
        assert isinstance(result, np.ndarray)
        assert result.dtype == want, (name, kind, result.dtype)
        assert not np.any(np.isnan(result))
    for original, arg in zip(before, args):
        if isinstance(arg, list):
            assert arg == original
        else:
            assert arg.dtype == original.dtype
            np.testing.assert_array_equal(arg, original)


@pytest.mark.parametrize("name", sorted(CASES))
def test_float32_agrees_with_float64(name):
    function, shapes, kwargs = CASES[name]
    args64 = make_inputs(shapes, "float64", seed=len(name))
    got = outputs(function(*[a.astype(np.float32) for a in args64], **kwargs))
    want = outputs(function(*args64, **kwargs))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.astype(np.float64), w, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_list_input_equals_array_input(name):
    function, shapes, kwargs = CASES[name]
    lists = make_inputs(shapes, "list", seed=len(name))
    got = outputs(function(*lists, **kwargs))
    want = outputs(function(*[np.array(a) for a in lists], **kwargs))
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_split_and_merge_heads_only_rearrange_so_keep_the_dtype(dtype):
    X = (np.arange(2 * 3 * 8) - 20).reshape(2, 3, 8).astype(dtype)
    before = X.copy()
    heads = split_heads(X, 4)
    assert heads.dtype == dtype
    merged = merge_heads(heads)
    assert merged.dtype == dtype
    np.testing.assert_array_equal(X, before)
    np.testing.assert_array_equal(split_heads(X.tolist(), 4), heads)


def test_mask_builders_return_bool_and_sinusoidal_float64():
    assert causal_mask(3).dtype == bool
    lengths = [1, 3]
    assert padding_mask(lengths, 3).dtype == bool and lengths == [1, 3]
    assert sinusoidal_encoding(4, 6).dtype == np.float64


def test_float32_softmax_of_huge_inputs_stays_finite():
    y = softmax(np.array([1000.0, 1001.0], dtype=np.float32))
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, [0.26894142, 0.73105858], rtol=1e-6)
