"""The failing line of a student's exception, reported as data (grader.sandbox.inside.failing_line.line_facts),
checked on the trusted side (grader.sandbox.host.transport.line_names) and explained by its numpy error family
(grader.diagnose_error): in the sandboxed child and in-process alike."""
import numpy as np
import pytest

from grader.diagnose_error import explain
from grader.sandbox.host import errors
from grader.sandbox.host.failing_line import line_names

PROBES = '''import numpy as np


def batched_transpose(Q, K):
    scores = Q @ K.T
    return scores


def dot_batched(Q, K):
    return np.dot(Q, np.swapaxes(K, -1, -2))


def no_keepdims(x):
    total = x.sum(axis=-1)
    return x / total


def fixed_rank(X):
    B, n, d = X.shape
    return X


def reshape_heads(X, n_heads):
    return X.reshape(X.shape[0], n_heads, 5)


def mask_from_none(scores, mask=None):
    allowed = np.asarray(mask)
    return scores * allowed[0]


def loop_bound(Q, K):
    n_q = Q.shape[0]
    out = np.zeros(K.shape[0])
    for j in range(n_q):
        out[j] = K[j].sum()
    return out


def own_assert(X):
    assert X.ndim == 3
    return X


def wrong_einsum(Q, K):
    return np.einsum("ij,kj->ik", Q, K)


def axis_written(x):
    return x.sum(axis=2)


def boolean_index(scores, mask):
    out = scores.copy()
    out[~mask] = -np.inf
    return out
'''

CASES = [  # (function, args, family, words the explanation must hold)
    ("batched_transpose", (np.ones((2, 3, 4, 8)), np.ones((2, 3, 6, 8))), "error_matmul_shapes",
     ["line 5, `scores = Q @ K.T`: Q is (2, 3, 4, 8)", "K.T is (8, 6, 3, 2)", "reversed every axis of the batched K"]),
    ("dot_batched", (np.ones((2, 4, 8)), np.ones((2, 5, 7))), "error_matmul_shapes",
     ["Q is (2, 4, 8)", "np.dot does not treat leading axes as a batch"]),
    ("no_keepdims", (np.ones((3, 4)),), "error_broadcast", ["total is (3,)", "keepdims=True"]),
    ("fixed_rank", (np.ones((4, 8)),), "error_unpack_rank", ["X has 2 axes where the unpacking expects 3"]),
    ("reshape_heads", (np.ones((4, 8)), 2), "error_reshape", ["X is (4, 8)", "n_heads = 2"]),
    ("mask_from_none", (np.ones((3, 3)),), "error_index_0d", ["allowed is ()", "allowed is a 0-d array"]),
    ("loop_bound", (np.ones((6, 2)), np.ones((4, 2))), "error_index", ["j = 4", "index 4 on an axis of size 4"]),
    ("own_assert", (np.ones((4, 8)),), "error_own_assert", ["`assert X.ndim == 3`", "X is (4, 8)"]),
    ("wrong_einsum", (np.ones((2, 4, 8)), np.ones((2, 5, 8))), "error_einsum_subscripts", ["Q is (2, 4, 8)"]),
    ("axis_written", (np.ones((3, 4)),), "error_axis", ["x is (3, 4)"]),
    ("boolean_index", (np.ones((2, 3, 3)), np.ones((3, 3), dtype=bool)), "error_boolean_index",
     ["out is (2, 3, 3)", "mask is (3, 3)"]),
]


def raised(impl, function, args) -> errors.StudentRaised:
    with pytest.raises(errors.StudentRaised) as caught:
        getattr(impl.probes, function)(*args)
    return caught.value


@pytest.mark.parametrize("where", ["child", "trusted"])
def test_each_numpy_error_family_is_explained_from_the_failing_line(where, request):
    impl = request.getfixturevalue(where)
    for function, args, family, words in CASES:
        failure = raised(impl, function, args)
        found = explain(failure.error_type, failure.error_message, failure.where, failure.line, failure.names)
        assert found is not None and found.id == family, (function, failure.message, found)
        assert "probes.py, line" in found.looks_like, found.looks_like
        for word in words:
            assert word in found.looks_like, (function, word, found.looks_like)


def test_an_exception_of_no_numpy_family_gets_no_explanation():
    assert explain("KeyError", "'x'", "a.py, line 3", "d['x']", ()) is None
    assert explain("AssertionError", "X must be 3-d", "a.py, line 3", "assert X.ndim == 3, 'X must be 3-d'") is None


def test_what_the_child_says_about_its_line_is_checked_and_bounded():
    forged = [{"name": "K.T", "shape": [2, 3], "dtype": "float64"},
              {"name": "x; import os", "shape": [1], "dtype": "float64"},      # not a name
              {"name": "y", "shape": [1] * 33, "dtype": "float64"},            # too many axes
              {"name": "z", "shape": [-1], "dtype": "float64"},                # negative size
              {"name": "w", "shape": [2], "dtype": "<object>"},                # not a dtype name
              {"name": "i", "value": 2**60}, {"name": "j", "value": True},      # too large, not an int
              {"name": "k", "value": 3}] + [{"name": f"n{i}", "value": i} for i in range(20)]
    kept = line_names(forged)
    assert kept[:2] == ({"name": "K.T", "shape": (2, 3), "dtype": "float64"}, {"name": "k", "value": 3})
    assert len(kept) <= 8 and line_names("not a list") == () and line_names([None, 3]) == ()
