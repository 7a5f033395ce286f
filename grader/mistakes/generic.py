"""Mistake families that no exercise owns: named by a rule over the traced call, for every function.

The exercise modules of this package list mistakes that patch one reference. The families here are
found by mechanisms instead, so code nobody catalogued is still named:

* a result of the wrong **shape**, explained from the call's own argument shapes (``grader.diagnose_shape``);
* an optional behaviour used where the call did not ask for it, or ignored where it did (a **setting**:
  ``grader.diagnose_setting``);
* a **numpy error** raised by the student's code, explained from the shapes of the arrays named on the failing
  line (``grader.diagnose_error``);
* values of the right shape that the reference explains once its result is read another way (only the leading
  part of an axis right, the whole transposed: ``grader.diagnose_values``) or once the call is changed (the last
  entries of an axis left out, the scores scaled by another size of the call: ``grader.diagnose_rerun``);
* another known variant of a shared computation (another feature map, another RoPE pairing:
  ``grader.alternatives``).

Each family is a :class:`~grader.mistakes.model.Mistake` whose ``looks_like`` the mechanism rewrites for the
call at hand (``dataclasses.replace``); its ``id`` is what the results carry. No family is a patch or has a
mutant: the mechanisms are tested on whole classes of inputs instead (``tests/grader/test_generic_diagnosis.py``).
"""
from __future__ import annotations

from .model import Mistake

# -- shapes ---------------------------------------------------------------------------------------
SHAPE_TRANSPOSED = Mistake(
    id="shape_transposed",
    functions=(),
    looks_like="the last two axes of the result are swapped (it came back transposed)",
    hint="Write the shape of every intermediate array next to the line that makes it. Which one first has its "
         "last two axes the other way round?",
)
SHAPE_AXES_SWAPPED = Mistake(
    id="shape_axes_swapped",
    functions=(),
    looks_like="two axes of the result are in each other's place",
    hint="Follow the axes of your arrays through each reshape and transpose: which step moves an axis where "
         "another one belongs?",
)
SHAPE_AXES_REORDERED = Mistake(
    id="shape_axes_reordered",
    functions=(),
    looks_like="the result has the right axes in another order",
    hint="Follow the axes of your arrays through each reshape and transpose, one line at a time.",
)
SHAPE_AXIS_MISSING = Mistake(
    id="shape_axis_missing",
    functions=(),
    looks_like="an axis of the result is missing",
    hint="Which line reduces over an axis (sum, mean, max, indexing with a number)? Does the caller still need "
         "that axis?",
)
SHAPE_AXIS_EXTRA = Mistake(
    id="shape_axis_extra",
    functions=(),
    looks_like="the result has an axis too many",
    hint="Which line adds an axis (None, expand_dims, stack, a product of arrays of different ranks)?",
)
SHAPE_SIZE_FROM_ARGUMENT = Mistake(
    id="shape_size_from_argument",
    functions=(),
    looks_like="an axis of the result has the size of another argument",
    hint="For each axis of the result, which argument says how long it must be?",
)
SHAPE_SIZE = Mistake(
    id="shape_size",
    functions=(),
    looks_like="an axis of the result has the wrong length",
    hint="For each axis of the result, which argument says how long it must be?",
)
# -- settings --------------------------------------------------------------------------------------
SETTING_IGNORED = Mistake(
    id="setting_ignored",
    functions=(),
    looks_like="an argument of the call made no difference",
    hint="Follow that argument from the signature to the result: where is it used?",
)
SETTING_APPLIED = Mistake(
    id="setting_applied",
    functions=(),
    looks_like="an optional behaviour was applied although the call did not ask for it",
    hint="An optional behaviour applies only when the caller turns it on. Which branch of your code runs "
         "whatever the argument says?",
)

DTYPE_CHANGED = Mistake(
    id="dtype_changed",
    functions=(),
    looks_like="the values are right but their dtype changed on the way",
    hint="Follow the dtype of your arrays line by line: which step turns float32 into float64 (a float64 constant "
         "or array, astype(float), np.asarray(..., dtype=float)) or keeps integers as integers?",
)
DTYPE_IN_DEPENDENCY = Mistake(
    id="dtype_changed_in_dependency",
    functions=(),
    looks_like="the dtype changed inside another exercise's module that this one uses",
    hint="Fix the dtype in that exercise first: this one keeps float32 once what it calls does.",
)

# -- numpy errors ----------------------------------------------------------------------------------
ERROR_MATMUL = Mistake(
    id="error_matmul_shapes",
    functions=(),
    looks_like="a matrix product got operands whose inner sizes disagree",
    hint="A product (..., n, k) @ (..., k, m) needs the same k on both sides. Write each operand's shape next "
         "to the failing line.",
)
ERROR_EINSUM = Mistake(
    id="error_einsum_subscripts",
    functions=(),
    looks_like="the subscripts of an einsum name another number of axes than its operands have",
    hint="Each operand needs one letter per axis; `...` stands for any number of leading axes.",
)
ERROR_BROADCAST = Mistake(
    id="error_broadcast",
    functions=(),
    looks_like="two arrays of shapes that do not broadcast were combined",
    hint="Shapes broadcast from the right: each pair of sizes must be equal or 1. A reduction without "
         "keepdims=True drops the axis that would have lined up.",
)
ERROR_RESHAPE = Mistake(
    id="error_reshape",
    functions=(),
    looks_like="a reshape asked for a shape with another number of entries than the array has",
    hint="A reshape keeps the number of entries: the product of the new sizes must equal the old one.",
)
ERROR_UNPACK = Mistake(
    id="error_unpack_rank",
    functions=(),
    looks_like="unpacking a shape assumed a fixed number of axes",
    hint="`a, b, c = X.shape` works for one rank only. The leading axes can be any number: which axes do you "
         "really need by name?",
)
ERROR_AXIS = Mistake(
    id="error_axis",
    functions=(),
    looks_like="an axis number was out of range for the array it was used on",
    hint="Counting axes from the end (-1, -2) works whatever the number of leading axes.",
)
ERROR_INDEX_0D = Mistake(
    id="error_index_0d",
    functions=(),
    looks_like="an array with no axes (a single value) was indexed; np.asarray(None) makes such an array",
    hint="An optional argument may be None. What does your code do with it before checking?",
)
ERROR_BOOLEAN_INDEX = Mistake(
    id="error_boolean_index",
    functions=(),
    looks_like="a boolean mask indexed an array of another shape (a mask that only broadcasts cannot index)",
    hint="Indexing with a boolean array needs exactly the indexed array's shape; which operation combines a mask "
         "with arrays of any broadcastable shape?",
)
ERROR_INDEX = Mistake(
    id="error_index",
    functions=(),
    looks_like="an index ran past the end of an axis",
    hint="Which size bounds that loop or index: the axis it walks along, or another one of the same kind?",
)
ERROR_OWN_ASSERT = Mistake(
    id="error_own_assert",
    functions=(),
    looks_like="an assert written in your own code failed",
    hint="Your assert states what you expected of the inputs; the call is a valid one, so which expectation "
         "is too narrow?",
)

# -- values of the right shape, explained by the reference itself -----------------------------------
AXIS_TAIL_IGNORED = Mistake(
    id="axis_tail_ignored",
    functions=(),
    looks_like="the leading part of an axis is right and its trailing part is not: the last entries were never "
               "processed",
    hint="Which loop walks along that axis? Count how many times it runs when the length is not a multiple of its "
         "step, and which entries the last partial step holds.",
)
INPUT_TAIL_IGNORED = Mistake(
    id="input_tail_ignored",
    functions=(),
    looks_like="the result is the right one for the call with the last entries of an axis left out",
    hint="Which loop walks along that axis? Count how many times it runs when the length is not a multiple of its "
         "step, and which entries the last partial step holds.",
)
VALUES_TRANSPOSED = Mistake(
    id="values_transposed",
    functions=(),
    looks_like="the result is the right one transposed as a whole (its last two axes swapped, the shape being "
               "square)",
    hint="Write the shape of every intermediate array next to the line that makes it, with the meaning of each "
         "axis: which product has its operands in the other order?",
)
SCALE_BY_OTHER_SIZE = Mistake(
    id="scale_by_other_size",
    functions=(),
    looks_like="the scores were scaled by the square root of another size of the call",
    hint="The scale keeps the spread of a dot product near 1; how many terms does each of those dot products "
         "add up?",
)
OTHER_ALGORITHM = Mistake(
    id="other_algorithm",
    functions=(),
    looks_like="the result is the one of another known variant of this computation",
    hint="Compare the formula you implemented with the one in the docstring, piece by piece.",
)
SHAPE_RANK_DEPENDENT = Mistake(
    id="shape_rank_dependent",
    functions=(),
    looks_like="the code works for one number of leading axes only",
    hint="The leading axes can be any number: count axes from the end (-1, -2, -3), and let reshapes keep "
         "x.shape[:-2] whatever its length.",
)
