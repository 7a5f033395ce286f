"""Checks for exercise ``block``: GPT-2's causal self-attention, the pre-norm block, and its cached decode step.

The decode steps run on a KV cache written by the sandbox (``impl.plain_cache()``), never on the student's own
``KVCache``: a broken cache class costs points in its own exercise only. The reference steps use the reference's
own KVCache, whose calls diagnosis replays."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_pair, expect_value_error, normal
from grader.checks.gpt2_params import attn_params, block_params
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import CheckFailed, arg, call_text, expect_close, matches
from grader.mistakes import block as mistakes

ATTENTION_CASES = (((5, 8), 2, np.float64), ((2, 4, 12), 3, np.float64), ((2, 3, 8), 4, np.float32),
                   ((6, 8), 1, np.float64))   # (x shape, n_head, dtype)


def block_arg(params) -> str:
    d, d_ff = params["mlp"]["c_fc"]["weight"].shape
    return f"params (a block, d={d}, d_ff={d_ff}, {params['ln_1']['weight'].dtype})"


def attn_arg(params) -> str:
    return f"params (a block's attn, d={params['c_proj']['weight'].shape[0]}, {params['c_proj']['weight'].dtype})"


def attention_call(x, params, n_head):
    return call_text("causal_self_attention", arg("x", x), attn_arg(params), f"n_head={n_head}")


def block_call(x, params, n_head):
    return call_text("transformer_block", arg("x", x), block_arg(params), f"n_head={n_head}")


def step_call(x, t, params, n_head):
    return call_text("block_decode_step", arg(f"x[{t}]", x[t]), block_arg(params), f"n_head={n_head}", "cache")


def qkv_rows(ref, x, params):
    """(normalised input, k, v) of every position, (T, d) each, as the reference computes them."""
    ln_1 = params["ln_1"]
    normalised = ref.layers.layer_norm(x, ln_1["weight"], ln_1["bias"])
    _, k, v = np.split(ref.layers.linear(normalised, params["attn"]["c_attn"]), 3, axis=-1)
    return normalised, k, v


def dimension_major(rows, n_head):
    """(t, d) rows with each head's columns interleaved: column j*n_head + h holds head h's entry j."""
    t, d = rows.shape
    return rows.reshape(t, n_head, d // n_head).swapaxes(-1, -2).reshape(t, d)


def check_steps(impl, ref, x, params, n_head, start=0, context=""):
    """Decode positions start .. T-1 of x (T, d) with the student's and the reference's block_decode_step side by
    side, both caches first holding the reference's k and v of positions 0 .. start-1. Returns the student's cache."""
    mine, theirs = impl.plain_cache(), ref.kv_cache.KVCache()
    _, k, v = qkv_rows(ref, x, params)
    for t in range(start):
        for cache in (mine, theirs):
            cache.append(k[t], v[t])
    for t in range(start, x.shape[0]):
        expected = ref.block.block_decode_step(x[t], params, n_head, theirs)
        expect_close(impl.block.block_decode_step(x[t], params, n_head, mine), expected,
                     call=f"{step_call(x, t, params, n_head)} (step {t + 1}, {context or 'from an empty cache'})")
    return mine


@check(points=4, task=1)
def test_causal_self_attention_matches_reference(impl, ref, rng):
    """causal_self_attention: packed q | k | v thirds, heads, causal softmax, merge, c_proj (batches, float32)"""
    for x_shape, n_head, dtype in ATTENTION_CASES:
        x, params = normal(rng, x_shape, dtype), attn_params(rng, x_shape[-1], dtype)
        expect_pair(impl.block.causal_self_attention(x, params, n_head),
                    ref.block.causal_self_attention(x, params, n_head), call=attention_call(x, params, n_head))


@check(points=1, task=1)
def test_causal_self_attention_without_biases_is_multihead(impl, ref, rng):
    """with zero biases, causal_self_attention equals multi_head_self_attention with a causal mask"""
    d, n_head = 8, 2
    x, params = normal(rng, (2, 5, d)), attn_params(rng, d)
    params["c_attn"]["bias"], params["c_proj"]["bias"] = np.zeros(3 * d), np.zeros(d)
    W = params["c_attn"]["weight"]
    expected = ref.multihead.multi_head_self_attention(x, W[:, :d], W[:, d:2 * d], W[:, 2 * d:],
                                                       params["c_proj"]["weight"], n_head, ref.masking.causal_mask(5))
    expect_pair(impl.block.causal_self_attention(x, params, n_head), expected,
                call=attention_call(x, params, n_head) + " with zero biases",
                origin=ref.block.causal_self_attention(x, params, n_head))


@check(points=1, task=1, rule="raises")
def test_causal_self_attention_rejects_bad_n_head(impl, ref, rng):
    """causal_self_attention raises ValueError when n_head is below 1 or does not divide d"""
    x, params = normal(rng, (4, 8)), attn_params(rng, 8)
    expect_pair(impl.block.causal_self_attention(x, params, 4), ref.block.causal_self_attention(x, params, 4),
                call=attention_call(x, params, 4))
    for n_head, why in ((3, "3 does not divide d = 8"), (0, "there must be at least one head")):
        expect_value_error(lambda n_head=n_head: impl.block.causal_self_attention(x, params, n_head),
                           call=attention_call(x, params, n_head), why=why)


@check(points=4, task=2)
def test_transformer_block_matches_reference(impl, ref, rng):
    """transformer_block: x + attention(ln_1(x)), then + mlp(ln_2(...)) (batches, float32, another d_ff); bad n_head"""
    for x_shape, n_head, d_ff, dtype in (((5, 8), 2, 32, np.float64), ((2, 4, 12), 3, 20, np.float64),
                                         ((2, 3, 8), 4, 32, np.float32)):
        x = normal(rng, x_shape, dtype)
        params = block_params(rng, x_shape[-1], d_ff, dtype)
        expect_close(impl.block.transformer_block(x, params, n_head), ref.block.transformer_block(x, params, n_head),
                     call=block_call(x, params, n_head))
    expect_value_error(lambda: impl.block.transformer_block(x, params, 3), call=block_call(x, params, 3),
                       why="3 does not divide d = 8")


@check(points=1, task=2)
def test_transformer_block_zero_projections_pass_through(impl, ref, rng):
    """with both output projections zero (weights and biases), transformer_block returns x unchanged"""
    x, params = normal(rng, (2, 4, 8), scale=3.0), block_params(rng, 8)
    for sublayer in (params["attn"], params["mlp"]):
        sublayer["c_proj"] = {key: np.zeros_like(value) for key, value in sublayer["c_proj"].items()}
    expect_close(impl.block.transformer_block(x, params, 2), x, call=block_call(x, params, 2) + " with zero c_proj",
                 origin=ref.block.transformer_block(x, params, 2))


@check(points=4, task=3)
def test_block_decode_step_equals_block(impl, ref, rng):
    """block_decode_step from an empty cache, position by position, equals transformer_block row by row"""
    for T, d, n_head, dtype in ((4, 8, 2, np.float64), (3, 12, 3, np.float32)):
        x, params = normal(rng, (T, d), dtype), block_params(rng, d, dtype=dtype)
        check_steps(impl, ref, x, params, n_head, context=f"from an empty cache, x of shape {x.shape}")


@check(points=2, task=3, visibility="hidden")
def test_block_decode_step_after_cached_prefix(impl, ref, rng):
    """block_decode_step after 3 cached positions attends to them and to itself; a one-position sequence too"""
    x, params = normal(rng, (5, 8)), block_params(rng, 8)
    check_steps(impl, ref, x, params, 4, start=3, context="after 3 positions cached")
    x, params = normal(rng, (1, 4)), block_params(rng, 4)
    check_steps(impl, ref, x, params, 2, context="the only position")


@check(points=1, task=3)
def test_block_decode_step_fills_the_cache(impl, ref, rng):
    """each step appends its k and v once, heads side by side; a 2-D x_t or bad n_head raises ValueError, appends 0"""
    T, d, n_head = 3, 8, 2
    x, params = normal(rng, (T, d)), block_params(rng, d)
    cache = check_steps(impl, ref, x, params, n_head)
    normalised, k, v = qkv_rows(ref, x, params)
    steps = f"{T} calls of block_decode_step(x[t], {block_arg(params)}, n_head={n_head}, cache), x of shape {x.shape}"
    if len(cache) != T:
        raise CheckFailed(f"len(cache) after {steps} returned {len(cache)}; expected {T} (one key and one value per "
                          "position)")
    for name, expected in (("keys", k), ("values", v)):
        call = f"cache.{name} after {steps}"
        got = np.asarray(cache.keys if name == "keys" else cache.values)
        if got.shape == expected.shape and not matches(got, expected, 1e-7, 1e-9):
            if matches(got, normalised, 1e-7, 1e-9):
                raise CheckFailed(f"{call} holds ln_1(x), the normalised input; expected the {name} of every "
                                  "position", diagnosis=mistakes.CACHED_NORMALISED)
            if matches(got, dimension_major(expected, n_head), 1e-7, 1e-9):
                raise CheckFailed(f"{call} holds the right numbers in another column order; expected head h in "
                                  "columns h*d_head:(h+1)*d_head", diagnosis=mistakes.CACHE_LAYOUT)
        expect_close(got, expected, call=call)
    for x_t, heads, why in ((x[:1], n_head, "x_t must be one position's vector, of shape (d,)"),
                            (x[0], 3, "3 does not divide d = 8")):
        refused = call_text("block_decode_step", arg("x_t", x_t), block_arg(params), f"n_head={heads}", "cache")
        expect_value_error(lambda x_t=x_t, heads=heads: impl.block.block_decode_step(x_t, params, heads, cache),
                           call=refused, why=why)
        if len(cache) != T:
            raise CheckFailed(f"len(cache) after {refused} raised returned {len(cache)}; expected {T}: nothing may be "
                              "appended before the arguments are checked")


@check(points=1, task=3, rule="dtype")
def test_block_dtypes(impl, ref, rng):
    """float32 inputs and parameters give float32 results (all three functions); integer x gives float64"""
    for dtype, x in ((np.float32, normal(rng, (3, 8), np.float32)), (np.float64, rng.integers(-2, 3, (3, 8)))):
        params = block_params(rng, 8, dtype=dtype)
        expect_dtypes(impl.block.causal_self_attention(x, params["attn"], 2),
                      ref.block.causal_self_attention(x, params["attn"], 2), call=attention_call(x, params["attn"], 2))
        expect_dtypes(impl.block.transformer_block(x, params, 2), ref.block.transformer_block(x, params, 2),
                      call=block_call(x, params, 2))
        mine, theirs = impl.plain_cache(), ref.kv_cache.KVCache()
        for t in range(2):
            expect_dtypes(impl.block.block_decode_step(x[t], params, 2, mine),
                          ref.block.block_decode_step(x[t], params, 2, theirs), call=step_call(x, t, params, 2))


@check(points=1, task=3, rule="untouched")
def test_block_leaves_inputs_untouched(impl, ref, rng):
    """causal_self_attention, transformer_block and block_decode_step leave x and the parameters as they were"""
    x, params = normal(rng, (4, 8)), block_params(rng, 8)
    expect_untouched(impl, "block", "causal_self_attention", (x, params["attn"], 2), names=("x", "params", "n_head"),
                     mistake=mistakes.MODIFIES_INPUT, expected=ref.block.causal_self_attention(x, params["attn"], 2))
    expect_untouched(impl, "block", "transformer_block", (x, params, 2), names=("x", "params", "n_head"),
                     mistake=mistakes.MODIFIES_INPUT, expected=ref.block.transformer_block(x, params, 2))
    expect_untouched(impl, "block", "block_decode_step", (x[0], params, 2, impl.plain_cache()),
                     names=("x_t", "params", "n_head", "cache"), mistake=mistakes.MODIFIES_INPUT,
                     expected=ref.block.block_decode_step(x[0], params, 2, ref.kv_cache.KVCache()))
