"""The sandbox lends sampling checks a seeded numpy Generator made in the student's process (a Generator cannot
cross the wire): the student's code draws from it, and the check reads how far it advanced by drawing the next
number and comparing it with its own generator's."""
import numpy as np
import pytest

PROBES = '''import numpy as np


def draw(rng, n):
    return [float(rng.random()) for _ in range(n)]


def choose(rng, p):
    return int(rng.choice(len(p), p=p))
'''


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_the_sandbox_lends_a_seeded_generator(side, request):
    impl = request.getfixturevalue(side)
    mine, theirs = impl.generator(7), np.random.default_rng(7)
    assert impl.probes.draw(mine, 2) == [theirs.random(), theirs.random()]
    assert mine.random() == theirs.random()        # the check's view: the next draw
    p = np.array([0.2, 0.5, 0.3])
    assert impl.probes.choose(mine, p) == int(theirs.choice(3, p=p))
    assert mine.random() == theirs.random()        # choice with p costs exactly one draw
