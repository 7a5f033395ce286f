"""Classic scaled dot-product attention mistakes."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

FUNCTIONS = ("scaled_dot_product_attention", "self_attention")
SCALE = "scores = scores * (1.0 / math.sqrt(d_k))"
MASK = "scores = apply_mask(scores, mask)"
SOFTMAX = "weights = softmax(scores, axis=-1)"
OUTPUT = "output = weights @ V"
MASK_WEIGHTS = "if mask is not None:\n        weights = weights * np.asarray(mask, dtype=bool)\n"

FULLY_MASKED_NAN = Mistake(
    id="attention_fully_masked_nan",
    functions=FUNCTIONS,
    looks_like="a query with no allowed key came out as NaN (0/0): its all -inf scores went through a softmax "
               "with no guard for that case (or its weights were masked and renormalised after the softmax)",
    hint="A row of scores that is entirely -inf has no key to share its weight: its weights, and so its "
         "output, should be zeros rather than 0/0.",
    patch=(Edit("scaled_dot_product_attention.weights",
                SOFTMAX, "exps = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
                     "    weights = exps / exps.sum(axis=-1, keepdims=True)"),),
)
LARGE_NEGATIVE = Mistake(
    id="attention_mask_large_negative",
    functions=FUNCTIONS,
    looks_like="a query with no allowed key got uniform weights: its forbidden scores were large but finite",
    hint="A finite score, however negative, still wins when every other score in its row is just as low. "
         "Which value is below every finite score?",
    patch=(Edit("scaled_dot_product_attention.scores",
                MASK, "scores = np.where(np.asarray(mask, dtype=bool), scores, -1e9)"),),
)
INVERTED_MASK = Mistake(
    id="attention_inverted_mask",
    functions=FUNCTIONS,
    looks_like="the mask worked inverted: queries attended exactly the keys they were forbidden",
    hint="True means 'may attend'.",
    patch=(Edit("scaled_dot_product_attention.scores",
                MASK, "scores = apply_mask(scores, ~np.asarray(mask, dtype=bool))"),),
)
MASK_ZERO = Mistake(
    id="attention_mask_zero",
    functions=FUNCTIONS,
    looks_like="forbidden keys still got weight: their scores were 0, not -inf, before the softmax",
    hint="exp(0) is 1, so a zeroed score still gets weight. Which score value does exp() send to 0?",
    patch=(Edit("scaled_dot_product_attention.scores",
                MASK, "scores = np.where(np.asarray(mask, dtype=bool), scores, 0.0)"),),
)
MASK_AFTER_SOFTMAX = Mistake(
    id="attention_mask_after_softmax",
    functions=FUNCTIONS,
    looks_like="the rows of weights no longer sum to 1: the mask zeroed weights after the softmax",
    hint="The softmax decides how the weight is shared; removing keys has to happen before that decision.",
    patch=(Edit("scaled_dot_product_attention.scores", MASK, "pass"),
           Edit("scaled_dot_product_attention.output", OUTPUT, MASK_WEIGHTS + "    " + OUTPUT)),
)
MASK_AFTER_SOFTMAX_RENORMALISED = Mistake(
    id="attention_mask_after_softmax_renormalised",
    functions=FUNCTIONS,
    looks_like="a query with no allowed key came out as NaN (0/0): its weights were masked and renormalised "
               "after the softmax",
    hint="Remove the forbidden keys before the softmax; a query with no allowed key then gets zero weights.",
    patch=(Edit("scaled_dot_product_attention.scores", MASK, "pass"),
           Edit("scaled_dot_product_attention.output",
                OUTPUT, MASK_WEIGHTS + "        weights = weights / weights.sum(axis=-1, keepdims=True)\n"
                                   "    " + OUTPUT)),
)
NO_SCALE = Mistake(
    id="attention_no_scale",
    functions=FUNCTIONS,
    looks_like="the scores were not divided by sqrt(d_k)",
    hint="Dot products grow with the vector length; what keeps their spread near 1 whatever d_k is?",
    patch=(Edit("scaled_dot_product_attention.scores_sqrt", SCALE, "scores = scores"),),
)
DIVIDE_BY_DK = Mistake(
    id="attention_divide_by_dk",
    functions=FUNCTIONS,
    looks_like="the weights are too flat: the scores were divided by d_k instead of sqrt(d_k)",
    hint="The variance of a sum of d_k products grows like d_k; what brings its standard deviation back to 1?",
    patch=(Edit("scaled_dot_product_attention.scores_sqrt", SCALE, "scores = scores / d_k"),),
)
SCALE_BY_DV = Mistake(
    id="attention_scale_by_dv",
    functions=FUNCTIONS,
    looks_like="the scores were scaled with the value dimension d_v instead of the key dimension d_k",
    hint="The scale comes from the size of the vectors in the dot product: queries and keys.",
    patch=(Edit("scaled_dot_product_attention.scores_sqrt",
                SCALE, "scores = scores * (1.0 / math.sqrt(V.shape[-1]))"),),
)
WRONG_AXIS = Mistake(
    id="attention_softmax_wrong_axis",
    functions=FUNCTIONS,
    looks_like="the softmax normalised over the queries (each column sums to 1) instead of over the keys",
    hint="Each query shares its attention among the keys: which slices of the weights must sum to 1?",
    patch=(Edit("scaled_dot_product_attention.weights", SOFTMAX, "weights = softmax(scores, axis=-2)"),),
)
SCORES = "Q @ np.swapaxes(K, -1, -2)"
MASK_BLOCK = "if mask is not None:\n        " + MASK
K_TRANSPOSE_BATCHED = Mistake(
    id="attention_k_transpose_batched",
    functions=FUNCTIONS,
    looks_like="K.T reversed every axis of a batched K instead of swapping its last two, so the batch axes of Q "
               "and K no longer line up",
    hint="With leading batch axes, which two axes of K have to trade places?",
    patch=(Edit("scaled_dot_product_attention.scores_swapaxes", SCORES, "Q @ K.T"),),
)
NP_DOT_BATCHED = Mistake(
    id="attention_np_dot_batched",
    functions=FUNCTIONS,
    looks_like="np.dot paired every batch entry with every other one (a 2-D product applied to batched arrays), "
               "so the scores grew extra axes",
    hint="np.dot and the @ operator agree only for 2-D arrays. Which one treats leading axes as a batch?",
    patch=(Edit("scaled_dot_product_attention.scores_swapaxes", SCORES, f"np.dot(Q, {SCORES[4:]})"),
           Edit("scaled_dot_product_attention.output", OUTPUT, "output = np.dot(weights, V)")),
)
BOOL_MASK_ADDED = Mistake(
    id="attention_bool_mask_added",
    functions=FUNCTIONS,
    looks_like="the boolean mask was added to the scores (allowed keys +1) and no key was removed",
    hint="Adding a mask only works for a mask of 0 and -inf; this mask is True/False.",
    patch=(Edit("scaled_dot_product_attention.scores", MASK, "scores = scores + mask"),),
)
MASK_IGNORED = Mistake(
    id="attention_mask_ignored",
    functions=FUNCTIONS,
    looks_like="the mask was ignored: every query attended to every key",
    hint="Follow the masked scores: do they reach the softmax?",
    patch=(Edit("scaled_dot_product_attention.scores", MASK, "pass"),),
    raises=(("TypeError", r"unexpected keyword argument 'mask'|takes \d positional arguments? but \d were given",
             "the function does not accept a `mask` argument, so no mask can reach the scores"),),
)
ALWAYS_CAUSAL = Mistake(
    id="attention_always_causal",
    functions=FUNCTIONS,
    looks_like="a causal (lower-triangular) mask was applied on every call, also when no mask or another mask "
               "was given",
    hint="This function masks only with the mask it is given; causal masking is the caller's choice.",
    patch=(Edit("scaled_dot_product_attention.if_mask",
                MASK_BLOCK, "causal = np.tril(np.ones(scores.shape[-2:], dtype=bool))\n"
                        "    allowed = causal if mask is None else causal & np.asarray(mask, dtype=bool)\n"
                        "    scores = apply_mask(scores, allowed)"),),
)
MASK_LEADING_AXIS = Mistake(
    id="attention_mask_leading_axis",
    functions=FUNCTIONS,
    looks_like="the mask got an extra leading axis, so the results came back with a leading axis of size 1",
    hint="A (n_q, n_k) mask already broadcasts against any batch; what does an axis added in front do to the "
         "result's shape?",
    patch=(Edit("scaled_dot_product_attention.scores", MASK, "scores = apply_mask(scores, np.asarray(mask)[None])"),),
)
SQRT_PROMOTES_FLOAT32 = Mistake(
    id="attention_sqrt_promotes_float32",
    functions=FUNCTIONS,
    looks_like="float32 inputs gave float64 results: np.sqrt(d_k) is a NumPy float64 scalar, and NumPy 2 promotes "
               "a float32 array divided by it to float64",
    hint="A NumPy float64 scalar is not a Python float. Which kind of number keeps float32 arrays float32?",
    patch=(Edit("scaled_dot_product_attention.scores_sqrt", SCALE, "scores = scores / np.sqrt(d_k)"),),
)
FLOAT32_COMPUTE = Mistake(
    id="attention_float32_compute",
    functions=FUNCTIONS,
    looks_like="float64 inputs were computed in float32: the values are right to about 7 digits only",
    hint="The results should be as precise as the inputs. Which dtype do your intermediate arrays have?",
    patch=(Edit("scaled_dot_product_attention.q", "Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)",
            "dtype = np.result_type(np.asarray(Q), np.asarray(K), np.asarray(V), 1.0)\n"
            "    Q, K, V = (np.asarray(a).astype(np.float32) for a in (Q, K, V))"),
           Edit("scaled_dot_product_attention.return",
                "return output, weights", "return output.astype(dtype), weights.astype(dtype)")),
)
MODIFIES_INPUT = modifies_input(
    "attention", ("scaled_dot_product_attention", "self_attention"), "V",
    "scaled_dot_product_attention.return", "    return output, weights")
