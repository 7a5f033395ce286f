"""The reference solutions reproduce every worked number of the seeds (grader/document_values.yaml).

Printed values stand for an interval of +- atol (numpy prints 8 decimals); the comparisons
use exactly that atol plus 1e-12 for float rounding and no relative tolerance.
"""
import math

import numpy as np
import pytest

from grader import document_values as doc
from solutions.attention import scaled_dot_product_attention, self_attention
from solutions.masking import causal_mask
from solutions.multihead import merge_heads, multi_head_self_attention, split_heads
from solutions.softmax import softmax

ROUNDING = 1e-12


def assert_printed(got, expected: doc.Expected):
    """``got`` matches a printed value to the precision it was printed with."""
    got = np.asarray(got)
    assert got.shape == expected.value.shape, (got.shape, expected.value.shape)
    assert np.all(np.isfinite(got))
    error = np.max(np.abs(got - expected.value))
    assert error <= expected.atol + ROUNDING, f"max |got - printed| = {error:.3g} > atol {expected.atol:g}"


def projection(X, W):
    """X @ W computed by the solutions: self-attention whose mask lets each token see only itself."""
    identity = np.eye(X.shape[0], dtype=bool)
    output, weights = self_attention(X, W, W, W, mask=identity)
    np.testing.assert_array_equal(weights, identity.astype(float))
    return output


@pytest.fixture(scope="module")
def india():
    return doc.india_inputs(), doc.india_expected()


def test_every_top_level_entry_of_the_yaml_is_tested_here():
    """A new block in document_values.yaml fails here until this file checks it."""
    assert set(doc.raw()) == {"india_is_great", "india_two_heads", "shapes", "causal_mask_5", "memory"}
    assert doc.raw()["india_two_heads"]["input"] == "india_is_great.inputs.X"


def test_yaml_lists_every_india_value_with_a_positive_atol(india):
    inputs, expected = india
    assert set(inputs) == {"X", "W_Q", "W_K", "W_V"}
    assert inputs["X"].shape == (3, 4) and all(inputs[w].shape == (4, 4) for w in ("W_Q", "W_K", "W_V"))
    assert set(expected) == {"Q", "K", "V", "raw_scores", "weights", "output"}
    for entry in expected.values():
        assert 0 < entry.atol <= 5e-9


@pytest.mark.parametrize("name, weight", [("Q", "W_Q"), ("K", "W_K"), ("V", "W_V")])
def test_india_projections(india, name, weight):
    inputs, expected = india
    assert_printed(projection(inputs["X"], inputs[weight]), expected[name])
    assert_printed(inputs["X"] @ inputs[weight], expected[name])


def test_india_raw_scores(india):
    inputs, expected = india
    Q, K = projection(inputs["X"], inputs["W_Q"]), projection(inputs["X"], inputs["W_K"])
    raw = Q @ K.T
    assert_printed(raw, expected["raw_scores"])
    # the solution's weights are the softmax of exactly these scores over sqrt(d_k) = 2:
    # log(weights) * 2 differs from the raw scores by one constant per row
    weights = self_attention(inputs["X"], inputs["W_Q"], inputs["W_K"], inputs["W_V"])[1]
    offsets = np.log(weights) * math.sqrt(4) - expected["raw_scores"].value
    np.testing.assert_allclose(offsets - offsets[:, :1], 0, atol=1e-7)


def test_india_weights_and_output_from_self_attention(india):
    inputs, expected = india
    output, weights = self_attention(inputs["X"], inputs["W_Q"], inputs["W_K"], inputs["W_V"])
    assert_printed(weights, expected["weights"])
    assert_printed(output, expected["output"])


def test_india_weights_and_output_from_scaled_dot_product_attention(india):
    inputs, expected = india
    X = inputs["X"]
    output, weights = scaled_dot_product_attention(X @ inputs["W_Q"], X @ inputs["W_K"], X @ inputs["W_V"])
    assert_printed(weights, expected["weights"])
    assert_printed(output, expected["output"])


def test_printed_steps_are_consistent_with_each_other(india):
    """Step 3 from step 2's printed numbers, step 4 from steps 1 and 3's: within the propagated rounding."""
    _, expected = india
    scores, weights, V, output = (expected[k] for k in ("raw_scores", "weights", "V", "output"))
    # softmax's Jacobian has row sums <= 1/2, the inputs are scores / 2 with rounding <= atol
    bound = weights.atol + 0.5 * scores.atol / 2
    error = np.max(np.abs(softmax(scores.value / math.sqrt(4), axis=-1) - weights.value))
    assert error <= bound + ROUNDING
    # |d(W @ V)| <= sum_j |dW_j| |V_j| + sum_j W_j |dV_j|
    bound = output.atol + weights.atol * np.abs(V.value).sum(axis=0).max() + V.atol
    error = np.max(np.abs(weights.value @ V.value - output.value))
    assert error <= bound + ROUNDING


def test_two_heads_draws_follow_np_random_seed_1():
    draws = doc.two_heads_weights()
    legacy = np.random.RandomState(1)  # what np.random.seed(1); np.random.rand(...) uses
    for name in ("Wq1", "Wk1", "Wv1", "Wq2", "Wk2", "Wv2"):
        np.testing.assert_array_equal(draws[name], legacy.rand(4, 2))
    np.testing.assert_array_equal(draws["W_O"], legacy.rand(4, 4))
    for packed, (h1, h2) in {"W_Q": ("Wq1", "Wq2"), "W_K": ("Wk1", "Wk2"), "W_V": ("Wv1", "Wv2")}.items():
        np.testing.assert_array_equal(draws[packed][:, 0:2], draws[h1])
        np.testing.assert_array_equal(draws[packed][:, 2:4], draws[h2])


def test_two_heads_output_from_multi_head_self_attention():
    spec = doc.raw()["india_two_heads"]
    assert (spec["d_model"], spec["n_heads"], spec["d_head"]) == (4, 2, 2)
    X, w, expected = doc.india_inputs()["X"], doc.two_heads_weights(), doc.two_heads_expected()
    output, weights = multi_head_self_attention(X, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], n_heads=2)
    assert_printed(output, expected)
    assert weights.shape == (2, 3, 3)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=0, atol=1e-12)


def test_two_heads_output_as_the_seed_computes_it_head_by_head():
    X, w, expected = doc.india_inputs()["X"], doc.two_heads_weights(), doc.two_heads_expected()
    heads = [self_attention(X, w[f"Wq{h}"], w[f"Wk{h}"], w[f"Wv{h}"])[0] for h in (1, 2)]  # each scaled by sqrt(2)
    assert_printed(np.concatenate(heads, axis=1) @ w["W_O"], expected)
    assert_printed(merge_heads(np.stack(heads)) @ w["W_O"], expected)


def _random(rng, *shape):
    return rng.standard_normal(shape) / math.sqrt(shape[0])


def _run_shape_entry(entry, rng):
    """Call the solution named by a ``shapes`` entry on random inputs of its sizes: (output, weights)."""
    sizes, X = entry["sizes"], rng.standard_normal(tuple(entry["input"]))
    assert X.shape == (sizes["seq_len"], sizes["d_model"])
    d_model = sizes["d_model"]
    if entry["call"] == "self_attention":
        W_Q, W_K = _random(rng, d_model, sizes["d_k"]), _random(rng, d_model, sizes["d_k"])
        return self_attention(X, W_Q, W_K, _random(rng, d_model, sizes["d_v"]))
    if entry["call"] == "multi_head_self_attention":
        W_Q, W_K, W_V, W_O = (_random(rng, d_model, d_model) for _ in range(4))
        return multi_head_self_attention(X, W_Q, W_K, W_V, W_O, sizes["n_heads"])
    if entry["call"] == "split_heads":
        heads = split_heads(X, sizes["n_heads"])
        np.testing.assert_array_equal(merge_heads(heads), X)
        return heads, None
    raise AssertionError(f"shapes entry names a call the test does not know: {entry['call']!r}")


@pytest.mark.parametrize("entry", doc.shapes(), ids=lambda e: f"{e['call']}-{e['source'][:3]}-{e['input']}")
def test_printed_shapes(entry):
    output, weights = _run_shape_entry(entry, np.random.default_rng(7))
    assert output.shape == tuple(entry["output"])
    assert np.all(np.isfinite(output))
    if "weights" in entry:
        assert weights is not None and weights.shape == tuple(entry["weights"])
    if weights is not None:
        target = entry.get("rows_sum_to", 1.0)
        assert target == 1.0
        np.testing.assert_allclose(weights.sum(axis=-1), target, rtol=0, atol=1e-12)
        assert np.all(weights >= 0)


def test_shapes_entries_cover_the_seeds_examples():
    calls = [(e["call"], tuple(e["output"])) for e in doc.shapes()]
    assert ("self_attention", (10, 32)) in calls
    assert ("multi_head_self_attention", (10, 64)) in calls
    assert ("split_heads", (8, 1, 64)) in calls


def test_causal_mask_5_drawn_in_002():
    drawn = doc.causal_mask_5()
    assert drawn.shape == (5, 5) and drawn.dtype == bool
    got = causal_mask(5)
    assert got.dtype == bool
    np.testing.assert_array_equal(got, drawn)


def test_memory_figures_of_002_computed():
    figures = doc.memory()
    n, float32 = figures["n"], np.dtype(np.float32)
    # an attention-weight matrix really holds n * n floats of its dtype (checked at a small n)
    small = np.ones((64, 8), dtype=np.float32)
    weights = scaled_dot_product_attention(small, small, small)[1]
    assert weights.dtype == float32 and weights.nbytes == 64 * 64 * float32.itemsize
    floats = n * n
    assert floats == figures["floats"] == 16_777_216
    assert floats // 2**20 == 16                                  # "16M floats"
    assert float32.itemsize == figures["bytes_per_float"]
    mb_per_head = floats * float32.itemsize / 2**20
    assert mb_per_head == figures["mb_per_head"] == 64            # "64MB per head" (MiB)
    total_mb = mb_per_head * figures["heads"] * figures["batch"]
    assert total_mb == figures["total_mb"] == 65_536              # "~65GB" for 32 heads x batch 32
    total_bytes = floats * float32.itemsize * figures["heads"] * figures["batch"]
    assert total_bytes == 64 * 2**30                              # 64 GiB, i.e. about 68.7 GB (decimal)
