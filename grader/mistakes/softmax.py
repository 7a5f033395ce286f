"""Classic softmax mistakes."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake

FUNCTIONS = ("softmax",)
ROW_MAX = "row_max = np.max(x, axis=axis, keepdims=True)"
DIVIDE = "np.divide(exps, totals, out=np.zeros_like(exps), where=totals > 0)"

ALL_INF_NAN = Mistake(
    id="softmax_all_inf_nan",
    functions=FUNCTIONS,
    looks_like="a slice that is entirely -inf came out as NaN (exp(-inf) is 0 everywhere, so the division is 0/0; "
               "with the max subtracted first, -inf - (-inf) is already NaN)",
    hint="A slice with no finite entry has nothing to normalise. What should its shift be, and what should "
         "come out where the total is 0?",
    patch=(Edit("softmax.finite_shift", "    row_max = np.where(np.isfinite(row_max), row_max, 0)", "    pass"),
           Edit("softmax.return", DIVIDE, "exps / totals")),
)
WRONG_AXIS = Mistake(
    id="softmax_wrong_axis",
    functions=FUNCTIONS,
    looks_like="the slices that sum to 1 run along another axis than the `axis` given",
    hint="Which slices must sum to 1? Every reduction has to run along the axis you were asked for.",
    # the last axis, or axis 0 when the last one was asked for: an `axis` ignored, or written into the code
    patch=(Edit("softmax.row_max", ROW_MAX, "axis = -1 if axis % x.ndim != x.ndim - 1 else 0\n    " + ROW_MAX),),
    raises=(("AxisError", r"axis -?\d+ is out of bounds",
             "an axis was written into the code: the reductions ran along a fixed axis, not the `axis` given, "
             "and this input has no such axis"),
            ("TypeError", r"unexpected keyword argument 'axis'",
             "softmax does not accept an `axis` argument, so its slices cannot follow the axis asked for")),
)
NO_MAX_SUBTRACTION = Mistake(
    id="softmax_no_max_subtraction",
    functions=FUNCTIONS,
    looks_like="exp overflowed to inf for large scores (inf / inf is NaN): the exponentials were taken of the "
               "raw scores",
    hint="Softmax does not change when every entry of a slice is shifted by the same constant. "
         "Which constant keeps every exponent at or below 0?",
    patch=(Edit("softmax.exps", "exps = np.exp(x - row_max)", "exps = np.exp(x)"),),
)
GLOBAL_MAX = Mistake(
    id="softmax_global_max",
    functions=FUNCTIONS,
    looks_like="every slice was shifted by the maximum of the whole array, so a slice far below it underflowed "
               "(0 / 0 is NaN)",
    hint="The shift is there to protect one slice at a time: it should depend on that slice only.",
    patch=(Edit("softmax.row_max", ROW_MAX, "row_max = np.max(x)"),
           Edit("softmax.return", DIVIDE, "exps / totals")),
)
NO_KEEPDIMS = Mistake(
    id="softmax_no_keepdims",
    functions=FUNCTIONS,
    looks_like="the max or the sum lost the reduced axis, so it broadcast against the wrong axis",
    hint="After a reduction along an axis, the result must still line up with x, axis for axis.",
    patch=(Edit("softmax.row_max", ROW_MAX, "row_max = np.max(x, axis=axis)"),
           Edit("softmax.totals",
                "totals = np.sum(exps, axis=axis, keepdims=True)", "totals = np.sum(exps, axis=axis)")),
)
GLOBAL_SUM = Mistake(
    id="softmax_global_sum",
    functions=FUNCTIONS,
    looks_like="every entry was divided by the total of the whole array, so only the whole array sums to 1",
    hint="Each slice along `axis` must sum to 1 by itself.",
    patch=(Edit("softmax.totals", "totals = np.sum(exps, axis=axis, keepdims=True)", "totals = np.sum(exps)"),),
)
MODIFIES_INPUT = Mistake(
    id="softmax_modifies_input",
    functions=FUNCTIONS,
    looks_like="the caller's array was overwritten: softmax worked in place on its input",
    hint="The caller may still need its scores after the call. Where do your intermediate results live?",
    mutant=(Edit("softmax.exps", "exps = np.exp(x - row_max)", "x -= row_max\n    exps = np.exp(x, out=x)"),),
)
FLOAT32_COMPUTE = Mistake(
    id="softmax_float32_compute",
    functions=FUNCTIONS,
    looks_like="a float64 input was computed in float32: the values are right to about 7 digits only",
    hint="The result should be as precise as the input. Which dtype do your intermediate arrays have?",
    patch=(Edit("softmax.row_max", ROW_MAX, "dtype, x = x.dtype, x.astype(np.float32)\n    " + ROW_MAX),
           Edit("softmax.return", DIVIDE, DIVIDE + ".astype(dtype)")),
)
