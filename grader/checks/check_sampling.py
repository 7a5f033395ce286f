"""Checks for exercise ``sampling``: the sampling distribution (temperature, top-k, top-p in HuggingFace's order),
one seeded draw per token, and cached and uncached generation on random GPT-2 models.

The student's code draws from a ``numpy.random.Generator`` made in its own process (``impl.generator(seed)``);
after a call the check draws the next number from it and compares it with its own generator seeded alike, which
tells how many numbers the student's code took."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_value_error
from grader.checks.gpt_model import model_params, model_text
from grader.checks.marks import check
from grader.checks.untouched import expect_untouched
from grader.compare import CheckFailed, arg, call_text, describe, expect_close, wrong_value
from grader.mistakes import sampling as mistakes

SETTINGS = ((1.0, None, None), (0.7, None, None), (1.5, 5, None), (0.5, None, 0.7), (0.8, 4, 0.6), (2.0, 12, 1.0),
            (1.0, 30, 0.8))   # (temperature, top_k, top_p); top_k >= V and top_p = 1 switch their filter off
MODEL = (13, 8, 10, 2, 2)      # V, d, n_ctx, n_layer, n_head


def probs_call(logits, temperature, top_k, top_p):
    return call_text("sampling_probs", arg("logits", logits), f"temperature={temperature}", f"top_k={top_k}",
                     f"top_p={top_p}")


def token_call(logits, seed, temperature, top_k=None, top_p=None):
    rng = "rng=None" if seed is None else f"rng=default_rng({seed})"
    return call_text("sample_token", arg("logits", logits), rng, f"temperature={temperature}", f"top_k={top_k}",
                     f"top_p={top_p}")


def generate_call(prompt, params, n_new, seed=None, temperature=0.0, top_k=None, top_p=None, use_cache=True):
    rng = "" if seed is None else f"rng=default_rng({seed}), temperature={temperature}, top_k={top_k}, top_p={top_p}, "
    return call_text("generate", f"prompt={np.asarray(prompt).tolist()}", model_text(params), f"n_head={MODEL[4]}",
                     f"n_new={n_new}", f"{rng}use_cache={use_cache}")


def model(rng, dtype=np.float64, n_layer=MODEL[3]):
    """A random model whose next token depends on where it stands (position table of scale 2, as large as the token
    table): a token fed at the wrong position changes what comes next."""
    V, d, n_ctx, _, _ = MODEL
    params = model_params(rng, V, d, n_ctx, n_layer, dtype=dtype)
    params["wpe"]["weight"] = (params["wpe"]["weight"] * 4).astype(dtype)
    return params


def check_probs(impl, ref, logits, temperature=1.0, top_k=None, top_p=None):
    expected = ref.sampling.sampling_probs(logits, temperature, top_k, top_p)   # first: errors are diagnosed on it
    expect_close(impl.sampling.sampling_probs(logits, temperature, top_k, top_p), expected,
                 call=probs_call(logits, temperature, top_k, top_p))


def expect_token(got, expected: int, *, call: str, exact_type: bool = False) -> int:
    """A token id equal to ``expected``: any integer (a Python int only when ``exact_type``, the dtype check)."""
    integer = isinstance(got, (int, np.integer)) and not isinstance(got, (bool, np.bool_))
    if not integer or exact_type and type(got) is not int:
        raise CheckFailed(f"{call} returned {describe(got)}; expected a Python int (the token id)")
    if got != expected:
        wrong_value(CheckFailed(f"{call} returned token {got}; expected {expected}", rule="values"))
    return got


def expect_draws(student_rng, seed: int, draws: int, *, call: str) -> None:
    """The student's generator advanced by exactly ``draws`` calls of ``random()``: its next number is the one a
    generator seeded alike gives after ``draws`` numbers."""
    own = np.random.default_rng(seed)
    numbers = [own.random() for _ in range(draws + 1)]
    following = student_rng.random()
    if following == numbers[-1]:
        return
    if following == numbers[0] and draws:
        raise CheckFailed(f"{call} left rng where it was: the randomness came from somewhere else; expected exactly "
                          f"{draws} draw{'s' * (draws != 1)} of rng.random()", mistakes.GLOBAL_RANDOM)
    raise CheckFailed(f"{call} took another number of random draws from rng than {draws} (one rng.random() per "
                      "sampled token: rng.choice(V, p=probs) takes exactly that)", mistakes.NOT_ONE_DRAW)


def check_generate(impl, ref, prompt, params, n_new, seed=None, temperature=0.0, top_k=None, top_p=None):
    """The student's generate with the KV cache and without it must both give the reference's tokens (the reference
    drawing from a generator seeded alike; the diagnosis runs the call again on copies of that generator as it was
    before the reference drew, ``grader.draws``). The reference is asked with the same ``use_cache``: a mistake of a
    piece only one path uses (the causal mask is used by the uncached path alone) is then diagnosed on that path."""
    options = {"temperature": temperature, "top_k": top_k, "top_p": top_p}
    for use_cache in (True, False):
        own = None if seed is None else np.random.default_rng(seed)
        expected = ref.sampling.generate(prompt, params, MODEL[4], n_new, own, **options, use_cache=use_cache)
        student_rng = None if seed is None else impl.generator(seed)
        call = generate_call(prompt, params, n_new, seed, **options, use_cache=use_cache)
        got = impl.sampling.generate(prompt, params, MODEL[4], n_new, student_rng, **options, use_cache=use_cache)
        if seed is not None:   # the draws first: a seed used another way gives other tokens, for a reason to name
            expect_draws(student_rng, seed, n_new, call=call)
        expect_close(got, expected, call=call)


# -- task 1: sampling_probs -----------------------------------------------------------------------------------
@check(points=4, task=1)
def test_sampling_probs_matches_reference(impl, ref, rng):
    """sampling_probs: logits / temperature, the top k, softmax, the top-p nucleus, renormalised (batches, ints)"""
    logits = rng.standard_normal((4, 12)) * 2.0
    logits[3, 5] += 8.0   # a row whose top token alone holds more than top_p
    for temperature, top_k, top_p in SETTINGS:
        check_probs(impl, ref, logits, temperature, top_k, top_p)
    check_probs(impl, ref, rng.standard_normal((2, 3, 7)) * 3.0, 0.9, 3, 0.7)
    check_probs(impl, ref, np.array([[3, 1, 0, 2], [0, 0, 5, 1]]), 1.0, 3, 0.9)


@check(points=3, task=1)
def test_sampling_probs_edges(impl, ref, rng):
    """sampling_probs keeps ties with the k-th largest logit and the token that crosses top_p, keeps the top token
    when it alone exceeds top_p, and is one-hot at temperature 0; ValueError for a bad temperature, top_k or top_p"""
    ties = np.array([[1.0, 0.0, 2.0, 1.0, -1.0, 1.0]])
    masses = np.log(np.array([[0.05, 0.5, 0.3, 0.15], [0.9, 0.04, 0.03, 0.03]]))   # probabilities at T = 1
    printed = (
        (ties, (1.0, 2, None), np.exp(ties) * (ties >= 1.0) / np.sum(np.exp(ties) * (ties >= 1.0))),
        (masses, (1.0, None, 0.6), np.array([[0.0, 0.625, 0.375, 0.0], [1.0, 0.0, 0.0, 0.0]])),
        (np.array([[1.0, 3.0, 3.0, -2.0], [0.0, -1.0, 0.5, 0.5]]), (0.0, 2, 0.5),
         np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])),
    )
    for logits, (temperature, top_k, top_p), expected in printed:
        origin = ref.sampling.sampling_probs(logits, temperature, top_k, top_p)
        expect_close(impl.sampling.sampling_probs(logits, temperature, top_k, top_p), expected, origin=origin,
                     call=probs_call(logits, temperature, top_k, top_p))
    logits = rng.standard_normal(5)
    for settings, why in (((-1.0, None, None), "temperature < 0"), ((float("nan"), None, None), "temperature NaN"),
                          ((float("inf"), None, None), "temperature inf"), ((1.0, 0, None), "top_k = 0"),
                          ((1.0, 2.5, None), "top_k not an integer"), ((1.0, None, 0.0), "top_p = 0"),
                          ((1.0, None, 1.5), "top_p > 1")):
        expect_value_error(lambda settings=settings: impl.sampling.sampling_probs(logits, *settings),
                           call=probs_call(logits, *settings), why=why)


# -- task 2: sample_token -------------------------------------------------------------------------------------
@check(points=4, task=2)
def test_sample_token_inverse_cdf(impl, ref, rng):
    """sample_token takes exactly one rng.random() and returns the first index whose cumulative probability
    exceeds it (= rng.choice(V, p=probs)), for several seeds and settings"""
    for seed, (temperature, top_k, top_p) in enumerate(SETTINGS[::2]):
        logits, settings = rng.standard_normal(12) * 2.0, (temperature, top_k, top_p)
        expected = ref.sampling.sample_token(logits, np.random.default_rng(seed), *settings)
        theirs = ref.sampling.sampling_probs(logits, *settings)   # asked always: the release replays only what it saw
        student_rng = impl.generator(seed)
        call = token_call(logits, seed, temperature, top_k, top_p)
        got = impl.sampling.sample_token(logits, student_rng, temperature, top_k, top_p)
        expect_draws(student_rng, seed, 1, call=call)
        try:
            expect_token(got, expected, call=call)
        except CheckFailed as failure:   # a wrong token from a wrong distribution: say what is wrong with it
            expect_close(impl.sampling.sampling_probs(logits, *settings), theirs,
                         call=f"{failure.message}; the distribution it draws from, {probs_call(logits, *settings)},")
            raise


@check(points=1, task=2)
def test_sample_token_greedy(impl, ref, rng):
    """sample_token at temperature 0 returns the first largest logit and leaves rng alone (rng may be None)"""
    for logits in (rng.standard_normal(9), np.array([0.5, 2.0, -1.0, 2.0])):
        expected = ref.sampling.sample_token(logits, None, 0.0)
        expect_token(impl.sampling.sample_token(logits, None, 0.0), expected, call=token_call(logits, None, 0.0))
        student_rng = impl.generator(3)
        call = token_call(logits, 3, 0.0, 2, 0.5)
        got = impl.sampling.sample_token(logits, student_rng, 0.0, 2, 0.5)
        expect_draws(student_rng, 3, 0, call=call)
        expect_token(got, expected, call=call)


# -- task 3: generate -----------------------------------------------------------------------------------------
@check(points=4, task=3)
def test_generate_greedy(impl, ref, rng):
    """greedy generate (the default) gives the reference's tokens with the KV cache and without it"""
    params = model(rng)
    check_generate(impl, ref, [3, 7, 1], params, 4)


@check(points=4, task=3)
def test_generate_sampled(impl, ref, rng):
    """sampled generate gives the reference's tokens for the same seed, with the KV cache and without it, and
    takes exactly one rng.random() per new token"""
    params = model(rng)
    for seed, (temperature, top_k, top_p) in zip((5, 7), ((1.0, None, None), (1.2, 8, 0.9))):
        check_generate(impl, ref, [2, 9], params, 3, seed, temperature, top_k, top_p)


@check(points=2, task=3, visibility="hidden")
def test_generate_edges(impl, ref, rng):
    """generate up to exactly n_ctx tokens (the last new token is never fed back), from a one-token prompt, and
    with n_new = 0 (the prompt itself)"""
    params = model(rng)
    check_generate(impl, ref, [4, 0, 12, 5, 5], params, 5, 11, 0.9, None, 0.95)
    check_generate(impl, ref, [6], params, 1)
    check_generate(impl, ref, [1, 2, 3], params, 0)


@check(points=3, task=3, rule="raises")
def test_sampling_rejects_bad_calls(impl, ref, rng):
    """sample_token raises ValueError for 2-D logits and for temperature > 0 without rng; generate, before
    generating anything, for a prompt + n_new past n_ctx, an empty or 2-D prompt, ids outside [0, V), n_new < 0
    and temperature > 0 without rng"""
    logits = rng.standard_normal(6)
    expected = ref.sampling.sample_token(logits, None, 0.0)   # valid calls before the errors
    expect_token(impl.sampling.sample_token(logits, None, 0.0), expected, call=token_call(logits, None, 0.0))
    for logits, seed, temperature, why in ((rng.standard_normal((2, 5)), 0, 1.0, "logits must be 1-D (one position)"),
                                           (rng.standard_normal(5), None, 0.8, "temperature > 0 needs an rng")):
        student_rng = None if seed is None else impl.generator(seed)
        expect_value_error(lambda logits=logits, r=student_rng, t=temperature: impl.sampling.sample_token(logits, r, t),
                           call=token_call(logits, seed, temperature), why=why)
    params = model(rng, n_layer=1)   # sent with every refused call: one layer is enough to be refused
    expected = ref.sampling.generate([1, 2], params, MODEL[4], 2)
    expect_close(impl.sampling.generate([1, 2], params, MODEL[4], 2), expected, call=generate_call([1, 2], params, 2))
    cases = (([1, 2, 3], 8, {}, "3 + 8 tokens, but n_ctx is 10"), ([], 2, {}, "an empty prompt"),
             ([[1, 2], [3, 4]], 2, {}, "a 2-D prompt: generate works on one sequence"),
             ([1, 13], 2, {}, "id 13 with V = 13"), ([1, -2], 2, {}, "id -2"), ([1, 2], -1, {}, "n_new < 0"),
             ([1, 2], 3, {"temperature": 0.7}, "temperature > 0 needs an rng"))
    for prompt, n_new, options, why in cases:
        expect_value_error(lambda p=prompt, n=n_new, o=options: impl.sampling.generate(p, params, MODEL[4], n, **o),
                           call=generate_call(prompt, params, n_new), why=why)


@check(points=1, task=3, rule="dtype")
def test_sampling_dtypes(impl, ref, rng):
    """sampling_probs keeps float32 and gives float64 for integer logits; sample_token returns a Python int and
    generate an int64 array"""
    peaked = rng.standard_normal((2, 6)) + np.array([[0.0] * 6, [0, 0, 9.0, 0, 0, 0]])   # row 1: one token above p
    for logits in (peaked.astype(np.float32), np.array([[1, 4, 2, 0]])):
        expected = ref.sampling.sampling_probs(logits, 0.9, 3, 0.8)
        expect_dtypes(impl.sampling.sampling_probs(logits, 0.9, 3, 0.8), expected, call=probs_call(logits, 0.9, 3, 0.8))
    logits = rng.standard_normal(6)   # float64: rng.choice refuses float32 probabilities that miss 1 by 1e-7
    expected = ref.sampling.sample_token(logits, np.random.default_rng(2), 0.9, 3, 0.8)
    student_rng = impl.generator(2)
    got = impl.sampling.sample_token(logits, student_rng, 0.9, 3, 0.8)
    expect_draws(student_rng, 2, 1, call=token_call(logits, 2, 0.9, 3, 0.8))
    expect_token(got, expected, call=token_call(logits, 2, 0.9, 3, 0.8), exact_type=True)
    params = model(rng, np.float32)
    prompt = np.array([5, 1], np.int32)
    expected = ref.sampling.generate(prompt, params, MODEL[4], 2)
    expect_dtypes(impl.sampling.generate(prompt, params, MODEL[4], 2), expected,
                  call=generate_call(prompt, params, 2) + " (float32 params, int32 prompt)")


@check(points=1, task=3, rule="untouched")
def test_sampling_leaves_inputs_untouched(impl, ref, rng):
    """sampling_probs, sample_token and generate leave the caller's logits, prompt and params as they were"""
    logits = rng.standard_normal((3, 8))
    logits[2, 0] += 9.0   # a row whose top token alone holds more than top_p
    expect_untouched(impl, "sampling", "sampling_probs", (logits, 0.7, 4, 0.9),
                     names=("logits", "temperature", "top_k", "top_p"),
                     expected=ref.sampling.sampling_probs(logits, 0.7, 4, 0.9), mistake=mistakes.MODIFIES_INPUT)
    params, prompt = model(rng), np.array([3, 1, 4])
    expect_untouched(impl, "sampling", "generate", (prompt, params, MODEL[4], 2), names=("prompt", "params", "n_head"),
                     expected=ref.sampling.generate(prompt, params, MODEL[4], 2), mistake=mistakes.MODIFIES_INPUT)
