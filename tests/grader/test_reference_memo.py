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
