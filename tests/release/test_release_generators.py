"""A seeded numpy Generator a sampling check hands the reference is recorded by its state: the same seed replays
the same recorded call, a generator that has drawn is another call."""
import numpy as np

from attnkit.release.replay import token
from grader.calls import Call


def key(rng):
    return Call("sampling", "sample_token", (np.arange(3.0), rng), {"temperature": 0.8}).identity("ref", None, token)[0]


def test_a_generator_is_keyed_by_its_state():
    assert key(np.random.default_rng(5)) == key(np.random.default_rng(5))
    assert key(np.random.default_rng(5)) != key(np.random.default_rng(6))
    drawn = np.random.default_rng(5)
    drawn.random()
    assert key(drawn) != key(np.random.default_rng(5))
