"""Classic mistakes of the attention backward pass: the softmax's Jacobian, the scale, transposes, masks."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

BOTH = ("softmax_backward", "attention_backward")
FUNCTIONS = ("attention_backward",)
SOFTMAX_BACK = "return y * (dy - weighted)"
WEIGHTED = "weighted = np.sum(dy * y, axis=axis, keepdims=True)"
FORWARD = "_, P = scaled_dot_product_attention(Q, K, V, mask)"
DV = "dV = np.swapaxes(P, -1, -2) @ dO"
DS = "dS = softmax_backward(P, dP, axis=-1)"
DQ = "dQ = (dS @ K) * scale"
DK = "dK = (np.swapaxes(dS, -1, -2) @ Q) * scale"

NO_SUM_TERM = Mistake(
    id="backward_softmax_no_sum_term",
    functions=BOTH,
    looks_like="the gradient is y * dy: the term -y_i * sum_k(dy_k * y_k) is missing",
    hint="Each output of a softmax depends on every input, through the shared denominator. What does that add "
         "to the gradient of input i?",
    patch=(Edit("softmax_backward.return", SOFTMAX_BACK, "return y * dy"),),
)
DIAGONAL_ONLY = Mistake(
    id="backward_softmax_diagonal_only",
    functions=BOTH,
    looks_like="the gradient is y * (1 - y) * dy: only the diagonal of the softmax's Jacobian was used",
    hint="y_i * (1 - y_i) is dy_i/dx_i. How does y_j change when x_i changes, for j != i?",
    patch=(Edit("softmax_backward.return", SOFTMAX_BACK, "return y * (1 - y) * dy"),),
)
PLAIN_SUM = Mistake(
    id="backward_softmax_plain_sum",
    functions=BOTH,
    looks_like="the subtracted term used sum(dy) instead of the y-weighted sum sum(dy * y)",
    hint="The Jacobian is diag(y) - y y^T; multiply it by dy and look at what the second term sums.",
    patch=(Edit("softmax_backward.weighted", WEIGHTED, "weighted = np.sum(dy, axis=axis, keepdims=True)"),),
)
WRONG_AXIS = Mistake(
    id="backward_softmax_wrong_axis",
    functions=("softmax_backward",),
    looks_like="the sum ran along the last axis, whatever `axis` was given",
    hint="The entries that share a denominator lie along the softmax's axis: the sum must run along it too.",
    patch=(Edit("softmax_backward.weighted", WEIGHTED, "weighted = np.sum(dy * y, axis=-1, keepdims=True)"),),
)
SKIPPED_SOFTMAX = Mistake(
    id="backward_skipped_softmax",
    functions=FUNCTIONS,
    looks_like="dQ and dK were computed from the gradient of the weights, as if there were no softmax in between",
    hint="Between the scores and the weights sits a softmax; its backward step turns dP into dS.",
    patch=(Edit("attention_backward.ds", DS, "dS = dP"),),
)
DK_UNSCALED = Mistake(
    id="backward_dk_unscaled",
    functions=FUNCTIONS,
    looks_like="dQ is right but dK is sqrt(d_k) times too large: dK was computed from the unscaled scores",
    hint="The scores are scaled Q K^T: the scale multiplies the gradient of both factors.",
    patch=(Edit("attention_backward.dk", DK, "dK = np.swapaxes(dS, -1, -2) @ Q"),),
)
NO_SCALE = Mistake(
    id="backward_no_scale",
    functions=FUNCTIONS,
    looks_like="dQ and dK are sqrt(d_k) times too large: the 1/sqrt(d_k) of the forward pass was left out",
    hint="Every factor of the forward pass appears again in the chain rule.",
    patch=(Edit("attention_backward.dq", DQ, "dQ = dS @ K"),
           Edit("attention_backward.dk", DK, "dK = np.swapaxes(dS, -1, -2) @ Q")),
)
DV_NOT_TRANSPOSED = Mistake(
    id="backward_dv_not_transposed",
    functions=FUNCTIONS,
    looks_like="dV was P @ dO instead of P^T @ dO: the weights were not transposed",
    hint="Value j is used by every query i with weight P[i, j]: its gradient sums over the queries.",
    patch=(Edit("attention_backward.dv", DV, "dV = P @ dO"),),
)
DK_NOT_TRANSPOSED = Mistake(
    id="backward_dk_not_transposed",
    functions=FUNCTIONS,
    looks_like="dK was dS @ Q instead of dS^T @ Q: rows (queries) and columns (keys) of dS were mixed up",
    hint="dS has one row per query and one column per key. Key j's gradient gathers column j.",
    patch=(Edit("attention_backward.dk", "(np.swapaxes(dS, -1, -2) @ Q)", "(dS @ Q)"),),
)
MASK_IGNORED = Mistake(
    id="backward_mask_ignored",
    functions=FUNCTIONS,
    looks_like="masked keys received gradient: the weights were recomputed without the mask",
    hint="The backward pass must go through the same weights as the forward pass. Which keys had weight 0 there?",
    patch=(Edit("attention_backward.weights", FORWARD, "_, P = scaled_dot_product_attention(Q, K, V)"),),
)
FULLY_MASKED_UNIFORM = Mistake(
    id="backward_fully_masked_uniform",
    functions=FUNCTIONS,
    looks_like="a query with no allowed key passed gradient to the keys and values: its weights were taken "
               "as uniform instead of zero",
    hint="A query with no allowed key has an output of zeros whatever K and V are. What is its gradient, then?",
    patch=(Edit("attention_backward.weights",
                FORWARD, FORWARD + "\n    P = np.where(P.sum(axis=-1, keepdims=True) == 0, 1.0 / P.shape[-1], P)"),),
)
MODIFIES_INPUT = modifies_input(
    "attention_backward", ("softmax_backward", "attention_backward"), "dO",
    "attention_backward.return", "    return dQ, dK, dV")
