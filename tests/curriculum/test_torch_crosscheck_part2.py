"""Part two's reference solutions agree with PyTorch (float64) where it is installed:
F.scaled_dot_product_attention for cross-attention, GQA (enable_gqa=True) and ALiBi (a float
attn_mask), repeat_interleave for repeat_kv, and autograd for the backward pass.

torch is the optional ``torch`` extra; without it this whole file is skipped.
"""
import math

import numpy as np
import pytest

from tests.optional import lazy  # noqa: E402

torch, F = lazy("torch"), lazy("torch.nn.functional")
pytestmark = pytest.mark.usefixtures("torch")  # skipped without torch; imported by one worker (tests/optional.py)

from solutions.attention_backward import attention_backward, softmax_backward  # noqa: E402
from solutions.cross_attention import cross_attention  # noqa: E402
from solutions.gqa import grouped_query_attention, repeat_kv  # noqa: E402
from solutions.linear_attention import linear_attention  # noqa: E402
from solutions.masking import causal_mask  # noqa: E402
from solutions.position_bias import alibi_bias, biased_attention, sliding_window_mask  # noqa: E402

CLOSE = {"rtol": 1e-10, "atol": 1e-12}


def t(array, grad=False):
    return torch.from_numpy(np.ascontiguousarray(array)).requires_grad_(grad)


def worst(got, want):
    error = float(np.max(np.abs(got - want)))
    print(f"max abs error {error:.1e}")
    return error


@pytest.fixture
def rng():
    return np.random.default_rng(2023)


@pytest.mark.parametrize("batch", [(), (3,)])
def test_cross_attention_matches_torch_with_key_padding(rng, batch):
    n_q, n_kv, d_x, d_z, d_k, d_v = 4, 6, 5, 3, 4, 2
    X, Z = rng.standard_normal((*batch, n_q, d_x)), rng.standard_normal((*batch, n_kv, d_z))
    W_Q, W_K, W_V = rng.standard_normal((d_x, d_k)), rng.standard_normal((d_z, d_k)), rng.standard_normal((d_z, d_v))
    lengths = np.array([6, 3, 1]) if batch else np.array(4)                    # (...,) real tokens of Z
    real = np.arange(n_kv) < lengths[..., None]                                 # (..., n_kv)
    want = F.scaled_dot_product_attention(t(X @ W_Q), t(Z @ W_K), t(Z @ W_V),
                                          attn_mask=t(real[..., None, :])).numpy()  # True = may attend
    got = cross_attention(X, Z, W_Q, W_K, W_V, real)[0]
    assert worst(got, want) < 1e-12


@pytest.mark.parametrize("n_kv_heads, n_rep", [(1, 4), (2, 3), (3, 1)])
def test_repeat_kv_is_repeat_interleave_on_the_head_axis(rng, n_kv_heads, n_rep):
    x = rng.standard_normal((2, n_kv_heads, 5, 4))
    want = torch.repeat_interleave(t(x), n_rep, dim=-3).numpy()
    np.testing.assert_array_equal(repeat_kv(x, n_rep), want)


@pytest.mark.parametrize("n_heads, n_kv_heads", [(4, 4), (4, 2), (8, 2), (6, 1)])
@pytest.mark.parametrize("causal", [False, True])
def test_grouped_query_attention_matches_torch_enable_gqa(rng, n_heads, n_kv_heads, causal):
    batch, n, d_head = 2, 5, 3
    d_model = n_heads * d_head
    X = rng.standard_normal((batch, n, d_model))
    W_Q, W_O = (rng.standard_normal((d_model, d_model)) / math.sqrt(d_model) for _ in range(2))
    W_K, W_V = (rng.standard_normal((d_model, n_kv_heads * d_head)) / math.sqrt(d_model) for _ in range(2))
    heads = lambda A, h: A.reshape(batch, n, h, d_head).transpose(0, 2, 1, 3)   # noqa: E731  (B, h, n, hs)
    Q, K, V = heads(X @ W_Q, n_heads), heads(X @ W_K, n_kv_heads), heads(X @ W_V, n_kv_heads)
    out = F.scaled_dot_product_attention(t(Q), t(K), t(V), is_causal=causal, enable_gqa=True).numpy()
    want = out.transpose(0, 2, 1, 3).reshape(batch, n, d_model) @ W_O
    got = grouped_query_attention(X, W_Q, W_K, W_V, W_O, n_heads, n_kv_heads, causal_mask(n) if causal else None)[0]
    assert worst(got, want) < 1e-12


@pytest.mark.parametrize("n_heads, n_q, n_k", [(8, 6, 6), (6, 1, 7), (4, 3, 5)])
def test_alibi_biased_attention_matches_torch_float_attn_mask(rng, n_heads, n_q, n_k):
    Q, K, V = (rng.standard_normal((2, n_heads, n, 4)) for n in (n_q, n_k, n_k))
    bias = alibi_bias(n_heads, n_q, n_k)
    allowed = np.arange(n_k)[None, :] <= np.arange(n_q)[:, None] + (n_k - n_q)   # causal, queries at the end
    additive = np.where(allowed, bias, -np.inf)                                 # torch: a float mask is added
    want = F.scaled_dot_product_attention(t(Q), t(K), t(V), attn_mask=t(additive)).numpy()
    got = biased_attention(Q, K, V, bias, allowed)[0]
    assert worst(got, want) < 1e-12


def test_sliding_window_matches_torch_boolean_mask(rng):
    n = 9
    Q, K, V = (rng.standard_normal((n, 4)) for _ in range(3))
    for window, causal in ((3, True), (1, True), (2, False)):
        mask = sliding_window_mask(n, window, causal)
        want = F.scaled_dot_product_attention(t(Q), t(K), t(V), attn_mask=t(mask)).numpy()
        np.testing.assert_allclose(biased_attention(Q, K, V, mask=mask)[0], want, **CLOSE)


@pytest.mark.parametrize("causal", [False, True])
def test_linear_attention_matches_a_torch_quadratic_form(rng, causal):
    Q, K, V = (rng.standard_normal((2, 6, d)) for d in (4, 4, 3))
    phi = lambda x: F.elu(x) + 1   # noqa: E731
    A = phi(t(Q)) @ phi(t(K)).transpose(-1, -2)
    if causal:
        A = A * torch.tril(torch.ones(6, 6, dtype=torch.float64))
    want = ((A @ t(V)) / (A.sum(-1, keepdim=True) + 1e-6)).numpy()
    np.testing.assert_allclose(linear_attention(Q, K, V, causal=causal), want, **CLOSE)


def test_softmax_backward_matches_autograd(rng):
    x, dy = rng.standard_normal((3, 5)) * 3, rng.standard_normal((3, 5))
    for dim in (0, 1):
        xt = t(x, grad=True)
        y = torch.softmax(xt, dim=dim)
        (y * t(dy)).sum().backward()
        assert worst(softmax_backward(y.detach().numpy(), dy, axis=dim), xt.grad.numpy()) < 1e-13


@pytest.mark.parametrize("masking", ["none", "causal", "padding", "random"])
def test_attention_backward_matches_autograd(rng, masking):
    batch, n_q, n_k, d_k, d_v = 2, 5, 5, 4, 3
    Q, K, V = (rng.standard_normal((batch, n, d)) for n, d in ((n_q, d_k), (n_k, d_k), (n_k, d_v)))
    dO = rng.standard_normal((batch, n_q, d_v))
    masks = {"none": None, "causal": causal_mask(n_q),
             "padding": np.arange(n_k)[None, None, :] < np.array([5, 2])[:, None, None],
             "random": (rng.random((batch, n_q, n_k)) < 0.6) | np.eye(n_q, n_k, dtype=bool)}
    mask = masks[masking]
    Qt, Kt, Vt = t(Q, True), t(K, True), t(V, True)
    out = F.scaled_dot_product_attention(Qt, Kt, Vt, attn_mask=None if mask is None else t(mask))
    (out * t(dO)).sum().backward()
    got = attention_backward(Q, K, V, dO, mask)
    errors = [worst(g, w.grad.numpy()) for g, w in zip(got, (Qt, Kt, Vt))]
    assert max(errors) < 1e-12


def test_fully_masked_query_gets_zero_gradient_where_torch_gives_nan(rng):
    Q, K, V, dO = rng.standard_normal((3, 4)), rng.standard_normal((4, 4)), rng.standard_normal((4, 2)), \
        rng.standard_normal((3, 2))
    mask = np.array([[True, True, False, False], [False] * 4, [True] * 4])
    Qt, Kt, Vt = t(Q, True), t(K, True), t(V, True)
    scores = (Qt @ Kt.T / math.sqrt(4)).masked_fill(~t(mask), -math.inf)
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))     # the kit's choice: zeros, not NaN
    ((weights @ Vt) * t(dO)).sum().backward()
    got = attention_backward(Q, K, V, dO, mask)
    np.testing.assert_array_equal(got[0][1], 0)
    for g, w in zip(got, (Qt, Kt, Vt)):
        np.testing.assert_allclose(g, np.nan_to_num(w.grad.numpy()), **CLOSE)
