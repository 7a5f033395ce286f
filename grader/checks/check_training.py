"""Checks for exercise ``training``: the backward passes of LayerNorm, GELU and the cross-entropy, the whole
GPT's gradient (against the reference and central finite differences), AdamW and the training loop."""
import numpy as np

from grader.checks.common import expect_dtypes, expect_value_error, normal
from grader.checks.marks import check
from grader.checks.trees import expect_scalar, expect_tree, leaves
from grader.checks.untouched import expect_untouched
from grader.compare import CheckFailed, arg, call_text, expect_close, expect_parts, expect_tuple
from grader.mistakes.training import MODIFIES_INPUT, UPDATES_IN_PLACE

STEP, AGREEMENT = 1e-6, 1e-6          # central differences in float64: exact to about 1e-9 at this step
LN_PARTS, ADAM_PARTS, HEAD = ("dx", "dgamma", "dbeta"), ("new_params", "new_state"), 2
TEXT = "attention is all you need."   # 26 characters, 14 distinct


def model_params(rng, *, V=11, d=8, n_layer=2, n_ctx=8, dtype=np.float64):
    """A random GPT-2 tree (d_ff = 4d): weights N(0, 0.3^2), LayerNorm scales near 1, biases not zero."""
    def linear(d_in, d_out):
        return {"weight": normal(rng, (d_in, d_out), dtype, 0.3), "bias": normal(rng, (d_out,), dtype, 0.3)}

    def norm():
        return {"weight": (1.0 + normal(rng, (d,), scale=0.3)).astype(dtype), "bias": normal(rng, (d,), dtype, 0.3)}

    return {"wte": {"weight": normal(rng, (V, d), dtype, 0.3)}, "wpe": {"weight": normal(rng, (n_ctx, d), dtype, 0.3)},
            "h": [{"ln_1": norm(), "attn": {"c_attn": linear(d, 3 * d), "c_proj": linear(d, d)}, "ln_2": norm(),
                   "mlp": {"c_fc": linear(d, 4 * d), "c_proj": linear(4 * d, d)}} for _ in range(n_layer)],
            "ln_f": norm()}


def cast(tree, dtype):
    """The tree with every leaf as ``dtype``."""
    kind = type(tree)
    if kind is dict:
        return {key: cast(value, dtype) for key, value in tree.items()}
    if kind is list:
        return [cast(value, dtype) for value in tree]
    return np.asarray(tree).astype(dtype)


def shapes_of(params):
    wte, n_ctx = params["wte"]["weight"], params["wpe"]["weight"].shape[0]
    return f"params (V, d) = {wte.shape}, {len(params['h'])} layers, {n_ctx} positions, {wte.dtype}"


def backward_call(tokens, params, n_head=HEAD):
    return call_text("gpt_backward", arg("tokens", tokens), shapes_of(params), f"n_head={n_head}")


def expect_backward(got, expected, *, call, dtype=None):
    """(loss, grads) of gpt_backward: the loss first, then every gradient by its path."""
    got = expect_tuple(got, call=call, names=("loss", "grads"))
    expect_scalar(got[0], float(expected[0]), call=call, rtol=1e-4 if dtype == np.float32 else 1e-7,
                  origin=expected[0])
    expect_tree(got[1], expected[1], call=call, dtype="same" if dtype else None)


def central_differences(loss, x):
    """d loss / d x, one entry at a time: (loss(x + h) - loss(x - h)) / 2h."""
    point = np.array(x, dtype=np.float64)
    gradient = np.zeros_like(point)
    for entry in np.ndindex(point.shape):
        original = point[entry]
        values = []
        for shifted in (original + STEP, original - STEP):
            point[entry] = shifted
            values.append(loss(point))
        point[entry] = original
        gradient[entry] = (values[0] - values[1]) / (2 * STEP)
    return gradient


# -- task 1: layer_norm_backward ------------------------------------------------------------------------------
def ln_call(x, gamma, dy, eps=None):
    return call_text("layer_norm_backward", arg("x", x), arg("gamma", gamma), arg("dy", dy),
                     *(() if eps is None else (f"eps={eps}",)))


@check(points=4, task=1)
def test_layer_norm_backward(impl, ref, rng):
    """layer_norm_backward returns (dx, dgamma, dbeta) of sum(dy * layer_norm(x)) (rows, batches, d = 1, float32),
    agrees with central finite differences, and raises ValueError for mismatched shapes"""
    for shape, dtype in (((4, 6), np.float64), ((2, 3, 8), np.float64), ((5, 1), np.float64), ((3, 7), np.float32)):
        x, dy = normal(rng, shape, dtype, 2.0) + 0.5, normal(rng, shape, dtype)
        gamma = (1.0 + normal(rng, shape[-1:], scale=0.5)).astype(dtype)
        expect_parts(impl.training.layer_norm_backward(x, gamma, dy), ref.training.layer_norm_backward(x, gamma, dy),
                     call=ln_call(x, gamma, dy), names=LN_PARTS)
    x, dy, gamma, beta = normal(rng, (3, 5), scale=2.0), normal(rng, (3, 5)), normal(rng, (5,)), normal(rng, (5,))
    numeric = central_differences(lambda x: float(np.sum(dy * ref.layers.layer_norm(x, gamma, beta))), x)
    expected = ref.training.layer_norm_backward(x, gamma, dy)
    got = expect_tuple(impl.training.layer_norm_backward(x, gamma, dy), call=ln_call(x, gamma, dy), names=LN_PARTS)
    expect_close(got[0], numeric, call=ln_call(x, gamma, dy) + " (against finite differences)", what="dx", rtol=0,
                 atol=AGREEMENT, origin=expected[0])
    x = normal(rng, (3, 5), scale=0.05)   # rows of small spread, where eps (inside the root) shows
    expected = ref.training.layer_norm_backward(x, gamma, dy, eps=1e-2)
    expect_parts(impl.training.layer_norm_backward(x, gamma, dy, eps=1e-2), expected, call=ln_call(x, gamma, dy, 1e-2),
                 names=LN_PARTS)
    for args, why in (((x, gamma, dy[:2]), "dy must have x's shape"), ((x, gamma[:3], dy), "gamma must be (d,)")):
        expect_value_error(lambda args=args: impl.training.layer_norm_backward(*args), call=ln_call(*args), why=why)


# -- task 2: gelu_backward ------------------------------------------------------------------------------------
def gelu_call(x, dy):
    return call_text("gelu_backward", arg("x", x), arg("dy", dy))


@check(points=3, task=2)
def test_gelu_backward(impl, ref, rng):
    """gelu_backward returns dy * gelu'(x) of GPT-2's tanh GELU (tails, batches, float32, integers, finite differences,
    and finite far out: 1e30 in float64, 3e38 in float32)"""
    for shape, dtype in (((6, 5), np.float64), ((2, 3, 4), np.float64), ((4, 6), np.float32)):
        x, dy = normal(rng, shape, dtype, 3.0), normal(rng, shape, dtype)
        expect_close(impl.training.gelu_backward(x, dy), ref.training.gelu_backward(x, dy), call=gelu_call(x, dy))
    x, dy = np.arange(-3, 4), np.ones(7, dtype=np.int64)
    expect_close(impl.training.gelu_backward(x, dy), ref.training.gelu_backward(x, dy), call=gelu_call(x, dy))
    x, dy = normal(rng, (4, 5), scale=2.0), normal(rng, (4, 5))
    numeric = central_differences(lambda x: float(np.sum(dy * ref.layers.gelu(x))), x)
    expect_close(impl.training.gelu_backward(x, dy), numeric, call=gelu_call(x, dy) + " (against finite differences)",
                 rtol=0, atol=AGREEMENT, origin=ref.training.gelu_backward(x, dy))
    for big, dtype in ((1e30, np.float64), (3e38, np.float32)):
        x = np.array([-big, -1e4, -30.0, 30.0, 1e4, big], dtype=dtype)
        dy = np.ones(6, dtype=dtype)
        expect_close(impl.training.gelu_backward(x, dy), ref.training.gelu_backward(x, dy), call=gelu_call(x, dy))


# -- task 3: cross_entropy_backward ---------------------------------------------------------------------------
def ce_call(logits, targets):
    return call_text("cross_entropy_backward", arg("logits", logits), arg("targets", targets))


@check(points=3, task=3)
def test_cross_entropy_backward(impl, ref, rng):
    """cross_entropy_backward is (softmax - one_hot) / N (one row, rows, batches, float32, large logits), agrees with
    finite differences of the mean cross-entropy, and raises ValueError for bad targets"""
    for shape, dtype, scale in (((7,), np.float64, 2.0), ((5, 7), np.float64, 2.0), ((2, 4, 7), np.float64, 3.0),
                                ((3, 6), np.float32, 2.0), ((4, 5), np.float64, 400.0)):
        logits, targets = normal(rng, shape, dtype, scale), rng.integers(0, shape[-1], shape[:-1])
        expect_close(impl.training.cross_entropy_backward(logits, targets),
                     ref.training.cross_entropy_backward(logits, targets), call=ce_call(logits, targets))
    logits, targets = normal(rng, (2, 3, 5), scale=2.0), rng.integers(0, 5, (2, 3))
    call = ce_call(logits, targets) + " (against finite differences)"
    got = expect_close(impl.training.cross_entropy_backward(logits, targets),
                       ref.training.cross_entropy_backward(logits, targets), call=call)
    for direction in (normal(rng, logits.shape) for _ in range(3)):
        losses = [float(ref.gpt.cross_entropy(logits + shift * direction, targets)) for shift in (STEP, -STEP)]
        expect_close(np.asarray(np.sum(got * direction)), (losses[0] - losses[1]) / (2 * STEP), rtol=0,
                     atol=AGREEMENT, call=call, what="the derivative along a random direction")
    logits = logits[0]
    for bad, why in ((np.array([0, 4]), "targets must have logits.shape[:-1]"),
                     (np.array([0, 5, 2]), "a target must lie in [0, V)"),
                     (np.array([0, -1, 2]), "a target must lie in [0, V)"),
                     (np.array([0.0, 1.0, 2.0]), "targets must be integer ids")):
        expect_value_error(lambda bad=bad: impl.training.cross_entropy_backward(logits, bad),
                           call=ce_call(logits, bad), why=why)


# -- task 4: gpt_backward -------------------------------------------------------------------------------------
@check(points=4, task=4)
def test_gpt_backward_matches_reference(impl, ref, rng):
    """gpt_backward returns lm_loss and the gradient of every parameter (one sequence with a token repeated, a
    batch, float32)"""
    params, small = model_params(rng), model_params(rng, n_layer=1)
    for tokens, tree in ((np.array([4, 4, 4, 9, 4, 4, 9, 4]), params), (rng.integers(0, 11, (3, 6)), small),
                         (rng.integers(0, 11, (2, 8)), cast(small, np.float32))):
        expected = ref.training.gpt_backward(tokens, tree, HEAD)
        expect_backward(impl.training.gpt_backward(tokens, tree, HEAD), expected, call=backward_call(tokens, tree))


@check(points=2, task=4)
def test_gpt_backward_finite_differences(impl, ref, rng):
    """gpt_backward agrees with central finite differences of lm_loss (step 1e-6, within 1e-6) along a random
    direction of every layer"""
    params, tokens = model_params(rng, V=7, d=4, n_layer=1, n_ctx=5), np.array([[1, 3, 3, 0, 6], [2, 2, 5, 1, 4]])
    call = backward_call(tokens, params)
    expected = ref.training.gpt_backward(tokens, params, HEAD)
    got = impl.training.gpt_backward(tokens, params, HEAD)
    expect_backward(got, expected, call=call)
    mine = dict(leaves(got[1]))
    groups = [(f"[{key!r}]", params[key]) for key in ("wte", "wpe", "ln_f")] + \
        [(f"['h'][{i}][{key!r}]", block[key]) for i, block in enumerate(params["h"]) for key in block]
    for where, group in groups:                    # one random direction per layer: every array moves
        arrays = leaves(group, where)
        directions = [rng.standard_normal(np.shape(leaf)) for _, leaf in arrays]
        originals = [leaf.copy() for _, leaf in arrays]
        values = []
        for shift in (STEP, -STEP):
            for (_, leaf), original, direction in zip(arrays, originals, directions):
                leaf[...] = original + shift * direction
            values.append(float(ref.gpt.lm_loss(tokens, params, HEAD)))
        for (_, leaf), original in zip(arrays, originals):
            leaf[...] = original
        numeric = (values[0] - values[1]) / (2 * STEP)
        along = sum(float(np.sum(mine[name] * direction)) for (name, _), direction in zip(arrays, directions))
        expect_close(np.asarray(along), numeric, rtol=0, atol=AGREEMENT, call=call + " (against finite differences)",
                     what=f"the derivative of the loss along a random direction of params{where}")


@check(points=1, task=4, rule="raises")
def test_backward_rejects_bad_arguments(impl, ref, rng):
    """gelu_backward raises ValueError when dy and x differ in shape; gpt_backward for T < 2, T > n_ctx, ids outside
    [0, V), non-integer tokens and an n_head that does not divide d"""
    x, dy = normal(rng, (3, 4)), normal(rng, (3, 4))
    expected = ref.training.gelu_backward(x, dy)   # a valid call before the errors
    expect_close(impl.training.gelu_backward(x, dy), expected, call=gelu_call(x, dy))
    for dy in (normal(rng, (3, 5)), normal(rng, (1, 3, 4))):
        expect_value_error(lambda dy=dy: impl.training.gelu_backward(x, dy), call=gelu_call(x, dy),
                           why="dy has the shape of x, (3, 4)")
    params = model_params(rng, n_layer=1)
    for bad, n_head, why in ((np.array([3]), HEAD, "the loss needs T >= 2"),
                             (np.arange(9) % 11, HEAD, "T = 9 > n_ctx = 8"),
                             (np.array([1, 11, 2]), HEAD, "ids lie in [0, V)"),
                             (np.array([1, -1, 2]), HEAD, "ids lie in [0, V)"),
                             (np.array([1.0, 2.0]), HEAD, "token ids must be integers"),
                             (np.array([1, 2, 3]), 3, "3 heads do not divide d = 8"),
                             (np.array([1, 2, 3]), 0, "there must be at least one head")):
        expect_value_error(lambda bad=bad, n_head=n_head: impl.training.gpt_backward(bad, params, n_head),
                           call=backward_call(bad, params, n_head), why=why)


# -- task 5: adam_step ----------------------------------------------------------------------------------------
def small_tree(rng, dtype=np.float64):
    layers = [{"b": normal(rng, (4,), dtype)}, {"b": normal(rng, (2,), dtype)}]
    return {"w": normal(rng, (3, 4), dtype), "layers": layers}


def adam_call(step, kwargs):
    options = ", ".join(f"{key}={value}" for key, value in kwargs.items())
    return f"adam_step(params, grads, state, {options}) at step {step} (params a tree of 3 arrays)"


def expect_adam_steps(impl, ref, rng, params, n_steps, **kwargs):
    """n_steps of the student's adam_step (fed its own state) beside the reference's; new params compared each step."""
    mine, theirs, my_state, their_state = params, params, None, None
    for step in range(1, n_steps + 1):
        grads = small_tree(rng, params["w"].dtype)
        expected = ref.training.adam_step(theirs, grads, their_state, **kwargs)
        got = expect_tuple(impl.training.adam_step(mine, grads, my_state, **kwargs), call=adam_call(step, kwargs),
                           names=ADAM_PARTS)
        expect_tree(got[0], expected[0], call=adam_call(step, kwargs), name="new_params")
        (mine, my_state), (theirs, their_state) = got, expected
    return mine


@check(points=4, task=5)
def test_adam_step(impl, ref, rng):
    """adam_step is torch.optim.AdamW's update over 3 steps (weight decay off and on, other betas and eps, float32);
    it raises ValueError when grads do not match params (a key, a list, a shape) or lr is negative"""
    for dtype, kwargs in ((np.float64, {}), (np.float64, {"lr": 0.1, "weight_decay": 0.5}),
                          (np.float64, {"lr": 0.05, "betas": (0.8, 0.9), "eps": 1e-3}),
                          (np.float32, {"lr": 0.01, "weight_decay": 0.1})):
        expect_adam_steps(impl, ref, rng, small_tree(rng, dtype), 3, **kwargs)
    params, grads = small_tree(rng), small_tree(rng)
    missing = {"w": grads["w"]}
    short = {"w": grads["w"], "layers": grads["layers"][:1]}
    wrong_shape = {"w": grads["w"][:2], "layers": grads["layers"]}
    for bad, kwargs, why in ((missing, {}, "grads lack the key 'layers'"), (short, {}, "grads has 1 layer of 2"),
                             (wrong_shape, {}, "grads['w'] has shape (2, 4), params['w'] (3, 4)"),
                             (grads, {"lr": -0.1}, "lr must be >= 0")):
        expect_value_error(lambda bad=bad, kwargs=kwargs: impl.training.adam_step(params, bad, **kwargs),
                           call=f"adam_step(params, grads{''.join(f', {k}={v}' for k, v in kwargs.items())})",
                           why=why)


@check(points=1, task=5, rule="untouched")
def test_training_leaves_inputs_untouched(impl, ref, rng):
    """layer_norm_backward, gpt_backward and adam_step leave the caller's arrays (whole trees, AdamW's state) as they
    were"""
    x, gamma, dy = normal(rng, (3, 4)), normal(rng, (4,)), normal(rng, (3, 4))
    expect_untouched(impl, "training", "layer_norm_backward", (x, gamma, dy), names=("x", "gamma", "dy"),
                     parts=LN_PARTS, expected=ref.training.layer_norm_backward(x, gamma, dy), mistake=MODIFIES_INPUT)
    params, tokens = model_params(rng, n_layer=1), rng.integers(0, 11, (2, 5))
    expected = ref.training.gpt_backward(tokens, params, HEAD)
    got = impl.training.gpt_backward(tokens, params, HEAD)
    expect_unchanged(impl, backward_call(tokens, params), MODIFIES_INPUT)
    expect_backward(got, expected, call=backward_call(tokens, params))
    params, grads = small_tree(rng), small_tree(rng)
    expected, state = ref.training.adam_step(params, grads, None, lr=0.1), None
    for step in (1, 2):
        got = expect_tuple(impl.training.adam_step(params, grads, state, lr=0.1), call=adam_call(step, {"lr": 0.1}),
                           names=ADAM_PARTS)
        expect_unchanged(impl, adam_call(step, {"lr": 0.1}), UPDATES_IN_PLACE)
        if step == 1:
            expect_tree(got[0], expected[0], call=adam_call(1, {"lr": 0.1}), name="new_params")
            state = got[1]


def expect_unchanged(impl, call, mistake):
    changed = impl.last_call_mutated
    if changed:
        raise CheckFailed(f"{call} changed {', '.join(changed)} in place; the caller's arrays must come back exactly "
                          "as they were passed", mistake)


# -- task 6: train --------------------------------------------------------------------------------------------
def train_call(tokens, params, n_steps, lr, **options):
    return call_text("train", arg("tokens", tokens), shapes_of(params), f"n_head={HEAD}", f"n_steps={n_steps}",
                     f"lr={lr}", *(f"{key}={value}" for key, value in options.items()))


def expect_training(impl, ref, tokens, params, n_steps, lr, **options):
    expected = ref.training.train(tokens, params, HEAD, n_steps, lr=lr, **options)
    got = impl.training.train(tokens, params, HEAD, n_steps, lr=lr, **options)
    call = train_call(tokens, params, n_steps, lr, **options)
    got = expect_tuple(got, call=call, names=("params", "losses"))
    expect_close(got[1], expected[1], call=call, what="losses")
    expect_tree(got[0], expected[0], call=call, name="params")
    return got, expected


@check(points=5, task=6)
def test_train(impl, ref, rng):
    """train's losses (the loss before each step) and final params equal the reference's after 3 steps on a short
    text (AdamW's betas, eps and weight decay passed on); n_steps = 0 returns an equal copy and no losses; a negative
    n_steps raises ValueError"""
    vocabulary = sorted(set(TEXT))
    tokens = np.array([vocabulary.index(c) for c in TEXT])
    expect_training(impl, ref, tokens, model_params(rng, V=len(vocabulary), n_layer=1, n_ctx=len(TEXT)), 3, 0.05,
                    betas=(0.8, 0.95), eps=1e-6, weight_decay=0.1)
    tokens, params = rng.integers(0, 11, 5), model_params(rng, n_layer=1)
    got, _ = expect_training(impl, ref, tokens, params, 0, 0.01)
    if np.asarray(got[1]).shape != (0,):
        raise CheckFailed(f"{train_call(tokens, params, 0, 0.01)} losses has shape {np.shape(got[1])}; expected (0,)")
    expect_value_error(lambda: impl.training.train(tokens, params, HEAD, -1), why="n_steps must be >= 0",
                       call=train_call(tokens, params, -1, 0.001))


@check(points=1, task=6, rule="dtype")
def test_training_dtypes(impl, ref, rng):
    """float32 stays float32 (gradients, AdamW's params, train's params); losses are float64; integers give float64"""
    x, gamma, dy = normal(rng, (3, 4), np.float32), normal(rng, (4,), np.float32), normal(rng, (3, 4), np.float32)
    expect_dtypes(impl.training.layer_norm_backward(x, gamma, dy), ref.training.layer_norm_backward(x, gamma, dy),
                  call=ln_call(x, gamma, dy), names=LN_PARTS)
    for u, du in ((x, dy), (np.arange(-2, 3), np.ones(5, dtype=np.int64))):
        expect_dtypes(impl.training.gelu_backward(u, du), ref.training.gelu_backward(u, du), call=gelu_call(u, du))
    logits, targets = normal(rng, (3, 5), np.float32), np.array([1, 0, 4])
    expect_dtypes(impl.training.cross_entropy_backward(logits, targets),
                  ref.training.cross_entropy_backward(logits, targets), call=ce_call(logits, targets))
    params, tokens = cast(model_params(rng, n_layer=1), np.float32), rng.integers(0, 11, 6)
    expected = ref.training.gpt_backward(tokens, params, HEAD)
    expect_backward(impl.training.gpt_backward(tokens, params, HEAD), expected, call=backward_call(tokens, params),
                    dtype=np.float32)
    call = f"adam_step(params, grads) ({shapes_of(params)})"
    grads = expected[1]
    expected = ref.training.adam_step(params, grads)
    got = expect_tuple(impl.training.adam_step(params, grads), call=call, names=ADAM_PARTS)
    expect_tree(got[0], expected[0], call=call, name="new_params", dtype="same")
    got, expected = expect_training(impl, ref, tokens, params, 1, 0.01)
    expect_tree(got[0], expected[0], call=train_call(tokens, params, 1, 0.01), name="params", dtype="same")
    if np.asarray(got[1]).dtype != np.float64:
        raise CheckFailed(f"{train_call(tokens, params, 1, 0.01)} losses have dtype {np.asarray(got[1]).dtype}; "
                          "expected float64")
