"""Part three in the sandbox. Parameter trees (dicts of arrays, lists of dicts) cross the wire both ways, as the
model functions take them: mutations inside them are reported by key, sibling calls with them are memoised, and
a malformed or unsendable dict is refused. The sandbox lends decode-step checks a KV cache of its own."""
import numpy as np
import pytest

from grader.calls import Call
from grader.compare import arg
from grader.reference import ResultCache
from grader.sandbox import wire

PROBES = '''import numpy as np


def affine(x, params):
    return x @ params["weight"] + params["bias"]


def scale_bias(tree):
    tree["h"][1]["mlp"]["bias"] *= 2
    return 0


def echo(tree):
    return tree
'''


def tree():
    return {"h": [{"mlp": {"bias": np.ones(2)}}, {"mlp": {"bias": np.ones(2)}}], "ln_f": np.zeros(3, np.float32)}


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_a_parameter_dict_is_an_argument_and_a_result(side, request):
    impl = request.getfixturevalue(side)
    x, params = np.arange(6.0).reshape(2, 3), {"weight": np.ones((3, 2)), "bias": np.array([1.0, -1.0])}
    np.testing.assert_array_equal(impl.probes.affine(x, params), x @ params["weight"] + params["bias"])
    back = impl.probes.echo(tree())
    assert list(back) == ["h", "ln_f"] and back["ln_f"].dtype == np.float32
    np.testing.assert_array_equal(back["h"][1]["mlp"]["bias"], np.ones(2))


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_a_change_inside_a_dict_is_reported_by_its_keys(side, request):
    impl = request.getfixturevalue(side)
    caller = tree()
    impl.probes.scale_bias(caller)
    assert impl.last_call_mutated == ["0['h'][1]['mlp']['bias']"]
    np.testing.assert_array_equal(caller["h"][1]["mlp"]["bias"], np.ones(2))


def test_dicts_round_trip_and_malformed_ones_are_refused():
    arrays: list = []
    node = wire.encode({"b": np.ones(2), "a": [1, {"c": None}]}, arrays)
    decoded = wire.decode(node, arrays)
    assert list(decoded) == ["b", "a"] and decoded["a"][1] == {"c": None}
    for bad in ({"t": "dict", "items": [[1, {"t": "none"}]]}, {"t": "dict", "items": {"a": 1}},
                {"t": "dict", "items": [["a"]]}):
        with pytest.raises(wire.WireError):
            wire.decode(bad, [])
    for unsendable in ({1: np.ones(2)}, {"x" * 300: 1}):
        with pytest.raises(TypeError):
            wire.encode(unsendable, [])


def test_reference_calls_with_dicts_are_memoised_by_content():
    cache, calls = ResultCache(), []

    def affine(x, params):
        calls.append(1)
        return x @ params["weight"] + params["bias"]

    x = np.ones((2, 3))
    for bias in (np.zeros(2), np.zeros(2), np.ones(2)):
        cache.call(Call("m", "affine", (x, {"weight": np.ones((3, 2)), "bias": bias}), {}), affine)
    assert len(calls) == 2


def test_a_parameter_dict_is_restated_by_its_shapes():
    assert arg("params", {"weight": np.ones((3, 2)), "bias": np.ones(2, np.float32)}) == \
        "params={'weight': (3, 2), 'bias': (2,) float32}"
    assert arg("params", {f"key{i}": np.ones((30, 30)) for i in range(20)}).startswith("params (dict with keys")


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_the_sandbox_lends_a_plain_kv_cache(side, request):
    impl = request.getfixturevalue(side)
    cache = impl.plain_cache()
    assert len(cache) == 0 and cache.keys.shape == (0, 0)
    k = np.arange(3.0, dtype=np.float32)
    cache.append(k, np.ones(2))
    impl.touch_last_arguments()  # the cache kept copies
    cache.append(k + 1, np.zeros(2))
    assert len(cache) == 2 and cache.keys.dtype == np.float32
    np.testing.assert_array_equal(cache.keys, [[0, 1, 2], [1, 2, 3]])
    np.testing.assert_array_equal(cache.values, [[1, 1], [0, 0]])
