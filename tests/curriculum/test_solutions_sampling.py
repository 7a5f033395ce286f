"""The reference sampling module: the sampling distribution, the one seeded draw, cached generation (numpy-only
properties; HuggingFace's warpers and generate are in tests/crosscheck)."""
import numpy as np
import pytest

from benchmarks import generation
from grader.checks.gpt_model import model_params
from solutions.gpt import gpt_forward
from solutions.sampling import generate, sample_token, sampling_probs


@pytest.fixture
def model():
    return model_params(np.random.default_rng(0), 13, 8, 16, 2)


def test_probs_are_distributions_with_exact_zeros():
    logits = np.random.default_rng(1).standard_normal((5, 20)) * 3
    for settings in ((1.0, None, None), (0.6, 5, None), (1.3, None, 0.7), (0.9, 8, 0.5)):
        probs = sampling_probs(logits, *settings)
        np.testing.assert_allclose(probs.sum(axis=-1), 1.0, rtol=1e-12)
        if settings[1]:
            assert ((probs > 0).sum(axis=-1) <= settings[1]).all()


def test_top_k_keeps_ties_and_top_p_the_crossing_token():
    assert (sampling_probs([3.0, 1.0, 1.0, 0.0], top_k=2) > 0).sum() == 3
    np.testing.assert_allclose(sampling_probs(np.log([0.5, 0.3, 0.15, 0.05]), top_p=0.6), [0.625, 0.375, 0, 0])
    np.testing.assert_array_equal(sampling_probs(np.log([0.9, 0.05, 0.05]), top_p=0.5), [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(sampling_probs([1.0, 3.0, 3.0], temperature=0), [0.0, 1.0, 0.0])


def test_temperature_sharpens_and_keeps_float32():
    logits = np.array([2.0, 1.0, 0.0], np.float32)
    cold, hot = sampling_probs(logits, 0.5), sampling_probs(logits, 2.0)
    assert cold.dtype == np.float32 and cold[0] > sampling_probs(logits)[0] > hot[0]
    assert sampling_probs([[1, 2]]).dtype == np.float64


@pytest.mark.parametrize("settings", [(-1.0, None, None), (float("nan"), None, None), (1.0, 0, None),
                                      (1.0, 1.5, None), (1.0, None, 0.0), (1.0, None, 1.01)])
def test_bad_settings_raise(settings):
    with pytest.raises(ValueError):
        sampling_probs(np.zeros(4), *settings)


def test_one_draw_lands_where_rng_choice_does():
    rng = np.random.default_rng(2)
    for seed in range(50):
        logits = rng.standard_normal(10)
        probs = sampling_probs(logits, 0.8, 6, 0.9)
        mine, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        assert sample_token(logits, mine, 0.8, 6, 0.9) == theirs.choice(10, p=probs)
        assert mine.random() == theirs.random()            # exactly one draw each
    assert sample_token([0.0, 2.0, 2.0], temperature=0) == 1
    with pytest.raises(ValueError):
        sample_token([1.0, 2.0], None, 0.7)
    with pytest.raises(ValueError):
        sample_token(np.zeros((2, 3)), np.random.default_rng(0))


def test_cached_and_uncached_generation_agree(model):
    for options in ({}, {"temperature": 0.9, "top_k": 6, "top_p": 0.9}):
        runs = [generate([3, 1, 4], model, 2, 13, np.random.default_rng(7) if options else None, use_cache=cached,
                         **options) for cached in (True, False)]
        np.testing.assert_array_equal(runs[0], runs[1])
        assert runs[0].dtype == np.int64 and runs[0].shape == (16,)
    greedy = generate([3, 1, 4], model, 2, 1)
    assert greedy[-1] == int(np.argmax(gpt_forward(np.array([3, 1, 4]), model, 2)[-1]))
    np.testing.assert_array_equal(generate([5, 2], model, 2, 0), [5, 2])


@pytest.mark.parametrize("prompt, n_new, options", [([1, 2], 15, {}), ([], 2, {}), ([[1, 2]], 2, {}), ([13], 2, {}),
                                                    ([-1], 2, {}), ([1], -1, {}), ([1], 2, {"temperature": 0.5})])
def test_generate_refuses_before_generating(model, prompt, n_new, options):
    with pytest.raises(ValueError):
        generate(prompt, model, 2, n_new, **options)


def test_the_generation_benchmark_compares_like_with_like():
    result = generation.run(d=16, n_new=6, n_layer=1, n_head=2, prompt_length=3, repeats=1)
    assert [row["identical"] for row in result["rows"]] == [True, True]
