"""The reference's memo: on where a class is graded (the same calls for every student), off for one ``attnkit check``
run, where digesting every call's arguments costs more than the few repeated calls save."""
import io

import numpy as np

from grader import reference
from grader.calls import Call


def test_unmemoised_reference_calls_every_time_and_still_answers_read_only():
    cache, calls = reference.cache(), []

    def double(x):
        calls.append(1)
        return x * 2

    x = np.ones(3)
    with reference.unmemoised():
        hits, misses = cache.hits, cache.misses
        first, second = (cache.call(Call("m", "double", (x,), {}), double) for _ in range(2))
        assert (cache.hits, cache.misses) == (hits, misses) and len(calls) == 2
        assert not first.flags.writeable and not second.flags.writeable
    assert cache.enabled
    cache.call(Call("m", "double-test", (x,), {}), double)
    cache.call(Call("m", "double-test", (x,), {}), double)
    assert len(calls) == 3  # memoised again after the block


def test_attnkit_check_asks_the_reference_without_its_cache():
    from attnkit.check import main

    cache = reference.cache()
    hits, misses = cache.hits, cache.misses
    assert main(["softmax"], impl="solutions", out=io.StringIO()) == 0
    assert (cache.hits, cache.misses) == (hits, misses) and cache.enabled


def test_trees_and_numbers_the_reference_returns_are_memoised_read_only_with_fresh_containers():
    cache, calls = reference.ResultCache(), []

    def step(x):
        calls.append(1)
        return {"w": x * 2, "layers": [x + 1, (x, np.float64(3.5))]}, 1.5

    x = np.ones(3)
    first, loss = cache.call(Call("m", "step", (x,), {}), step)
    second, _ = cache.call(Call("m", "step", (x.copy(),), {}), step)
    assert len(calls) == 1 and loss == 1.5
    assert first is not second and first["layers"] is not second["layers"]   # a check may change its own dict
    assert first["w"] is second["w"] and not first["w"].flags.writeable
    assert not first["layers"][1][0].flags.writeable and first["layers"][1][0] is not x   # never a view of an input
    first["w"] = None
    assert cache.call(Call("m", "step", (x,), {}), step)[0]["w"] is second["w"]


def test_a_result_holding_an_object_is_not_memoised():
    cache, calls = reference.ResultCache(), []

    def make(x):
        calls.append(1)
        return [x, object()]

    for _ in range(2):
        cache.call(Call("m", "make", (np.ones(2),), {}), make)
    assert len(calls) == 2


def test_the_reference_memo_holds_at_most_its_bytes():
    cache = reference.ResultCache(limit=10_000)
    for i in range(40):
        cache.call(Call("m", "big", (float(i),), {}), lambda v: np.full(200, v))   # 1600 bytes each
    assert cache.memo.bytes <= 10_000 and 0 < len(cache.memo) < 40
    assert cache.call(Call("m", "big", (39.0,), {}), lambda v: np.zeros(1))[0] == 39.0   # the latest is kept


def test_a_result_sharing_memory_with_an_input_is_copied_whatever_way_it_shares_it():
    """Only a result that owns its memory and is no input's owner skips the memory-bounds test; the input
    itself, a view of it, and the array an input is a view of are all copied before they are made read-only."""
    owner = np.arange(12.0)
    x = owner[2:8]    # the input is a view; ``owner`` holds its memory
    results = {"itself": lambda x: x, "a view": lambda x: x[1:], "its owner": lambda x: x.base,
               "new": lambda x: x * 2}
    for label, function in results.items():
        with reference.unmemoised():
            got = reference.cache().call(Call("m", f"share-{label}", (x,), {}), function)
        assert not got.flags.writeable, label
        assert not np.may_share_memory(got, x) and not np.may_share_memory(got, owner), label
        assert x.flags.writeable and owner.flags.writeable, label   # the caller's arrays stay as they were
