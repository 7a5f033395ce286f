"""Classic tiled (flash-style) attention mistakes: the online softmax and the causal mask per block."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

FUNCTIONS = ("tiled_attention",)
RESCALE_SUM = "        running_sum *= rescale\n"
RESCALE_OUT = "        running_out *= rescale[:, None]\n"
ACCUMULATE = RESCALE_SUM + "        running_sum += weights.sum(axis=1)\n" + RESCALE_OUT
SCALE = "scale = 1.0 / math.sqrt(d_k)"
KEYS = "key_index = np.arange(start, stop)[None, :]"

NO_CAUSAL_MASK = Mistake(
    id="tiled_no_causal_mask",
    functions=FUNCTIONS,
    looks_like="causal=True had no effect: queries attended to future keys",
    hint="With causal=True, key j is allowed for query i only when j <= i, in every block.",
    patch=(Edit("tiled_attention.scale", SCALE, SCALE + "\n    causal = False"),),
    raises=(("TypeError", r"unexpected keyword argument 'causal'",
             "tiled_attention does not accept a `causal` argument, so it cannot mask future keys"),),
)
STRICT_CAUSAL = Mistake(
    id="tiled_strict_causal",
    functions=FUNCTIONS,
    looks_like="with causal=True a query did not attend to its own key (the diagonal was masked too)",
    hint="Query i may attend keys j <= i, itself included.",
    patch=(Edit("tiled_attention.copyto", "where=key_index > query_index)", "where=key_index >= query_index)"),),
)
CAUSAL_BLOCK_INDEX = Mistake(
    id="tiled_causal_block_index",
    functions=FUNCTIONS,
    looks_like="the causal mask compared positions inside the block instead of absolute key positions",
    hint="Key j of a block starting at `start` is key start + j of the sequence.",
    patch=(Edit("tiled_attention.key_index", KEYS, "key_index = np.arange(stop - start)[None, :]"),),
)
NO_RESCALE = Mistake(
    id="tiled_no_rescale",
    functions=FUNCTIONS,
    looks_like="blocks seen before the running max grew kept too much weight: the running sum and output "
               "were never brought to the new max",
    hint="Earlier blocks were exponentiated against an older, smaller max. When the max grows, what single "
         "factor converts exp(s - old_max) into exp(s - new_max)?",
    patch=(Edit("tiled_attention.running_sum", ACCUMULATE, "        running_sum += weights.sum(axis=1)\n"),),
)
NO_RESCALE_SUM = Mistake(
    id="tiled_no_rescale_sum",
    functions=FUNCTIONS,
    looks_like="the running output was brought to the new max when it grew, but the running sum was not",
    hint="The sum and the output are both measured against the running max: both need the same correction.",
    patch=(Edit("tiled_attention.running_sum", RESCALE_SUM, ""),),
)
NO_RESCALE_OUTPUT = Mistake(
    id="tiled_no_rescale_output",
    functions=FUNCTIONS,
    looks_like="the running sum was brought to the new max when it grew, but the running output was not",
    hint="The sum and the output are both measured against the running max: both need the same correction.",
    patch=(Edit("tiled_attention.running_out", RESCALE_OUT, ""),),
)
BLOCK_MAX_NO_RESCALE = Mistake(
    id="tiled_block_max_no_rescale",
    functions=FUNCTIONS,
    looks_like="each block was exponentiated against its own max and the blocks were added up without a common scale",
    hint="Sums of exp(s - m) are only comparable for the same m: one running max, and a correction for what "
         "came before.",
    patch=(Edit("tiled_attention.scores", "scores -= shift[:, None]", "own = scores.max(axis=1)\n"
                                        "        scores -= np.where(np.isfinite(own), own, 0)[:, None]"),
           Edit("tiled_attention.running_sum", ACCUMULATE, "        running_sum += weights.sum(axis=1)\n")),
)
BLOCKS_NORMALISED_SEPARATELY = Mistake(
    id="tiled_blocks_normalised_separately",
    functions=FUNCTIONS,
    looks_like="each block was normalised by its own sum and the blocks' outputs were added up",
    hint="A softmax divides once, by the total over every key; while blocks arrive, that total is still growing.",
    patch=(Edit("tiled_attention.running_sum", ACCUMULATE + "        running_out += weights @ V[start:stop]",
            "        block_sum = weights.sum(axis=1)[:, None]\n"
            "        weights = np.divide(weights, block_sum, out=np.zeros_like(weights), where=block_sum > 0)\n"
            "        running_sum[:] = 1\n"
            "        running_out += weights @ V[start:stop]"),),
)
NO_SCALE = Mistake(
    id="tiled_no_scale",
    functions=FUNCTIONS,
    looks_like="the weights are too peaked: the scores were not divided by sqrt(d_k)",
    hint="Tiled attention must equal ordinary scaled dot-product attention, scale included.",
    patch=(Edit("tiled_attention.scale", SCALE, "scale = 1.0"),),
)
FULL_MATRIX = Mistake(
    id="tiled_full_matrix",
    functions=FUNCTIONS,
    looks_like="an (n_q, n_k) array was built somewhere (the scores, the weights or a mask)",
    hint="Only one block of keys may be in memory at a time: every per-query statistic is a vector of n_q numbers.",
    mutant=(Edit("tiled_attention.key_index",
                 KEYS, "key_index = np.arange(n_k)[None, :] <= query_index  # a full (n_q, n_k) mask\n"
                   "            " + KEYS),),
)
SQRT_PROMOTES_FLOAT32 = Mistake(
    id="tiled_sqrt_promotes_float32",
    functions=FUNCTIONS,
    looks_like="float32 inputs gave float64 results: 1 / np.sqrt(d_k) is a NumPy float64 scalar, and NumPy 2 "
               "promotes the float32 scores multiplied by it to float64",
    hint="A NumPy float64 scalar is not a Python float. Which kind of number keeps float32 arrays float32?",
    patch=(Edit("tiled_attention.scale", SCALE, "scale = 1.0 / np.sqrt(d_k)"),
           Edit("tiled_attention.scale_scores", "scores *= scale", "scores = scores * scale"),
           Edit("tiled_attention.accumulate",
                "running_out += weights @ V[start:stop]", "running_out = running_out + weights @ V[start:stop]"),
           Edit("tiled_attention.running_sum_sum",
                "running_sum += weights.sum(axis=1)", "running_sum = running_sum + weights.sum(axis=1)")),
)
FLOAT32_ACCUMULATION = Mistake(
    id="tiled_float32_accumulation",
    functions=FUNCTIONS,
    looks_like="the running max, sum and output were kept in float32, so float64 inputs lost precision",
    hint="Which dtype do your running max, sum and output start with?",
    patch=(Edit("tiled_attention.dtype", "dtype = np.result_type(Q, K, V, 1.0)",
            "result_dtype = np.result_type(Q, K, V, 1.0)\n"
            "    dtype = np.float32  # the running buffers, whatever the inputs"),
           Edit("tiled_attention.return",
                "return np.divide(running_out, denominator, out=running_out, where=denominator > 0)",
            "return np.divide(running_out, denominator, out=running_out,\n"
            "                     where=denominator > 0).astype(result_dtype)")),
)
MODIFIES_INPUT = modifies_input(
    "tiled_attention", ("tiled_attention",), "K",
    "tiled_attention.return", "    return np.divide(running_out, denominator, out=running_out, where=denominator > 0)")
