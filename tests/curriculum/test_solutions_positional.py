"""sinusoidal_encoding and apply_rope (002 "Positional Information")."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solutions.positional import apply_rope, sinusoidal_encoding

FAST = settings(max_examples=40, deadline=None, database=None, derandomize=True)


@pytest.mark.parametrize("seq_len, d_model", [(1, 1), (4, 2), (7, 5), (10, 64), (3, 7), (50, 16)])
def test_sinusoidal_formula_entry_by_entry(seq_len, d_model):
    pe = sinusoidal_encoding(seq_len, d_model)
    assert pe.shape == (seq_len, d_model) and pe.dtype == np.float64
    for p in range(seq_len):
        for column in range(d_model):
            two_i = column - column % 2
            angle = p / 10000 ** (two_i / d_model)
            want = math.sin(angle) if column % 2 == 0 else math.cos(angle)
            assert pe[p, column] == pytest.approx(want, rel=1e-12, abs=1e-12), (p, column)


def test_sinusoidal_odd_d_model_last_column_is_sin():
    pe = sinusoidal_encoding(6, 5)
    angle = np.arange(6) / 10000 ** (4 / 5)
    np.testing.assert_allclose(pe[:, 4], np.sin(angle), rtol=1e-14, atol=1e-15)
    angles = np.arange(6)[:, None] / 10000 ** (np.array([0, 2]) / 5)   # frequencies use d_model = 5
    np.testing.assert_allclose(pe[:, 1:4:2], np.cos(angles), rtol=1e-14, atol=1e-15)
    np.testing.assert_array_equal(pe[0], [0, 1, 0, 1, 0])


def test_sinusoidal_matches_002s_code_for_even_d_model():
    seq_len, d_model = 10, 64                       # 002's sinusoidal_position_encoding
    position = np.arange(seq_len)[:, np.newaxis]
    div_term = np.exp(np.arange(0, d_model, 2) * -(np.log(10000.0) / d_model))
    pe = np.zeros((seq_len, d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    np.testing.assert_allclose(sinusoidal_encoding(seq_len, d_model), pe, rtol=1e-12, atol=1e-13)


def test_sinusoidal_row_zero_and_pairs_on_the_unit_circle():
    pe = sinusoidal_encoding(20, 8)
    np.testing.assert_array_equal(pe[0], [0, 1] * 4)
    np.testing.assert_allclose(pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2, 1.0, rtol=0, atol=1e-15)


def rope_loop(x, positions, base=10000.0):
    """Pair by pair, as the docstring says (2-D x)."""
    out = np.empty_like(x, dtype=np.float64)
    d = x.shape[-1]
    for row, p in enumerate(positions):
        for i in range(d // 2):
            theta = p * base ** (-2 * i / d)
            x0, x1 = x[row, 2 * i], x[row, 2 * i + 1]
            out[row, 2 * i] = x0 * math.cos(theta) - x1 * math.sin(theta)
            out[row, 2 * i + 1] = x0 * math.sin(theta) + x1 * math.cos(theta)
    return out


@pytest.mark.parametrize("n, d, base", [(1, 2, 10000.0), (5, 4, 10000.0), (6, 8, 500.0), (3, 16, 10000.0)])
def test_rope_matches_pairwise_rotation(n, d, base):
    x = np.random.default_rng(n + d).standard_normal((n, d))
    np.testing.assert_allclose(apply_rope(x, base=base), rope_loop(x, range(n), base), rtol=1e-12, atol=1e-13)


def test_rope_position_zero_is_identity_and_one_pair_rotates_by_p():
    x = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    got = apply_rope(x)                              # d = 2: theta = p
    np.testing.assert_allclose(got, [[1, 0], [math.cos(1), math.sin(1)], [-2 * math.sin(2), 2 * math.cos(2)]],
                               rtol=1e-14, atol=1e-15)


def test_rope_explicit_positions():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 6))
    positions = np.array([7, 0, 3, 100])
    got = apply_rope(x, positions)
    np.testing.assert_allclose(got, rope_loop(x, positions), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(apply_rope(x, np.arange(4)), apply_rope(x), rtol=0, atol=0)
    np.testing.assert_allclose(got[1], x[1], rtol=0, atol=0)          # position 0 is unrotated
    # each row only depends on its own position
    np.testing.assert_allclose(apply_rope(x[3:4], [100]), got[3:4], rtol=1e-15, atol=0)


@FAST
@given(d_half=st.integers(1, 8), p1=st.integers(0, 200), p2=st.integers(0, 200), shift=st.integers(-100, 100),
       seed=st.integers(0, 2**32 - 1))
def test_rope_dot_product_depends_only_on_relative_position(d_half, p1, p2, shift, seed):
    d = 2 * d_half
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((1, d)), rng.standard_normal((1, d))
    dot = (apply_rope(q, [p1]) @ apply_rope(k, [p2]).T)[0, 0]
    shifted = (apply_rope(q, [p1 + shift]) @ apply_rope(k, [p2 + shift]).T)[0, 0]
    assert shifted == pytest.approx(dot, rel=1e-9, abs=1e-9)
    # exactly: sum over pairs i of q_i . R((p2 - p1) * base**(-2i/d)) k_i, a function of p1 - p2 alone
    want = 0.0
    for i in range(d_half):
        angle = (p2 - p1) * 10000.0 ** (-2 * i / d)
        (q0, q1), (k0, k1) = q[0, 2 * i:2 * i + 2], k[0, 2 * i:2 * i + 2]
        want += q0 * (k0 * math.cos(angle) - k1 * math.sin(angle)) + q1 * (k0 * math.sin(angle) + k1 * math.cos(angle))
    assert dot == pytest.approx(want, rel=1e-9, abs=1e-9)


@FAST
@given(n=st.integers(1, 6), d_half=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_rope_preserves_norms(n, d_half, seed):
    x = np.random.default_rng(seed).standard_normal((n, 2 * d_half)) * 10
    rotated = apply_rope(x)
    np.testing.assert_allclose(np.linalg.norm(rotated, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12)
    pair_norms = np.hypot(x[:, 0::2], x[:, 1::2])
    np.testing.assert_allclose(np.hypot(rotated[:, 0::2], rotated[:, 1::2]), pair_norms, rtol=1e-12)


@pytest.mark.parametrize("d", [1, 3, 7])
def test_rope_odd_d_raises_value_error(d):
    with pytest.raises(ValueError):
        apply_rope(np.ones((3, d)))


def test_rope_scores_between_rotated_queries_and_keys_are_translation_invariant():
    rng = np.random.default_rng(2)
    Q, K = rng.standard_normal((5, 8)), rng.standard_normal((5, 8))
    scores = apply_rope(Q) @ apply_rope(K).T
    later = apply_rope(Q, np.arange(5) + 37) @ apply_rope(K, np.arange(5) + 37).T
    np.testing.assert_allclose(later, scores, rtol=1e-9, atol=1e-12)
