"""The reference solutions agree with PyTorch (float64) where it is installed: softmax,
scaled_dot_product_attention (plain, boolean mask, causal) and nn.MultiheadAttention.

torch is the optional ``torch`` extra (scripts/test.sh installs torch 2.13.0 CPU); without it
this whole file is skipped.
"""
import numpy as np
import pytest

from tests.optional import lazy  # noqa: E402

torch, F = lazy("torch"), lazy("torch.nn.functional")
pytestmark = pytest.mark.usefixtures("torch")  # skipped without torch; imported by one worker (tests/optional.py)

from solutions.attention import scaled_dot_product_attention, self_attention  # noqa: E402
from solutions.masking import causal_mask  # noqa: E402
from solutions.multihead import multi_head_self_attention  # noqa: E402
from solutions.softmax import softmax  # noqa: E402
from solutions.tiled_attention import tiled_attention  # noqa: E402

CLOSE = {"rtol": 1e-10, "atol": 1e-12}


def t(array):
    return torch.from_numpy(np.ascontiguousarray(array))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_softmax_matches_torch(rng, dim):
    x = rng.standard_normal((3, 4, 5)) * 20
    x[0, 1, 2] = -np.inf                          # one -inf entry: weight 0 in both
    x[2, 0, 0] = 1000.0
    want = F.softmax(t(x), dim=dim).numpy()
    got = softmax(x, axis=dim)
    np.testing.assert_allclose(got, want, **CLOSE)
    assert want[0, 1, 2] == got[0, 1, 2] == 0.0


def test_softmax_all_minus_inf_row_zero_where_torch_gives_nan():
    x = np.array([[-np.inf, -np.inf], [0.0, 1.0]])
    want = F.softmax(t(x), dim=-1).numpy()
    got = softmax(x)
    assert np.all(np.isnan(want[0])) and np.all(got[0] == 0)   # the kit's documented choice
    np.testing.assert_allclose(got[1], want[1], **CLOSE)


@pytest.mark.parametrize("shape_q, shape_k, d_v",
                         [((5, 4), (5, 4), 3), ((3, 8), (7, 8), 6), ((2, 3, 6, 4), (2, 3, 6, 4), 5)])
def test_scaled_dot_product_attention_matches_torch(rng, shape_q, shape_k, d_v):
    Q, K = rng.standard_normal(shape_q), rng.standard_normal(shape_k)
    V = rng.standard_normal((*shape_k[:-1], d_v))
    want = F.scaled_dot_product_attention(t(Q), t(K), t(V)).numpy()
    out, weights = scaled_dot_product_attention(Q, K, V)
    np.testing.assert_allclose(out, want, **CLOSE)
    scores = t(Q) @ t(K).transpose(-1, -2) / np.sqrt(shape_q[-1])
    np.testing.assert_allclose(weights, torch.softmax(scores, dim=-1).numpy(), **CLOSE)


@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
def test_boolean_mask_matches_torch(rng, batch):
    n_q, n_k, d = 5, 6, 4
    Q, K, V = (rng.standard_normal((*batch, n, d)) for n in (n_q, n_k, n_k))
    mask = rng.random((*batch, n_q, n_k)) < 0.5
    mask[..., 0] = True                               # every query keeps a key (torch gives NaN otherwise)
    want = F.scaled_dot_product_attention(t(Q), t(K), t(V), attn_mask=t(mask)).numpy()  # True = may attend
    np.testing.assert_allclose(scaled_dot_product_attention(Q, K, V, mask)[0], want, **CLOSE)


@pytest.mark.parametrize("n_q, n_k", [(6, 6), (4, 9), (1, 1)])
def test_causal_matches_torch_is_causal(rng, n_q, n_k):
    Q, K, V = rng.standard_normal((n_q, 4)), rng.standard_normal((n_k, 4)), rng.standard_normal((n_k, 3))
    want = F.scaled_dot_product_attention(t(Q), t(K), t(V), is_causal=True).numpy()  # top-left: j <= i
    mask = np.arange(n_k)[None, :] <= np.arange(n_q)[:, None]
    np.testing.assert_allclose(scaled_dot_product_attention(Q, K, V, mask)[0], want, **CLOSE)
    np.testing.assert_allclose(tiled_attention(Q, K, V, block_size=2, causal=True), want, **CLOSE)
    if n_q == n_k:
        X, W = rng.standard_normal((n_q, 4)), rng.standard_normal((4, 4))
        want = F.scaled_dot_product_attention(t(X @ W), t(X @ W), t(X), is_causal=True).numpy()
        np.testing.assert_allclose(self_attention(X, W, W, np.eye(4), causal_mask(n_q))[0], want, **CLOSE)


def torch_mha(W_Q, W_K, W_V, W_O, n_heads):
    d_model = W_Q.shape[0]
    mha = torch.nn.MultiheadAttention(d_model, n_heads, bias=True, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(t(np.concatenate([W_Q.T, W_K.T, W_V.T], axis=0)))
        mha.in_proj_bias.zero_()
        mha.out_proj.weight.copy_(t(W_O.T))
        mha.out_proj.bias.zero_()
    return mha.eval()


@pytest.mark.parametrize("batch, n, d_model, n_heads", [(1, 3, 4, 2), (2, 5, 8, 2), (3, 7, 12, 3), (2, 10, 64, 8)])
@pytest.mark.parametrize("causal", [False, True])
def test_multi_head_self_attention_matches_torch_multihead_attention(rng, batch, n, d_model, n_heads, causal):
    X = rng.standard_normal((batch, n, d_model))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(4))
    mha = torch_mha(W_Q, W_K, W_V, W_O, n_heads)
    attn_mask = t(~causal_mask(n)) if causal else None   # nn.MultiheadAttention: True = NOT allowed
    with torch.no_grad():
        want_out, want_weights = mha(t(X), t(X), t(X), attn_mask=attn_mask, need_weights=True,
                                     average_attn_weights=False)
    out, weights = multi_head_self_attention(X, W_Q, W_K, W_V, W_O, n_heads, causal_mask(n) if causal else None)
    assert want_weights.shape == weights.shape == (batch, n_heads, n, n)
    np.testing.assert_allclose(out, want_out.numpy(), **CLOSE)
    np.testing.assert_allclose(weights, want_weights.numpy(), **CLOSE)


def test_two_head_seed_example_matches_torch():
    from grader import document_values as doc

    X, w = doc.india_inputs()["X"], doc.two_heads_weights()
    mha = torch_mha(w["W_Q"], w["W_K"], w["W_V"], w["W_O"], 2)
    with torch.no_grad():
        want = mha(t(X[None]), t(X[None]), t(X[None]), need_weights=False)[0].numpy()[0]
    np.testing.assert_allclose(multi_head_self_attention(X, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], 2)[0], want,
                               **CLOSE)
    expected = doc.two_heads_expected()
    assert np.max(np.abs(want - expected.value)) <= expected.atol + 1e-12
