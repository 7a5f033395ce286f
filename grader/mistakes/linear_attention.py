"""Classic linear-attention mistakes: the feature map, the normaliser and the causal running sums."""
from __future__ import annotations

from .anchors import Edit
from .model import Alternatives, Mistake, modifies_input

FEATURE = "return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))"
BOTH = ("elu_feature_map", "linear_attention")
PHI_Q = "phi_q = elu_feature_map(Q.astype(dtype, copy=False))"
PHI_K = "phi_k = elu_feature_map(K.astype(dtype, copy=False))"
RUNNING_S = "S = np.cumsum(S, axis=-3, out=S)"
RUNNING_Z = "z = np.cumsum(phi_k, axis=-2)"
NORMALISE = "return numerator / (denominator + eps)"
WHOLE_Z = "z = np.broadcast_to(np.sum(phi_k, axis=-2, keepdims=True), phi_k.shape)"

ELU_WITHOUT_ONE = Mistake(
    id="linear_elu_without_one",
    functions=BOTH,
    looks_like="the feature map is elu(x), which is negative for negative x: the + 1 is missing",
    hint="The feature map must be positive everywhere, so that every weight phi(q).phi(k) is positive. "
         "What does elu give for very negative x?",
    patch=(Edit("elu_feature_map.return", FEATURE, "return np.where(x > 0, x, np.exp(np.minimum(x, 0)) - 1)"),),
)
POSITIVE_SIDE_WITHOUT_ONE = Mistake(
    id="linear_positive_side_without_one",
    functions=BOTH,
    looks_like="phi(x) jumps at 0: the positive side is x instead of x + 1",
    hint="elu(x) + 1 is continuous: both sides give 1 at x = 0. Check the two branches there.",
    patch=(Edit("elu_feature_map.return", FEATURE, "return np.where(x > 0, x, np.exp(np.minimum(x, 0)))"),),
)
PHI_KEYS_MISSING = Mistake(
    id="linear_phi_keys_missing",
    functions=("linear_attention",),
    looks_like="the keys went in raw: the feature map was applied to the queries only",
    hint="The weight of key j for query i is phi(q_i) . phi(k_j): both sides go through the feature map.",
    patch=(Edit("linear_attention.phi_k", PHI_K, "phi_k = K.astype(dtype, copy=False)"),),
)
SCALED_QUERIES = Mistake(
    id="linear_scaled_queries",
    functions=("linear_attention",),
    looks_like="the queries were divided by sqrt(d_k) before the feature map, as softmax attention would",
    hint="The 1/sqrt(d_k) belongs to softmax's exp(q . k). Does phi(q) . phi(k) need it?",
    patch=(Edit("linear_attention.phi_q",
                PHI_Q, "phi_q = elu_feature_map(Q.astype(dtype, copy=False) / Q.shape[-1] ** 0.5)"),),
)
NO_NORMALISER = Mistake(
    id="linear_no_normaliser",
    functions=("linear_attention",),
    looks_like="the outputs are too large: phi(q_i)^T S was not divided by phi(q_i)^T z",
    hint="Softmax weights sum to 1 because of their denominator. What plays that role here?",
    patch=(Edit("linear_attention.return", NORMALISE, "return numerator"),),
)
CAUSAL_FUTURE = Mistake(
    id="linear_causal_future",
    functions=("linear_attention",),
    looks_like="with causal=True the sums ran over every key, the future included",
    hint="Query i may only use keys j <= i: its state is a running sum that grows one key at a time.",
    patch=(Edit("linear_attention.s", RUNNING_S, "S = np.broadcast_to(np.sum(S, axis=-3, keepdims=True), S.shape)"),
           Edit("linear_attention.z", RUNNING_Z, WHOLE_Z)),
)
CAUSAL_EXCLUSIVE = Mistake(
    id="linear_causal_exclusive",
    functions=("linear_attention",),
    looks_like="with causal=True each query skipped its own key: the running sums stopped at j < i",
    hint="A causal query sees the keys j <= i, its own position included. Look at query 0: how many keys does it see?",
    patch=(Edit("linear_attention.s", RUNNING_S, "S = np.cumsum(S, axis=-3) - S"),
           Edit("linear_attention.z", RUNNING_Z, "z = np.cumsum(phi_k, axis=-2) - phi_k")),
)
CAUSAL_NORMALISER_FUTURE = Mistake(
    id="linear_causal_normaliser_future",
    functions=("linear_attention",),
    looks_like="with causal=True the numerator stopped at the query but the normaliser summed over every key",
    hint="The numerator and the normaliser are sums over the same keys.",
    patch=(Edit("linear_attention.z", RUNNING_Z, WHOLE_Z),),
)
FULL_MATRIX = Mistake(
    id="linear_full_matrix",
    functions=("linear_attention",),
    looks_like="an (n_q, n_k) array was built: the memory grew with the square of the sequence length",
    hint="Group the product the other way round: phi(K)^T V is only d_k x d_v, whatever n is.",
    mutant=(Edit("linear_attention.if_causal", "    if not causal:\n", "    if not causal:\n"
             "        A = phi_q @ np.swapaxes(phi_k, -1, -2)  # (..., n_q, n_k)\n"
             "        phi_q = phi_q + 0 * A.sum()\n"),),
)
MODIFIES_INPUT = modifies_input(
    "linear_attention", ("elu_feature_map", "linear_attention"), "V",
    "linear_attention.return", "    return numerator / (denominator + eps)")


FEATURE_MAP = "np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))"  # the reference's line computing elu(x) + 1
ALTERNATIVES = Alternatives("the feature map of linear attention (elu(x) + 1)", (
    ("relu", (Edit("elu_feature_map.return",
                   FEATURE_MAP, "np.maximum(x, 0)"),), "the feature map was ReLU (max(x, 0)) instead of elu(x) + 1"),
    ("relu_plus_one", (Edit("elu_feature_map.return",
                            FEATURE_MAP,
                            "np.maximum(x, 0) + 1"),), "the feature map was ReLU + 1 instead of elu(x) + 1"),
    ("exp", (Edit("elu_feature_map.return",
                  FEATURE_MAP, "np.exp(x)"),), "the feature map was exp(x) instead of elu(x) + 1"),
    ("identity", (Edit("elu_feature_map.return",
                       FEATURE_MAP, "x"),), "no feature map was applied (phi(x) = x) instead of elu(x) + 1"),
    ("softplus", (Edit("elu_feature_map.return", FEATURE_MAP, "np.logaddexp(0, x)"),),
     "the feature map was softplus (log(1 + exp(x))) instead of elu(x) + 1"),
))
