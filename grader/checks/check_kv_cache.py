"""Checks for exercise ``kv_cache``: a key/value cache and one-token decode steps."""
import numpy as np

from grader import document_values as doc
from grader.checks.common import expect_dtypes, expect_value_error, normal
from grader.checks.marks import check
from grader.compare import CheckFailed, arg, call_text, expect_array, expect_close
from grader.mistakes import kv_cache as mistakes


def expect_len(cache, expected: int, after: str) -> None:
    got = len(cache)
    if got != expected:
        raise CheckFailed(f"len(cache) after {after} returned {got}; expected {expected}")


def weights_for(rng, d_model, d_k, d_v, dtype=np.float64):
    return [normal(rng, (d_model, d), dtype, d_model ** -0.5) for d in (d_k, d_k, d_v)]  # float32 stays float32


def step_call(X, W, t):
    return call_text("decode_step", arg(f"X[{t}]", X[t]), arg("W_Q", W[0]), arg("W_K", W[1]), arg("W_V", W[2]), "cache")


def decode_all(impl, cache, X, W, start=0):
    """Decode tokens start .. n-1 with the student's decode_step; the outputs stacked (n - start, d_v)."""
    rows = [expect_array(impl.kv_cache.decode_step(X[t], *W, cache), call=f"{step_call(X, W, t)} (step {t + 1})",
                         shape=(W[2].shape[1],)) for t in range(start, X.shape[0])]
    return np.stack(rows)


def check_decoding(impl, ref, X, W, start: int, context: str):
    """Decode tokens start .. n-1 with the student's and the reference's decode_step side by side.

    Both caches first get the keys and values of tokens 0 .. start-1; each step's output is
    compared with the reference's, so the first wrong step is the one reported. Returns the
    student's cache.
    """
    K, V = X @ W[1], X @ W[2]
    caches = impl.kv_cache.KVCache(), ref.kv_cache.KVCache()
    for t in range(start):
        for cache in caches:
            cache.append(K[t], V[t])
    for t in range(start, X.shape[0]):
        expected = ref.kv_cache.decode_step(X[t], *W, caches[1])
        call = f"{step_call(X, W, t)} (step {t + 1}, {context})"
        expect_close(impl.kv_cache.decode_step(X[t], *W, caches[0]), expected, call=call)
    return caches[0]


@check(points=2, task=1)
def test_kvcache_append_and_read(impl, rng):
    """KVCache starts empty; append adds one position; keys/values hold every position so far, oldest first"""
    cache = impl.kv_cache.KVCache()
    expect_len(cache, 0, "KVCache()")
    keys, values = normal(rng, (3, 4)), normal(rng, (3, 2))
    for t in range(3):
        cache.append(keys[t], values[t])
        expect_len(cache, t + 1, f"{t + 1} appends")
    expect_close(cache.keys, keys, call="cache.keys after 3 appends of k of shape (4,)")
    expect_close(cache.values, values, call="cache.values after 3 appends of v of shape (2,)")
    cache = impl.kv_cache.KVCache()
    cache.append([1, 2], [3])
    cache.append(np.array([0, 5]), np.array([-1]))
    appended = "after append([1, 2], [3]) and append of int"
    expect_close(cache.keys, np.array([[1.0, 2.0], [0.0, 5.0]]), call=f"cache.keys {appended} k [0, 5]")
    expect_close(cache.values, np.array([[3.0], [-1.0]]), call=f"cache.values {appended} v [-1]")


@check(points=1, task=2, rule="dtype")
def test_kv_cache_dtypes(impl, ref, rng):
    """KVCache holds integer keys and values as float64 and keeps float32; decode_step keeps float32"""
    cache = impl.kv_cache.KVCache()
    cache.append([1, 2], [3])
    cache.append(np.array([0, 5]), np.array([-1]))
    for name, expected in (("keys", np.array([[1.0, 2.0], [0.0, 5.0]])), ("values", np.array([[3.0], [-1.0]]))):
        call = f"cache.{name} after append([1, 2], [3]) and append of int k [0, 5], v [-1]"
        got = expect_close(getattr(cache, name), expected, call=call)
        if got.dtype != np.float64:
            raise CheckFailed(f"{call} returned dtype {got.dtype}; expected float64 (integer input gives float64)",
                              mistakes.INTEGER_DTYPE if got.dtype.kind in "iub" else None)
    X = normal(rng, (3, 4), np.float32)
    W = weights_for(rng, 4, 3, 2, np.float32)
    caches = impl.kv_cache.KVCache(), ref.kv_cache.KVCache()
    for t in range(3):
        expected = ref.kv_cache.decode_step(X[t], *W, caches[1])
        expect_dtypes(impl.kv_cache.decode_step(X[t], *W, caches[0]), expected, call=f"{step_call(X, W, t)} (float32)")
    expect_dtypes(caches[0].keys, X @ W[1], call="cache.keys after 3 float32 decode steps")  # (3, d_k) float32


@check(points=1, task=1, visibility="hidden")
def test_kvcache_many_appends_float32(impl, rng):
    """KVCache keeps 40 float32 positions in order"""
    cache = impl.kv_cache.KVCache()
    keys, values = normal(rng, (40, 3), np.float32), normal(rng, (40, 5), np.float32)
    for t in range(40):
        cache.append(keys[t], values[t])
    expect_len(cache, 40, "40 appends")
    expect_close(cache.keys, keys, call="cache.keys after 40 appends of float32 k of shape (3,)")
    expect_close(cache.values, values, call="cache.values after 40 appends of float32 v of shape (5,)")


@check(points=1, task=1)
def test_kvcache_keeps_copies(impl, rng):
    """the cache keeps its own copies: changing the arrays given to append afterwards leaves keys/values alone"""
    cache = impl.kv_cache.KVCache()
    keys, values = normal(rng, (3, 4)), normal(rng, (3, 2))
    for t in range(3):
        cache.append(keys[t], values[t])
        impl.touch_last_arguments()  # the very k and v that append received, + 1, in the student's process
    for name, expected in (("keys", keys), ("values", values)):
        call = f"cache.{name} after 3 appends, each followed by adding 1 to the k and v it was given"
        got = expect_array(getattr(cache, name), call=call, shape=expected.shape)
        changed = [t for t in range(3) if np.allclose(got[t], expected[t] + 1)]
        if changed:
            raise CheckFailed(f"{call} returned rows {changed} + 1 (they changed along with the arrays given to "
                              "append); expected the values appended", diagnosis=mistakes.ALIASING)
        expect_close(got, expected, call=call)


@check(points=4, task=2)
def test_decode_step_after_cached_prefix(impl, ref, rng):
    """decode_step after 2 cached tokens: each new token attends to the cache and to itself (= causal attention)"""
    for n, d_model, d_k, d_v, dtype in ((6, 5, 4, 3, np.float64), (5, 4, 4, 4, np.float32)):
        X = normal(rng, (n, d_model), dtype, 2.0)
        W = weights_for(rng, d_model, d_k, d_v, dtype)
        check_decoding(impl, ref, X, W, 2, f"after cache.append of tokens 0 and 1 of X of shape {X.shape}")


@check(points=3, task=2)
def test_decode_step_equals_causal_self_attention(impl, ref, rng):
    """decode_step from an empty cache, stacked over a sequence, equals causal self-attention"""
    for n, d_model, d_k, d_v, dtype in ((7, 6, 4, 3, np.float64), (4, 3, 2, 5, np.float32)):
        X = normal(rng, (n, d_model), dtype, 2.0)
        W = weights_for(rng, d_model, d_k, d_v, dtype)
        check_decoding(impl, ref, X, W, 0, f"from KVCache(), X of shape {X.shape}")


@check(points=1, task=2)
def test_decode_step_fills_the_cache(impl, ref, rng):
    """after n decode steps (each returning the right output) the cache holds the n keys X W_K and values X W_V"""
    X = normal(rng, (5, 4))
    W = weights_for(rng, 4, 3, 2)
    cache = check_decoding(impl, ref, X, W, 0, f"from KVCache(), X of shape {X.shape}")
    expect_len(cache, 5, "5 decode steps")
    expect_close(cache.keys, X @ W[1], call="cache.keys after 5 decode steps")
    expect_close(cache.values, X @ W[2], call="cache.values after 5 decode steps")


@check(points=2, task=2)
def test_decode_step_document_values(impl, ref):
    """decoding "India is great" token by token: step 1 returns V[0], step 3 the worked example's output row 3"""
    inputs, printed = doc.india_inputs(), doc.india_expected()
    X, W = inputs["X"], [inputs["W_Q"], inputs["W_K"], inputs["W_V"]]
    reference_cache = ref.kv_cache.KVCache()
    origin = [ref.kv_cache.decode_step(X[t], *W, reference_cache) for t in range(3)]
    cache = impl.kv_cache.KVCache()
    got = decode_all(impl, cache, X, W)
    call = "decode_step(X[t], W_Q, W_K, W_V, cache) for the 3 tokens of the example's X from KVCache()"
    expect_close(got[0], printed["V"].value[0], call=call, what="(step 1: the first token only sees itself)",
                 atol=printed["V"].atol, rtol=0, origin=origin[0])
    expect_close(got[2], printed["output"].value[2], call=call, what="(step 3: 'great' sees all three tokens)",
                 atol=printed["output"].atol, rtol=0, origin=origin[2])


@check(points=1, task=1, rule="raises")
def test_kvcache_rejects_bad_vectors(impl, rng):
    """KVCache.append raises ValueError for a k or v that is not 1-D, or whose size differs from the cached ones"""
    cache = impl.kv_cache.KVCache()
    key, value = normal(rng, (4,)), normal(rng, (2,))
    cache.append(key, value)                                    # a valid append must work before errors score
    expect_len(cache, 1, "1 append")
    expect_close(cache.keys, key[None], call="cache.keys after 1 append of k of shape (4,)")
    for new_k, new_v, why in ((key[None], value, "k of shape (1, 4) is not one position's key"),
                              (key, value[None], "v of shape (1, 2) is not one position's value"),
                              (key[:3], value, "the cache holds keys of size 4"),
                              (key, normal(rng, (3,)), "the cache holds values of size 2")):
        expect_value_error(lambda new_k=new_k, new_v=new_v: cache.append(new_k, new_v),
                           call=f"cache.append(k of shape {new_k.shape}, v of shape {new_v.shape}) after an append "
                                "of k (4,) and v (2,)", why=why)
