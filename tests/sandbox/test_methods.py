"""A method of an object in the student's process is called in one request (its handle lists the public
functions of its class), with Python's own semantics: the attribute is looked up when it is called."""
import numpy as np
import pytest

from grader.sandbox import wire
from grader.sandbox.host import errors

PROBES = '''import numpy as np


class Base:
    def total(self):
        return float(sum(item.sum() for item in self.items))


class Store(Base):
    def __init__(self):
        self.items = []
        self.hidden = 0

    def add(self, x):
        self.items.append(np.asarray(x, dtype=float))

    def _private(self):
        return 1

    @property
    def stacked(self):
        return np.stack(self.items)

    @staticmethod
    def static():
        return 2


class Shadowing(Store):
    def __init__(self):
        super().__init__()
        self.add = lambda x: "the instance's own add"


class Spoiled(Store):
    def spoil(self):
        self.total = 5  # an instance attribute that is not callable hides the method
'''


def counting(impl, monkeypatch) -> list:
    ops: list = []
    transport = impl._transport  # the requests the proxy sends, counted
    original = transport.request

    def request(op, target, *args, **kwargs):
        ops.append(op)
        return original(op, target, *args, **kwargs)

    monkeypatch.setattr(transport, "request", request)
    return ops


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_a_method_call_is_one_request(side, request, monkeypatch):
    impl = request.getfixturevalue(side)
    store = impl.probes.Store()
    ops = counting(impl, monkeypatch)
    store.add([1.0, 2.0])
    store.add(np.array([3.0, 4.0]))
    assert ops == ["call", "call"]
    assert store.total() == 10.0  # a base class's method too
    np.testing.assert_array_equal(store.stacked, [[1.0, 2.0], [3.0, 4.0]])  # a property: fetched as before
    assert ops == ["call", "call", "call", "getattr"]
    assert store.static() == 2 and store.hidden == 0  # a staticmethod and a plain attribute: fetched first
    assert ops[-3:] == ["getattr", "call", "getattr"]


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_the_attribute_is_looked_up_when_called(side, request):
    impl = request.getfixturevalue(side)
    assert impl.probes.Shadowing().add(1.0) == "the instance's own add"  # as in Python: the instance wins
    spoiled = impl.probes.Spoiled()
    spoiled.add(1.0)
    spoiled.spoil()
    not_callable = r"Spoiled\.total\(\) raised TypeError: 'int' object is not callable"
    with pytest.raises(errors.StudentRaised, match=not_callable) as raised:
        spoiled.total()
    assert (raised.value.function, raised.value.error_type) == ("total", "TypeError")  # what diagnosis reads
    assert raised.value.error_message == "'int' object is not callable"


def test_method_names_read_the_classes_without_running_their_code():
    class Loud:
        def __getattr__(self, name):
            raise AssertionError("never asked")

        def first(self):
            pass

        second = first
        not_a_function = 3

        @property
        def prop(self):
            raise AssertionError("never run")

    assert wire.method_names(Loud()) == ["first", "second"]
    many = type("Many", (), {f"m{i}": (lambda self: None) for i in range(100)})
    assert len(wire.method_names(many())) == wire.MAX_METHODS


def test_a_generators_methods_are_listed_so_a_draw_is_one_request():
    """numpy's Generator is compiled: its methods are not Python functions, and rng.random() must still be one
    request (a sampling check reads every student's generator after each call)."""
    names = wire.method_names(np.random.default_rng(0))
    assert {"random", "choice", "integers"} <= set(names) and "bit_generator" not in names


@pytest.mark.parametrize("methods", ["append", [1], ["x" * 81], ["m"] * (wire.MAX_METHODS + 1)])
def test_a_malformed_method_list_is_refused(methods):
    with pytest.raises(wire.WireError, match="malformed handle"):
        wire.decode({"t": "handle", "id": 1, "type": "KVCache", "methods": methods}, [])


def test_a_listed_name_that_is_not_a_function_fails_as_the_students_own_error(child):
    """A child may list any name: calling what it listed is its own call, and a non-callable raises there."""
    store = child.probes.Store()
    store._handle.methods = ("hidden",)  # what a lying child could have said
    with pytest.raises(errors.StudentRaised, match="TypeError: 'int' object is not callable"):
        store.hidden()
