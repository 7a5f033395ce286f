"""Properties of the training reference beyond the checks: a small model learns a sentence, the functional AdamW
leaves every tree it is given as it was, and the gradients keep the parameters' tree, shapes and dtypes."""
import copy

import numpy as np
import pytest

from grader.checks.check_training import cast, model_params
from grader.checks.trees import leaves
from solutions.training import adam_step, gelu_backward, gpt_backward, layer_norm_backward, train

SENTENCE = "attention is all the model needs to learn this."   # 48 characters


def test_forty_steps_halve_the_loss_of_a_sentence():
    """The design's figure: 40 steps at lr 1e-2 take a 2-layer, d = 16 character model on 48 characters below half
    its initial loss."""
    vocabulary = sorted(set(SENTENCE))
    tokens = np.array([vocabulary.index(c) for c in SENTENCE])
    params = model_params(np.random.default_rng(0), V=len(vocabulary), d=16, n_ctx=len(SENTENCE))
    _, losses = train(tokens, params, 2, 40, lr=1e-2)
    assert losses.shape == (40,) and losses.dtype == np.float64
    assert losses[-1] < losses[0] / 2


def test_gradients_keep_the_tree_shapes_and_dtypes():
    for dtype in (np.float64, np.float32):
        params = cast(model_params(np.random.default_rng(1)), dtype)
        loss, grads = gpt_backward(np.array([[1, 2, 3, 4], [4, 3, 2, 1]]), params, 2)
        assert isinstance(loss, float)
        found = dict(leaves(grads))
        assert sorted(found) == sorted(dict(leaves(params)))
        for path, leaf in leaves(params):
            assert found[path].shape == leaf.shape and found[path].dtype == dtype, path


def test_positions_past_the_text_get_no_gradient():
    params = model_params(np.random.default_rng(2))
    _, grads = gpt_backward(np.array([1, 2, 3]), params, 2)
    assert not np.any(grads["wpe"]["weight"][2:])     # 2 input positions of n_ctx = 8


def test_adam_step_is_functional():
    rng = np.random.default_rng(3)
    params, grads = {"w": rng.standard_normal((2, 3)), "h": [rng.standard_normal(3)]}, \
        {"w": rng.standard_normal((2, 3)), "h": [rng.standard_normal(3)]}
    kept = copy.deepcopy((params, grads))
    new, state = adam_step(params, grads, lr=0.1, weight_decay=0.1)
    state_kept = copy.deepcopy(state)
    adam_step(new, grads, state, lr=0.1)
    for before, after in zip(leaves(kept), leaves((params, grads))):
        np.testing.assert_array_equal(before[1], after[1])
    for before, after in zip(leaves(state_kept["m"]), leaves(state["m"])):
        np.testing.assert_array_equal(before[1], after[1])
    assert state["t"] == 1 and state_kept["t"] == 1


def test_zero_steps_return_a_copy():
    params = model_params(np.random.default_rng(4))
    trained, losses = train(np.array([1, 2, 3]), params, 2, 0)
    assert losses.shape == (0,) and losses.dtype == np.float64
    assert trained["wte"]["weight"] is not params["wte"]["weight"]
    np.testing.assert_array_equal(trained["wte"]["weight"], params["wte"]["weight"])


@pytest.mark.parametrize("dtype, big", [(np.float64, 1e30), (np.float32, 3e38)])
def test_backward_edges(dtype, big):
    x = np.array([-big, -20.0, 0.0, 20.0, big], dtype=dtype)
    np.testing.assert_array_equal(gelu_backward(x, np.ones_like(x))[[0, -1]], [0.0, 1.0])
    dx, dgamma, dbeta = layer_norm_backward(np.full((2, 4), 3.0, dtype=dtype), np.ones(4, dtype=dtype),
                                            np.ones((2, 4), dtype=dtype))
    assert dx.dtype == dtype and np.all(np.isfinite(dx)) and np.all(dbeta == 2)
