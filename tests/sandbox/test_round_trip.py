"""What a round trip to a child computes once, late or not at all stays right: the call's label made only when a
message shows it, and from the arguments as they were sent."""
import numpy as np
import pytest

from grader import compare
from grader.sandbox.host import errors

PROBES = '''import numpy as np


def reshape_then_raise(x, items, scale=1.0):
    x.shape = (-1,)
    items.append(99)
    raise ValueError("no")


def double(x):
    return 2 * x
'''


def test_a_label_is_made_once_when_shown_and_never_for_an_answered_call(monkeypatch):
    made = []
    restate = compare.restate
    monkeypatch.setattr(compare, "restate", lambda *a: made.append(a) or restate(*a))
    label = compare.Restated("softmax", (np.zeros((2, 3)),), {"axis": 0}, ("x",))
    assert made == []
    assert str(label) == f"{label}" == "softmax(x of shape (2, 3), axis=0)" and len(made) == 1


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_no_label_is_made_for_a_call_that_succeeds(side, request, monkeypatch):
    impl = request.getfixturevalue(side)
    transport, labels = impl._transport, []
    send = transport.request
    monkeypatch.setattr(transport, "request", lambda *a, **k: labels.append(k["call"]) or send(*a, **k))
    assert np.array_equal(impl.probes.double(np.ones(3)), np.full(3, 2.0))
    assert len(labels) == 1 and isinstance(labels[0], compare.Restated) and labels[0].text is None


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_a_failing_call_names_its_arguments_as_they_were_sent(side, request):
    """The student's code changed the shape of its array and its list in place before raising; the caller changes
    its own after the call: the message names what was sent, whatever either side did to them later."""
    impl = request.getfixturevalue(side)
    x, items = np.zeros((2, 3), dtype=np.float32), [1, 2]
    with pytest.raises(errors.StudentRaised) as raised:
        impl.probes.reshape_then_raise(x, items, scale=0.5)
    sent = "reshape_then_raise(array of shape (2, 3) float32, [1, 2], scale=0.5)"
    assert raised.value.call == sent and str(raised.value).startswith(f"{sent} raised ValueError: no")
    x.shape = (6,)
    items.append(3)
    assert raised.value.call == sent and str(raised.value).startswith(sent)
    assert items == [1, 2, 3] and x.shape == (6,)  # the student's changes stayed on its side
