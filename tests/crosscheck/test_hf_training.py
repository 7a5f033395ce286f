"""The training exercise's reference agrees with torch: the backward passes with autograd (LayerNorm, tanh GELU, the
mean cross-entropy, the whole GPT-2 through HuggingFace's model) and with central finite differences, adam_step with
``torch.optim.AdamW`` over several steps (weight decay off and on), and ``train`` with HF's model trained by AdamW.

torch and transformers are the optional ``crosscheck`` extra; without them this whole file is skipped.
"""
import numpy as np
import pytest

from solutions.gpt import lm_loss
from solutions.training import (
    adam_step,
    cross_entropy_backward,
    gelu_backward,
    gpt_backward,
    layer_norm_backward,
    train,
)
from tests.crosscheck.hfkit import cast, hf_grads, hf_model, params_from_state_dict, tree_leaves
from tests.optional import lazy

torch, F = lazy("torch"), lazy("torch.nn.functional")
# skipped without torch and transformers; imported by the one worker running these (tests/optional.py)
pytestmark = pytest.mark.usefixtures("transformers")
CONFIG = dict(n_layer=2, n_embd=16, n_head=4, n_ctx=10, vocab=13)
GRADIENTS, STEP = 1e-8, 1e-6


def t(array, grad=False):
    return torch.from_numpy(np.array(array, dtype=np.float64)).requires_grad_(grad)


def worst(got, want):
    error = float(np.max(np.abs(np.asarray(got) - np.asarray(want))))
    print(f"max abs error {error:.1e}")
    return error


def hf_loss(model, tokens):
    """The next-token loss on HF's logits, in the model's dtype (HF's own loss upcasts to float32 only)."""
    ids = torch.from_numpy(np.atleast_2d(tokens))                  # HF wants a batch axis
    logits = model(ids).logits
    return F.cross_entropy(logits[..., :-1, :].reshape(-1, logits.shape[-1]), ids[..., 1:].reshape(-1))


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(2019)


@pytest.mark.parametrize("shape", [(4, 6), (2, 3, 5), (3, 1)])
def test_layer_norm_backward_matches_autograd(rng, shape):
    x, dy, gamma, beta = (rng.standard_normal(s) for s in (shape, shape, shape[-1:], shape[-1:]))
    xs, gs, bs = t(x, True), t(gamma, True), t(beta, True)
    (F.layer_norm(xs, shape[-1:], gs, bs, 1e-5) * t(dy)).sum().backward()
    for got, want in zip(layer_norm_backward(x, gamma, dy), (xs.grad, gs.grad, bs.grad)):
        assert worst(got, want.numpy()) < 1e-12


def test_gelu_backward_matches_autograd_and_is_finite_far_out(rng):
    x = np.concatenate([rng.standard_normal(50) * 4, [-1e30, -50.0, 50.0, 1e30]])
    dy = rng.standard_normal(x.shape)
    xs = t(x, True)
    (F.gelu(xs, approximate="tanh") * t(dy)).sum().backward()
    assert worst(gelu_backward(x, dy), xs.grad.numpy()) < 1e-12


def test_cross_entropy_backward_matches_autograd(rng):
    logits, targets = rng.standard_normal((2, 5, 9)) * 3, rng.integers(0, 9, (2, 5))
    zs = t(logits, True)
    F.cross_entropy(zs.reshape(-1, 9), torch.from_numpy(targets).reshape(-1)).backward()
    assert worst(cross_entropy_backward(logits, targets), zs.grad.numpy()) < 1e-15


@pytest.fixture(scope="module")
def model():
    hf = hf_model(seed=3, **CONFIG)
    return hf, params_from_state_dict(hf.state_dict())


@pytest.mark.parametrize("tokens", [np.array([4, 4, 4, 9, 4, 1, 4, 4, 0, 12]),
                                    np.array([[1, 2, 3, 2, 1], [5, 5, 7, 5, 5]])],
                         ids=["one sequence, a token repeated", "a batch"])
def test_gpt_backward_matches_autograd_through_hf(model, tokens):
    hf, params = model
    hf.zero_grad()
    loss = hf_loss(hf, tokens)
    loss.backward()
    got_loss, grads = gpt_backward(tokens, params, CONFIG["n_head"])
    assert abs(got_loss - loss.item()) < 1e-12
    want = dict(tree_leaves(hf_grads(hf)))
    mine = dict(tree_leaves(grads))
    assert mine.keys() == want.keys()
    assert max(worst(mine[name], want[name]) for name in want) < GRADIENTS
    assert all(mine[name].shape == leaf.shape and mine[name].dtype == leaf.dtype for name, leaf in tree_leaves(params))


def test_gpt_backward_matches_central_finite_differences(model):
    """Three entries of every array, step 1e-6 in float64."""
    _, params = model
    tokens, pick = np.array([[3, 1, 4, 1, 5, 9], [2, 6, 5, 3, 5, 8]]), np.random.default_rng(1)
    _, grads = gpt_backward(tokens, params, CONFIG["n_head"])
    mine = dict(tree_leaves(grads))
    errors = []
    for name, leaf in tree_leaves(params):
        for flat in pick.choice(leaf.size, 3, replace=False):
            entry = np.unravel_index(flat, leaf.shape)
            original, values = leaf[entry], []
            for shift in (STEP, -STEP):
                leaf[entry] = original + shift
                values.append(float(lm_loss(tokens, params, CONFIG["n_head"])))
            leaf[entry] = original
            errors.append(abs((values[0] - values[1]) / (2 * STEP) - mine[name][entry]))
    print(f"max abs error {max(errors):.1e}")
    assert max(errors) < GRADIENTS


def test_gpt_backward_float32_is_float32_and_close(model):
    hf, params = model
    tokens = np.array([[1, 2, 3, 2, 1], [5, 5, 7, 5, 5]])
    _, want = gpt_backward(tokens, params, CONFIG["n_head"])
    _, got = gpt_backward(tokens, cast(params, np.float32), CONFIG["n_head"])
    for (name, mine), (_, theirs) in zip(tree_leaves(got), tree_leaves(want)):
        assert mine.dtype == np.float32
        assert np.max(np.abs(mine - theirs)) <= 1e-4 * np.max(np.abs(theirs)) + 1e-6, name


@pytest.mark.parametrize("weight_decay", [0.0, 0.1])
@pytest.mark.parametrize("betas, eps", [((0.9, 0.999), 1e-8), ((0.8, 0.95), 1e-3)])
def test_adam_step_matches_torch_adamw_over_several_steps(rng, weight_decay, betas, eps):
    params = {"w": rng.standard_normal((4, 3)), "h": [{"b": rng.standard_normal(3)}, {"b": rng.standard_normal(5)}]}
    tensors = [t(leaf, True) for _, leaf in tree_leaves(params)]
    optimiser = torch.optim.AdamW(tensors, lr=0.05, betas=betas, eps=eps, weight_decay=weight_decay, foreach=False)
    state = None
    for _ in range(6):
        grads = {"w": rng.standard_normal((4, 3)), "h": [{"b": rng.standard_normal(3)}, {"b": rng.standard_normal(5)}]}
        for tensor, (_, grad) in zip(tensors, tree_leaves(grads)):
            tensor.grad = t(grad)
        optimiser.step()
        params, state = adam_step(params, grads, state, lr=0.05, betas=betas, eps=eps, weight_decay=weight_decay)
        for tensor, (_, leaf) in zip(tensors, tree_leaves(params)):
            assert worst(leaf, tensor.detach().numpy()) < 1e-15


@pytest.mark.parametrize("weight_decay", [0.0, 0.01])
def test_train_matches_hf_trained_by_adamw(weight_decay):
    """Losses (before each step) and final weights of 8 full-batch steps, HF + torch.optim.AdamW against train."""
    hf = hf_model(seed=8, **CONFIG)
    params = params_from_state_dict(hf.state_dict())
    tokens = np.array([[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]])
    optimiser = torch.optim.AdamW(hf.parameters(), lr=0.01, weight_decay=weight_decay, foreach=False)
    want_losses = []
    for _ in range(8):
        optimiser.zero_grad()
        loss = hf_loss(hf, tokens)
        loss.backward()
        want_losses.append(loss.item())
        optimiser.step()
    trained, losses = train(tokens, params, CONFIG["n_head"], 8, lr=0.01, weight_decay=weight_decay)
    assert losses.dtype == np.float64 and losses.shape == (8,)
    assert worst(losses, want_losses) < 1e-10
    want = dict(tree_leaves(params_from_state_dict(hf.state_dict())))
    assert max(worst(leaf, want[name]) for name, leaf in tree_leaves(trained)) < 1e-10
    assert losses[-1] < losses[0]
