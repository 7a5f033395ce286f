"""The grading process's bounded memo (``grader.memo``): by bytes, least recently used dropped first."""
import numpy as np

from grader.memo import MISSING, NODE_BYTES, Memo, size_of


def test_size_counts_arrays_through_trees():
    assert size_of(np.zeros(100)) == 800 + NODE_BYTES
    assert size_of({"a": [np.zeros(10), 1.0]}) == 3 * NODE_BYTES + 80 + NODE_BYTES


def test_least_recently_used_dropped_first_within_the_limit():
    memo = Memo(limit=3 * (800 + 2 * NODE_BYTES))
    for key in "abc":
        memo.put(key, np.zeros(100))
    assert memo.get("a") is not MISSING        # a is now the most recently used
    memo.put("d", np.zeros(100))
    assert memo.get("b") is MISSING and memo.get("a") is not MISSING and memo.get("d") is not MISSING
    assert memo.bytes <= memo.limit


def test_a_value_larger_than_the_limit_is_not_kept_and_a_key_keeps_its_first_value():
    memo = Memo(limit=1000)
    memo.put("big", np.zeros(1000))
    assert memo.get("big") is MISSING and memo.bytes == 0
    memo.put("k", 1)
    memo.put("k", 2)
    assert memo.get("k") == 1 and (memo.hits, memo.misses) == (1, 1)
