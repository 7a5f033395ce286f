"""A check's large inputs are drawn once per process (``grader.checks.common.normal``), and a large array's digest
is taken once where its memory cannot change (``grader.calls``): what a class's calls cost, never what they mean."""
import numpy as np
import pytest

from grader import calls
from grader.calls import Call
from grader.checks.common import KEPT_DRAW, normal


def draws(seed: int, shape, dtype=np.float64, scale=1.0):
    rng = np.random.default_rng(seed)
    return normal(rng, shape, dtype, scale), rng.standard_normal(3)


def test_a_large_draw_is_kept_and_the_generator_moves_on_as_if_it_drew():
    shape = (KEPT_DRAW // 16, 16)
    first, after_first = draws(11, shape, np.float32, 2.0)
    second, after_second = draws(11, shape, np.float32, 2.0)
    plain = np.random.default_rng(11)
    expected = (plain.standard_normal(shape) * 2.0).astype(np.float32)
    assert second is first and first.dtype == np.float32 and np.array_equal(first, expected)
    assert np.array_equal(after_first, plain.standard_normal(3)) and np.array_equal(after_second, after_first)
    with pytest.raises(ValueError):
        first.flags.writeable = True   # nobody can change what the next student gets
    assert draws(11, shape, np.float64, 2.0)[0] is not first and draws(12, shape, np.float32, 2.0)[0] is not first


def test_a_small_draw_is_made_every_time():
    first, _ = draws(3, (4, 3))
    second, _ = draws(3, (4, 3))
    assert first is not second and np.array_equal(first, second) and first.flags.writeable


def test_a_large_arrays_digest_follows_its_bytes_and_is_kept_only_where_they_cannot_change():
    fixed = draws(5, (KEPT_DRAW,))[0]
    writable = fixed.copy()
    assert Call("m", "f", (fixed,), {}).digest == Call("m", "f", (writable,), {}).digest
    writable[0] += 1.0
    assert Call("m", "f", (writable,), {}).digest != Call("m", "f", (fixed,), {}).digest
    assert Call("m", "f", (fixed[::2],), {}).digest == Call("m", "f", (fixed[::2].copy(),), {}).digest   # a view
    assert id(fixed) in calls._pieces and id(writable) not in calls._pieces


def test_a_list_of_numbers_is_digested_as_its_items():
    assert Call("m", "f", ([1, 2.5, None],), {}).digest != Call("m", "f", ([1, 2.5],), {}).digest
    assert Call("m", "f", ([1, 2],), {}).digest != Call("m", "f", ((1, 2),), {}).digest
    assert Call("m", "f", ([1, "2"],), {}).digest != Call("m", "f", ([1, 2],), {}).digest


def test_a_call_with_a_generator_is_refused_before_any_bytes_are_hashed(monkeypatch):
    monkeypatch.setattr(calls.hashlib, "sha256", lambda *a: pytest.fail("hashed a call that is never memoised"))
    params = {"w": np.ones((64, 64))}
    assert Call("m", "generate", (params, [1, 2]), {"rng": np.random.default_rng(0)}).digest is None
