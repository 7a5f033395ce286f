"""The reference gpt module: the model, its cached step, log-softmax, cross-entropy and the next-token loss
(numpy-only properties; the HuggingFace GPT-2 cross-checks are in tests/crosscheck)."""
import numpy as np
import pytest

from grader.checks.gpt_model import model_params
from solutions.gpt import cross_entropy, gpt_decode_step, gpt_forward, lm_loss, log_softmax
from solutions.kv_cache import KVCache
from solutions.softmax import softmax


@pytest.fixture
def model():
    return model_params(np.random.default_rng(0), 11, 16, 12, 2)


def test_decode_steps_from_empty_caches_equal_the_forward_rows(model):
    tokens = np.random.default_rng(1).integers(0, 11, 12)                 # a full context
    caches = [KVCache(), KVCache()]
    steps = np.stack([gpt_decode_step(int(t), model, 4, caches) for t in tokens])
    np.testing.assert_allclose(steps, gpt_forward(tokens, model, 4), rtol=1e-12, atol=1e-12)
    assert [len(cache) for cache in caches] == [12, 12]


def test_forward_is_batched_and_keeps_float32(model):
    tokens = np.random.default_rng(2).integers(0, 11, (2, 3, 5))
    logits = gpt_forward(tokens, model, 4)
    assert logits.shape == (2, 3, 5, 11)
    np.testing.assert_allclose(logits[1, 2], gpt_forward(tokens[1, 2], model, 4), rtol=1e-12)
    as32 = model_params(np.random.default_rng(0), 11, 16, 12, 2, dtype=np.float32)   # the same draws, cast
    got = gpt_forward(tokens.astype(np.int32), as32, 4)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, logits, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("bad", [np.arange(13) % 11, [1, 11], [1, -1], np.array([1.0, 2.0]), []])
def test_forward_refuses_bad_tokens(model, bad):
    with pytest.raises(ValueError):
        gpt_forward(bad, model, 4)


def test_decode_step_refuses_before_appending(model):
    caches = [KVCache(), KVCache()]
    for token, given in ((3, caches[:1]), (11, caches), (-1, caches), (2.0, caches)):
        with pytest.raises(ValueError):
            gpt_decode_step(token, model, 4, given)
    assert [len(cache) for cache in caches] == [0, 0]


def test_log_softmax_never_takes_log_of_zero():
    np.testing.assert_array_equal(log_softmax([0.0, -1000.0]), [0.0, -1000.0])
    np.testing.assert_array_equal(log_softmax([1000.0, 0.0]), [0.0, -1000.0])
    got = log_softmax(np.array([[0.0, -np.inf, 0.0]]))
    np.testing.assert_allclose(got, [[-np.log(2), -np.inf, -np.log(2)]])
    x = np.random.default_rng(3).standard_normal((3, 4)).astype(np.float32)
    assert log_softmax(x, axis=0).dtype == np.float32
    np.testing.assert_allclose(np.exp(log_softmax(x, axis=0)), softmax(x, axis=0), rtol=1e-5)


def test_cross_entropy_is_the_mean_negative_log_likelihood():
    rng = np.random.default_rng(4)
    logits, targets = rng.standard_normal((2, 3, 5)), rng.integers(0, 5, (2, 3))
    by_hand = -np.mean([np.log(softmax(logits[i, j])[targets[i, j]]) for i in range(2) for j in range(3)])
    assert cross_entropy(logits, targets) == pytest.approx(by_hand, rel=1e-12)
    assert float(cross_entropy(np.zeros((4, 8)), np.arange(4))) == pytest.approx(np.log(8))
    for bad in (np.zeros((2, 4), int), np.array([[0, 5, 1], [0, 0, 0]]), np.array([[0, -1, 1], [0, 0, 0]])):
        with pytest.raises(ValueError):
            cross_entropy(logits, bad)


def test_lm_loss_scores_each_position_on_the_next_token(model):
    tokens = np.random.default_rng(5).integers(0, 11, (2, 6))
    logits = gpt_forward(tokens, model, 4)
    assert lm_loss(tokens, model, 4) == pytest.approx(cross_entropy(logits[:, :-1], tokens[:, 1:]), rel=1e-12)
    for bad in ([4], np.arange(13) % 11):
        with pytest.raises(ValueError):
            lm_loss(bad, model, 4)


def test_inputs_are_never_modified(model):
    tokens = np.random.default_rng(6).integers(0, 11, (2, 5))
    before = (tokens.copy(), model["wte"]["weight"].copy(), model["h"][1]["mlp"]["c_fc"]["bias"].copy())
    gpt_forward(tokens, model, 4)
    lm_loss(tokens, model, 4)
    for now, then in zip((tokens, model["wte"]["weight"], model["h"][1]["mlp"]["c_fc"]["bias"]), before):
        np.testing.assert_array_equal(now, then)
