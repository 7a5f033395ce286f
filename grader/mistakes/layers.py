"""Classic mistakes of the layer pieces: LayerNorm's axis, variance and eps, RMSNorm, GELU's form, Conv1D weights."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

MLP = "feed_forward"
LINEAR = "    return x @ weight + bias  # (..., d_in) @ (d_in, d_out) -> (..., d_out), + (d_out,)"
LN_MEAN = "    mean = np.mean(x, axis=-1, keepdims=True)                  # (..., 1)"
LN_VARIANCE = "    variance = np.mean(centred * centred, axis=-1, keepdims=True)  # (..., 1): divides by d"
LN_NORMALISED = "    normalised = centred / np.sqrt(variance + eps)             # (..., d)"
LN_RETURN = "    return normalised * np.asarray(gamma) + np.asarray(beta)   # (..., d) * (d,) + (d,)"
RMS_MEAN_SQUARE = "    mean_square = np.mean(x * x, axis=-1, keepdims=True)  # (..., 1)"
GELU_INNER = "        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)  # (...)"
GELU_RETURN = "    return 0.5 * x * (1.0 + np.tanh(inner))"
MLP_HIDDEN = '    hidden = gelu(linear(x, params["c_fc"]))  # (..., d) @ (d, d_ff) -> (..., d_ff)'

LINEAR_TRANSPOSED = Mistake(
    id="linear_transposed_weight",
    functions=("linear", MLP),
    looks_like="the weight was used transposed, as torch's nn.Linear stores it (out, in); with a square weight "
               "the shapes still fit and only the values are wrong",
    hint="These weights are stored (d_in, d_out), HuggingFace's Conv1D layout. Which of its axes must meet the "
         "input's features?",
    patch=(Edit("linear.return", LINEAR, "    return x @ weight.T + bias"),),
)
LAYER_NORM_BATCH_AXIS = Mistake(
    id="layer_norm_batch_axis",
    functions=("layer_norm",),
    looks_like="the statistics were taken over the first axis, across tokens (as BatchNorm does), not over each "
               "token's features",
    hint="LayerNorm normalises one token at a time. Along which axis do that token's features lie?",
    patch=(Edit("layer_norm.mean", LN_MEAN, "    mean = np.mean(x, axis=0, keepdims=True)"),
           Edit("layer_norm.variance",
                LN_VARIANCE, "    variance = np.mean(centred * centred, axis=0, keepdims=True)")),
)
LAYER_NORM_UNBIASED = Mistake(
    id="layer_norm_unbiased_variance",
    functions=("layer_norm",),
    looks_like="the variance was divided by d - 1 (the unbiased estimate, torch.var's default) instead of d",
    hint="LayerNorm uses the plain mean of the squared deviations. What does a row of one feature give with "
         "your formula?",
    patch=(Edit("layer_norm.variance",
                LN_VARIANCE, "    variance = np.sum(centred * centred, axis=-1, keepdims=True) / (x.shape[-1] - 1)"),),
)
LAYER_NORM_EPS_OUTSIDE = Mistake(
    id="layer_norm_eps_outside_sqrt",
    functions=("layer_norm",),
    looks_like="eps was added to the standard deviation, (x - mean) / (std + eps), not to the variance under the "
               "square root",
    hint="The stabiliser sits next to the variance: sqrt(var + eps). The two forms differ by about eps / 2 "
         "relative, far above float64 tolerance.",
    patch=(Edit("layer_norm.normalised", LN_NORMALISED, "    normalised = centred / (np.sqrt(variance) + eps)"),),
)
LAYER_NORM_ONE_PASS = Mistake(
    id="layer_norm_one_pass_variance",
    functions=("layer_norm",),
    looks_like="the variance was computed as mean(x^2) - mean(x)^2, which cancels catastrophically when the values "
               "share a large offset",
    hint="Subtracting two nearly equal numbers of size 1e12 leaves only rounding error. Can you compute the "
         "variance from values that are already centred?",
    patch=(Edit("layer_norm.variance",
                LN_VARIANCE, "    variance = np.mean(x * x, axis=-1, keepdims=True) - mean * mean"),),
)
LAYER_NORM_BERT_EPS = Mistake(
    id="layer_norm_bert_eps",
    functions=("layer_norm",),
    looks_like="eps defaults to 1e-12 (BERT's value) instead of GPT-2's 1e-5: rows with a small spread come out "
               "too large",
    hint="Each model fixes its LayerNorm's eps; GPT-2's is 1e-5. What does your signature default to?",
    patch=(Edit("layer_norm.signature",
                "def layer_norm(x, gamma, beta, eps=1e-5):", "def layer_norm(x, gamma, beta, eps=1e-12):"),),
)
LAYER_NORM_GAMMA_BETA_SWAPPED = Mistake(
    id="layer_norm_gamma_beta_swapped",
    functions=("layer_norm",),
    looks_like="gamma and beta were swapped: the normalised values were multiplied by the shift and moved by the "
               "scale",
    hint="The signature is layer_norm(x, gamma, beta): which of the two multiplies, which one is added?",
    patch=(Edit("layer_norm.return", LN_RETURN, "    return normalised * np.asarray(beta) + np.asarray(gamma)"),),
)
LAYER_NORM_NO_AFFINE = Mistake(
    id="layer_norm_no_affine",
    functions=("layer_norm",),
    looks_like="the normalised values came back without the learned scale gamma and shift beta",
    hint="After normalising, LayerNorm has two learned vectors to apply.",
    patch=(Edit("layer_norm.return", LN_RETURN, "    return normalised"),),
)
RMS_NORM_CENTRED = Mistake(
    id="rms_norm_centred",
    functions=("rms_norm",),
    looks_like="the rows were centred before dividing: that is LayerNorm without a shift, not RMSNorm",
    hint="RMSNorm keeps the mean of a row; only its root mean square is divided out.",
    patch=(Edit("rms_norm.mean_square",
                RMS_MEAN_SQUARE, "    x = x - np.mean(x, axis=-1, keepdims=True)\n" + RMS_MEAN_SQUARE),),
)
RMS_NORM_L2 = Mistake(
    id="rms_norm_l2_norm",
    functions=("rms_norm",),
    looks_like="each row was divided by its L2 norm (the root of the sum of squares), sqrt(d) times too large",
    hint="The R of RMS is a root of a mean, not of a sum.",
    patch=(Edit("rms_norm.mean_square", RMS_MEAN_SQUARE, "    mean_square = np.sum(x * x, axis=-1, keepdims=True)"),),
)
GELU_ERF = Mistake(
    id="gelu_exact_erf",
    functions=("gelu", MLP),
    looks_like="the exact GELU, x * Phi(x) with the error function, instead of the tanh approximation GPT-2 was "
               "trained with (they differ by up to about 1e-3)",
    hint="GPT-2's checkpoints use the tanh form (HF's gelu_new, torch's approximate='tanh').",
    patch=(Edit("gelu.return",
                GELU_RETURN,
                "    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[x.dtype])(x / math.sqrt(2.0)))"),),
)
GELU_SIGMOID = Mistake(
    id="gelu_sigmoid_approximation",
    functions=("gelu", MLP),
    looks_like="GELU was approximated as x * sigmoid(1.702 x), not with GPT-2's tanh formula",
    hint="Among the GELU approximations, GPT-2 uses the one with a tanh and a cubic term.",
    patch=(Edit("gelu.return", GELU_RETURN, "    with np.errstate(over=\"ignore\"):\n"
                         "        return x / (1.0 + np.exp(-1.702 * x))"),),
)
GELU_SQRT_2PI = Mistake(
    id="gelu_sqrt_2pi",
    functions=("gelu", MLP),
    looks_like="the factor in front of the cubic was sqrt(2 pi) instead of sqrt(2 / pi)",
    hint="The constant comes from matching the normal CDF near 0: sqrt(2 / pi), about 0.798.",
    patch=(Edit("gelu.inner", GELU_INNER, "        inner = math.sqrt(2.0 * math.pi) * (x + 0.044715 * x**3)"),),
)
GELU_CUBIC_COEFFICIENT = Mistake(
    id="gelu_cubic_coefficient",
    functions=("gelu", MLP),
    looks_like="the cubic coefficient was shortened (0.0447 instead of 0.044715), so values drift as |x| grows",
    hint="Every digit of 0.044715 shows at float64 precision.",
    patch=(Edit("gelu.inner", GELU_INNER, "        inner = math.sqrt(2.0 / math.pi) * (x + 0.0447 * x**3)"),),
)
GELU_CUBIC_UNSCALED = Mistake(
    id="gelu_cubic_unscaled",
    functions=("gelu", MLP),
    looks_like="sqrt(2 / pi) multiplied x only, not the whole x + 0.044715 x^3 (a missing pair of parentheses)",
    hint="Inside the tanh the constant scales a sum of two terms. Where do the parentheses go?",
    patch=(Edit("gelu.inner", GELU_INNER, "        inner = math.sqrt(2.0 / math.pi) * x + 0.044715 * x**3"),),
)
GELU_TANH_FROM_EXP = Mistake(
    id="gelu_tanh_from_exp",
    functions=("gelu", MLP),
    looks_like="tanh was rebuilt from exponentials, (e^2u - 1) / (e^2u + 1), which becomes inf / inf = NaN for large "
               "inputs",
    hint="For large u both exponentials overflow. Is there a numpy function that already knows tanh saturates at "
         "+-1?",
    patch=(Edit("gelu.return", GELU_RETURN, "    with np.errstate(over=\"ignore\", invalid=\"ignore\"):\n"
                         "        tanh = (np.exp(2.0 * inner) - 1.0) / (np.exp(2.0 * inner) + 1.0)\n"
                         "    return 0.5 * x * (1.0 + tanh)"),),
)
GELU_FLOAT64_CONSTANT = Mistake(
    id="gelu_float64_constant",
    functions=("gelu", MLP),
    looks_like="float32 inputs gave float64 results: np.sqrt(2 / np.pi) is a NumPy float64 scalar, and NumPy 2 "
               "promotes a float32 array multiplied by it to float64",
    hint="A NumPy float64 scalar is not a Python float. Which kind of number keeps a float32 array float32?",
    patch=(Edit("gelu.inner", GELU_INNER, "        inner = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)"),),
)
FEED_FORWARD_RELU = Mistake(
    id="feed_forward_relu",
    functions=(MLP,),
    looks_like="the hidden units went through a ReLU (the 2017 Transformer's activation) instead of GELU",
    hint="GPT-2's MLP uses the activation you wrote in task 4.",
    patch=(Edit("feed_forward.hidden", MLP_HIDDEN, '    hidden = np.maximum(linear(x, params["c_fc"]), 0.0)'),),
)
MODIFIES_INPUT = modifies_input("layers", ("linear", "layer_norm", "rms_norm", "gelu", MLP), "x", "layer_norm.return",
                                LN_RETURN)
