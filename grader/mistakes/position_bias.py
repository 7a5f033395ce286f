"""Classic ALiBi and sliding-window mistakes, and where a bias enters the scores."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

SLOPES = "return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)"
POWER_OF_TWO = "if n_heads & (n_heads - 1) == 0:"
EXTRA = "extra = power_of_two_slopes(2 * m)[0::2][:n_heads - m]"
DISTANCE = "distance = np.abs(query_positions[:, None] - key_positions[None, :])"
QUERY_POSITIONS = "query_positions = np.arange(n_q) + (n_k - n_q)"
BIAS = "return -slopes[:, None, None] * distance"
CAUSAL_WINDOW = "return (offset >= 0) & (offset < window)"
WINDOW = "return np.abs(offset) < window"
ADD_BIAS = "scores = scores + bias.astype(scores.dtype, copy=False)"
SCALE = "scores = scores * (1.0 / math.sqrt(d_k))"
SOFTMAX = "weights = softmax(scores, axis=-1)"

SLOPES_OFF_BY_ONE = Mistake(
    id="alibi_slopes_off_by_one",
    functions=("alibi_slopes", "alibi_bias"),
    looks_like="the first head's slope is 1 and every slope is one ratio too large: the exponent started at 0",
    hint="With 8 heads the slopes run from 1/2 down to 1/256: which power of 2^(-8/n) does the first head get?",
    patch=(Edit("power_of_two_slopes.return", SLOPES, "return 2.0 ** (-8.0 * np.arange(0, n) / n)"),),
)
SLOPES_ONE_SEQUENCE = Mistake(
    id="alibi_slopes_one_sequence",
    functions=("alibi_slopes", "alibi_bias"),
    looks_like="for a head count that is not a power of two, the slopes were one geometric sequence over all "
               "the heads",
    hint="The geometric sequence is defined for a power of two heads. How does the paper fill in the extra heads "
         "when there are more?",
    patch=(Edit("alibi_slopes.if_n_heads", POWER_OF_TWO, "if True:"),),
)
SLOPES_EXTRA_CONSECUTIVE = Mistake(
    id="alibi_slopes_extra_consecutive",
    functions=("alibi_slopes", "alibi_bias"),
    looks_like="the extra heads' slopes were the first ones of the doubled sequence, not every other one",
    hint="Of the 2m-head sequence, half of the slopes repeat the m-head ones. Which half is new?",
    patch=(Edit("alibi_slopes.extra", EXTRA, "extra = power_of_two_slopes(2 * m)[:n_heads - m]"),),
)
BIAS_POSITIVE = Mistake(
    id="alibi_bias_positive",
    functions=("alibi_bias",),
    looks_like="the bias has the wrong sign: distant keys were favoured instead of penalised",
    hint="ALiBi makes far-away keys less attractive. Should the bias raise or lower their scores?",
    patch=(Edit("alibi_bias.return", BIAS, "return slopes[:, None, None] * distance"),),
)
BIAS_NO_SLOPE = Mistake(
    id="alibi_bias_no_slope",
    functions=("alibi_bias",),
    looks_like="every head got the same bias: the distance was not multiplied by the head's slope",
    hint="ALiBi gives each head its own rate of decay; where does alibi_slopes come in?",
    patch=(Edit("alibi_bias.return", BIAS, "return -np.ones_like(slopes)[:, None, None] * distance"),),
)
BIAS_SIGNED_DISTANCE = Mistake(
    id="alibi_bias_signed_distance",
    functions=("alibi_bias",),
    looks_like="keys after the query got a positive bias: the distance i - j was used without its absolute value",
    hint="A key three positions ahead is as far away as a key three positions behind.",
    patch=(Edit("alibi_bias.distance", DISTANCE, "distance = query_positions[:, None] - key_positions[None, :]"),),
)
BIAS_KEY_POSITION = Mistake(
    id="alibi_bias_key_position",
    functions=("alibi_bias",),
    looks_like="the bias grows with the key's position (slope * j), not with the query-key distance",
    hint="Under a causal mask both give the same weights, yet the bias itself is defined by how far apart "
         "the query and the key are.",
    patch=(Edit("alibi_bias.return",
                BIAS, "return slopes[:, None, None] * np.broadcast_to(key_positions, distance.shape)"),),
)
BIAS_QUERIES_AT_START = Mistake(
    id="alibi_bias_queries_at_start",
    functions=("alibi_bias",),
    looks_like="with fewer queries than keys, query i was placed at position i instead of among the last positions",
    hint="When n_q < n_k the queries are the newest tokens (as when decoding with a cache). Where does query 0 sit?",
    patch=(Edit("alibi_bias.query_positions", QUERY_POSITIONS, "query_positions = np.arange(n_q)"),),
)
WINDOW_OFF_BY_ONE = Mistake(
    id="window_off_by_one",
    functions=("sliding_window_mask",),
    looks_like="each query sees one key too many: a key exactly `window` positions away was allowed",
    hint="With window = 3 a causal query sees 3 keys, itself included. Count the True entries of a full row.",
    patch=(Edit("sliding_window_mask.return", CAUSAL_WINDOW, "return (offset >= 0) & (offset <= window)"),
           Edit("sliding_window_mask.return_abs", WINDOW, "return np.abs(offset) <= window")),
)
WINDOW_ONE_SHORT = Mistake(
    id="window_one_short",
    functions=("sliding_window_mask",),
    looks_like="each query sees one key too few: the window stopped one position early",
    hint="With window = 3 a causal query sees 3 keys, itself included. Count the True entries of a full row.",
    patch=(Edit("sliding_window_mask.return", CAUSAL_WINDOW, "return (offset >= 0) & (offset < window - 1)"),
           Edit("sliding_window_mask.return_abs", WINDOW, "return np.abs(offset) < window - 1")),
)
WINDOW_NOT_CAUSAL = Mistake(
    id="window_not_causal",
    functions=("sliding_window_mask",),
    looks_like="with causal=True the window also let queries see keys in the future",
    hint="A causal window looks back only: which keys after position i may query i see?",
    patch=(Edit("sliding_window_mask.return", CAUSAL_WINDOW, "return np.abs(offset) < window"),),
)
WINDOW_ONLY_CAUSAL = Mistake(
    id="window_only_causal",
    functions=("sliding_window_mask",),
    looks_like="the window was causal only: the keys before the window were not removed",
    hint="A window limits how far back a query looks, not just the future.",
    patch=(Edit("sliding_window_mask.return", CAUSAL_WINDOW, "return offset >= 0"),),
)
BIAS_BEFORE_SCALE = Mistake(
    id="bias_before_scale",
    functions=("biased_attention",),
    looks_like="the bias was divided by sqrt(d_k) too: it was added before the scaling",
    hint="The bias is a number of its own, not part of the dot product. Which operation should it escape?",
    patch=(Edit("biased_attention.scores",
                SCALE, "scores = scores + np.asarray(0.0 if bias is None else bias, dtype=scores.dtype)\n"
                   "    bias = None\n    " + SCALE),),
)
BIAS_SUBTRACTED = Mistake(
    id="bias_subtracted",
    functions=("biased_attention",),
    looks_like="the bias was subtracted from the scores instead of added",
    hint="A bias already carries its sign (ALiBi's is negative): what does 'adding a bias' mean?",
    patch=(Edit("biased_attention.scores_astype",
                ADD_BIAS, "scores = scores - bias.astype(scores.dtype, copy=False)"),),
)
BIAS_IGNORED = Mistake(
    id="bias_ignored",
    functions=("biased_attention",),
    looks_like="the result is plain attention: the bias never reached the scores",
    hint="Where in softmax(Q K^T / sqrt(d_k) + bias) does the bias enter?",
    patch=(Edit("biased_attention.scores_astype", ADD_BIAS, "pass"),),
)
MASK_IGNORED = Mistake(
    id="bias_mask_ignored",
    functions=("biased_attention",),
    looks_like="forbidden keys still got weight: the mask was not applied",
    hint="A masked key must get weight 0 whatever its bias. What does the softmax turn -inf into?",
    patch=(Edit("biased_attention.scores_apply_mask", "scores = apply_mask(scores, mask)", "pass"),),
)
FULLY_MASKED_NAN = Mistake(
    id="bias_fully_masked_nan",
    functions=("biased_attention",),
    looks_like="a query with no allowed key came out as NaN",
    hint="A row of scores that is entirely -inf has nothing to share: its weights should be zeros, not 0/0.",
    patch=(Edit("biased_attention.weights", SOFTMAX, "exps = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
                     "    weights = exps / exps.sum(axis=-1, keepdims=True)"),),
)
MODIFIES_INPUT = modifies_input(
    "position_bias", ("biased_attention",), "V",
    "biased_attention.return", "    return output, weights")
