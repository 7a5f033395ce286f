"""Classic mistakes of decoding: the temperature, top-k and top-p filters and their order, renormalising, the
one seeded draw, and the KV caches of generation."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

PROBS = ("sampling_probs", "sample_token", "generate")
SCALE = "z = logits / float(temperature)"
GREEDY = "if temperature == 0:                                   # greedy"
KTH = "kth_largest = np.partition(z, V - top_k, axis=-1)[..., V - top_k, None]"
KEEP_K = "z = np.where(z >= kth_largest, z, -np.inf)"
ORDER = 'order = np.argsort(-probs, axis=-1, kind="stable")'
RANKED = "ranked = np.take_along_axis(probs, order, axis=-1)"
PRECEDING = "preceding = np.cumsum(ranked, axis=-1) - ranked"
RENORMALISE = "        probs = probs / np.sum(probs, axis=-1, keepdims=True)        # renormalise the nucleus\n"
DRAW = "u = rng.random()                            # the one draw"
CACHES = 'caches = [KVCache() for _ in params["h"]]'
STEP_LOOP = """        for step in range(n_new):
            sequence.append(sample_token(logits, rng, temperature, top_k, top_p))
            if step < n_new - 1:                            # the last new token is never fed back
                logits = gpt_decode_step(sequence[-1], params, n_head, caches)"""

TEMPERATURE_MULTIPLIED = Mistake(
    id="sampling_temperature_multiplied",
    functions=PROBS,
    looks_like="the logits were multiplied by the temperature: a temperature below 1 flattened the distribution "
               "instead of sharpening it",
    hint="A low temperature should make the likely tokens even likelier. What operation on the logits does that "
         "for T < 1?",
    patch=(Edit("sampling_probs.z", SCALE, "z = logits * float(temperature)"),),
)
TEMPERATURE_IGNORED = Mistake(
    id="sampling_temperature_no_effect",
    functions=PROBS,
    looks_like="the temperature changed nothing (dividing the probabilities by T and renormalising cancels out)",
    hint="The temperature has to act before the softmax: scaling probabilities and renormalising gives them back "
         "unchanged.",
    patch=(Edit("sampling_probs.z", SCALE, "z = logits + 0.0 * float(temperature)"),),
)
GREEDY_DIVIDES_BY_ZERO = Mistake(
    id="sampling_greedy_divides_by_zero",
    functions=PROBS,
    looks_like="temperature 0 divided the logits by 0 (inf - inf gives NaN) instead of putting all the mass on the "
               "largest logit",
    hint="Temperature 0 is the limit of ever sharper distributions. What is that limit, and can you compute it "
         "without dividing?",
    patch=(Edit("sampling_probs.if_temperature",
                GREEDY, "if False:                                             # greedy"),),
)
TOP_K_PLUS_ONE = Mistake(
    id="sampling_top_k_plus_one",
    functions=PROBS,
    looks_like="top-k kept k + 1 tokens: the threshold was the (k+1)-th largest logit",
    hint="Count the tokens your filter keeps on a row without ties. Which ranked position is the threshold?",
    patch=(Edit("sampling_probs.kth_largest",
                KTH,
                "kth_largest = np.partition(z, max(V - top_k - 1, 0), axis=-1)[..., max(V - top_k - 1, 0), None]"),),
)
TOP_K_FIRST_IDS = Mistake(
    id="sampling_top_k_first_ids",
    functions=PROBS,
    looks_like="top-k kept the tokens with the k smallest ids, not the k largest logits",
    hint="'Top' refers to the scores, not to the positions in the vocabulary.",
    patch=(Edit("sampling_probs.z_where", KEEP_K, "z = np.where(np.arange(V) < top_k, z, -np.inf)"),),
)
TOP_K_DROPS_TIES = Mistake(
    id="sampling_top_k_drops_ties",
    functions=PROBS,
    looks_like="top-k kept exactly k tokens and dropped the ones tied with the k-th largest logit",
    hint="HuggingFace's top-k keeps every token whose logit is at least the k-th largest; on a tie that is more "
         "than k tokens.",
    patch=(Edit("sampling_probs.z_where",
                KEEP_K, "ranks = np.argsort(np.argsort(-z, axis=-1, kind='stable'), axis=-1)\n"
                    "        z = np.where(ranks < top_k, z, -np.inf)"),),
)
TOP_P_BEFORE_TOP_K = Mistake(
    id="sampling_top_p_before_top_k",
    functions=PROBS,
    looks_like="the top-p nucleus was measured on the distribution before top-k removed its tokens (the filters "
               "ran in the wrong order)",
    hint="After top-k, the remaining tokens share all the probability. Is that the distribution whose mass you "
         "compare with p?",
    patch=(Edit("sampling_probs.ranked",
                RANKED, "ranked = np.take_along_axis(softmax(logits / float(temperature), axis=-1), order, axis=-1)"),),
)
TOP_P_DROPS_CROSSING = Mistake(
    id="sampling_top_p_drops_crossing_token",
    functions=PROBS,
    looks_like="top-p dropped the token whose probability carries the mass past p (the kept mass stayed below p)",
    hint="The nucleus is the smallest set whose mass reaches p, so the token that crosses p belongs to it.",
    patch=(Edit("sampling_probs.preceding", PRECEDING, "preceding = np.cumsum(ranked, axis=-1)\n"
                       "        preceding[..., 0] = 0.0                                 # keep the top token"),),
)
TOP_P_KEEPS_NOTHING = Mistake(
    id="sampling_top_p_keeps_nothing",
    functions=PROBS,
    looks_like="top-p kept only tokens whose cumulative mass stayed below p, so when the most likely token alone "
               "exceeds p nothing was left (0 / 0 gives NaN)",
    hint="The nucleus always contains the most likely token. Compare the mass ranked above each token with p, not "
         "the mass up to and including it.",
    patch=(Edit("sampling_probs.preceding", PRECEDING, "preceding = np.cumsum(ranked, axis=-1)"),),
)
TOP_P_ASCENDING = Mistake(
    id="sampling_top_p_ascending",
    functions=PROBS,
    looks_like="top-p collected the least likely tokens: the probabilities were sorted in ascending order",
    hint="The nucleus is built from the most likely tokens down. In which order does np.sort or np.argsort "
         "return them?",
    patch=(Edit("sampling_probs.order", ORDER, 'order = np.argsort(probs, axis=-1, kind="stable")'),),
)
TOP_P_BEFORE_TEMPERATURE = Mistake(
    id="sampling_top_p_before_temperature",
    functions=PROBS,
    looks_like="the top-p nucleus was chosen from the probabilities at temperature 1 (before the temperature "
               "and top-k)",
    hint="HuggingFace applies temperature, then top-k, then top-p: the nucleus is measured on the distribution "
         "the first two already shaped.",
    patch=(Edit("sampling_probs.ranked",
                RANKED, "ranked = np.take_along_axis(softmax(logits, axis=-1), order, axis=-1)"),),
)
NOT_RENORMALISED = Mistake(
    id="sampling_not_renormalised",
    functions=PROBS,
    looks_like="after top-p dropped tokens, the kept probabilities were not renormalised: rows sum to less than 1",
    hint="A distribution sums to 1. What must happen to the survivors after some tokens are set to 0?",
    patch=(Edit("sampling_probs.probs", RENORMALISE, ""),),
)
GLOBAL_RANDOM = Mistake(
    id="sampling_global_random",
    functions=("sample_token", "generate"),
    looks_like="the draw came from numpy's global random state (np.random), not from the rng passed in, so the "
               "same seed does not give the same text",
    hint="All randomness must come from the generator you are given; np.random.* functions use a hidden global "
         "one.",
    mutant=(Edit("sample_token.u", DRAW, "u = np.random.random()                      # the one draw"),),
)
NOT_ONE_DRAW = Mistake(
    id="sampling_not_one_draw",
    functions=("sample_token", "generate"),
    looks_like="a token took another number of random draws than one rng.random() (rng.multinomial, rng.integers "
               "or several draws), so the same seed gives other text than every other correct implementation",
    hint="One token, one uniform number u in [0, 1), then the inverse of the cumulative distribution; "
         "rng.choice(V, p=probs) does exactly that.",
    mutant=(Edit("sample_token.u",
                 DRAW, "u = rng.random()\n    u = rng.random()                            # the one draw"),),
)
SHARED_CACHE = Mistake(
    id="sampling_one_cache_for_every_layer",
    functions=("generate",),
    looks_like="every layer wrote into one shared cache ([KVCache()] * n_layer repeats one object), so each layer "
               "attended to the other layers' keys too",
    hint="Multiplying a list repeats references to the same object. How many distinct caches does the model need?",
    patch=(Edit("generate.caches", CACHES, 'caches = [KVCache()] * len(params["h"])'),),
)
PROMPT_END_FED_TWICE = Mistake(
    id="sampling_prompt_end_fed_twice",
    functions=("generate",),
    looks_like="the prompt's last token was fed to the cache twice (once in the prefill, once more before the "
               "first sample), so every new token sits one position too far",
    hint="After the prefill the logits of the prompt's last position are already there: sample from them first.",
    patch=(Edit("generate.for_step", STEP_LOOP, """        for step in range(n_new):
            logits = gpt_decode_step(sequence[-1], params, n_head, caches)
            sequence.append(sample_token(logits, rng, temperature, top_k, top_p))"""),),
)
MODIFIES_INPUT = modifies_input(
    "sampling", ("sampling_probs", "generate"), "logits",
    "sampling_probs.z",
    "    z = logits / float(temperature)                        # (..., V); a Python float keeps float32")
