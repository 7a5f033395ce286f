"""Checks for exercise ``gpt``: the whole model's logits, its cached decode step, log-softmax, the mean
cross-entropy and the next-token loss, on random GPT-2 models (several layers and heads, batches)."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_value_error
from grader.checks.gpt_model import expect_loss, model_params, model_text, tokens_text
from grader.checks.marks import check
from grader.checks.tiny_model import expect_tiny_gpt_logits
from grader.checks.untouched import argument_name, expect_untouched
from grader.compare import CheckFailed, arg, call_text, expect_close
from grader.mistakes.gpt import MODIFIES_INPUT, NEGATIVE_IDS_WRAP

# (V, d, n_ctx, n_layer, n_head): n_ctx >= V, so that position embeddings indexed by token ids still run
# (and give wrong values); in the last one V == d, where a head that forgets the transpose runs too
MODELS = ((11, 16, 12, 2, 4), (7, 8, 9, 1, 2), (8, 8, 8, 2, 2))
FULL_CONTEXT = (8, 8, 8, 1, 2)   # decoded to its last position: one layer (each step crosses with the whole tree)


def forward_call(tokens, params, n_head):
    return call_text("gpt_forward", tokens_text(tokens), model_text(params), f"n_head={n_head}")


def step_call(token, params, n_head, t, n_layer):
    return call_text("gpt_decode_step", f"token={token}", model_text(params), f"n_head={n_head}",
                     f"caches holding {t} position{'s' * (t != 1)} (one per layer, {n_layer})")


def loss_call(tokens, params, n_head):
    return call_text("lm_loss", tokens_text(tokens), model_text(params), f"n_head={n_head}")


def ce_call(logits, targets):
    return call_text("cross_entropy", arg("logits", logits), arg("targets", np.asarray(targets)))


def model(rng, config, dtype=np.float64):
    V, d, n_ctx, n_layer, n_head = config
    return model_params(rng, V, d, n_ctx, n_layer, dtype=dtype), n_head


def check_forward(impl, ref, tokens, params, n_head):
    expected = ref.gpt.gpt_forward(tokens, params, n_head)   # first: an error of the student's call is diagnosed on it
    return expect_close(impl.gpt.gpt_forward(tokens, params, n_head), expected,
                        call=forward_call(tokens, params, n_head))


def check_decoding(impl, ref, tokens, params, n_head):
    """Step ``tokens`` through the student's gpt_decode_step from empty caches the sandbox lends (so that only this
    exercise's code is judged) and the reference's side by side (so that a wrong step can be diagnosed as a
    decode-step mistake): step t must return gpt_forward(tokens)[t], and every layer's cache must grow by one
    position per step. Returns the student's caches."""
    n_layer = len(params["h"])
    mine = [impl.plain_cache() for _ in range(n_layer)]
    theirs = [ref.kv_cache.KVCache() for _ in range(n_layer)]
    for t, token in enumerate(tokens):
        expected = ref.gpt.gpt_decode_step(token, params, n_head, theirs)   # = gpt_forward(tokens)[t]
        call = f"{step_call(token, params, n_head, t, n_layer)} (step {t + 1})"
        expect_close(impl.gpt.gpt_decode_step(token, params, n_head, mine), expected, call=call)
    lengths = [len(cache) for cache in mine]
    if lengths != [len(tokens)] * n_layer:
        raise CheckFailed(f"the caches' lengths after {len(tokens)} decode steps were {lengths}; expected "
                          f"{[len(tokens)] * n_layer} (each step appends exactly one position to every layer's cache)")
    return mine


def check_loss(impl, ref, tokens, params, n_head):
    expected = ref.gpt.lm_loss(tokens, params, n_head)
    expect_loss(impl.gpt.lm_loss(tokens, params, n_head), expected, call=loss_call(tokens, params, n_head))


def check_cross_entropy(impl, ref, logits, targets):
    expected = ref.gpt.cross_entropy(logits, targets)
    expect_loss(impl.gpt.cross_entropy(logits, targets), expected, call=ce_call(logits, targets))


# -- task 1: gpt_forward --------------------------------------------------------------------------------------
@check(points=4, task=1)
def test_gpt_forward_matches_reference(impl, ref, rng):
    """gpt_forward: token + position embeddings, every block, final LayerNorm, tied head (1-2 layers, batches, and
    the tiny GPT-2 the kit ships)"""
    for config, tokens in zip(MODELS, (rng.integers(0, 11, (2, 7)), [3, 0, 6, 6, 1], rng.integers(0, 8, (2, 2, 3)))):
        params, n_head = model(rng, config)       # 2 layers, then 1 layer and a list of ints, then V == d
        check_forward(impl, ref, tokens, params, n_head)
    expect_tiny_gpt_logits(impl, ref)


@check(points=2, task=1, visibility="hidden")
def test_gpt_forward_context_edges(impl, ref, rng):
    """gpt_forward on exactly n_ctx tokens (every position embedding, the last included) and on a single token"""
    params, n_head = model(rng, MODELS[1])   # one layer: the edges are the embeddings'
    check_forward(impl, ref, rng.integers(0, 7, (2, 9)), params, n_head)
    check_forward(impl, ref, np.array([[4], [6]]), params, n_head)


@check(points=2, task=1, rule="raises")
def test_gpt_forward_rejects_bad_tokens(impl, ref, rng):
    """gpt_forward raises ValueError for more than n_ctx tokens, ids outside [0, V) and non-integer tokens"""
    params, n_head = model(rng, MODELS[1])
    tokens = rng.integers(0, 7, (2, 4))
    check_forward(impl, ref, tokens, params, n_head)
    cases = ((rng.integers(0, 7, (1, 10)), "10 tokens, but n_ctx is 9: the model has no position embedding for more"),
             (np.array([[1, 7, 2]]), "id 7 with V = 7: ids lie in [0, V)"),
             (np.array([2.0, 1.0]), "float tokens: ids are integers"))
    for bad, why in cases:
        expect_value_error(lambda bad=bad: impl.gpt.gpt_forward(bad, params, n_head),
                           call=forward_call(bad, params, n_head), why=why)
    bad = np.array([[3, -1, 2]])
    call = forward_call(bad, params, n_head)
    why = "id -1: ids lie in [0, V); a negative id must not silently pick the last row of wte"
    try:
        expect_value_error(lambda: impl.gpt.gpt_forward(bad, params, n_head), call=call, why=why)
    except CheckFailed as failure:
        raise CheckFailed(failure.message, NEGATIVE_IDS_WRAP) from None


# -- task 2: gpt_decode_step ----------------------------------------------------------------------------------
@check(points=5, task=2)
def test_gpt_decode_step_matches_reference(impl, ref, rng):
    """gpt_decode_step from empty caches: each token at position len(caches[0]), one cached step per layer; the
    steps reproduce gpt_forward row by row (two layers, then a full context of n_ctx tokens on one layer, V == d)"""
    for config, T in ((MODELS[0], 3), (FULL_CONTEXT, FULL_CONTEXT[2])):
        params, n_head = model(rng, config)
        check_decoding(impl, ref, [int(t) for t in rng.integers(0, config[0], T)], params, n_head)


@check(points=2, task=2, rule="raises")
def test_gpt_decode_step_rejects_bad_calls(impl, ref, rng):
    """gpt_decode_step raises ValueError, before touching any cache, for a wrong number of caches, full caches
    (position n_ctx) and ids outside [0, V)"""
    params, n_head = model(rng, (7, 8, 3, 1, 2))   # one layer, n_ctx = 3, V = 7
    full = check_decoding(impl, ref, [1, 5, 6], params, n_head)
    two, fresh = [impl.plain_cache(), impl.plain_cache()], [impl.plain_cache()]
    cases = ((3, two, [0, 0], "two caches for a one-layer model: one cache per layer"),   # (.., lengths before, ..)
             (3, full, [3], "the cache already holds n_ctx = 3 positions"),   # as check_decoding found them
             (7, fresh, [0], "id 7 with V = 7"), (-1, fresh, [0], "id -1: ids lie in [0, V)"))
    for token, caches, sizes, why in cases:
        call = step_call(token, params, n_head, sizes[0], len(caches))
        expect_value_error(lambda token=token, caches=caches: impl.gpt.gpt_decode_step(token, params, n_head, caches),
                           call=call, why=why)
        if [len(cache) for cache in caches] != sizes:
            raise CheckFailed(f"{call} raised ValueError but had already appended to a cache (lengths {sizes} -> "
                              f"{[len(cache) for cache in caches]}); expected the caches untouched")


# -- task 3: log_softmax --------------------------------------------------------------------------------------
@check(points=4, task=3)
def test_log_softmax_matches_reference(impl, ref, rng):
    """log_softmax along any axis (rows, batches, integer input) never takes log(0) nor overflows: [0, -1000] ->
    [0, -1000], [1000, 0] -> [0, -1000], -inf stays -inf"""
    for shape, axis in (((4, 9), -1), ((3, 5), 0), ((2, 3, 6), 1)):
        x = rng.standard_normal(shape) * 3.0
        expected = ref.gpt.log_softmax(x, axis=axis)
        expect_close(impl.gpt.log_softmax(x, axis=axis), expected,
                     call=call_text("log_softmax", arg("x", x), f"axis={axis}"))
    cases = (([[2, 0, -1], [5, 5, 5]], None), ([0.0, -1000.0], [0.0, -1000.0]), ([1000.0, 0.0], [0.0, -1000.0]),
             ([[0.0, -np.inf, 0.0], [-np.inf, 3.0, -np.inf]],
              [[-np.log(2.0), -np.inf, -np.log(2.0)], [-np.inf, 0.0, -np.inf]]),
             (np.array([0.0, -200.0, 1e4], np.float32), np.array([-1e4, -10200.0, 0.0], np.float32)))
    for given, printed in cases:
        scores = np.asarray(given)
        expected = ref.gpt.log_softmax(scores)
        kind = " float32" if scores.dtype == np.float32 else ""
        wanted = expected if printed is None else np.asarray(printed)
        expect_close(impl.gpt.log_softmax(scores), wanted, origin=expected,
                     call=call_text("log_softmax", f"x={scores.tolist()}{kind}"))


# -- task 4: cross_entropy ------------------------------------------------------------------------------------
@check(points=4, task=4)
def test_cross_entropy_matches_reference(impl, ref, rng):
    """cross_entropy is the mean over every position of -log_softmax(logits)[target] (rows, batches, logits in the
    thousands); ValueError when targets do not have logits.shape[:-1] or lie outside [0, V)"""
    for positions, V, scale in (((6,), 5, 2.0), ((2, 4), 7, 2.0), ((3,), 3, 2.0), ((4,), 6, 1000.0)):
        check_cross_entropy(impl, ref, rng.standard_normal((*positions, V)) * scale, rng.integers(0, V, positions))
    logits = rng.standard_normal((2, 3, 5))
    for targets, why in ((np.zeros((2, 4), int), "targets (2, 4) for logits (2, 3, 5)"),
                         (np.zeros((3, 2), int), "targets (3, 2) for logits (2, 3, 5)"),
                         (np.array([[0, 1, 5], [2, 2, 2]]), "target 5 with V = 5"),
                         (np.array([[0, -1, 4], [2, 2, 2]]), "target -1"),
                         (np.array([[0.0, 1.0, 4.0], [2.0, 2.0, 2.0]]), "float targets: targets are token ids")):
        expect_value_error(lambda targets=targets: impl.gpt.cross_entropy(logits, targets),
                           call=ce_call(logits, targets), why=why)


# -- task 5: lm_loss ------------------------------------------------------------------------------------------
@check(points=4, task=5)
def test_lm_loss_matches_reference(impl, ref, rng):
    """lm_loss: position t's logits against token t + 1, averaged over every position and sequence (2 tokens,
    n_ctx tokens, batches); ValueError for fewer than 2 tokens or more than n_ctx"""
    params, n_head = model(rng, MODELS[0])
    check_loss(impl, ref, rng.integers(0, 11, (2, 8)), params, n_head)
    params, n_head = model(rng, MODELS[1])
    check_loss(impl, ref, np.array([3, 5]), params, n_head)
    check_loss(impl, ref, rng.integers(0, 7, (2, 9)), params, n_head)
    for bad, why in ((np.array([4]), "one token: no next token to predict"),
                     (rng.integers(0, 7, 10), "10 tokens, but n_ctx is 9")):
        expect_value_error(lambda bad=bad: impl.gpt.lm_loss(bad, params, n_head), call=loss_call(bad, params, n_head),
                           why=why)


@check(points=2, task=5, rule="dtype")
def test_gpt_dtypes(impl, ref, rng):
    """float32 params give float32 logits, decode-step logits and log-probabilities, whatever the ids' dtype"""
    params, n_head = model(rng, MODELS[1], np.float32)
    for tokens in (np.array([[1, 2, 3]], np.int32), np.array([4, 0, 6], np.uint8)):
        expected = ref.gpt.gpt_forward(tokens, params, n_head)
        expect_dtypes(impl.gpt.gpt_forward(tokens, params, n_head), expected,
                      call=forward_call(tokens, params, n_head))
    expected = ref.gpt.gpt_forward(np.array([2]), params, n_head)[0]        # a first step is the forward's row 0
    expect_dtypes(impl.gpt.gpt_decode_step(2, params, n_head, [impl.plain_cache()]), expected,
                  call=step_call(2, params, n_head, 0, 1))
    x = rng.standard_normal((3, 4)).astype(np.float32)
    expected = ref.gpt.log_softmax(x)
    expect_dtypes(impl.gpt.log_softmax(x), expected, call=call_text("log_softmax", arg("x", x)))
    x = np.array([[1, 2], [0, 0]])
    expected = ref.gpt.log_softmax(x)
    expect_dtypes(impl.gpt.log_softmax(x), expected, call="log_softmax(x=[[1, 2], [0, 0]])")
    tokens = np.array([[1, 2, 3, 4]])
    expected = ref.gpt.lm_loss(tokens, params, n_head)
    expect_loss(impl.gpt.lm_loss(tokens, params, n_head), expected,
                call=loss_call(tokens, params, n_head) + " (float32)")


@check(points=1, task=5, rule="untouched")
def test_gpt_leaves_inputs_untouched(impl, ref, rng):
    """gpt_forward, log_softmax, cross_entropy and lm_loss leave the caller's tokens, params and logits as they were"""
    params, n_head = model(rng, MODELS[1])
    tokens = rng.integers(0, 7, (2, 5))
    expect_untouched(impl, "gpt", "gpt_forward", (tokens, params, n_head), names=("tokens", "params", "n_head"),
                     expected=ref.gpt.gpt_forward(tokens, params, n_head), mistake=MODIFIES_INPUT)
    expected = ref.gpt.lm_loss(tokens, params, n_head)
    expect_loss_untouched(impl, lambda: impl.gpt.lm_loss(tokens, params, n_head), expected,
                          call=loss_call(tokens, params, n_head), names=("tokens", "params", "n_head"))
    logits = rng.standard_normal((4, 6))
    targets = rng.integers(0, 6, 4)
    expect_untouched(impl, "gpt", "log_softmax", (logits,), names=("x",), expected=ref.gpt.log_softmax(logits),
                     mistake=MODIFIES_INPUT)
    expected = ref.gpt.cross_entropy(logits, targets)
    expect_loss_untouched(impl, lambda: impl.gpt.cross_entropy(logits, targets), expected,
                          call=ce_call(logits, targets), names=("logits", "targets"))


def expect_loss_untouched(impl, thunk, expected, *, call, names):
    """A loss function's call changes none of its arguments (the sandbox's report) and returns the right loss."""
    got = thunk()
    changed = [argument_name(label, names) for label in impl.last_call_mutated]
    if changed:
        raise CheckFailed(f"{call} changed its argument {', '.join(changed)} in place; the caller's arrays must come "
                          "back exactly as they were passed", diagnosis=MODIFIES_INPUT)
    expect_loss(got, expected, call=call)
