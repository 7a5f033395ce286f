"""One value model (grader.calls): a call's canonical encoding keys the reference's memo, the mistaken references'
memo and the release's recording alike; one namespace proxy makes the calls of every reference."""
from __future__ import annotations

import numpy as np
import pytest

from grader import reference
from grader.calls import Call, Handle, Namespace, Unencodable, decode, encode
from grader.diagnosis import Session
from grader.interfaces import ReferenceKind

X = np.arange(6.0).reshape(2, 3)
DEEP: list = [1]
for _ in range(40):  # deeper than the wire nests
    DEEP = [DEEP]


def digest(*args, **kwargs):
    return Call("softmax", "softmax", args, kwargs).digest


def test_equal_calls_share_a_digest_and_every_difference_shows():
    assert digest(X, axis=0) == digest(X.copy(), axis=0) == digest(np.asfortranarray(X), axis=0)
    assert digest(X, axis=0, mask=None) == digest(X, mask=None, axis=0)  # keyword arguments by name
    different = [digest(X, axis=0), digest(X, axis=1), digest(X), digest(X.astype(np.float32)), digest(X.reshape(3, 2)),
                 digest([1.0, 2.0]), digest((1.0, 2.0)), digest(np.array([1.0, 2.0])), digest(0.0), digest(-0.0),
                 digest(1), digest(1.0), digest(True), digest(np.float64(1.0)), digest({"a": 1, "b": 2}),
                 digest({"b": 2, "a": 1}), Call("softmax", "other", (X,), {}).digest,
                 Call("m", "softmax", (X,), {}).digest]
    assert None not in different and len(set(different)) == len(different)


@pytest.mark.parametrize("value", [np.random.default_rng(1), Handle("kv_cache", "KVCache", "t"), np.array([object()]),
                                   np.ma.masked_array([1.0]), np.ones(2, np.longdouble), {1: 2}, object(), 1j,
                                   DEEP])
def test_a_call_holding_a_stateful_or_unknown_value_has_no_digest(value):
    """Generators and objects a call returned change with each call, other values have no canonical form (the
    wire's dtype rules, its nesting limit): such a call is never memoised."""
    assert digest(X, value) is None
    with pytest.raises(Unencodable):
        encode(value)


@pytest.mark.parametrize("value", [X, X.astype(np.float32), X > 1, np.array(["ab"]), np.int8(3), np.float32(0.5), 1,
                                   -0.0, "s", None, True, (1, [2.0]), {"a": {"b": X}}, DEEP[0][0],
                                   np.ones(2, np.longdouble), np.array([object()]), np.ma.masked_array([1.0]), {1: 2},
                                   object(), 1j, DEEP, np.random.default_rng(1), np.datetime64("2020")])
def test_the_digest_follows_the_encodings_rules(value):
    """The digest writes the canonical form without building its tree: both accept and refuse the same values."""
    try:
        encode(value)
    except Unencodable:
        assert digest(value) is None
    else:
        assert digest(value) is not None


def test_the_release_keys_calls_alike_on_every_machine():
    """The student's machine computes a recorded call's key again: pinned values (a key that followed a numpy
    version's repr of a scalar, an address or an id would miss the recorded calls there). A call with a digest is
    keyed by it, a call with a generator (no digest) by its identity tree, as the recording's format 3 did."""
    from attnkit.release.replay import recorded_key, token

    call = Call("softmax", "softmax", (X.astype(np.float32), [1, 2.5, None, True], {"b": "w", "a": np.int64(3)}),
                {"axis": -1, "mask": (X > 2,)})
    assert recorded_key("ref", call) == "c7a45b64758f4c8c2379afaf1ef3d7cf"
    plain = Call("softmax", "softmax", (X,), {"axis": 0, "scale": 0.5, "name": "q", "mask": None})   # plain keywords
    assert recorded_key("ref", plain) == "52b2b8b363ac1ba97763612807313669"
    rng = Call("sampling", "sample_token", (np.arange(3.0), np.random.default_rng(5)), {"temperature": 0.8})
    assert recorded_key("ref", rng) == rng.identity("ref", None, token)[0] == "02d8d1146d4e20d46020dd2be0cf2dbe"


def test_a_numpy_scalar_is_digested_by_its_bytes():
    """Not by its repr, which numpy 2 changed (``np.float64(2.5)`` where numpy 1 wrote ``2.5``)."""
    assert Call("m", "f", (np.float64(2.5), np.float32(-0.0)), {}).digest.hex() == (
        "7a19a48bd3de9fc2f3738f8e6c6f6650123165eeb4816f057f7a8b4b0ea01a00")
    assert digest(np.float64(0.1) + np.float64(0.2)) != digest(np.float64(0.3))
    assert digest(np.float64(2.5)) != digest(2.5) != digest(np.float32(2.5))


def test_a_parameter_tree_is_digested_as_it_always_was():
    """The items of a container that are small arrays are fed without a call each: the bytes hashed, so the digests
    that key the memos and the release's recording, stay what they were (this value was taken before that change);
    a small array nested one level too deep is refused as before."""
    tree = {"wte": X, "h": [{"attn": np.ones(2, np.float32), "n": 3}, (np.arange(3), 1.5)], "big": np.arange(5000.0),
            "t": X.T}
    call = Call("gpt", "gpt_forward", (np.array([1, 2]), tree), {"n_head": 2, "p": [tree, None]})
    assert call.digest.hex() == "fdcff0ee1a503f170a648d1a5a6eb351bf8e5f2c954841d0ce07cd1db2f502e0"
    nested: object = np.ones(2)
    for _ in range(31):   # the call's args tuple is level 0: the array sits at MAX_DEPTH
        nested = [nested]
    assert digest(nested) is not None and digest([nested]) is None and digest({"k": nested}) is None


def test_decoding_gives_the_value_back():
    value = (X, [1, 2.5, None, True, "s"], {"b": np.float32(2.0), "a": -0.0})
    arrays: dict = {}
    back = decode(encode(value, arrays), arrays.__getitem__)
    assert type(back) is tuple and np.array_equal(back[0], X) and back[1] == [1, 2.5, None, True, "s"]
    assert list(back[2]) == ["b", "a"] and back[2]["b"].dtype == np.float32 and str(back[2]["a"]) == "-0.0"


class Counting(Namespace):
    """A reference that answers every call with its own name and keeps the calls it was asked."""

    kind = ReferenceKind.LIVE

    def __init__(self):
        self.asked: list[Call] = []

    def call(self, call: Call):
        self.asked.append(call)
        return np.full(2, len(self.asked), float)

    def mistaken(self, call, mistake, compute):
        return compute()


def test_one_call_of_ref_is_one_call_of_the_reference():
    """The check run's ``ref`` is a wrapper around the reference's ``call``: the Call the namespace made reaches the
    reference itself, once, and is written down."""
    counting = Counting()
    session = Session(counting)
    result = session.ref.softmax.softmax(X, axis=0)
    assert len(counting.asked) == 1
    asked = counting.asked[0]
    assert (asked.module, asked.function, asked.args[0] is X, asked.kwargs) == ("softmax", "softmax", True, {"axis": 0})
    assert session.origin_of(result)[0].function == "softmax" and len(session.calls) == 1


def test_a_method_of_an_object_the_reference_returned_is_a_call_of_class_dot_method():
    session = Session(reference.reference())
    cache = session.ref.kv_cache.KVCache()
    cache.append(np.ones(2), np.ones(2))
    made = session.calls[-1]
    assert (made.function, made.name, made.method, made.stateful) == ("KVCache.append", "append", True, True)
    assert made.digest is None  # the object changes: never memoised


def test_the_live_reference_memoises_by_digest():
    cache = reference.ResultCache()
    calls = []

    def double(x):
        calls.append(1)
        return x * 2

    for value in (X, X.copy(), X + 1):
        cache.call(Call("m", "double", (value,), {}), double)
    assert len(calls) == 2 and cache.hits == 1
    # a generator's call, by the generator's state: answered again for the same state only
    moved = np.random.default_rng(0)
    moved.random()
    for rng in (np.random.default_rng(0), np.random.default_rng(0), moved, np.random.default_rng(1)):
        cache.call(Call("m", "double", (X, rng), {}), lambda x, rng: x)
    assert cache.hits == 2
    # inside a container it is no key at all: made every time
    cache.call(Call("m", "double", (X, [np.random.default_rng(0)]), {}), lambda x, rng: x)
    cache.call(Call("m", "double", (X, [np.random.default_rng(0)]), {}), lambda x, rng: x)
    assert cache.hits == 2


def test_a_name_the_reference_lacks_fails_at_attribute_access():
    session = Session(reference.reference())
    with pytest.raises(AttributeError):
        session.ref.softmax.no_such_function  # noqa: B018
    with pytest.raises(AttributeError):
        session.ref.softmax._private  # noqa: B018
