"""KVCache and decode_step (002 "Training vs Inference", "KV Cache")."""
import numpy as np
import pytest

from solutions.attention import self_attention
from solutions.kv_cache import KVCache, decode_step
from solutions.masking import causal_mask


def test_empty_cache():
    cache = KVCache()
    assert len(cache) == 0
    assert cache.keys.shape[0] == 0 and cache.values.shape[0] == 0


def test_append_grows_len_keys_and_values_in_order():
    rng = np.random.default_rng(0)
    cache = KVCache()
    ks, vs = rng.standard_normal((40, 3)), rng.standard_normal((40, 5))   # past any initial capacity
    for t in range(40):
        cache.append(ks[t], vs[t])
        assert len(cache) == t + 1
        assert cache.keys.shape == (t + 1, 3) and cache.values.shape == (t + 1, 5)
    np.testing.assert_array_equal(cache.keys, ks)
    np.testing.assert_array_equal(cache.values, vs)


def test_append_copies_its_arguments():
    cache = KVCache()
    k, v = np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0])
    cache.append(k, v)
    k[:] = -1
    v[:] = -1
    np.testing.assert_array_equal(cache.keys, [[1.0, 2.0]])
    np.testing.assert_array_equal(cache.values, [[3.0, 4.0, 5.0]])


def test_returned_keys_cannot_corrupt_the_cache():
    cache = KVCache()
    cache.append([1.0, 2.0], [3.0])
    keys = cache.keys
    try:
        keys[0, 0] = 99.0
    except ValueError:
        pass                                        # read-only view: fine
    np.testing.assert_array_equal(cache.keys, [[1.0, 2.0]])
    held = cache.keys
    cache.append([5.0, 6.0], [7.0])                 # a later append does not change what was returned
    np.testing.assert_array_equal(held, [[1.0, 2.0]])
    np.testing.assert_array_equal(cache.keys, [[1.0, 2.0], [5.0, 6.0]])


def test_two_caches_are_independent():
    a, b = KVCache(), KVCache()
    a.append([1.0], [2.0])
    assert len(a) == 1 and len(b) == 0


@pytest.mark.parametrize("k, v", [(np.ones((1, 2)), np.ones(2)), (np.ones(2), np.ones((2, 1))), (1.0, np.ones(2))])
def test_append_rejects_non_vectors(k, v):
    with pytest.raises(ValueError):
        KVCache().append(k, v)


def test_append_rejects_a_size_change():
    cache = KVCache()
    cache.append(np.ones(3), np.ones(2))
    with pytest.raises(ValueError):
        cache.append(np.ones(4), np.ones(2))
    with pytest.raises(ValueError):
        cache.append(np.ones(3), np.ones(5))
    assert len(cache) == 1


@pytest.mark.parametrize("n, d_model, d_k, d_v", [(1, 3, 2, 2), (6, 8, 4, 5), (33, 16, 8, 8)])
def test_stacked_decode_steps_equal_causal_self_attention(n, d_model, d_k, d_v):
    rng = np.random.default_rng(n)
    X = rng.standard_normal((n, d_model))
    W_Q, W_K, W_V = rng.standard_normal((d_model, d_k)), rng.standard_normal((d_model, d_k)), \
        rng.standard_normal((d_model, d_v))
    cache = KVCache()
    steps = []
    for t in range(n):
        out = decode_step(X[t], W_Q, W_K, W_V, cache)
        assert out.shape == (d_v,)
        assert len(cache) == t + 1
        steps.append(out)
    want = self_attention(X, W_Q, W_K, W_V, causal_mask(n))[0]
    np.testing.assert_allclose(np.stack(steps), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cache.keys, X @ W_K, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(cache.values, X @ W_V, rtol=1e-13, atol=1e-14)
    # and it differs from attention without the mask (the cache never holds the future)
    if n > 1:
        assert not np.allclose(np.stack(steps), self_attention(X, W_Q, W_K, W_V)[0])


def test_decode_step_first_token_returns_its_own_value():
    rng = np.random.default_rng(1)
    x, W = rng.standard_normal(4), rng.standard_normal((4, 4))
    np.testing.assert_allclose(decode_step(x, W, W, W, KVCache()), x @ W, rtol=1e-14)


def test_decode_step_uses_the_prefilled_cache():
    rng = np.random.default_rng(2)
    X, W_Q, W_K, W_V = rng.standard_normal((5, 3)), *(rng.standard_normal((3, 3)) for _ in range(3))
    cache = KVCache()
    for t in range(4):                              # prefill the first four tokens' keys and values directly
        cache.append(X[t] @ W_K, X[t] @ W_V)
    got = decode_step(X[4], W_Q, W_K, W_V, cache)
    np.testing.assert_allclose(got, self_attention(X, W_Q, W_K, W_V)[0][4], rtol=1e-12, atol=1e-13)


def test_decode_step_does_not_modify_inputs():
    rng = np.random.default_rng(3)
    x, W_Q, W_K, W_V = rng.standard_normal(3), *(rng.standard_normal((3, 3)) for _ in range(3))
    copies = [a.copy() for a in (x, W_Q, W_K, W_V)]
    cache = KVCache()
    decode_step(x, W_Q, W_K, W_V, cache)
    decode_step(x, W_Q, W_K, W_V, cache)
    for before, after in zip(copies, (x, W_Q, W_K, W_V)):
        np.testing.assert_array_equal(after, before)
