"""What a round trip to a child computes once, late or not at all stays right: the call's label made only when a
message shows it, and from the arguments as they were sent; a frame's buffer its own; the JSON coder made once; the
encoded empty keywords; the arguments watched for changes; the disk's free space read less often."""
import json
import socket
import time

import numpy as np
import pytest

from grader import compare
from grader.sandbox import wire
from grader.sandbox.host import errors, transport
from grader.sandbox.inside import runtime

PROBES = '''import numpy as np


def reshape_then_raise(x, items, scale=1.0):
    x.shape = (-1,)
    items.append(99)
    raise ValueError("no")


def double(x):
    return 2 * x


def scaled(x, scale=1.0):
    return x * scale


def write_mib(count, first):
    import os
    for index in range(first, first + count):
        with open(os.path.join(os.environ["TMPDIR"], f"fill-{index}.bin"), "wb") as handle:
            handle.write(b"x" * (1 << 20))
    return count


def spin(seconds):
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return seconds
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


def test_frames_read_one_at_a_time_keep_their_own_buffers():
    """A frame read whole in one read is copied out of the reused chunk: its arrays keep their values after the
    next frames overwrite that chunk."""
    ours, theirs = socket.socketpair()
    frames = wire.Receiver(ours.recv_into)
    with ours, theirs:
        kept = []
        for step in range(3):
            wire.send(theirs, {"step": step}, [np.full(4, float(step)), np.arange(step, dtype=np.int32)])
            kept.append(frames.recv())
        for step, (header, arrays) in enumerate(kept):
            assert header == {"step": step}
            assert np.array_equal(arrays[0], np.full(4, float(step))) and arrays[1].tolist() == list(range(step))


@pytest.mark.parametrize("value", [{"op": "call", "s": "naïve ∑", "f": [1.5, -0.0, 1e300], "n": None, "b": True},
                                   {}, {"nested": {"a": [[{"t": "py", "v": 3}]]}}])
def test_the_json_made_once_reads_and_writes_as_the_standard_one(value):
    text = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode(value)
    assert wire._encode(value) == text and wire._decode(text) == value
    assert wire._decode(f" \n{text}\t") == value  # whitespace around a value, as json reads it
    for broken in (text + "x", text[:-1], "", " "):
        with pytest.raises(ValueError):
            wire._decode(broken)


def test_a_call_without_keywords_gets_none_after_a_call_with_them(child):
    """The encoded empty keywords are one object shared by every request: a call's keywords never stay in it."""
    x = np.ones(3)
    assert impl_scale(child, x, scale=3.0) == 3.0
    assert impl_scale(child, x) == 1.0
    assert wire.decode(transport.NO_KWARGS, []) == []


def impl_scale(impl, x, **kwargs):
    return float(impl.probes.scaled(x, **kwargs)[0])


def test_the_arguments_watched_keep_their_labels_order_and_bounds():
    x = np.zeros(2)
    deep = x
    for _ in range(9):
        deep = [deep]
    found = runtime.argument_arrays((x, 5, (x, [x, {"w": x}]), deep[0], deep), {"mask": x, "n": 2})
    assert [label for label, _ in found] == ["0", "2[0]", "2[1][0]", "2[1][1]['w']",
                                            "3" + "[0]" * 8, "mask"]  # 9 levels down: past the bound
    many = runtime.argument_arrays(tuple([x] * (runtime.WATCHED_ARRAYS + 5)), {"mask": x})
    assert len(many) == runtime.WATCHED_ARRAYS


def test_the_disk_is_read_after_milliseconds_of_requests_and_its_quota_still_holds(child, monkeypatch):
    reads = []
    free = transport.disk_free
    monkeypatch.setattr(transport, "disk_free", lambda path: reads.append(path) or free(path))
    run = transport.DISK_RUN_SECONDS
    monkeypatch.setattr(transport, "DISK_RUN_SECONDS", 0.05)  # (a loaded machine's quick calls stay far below it)
    x = np.ones(3)
    for _ in range(50):  # quick calls: the free space is read once they took DISK_RUN_SECONDS together
        child.probes.double(x)
    assert len(reads) <= 10  # (and at least every DISK_LOOK_SECONDS), not once a call
    reads.clear()
    child.probes.spin(transport.DISK_RUN_SECONDS * 2)
    assert len(reads) == 1  # a long request: read at once
    monkeypatch.setattr(transport, "DISK_RUN_SECONDS", run)
    assert child.probes.write_mib(20, 0) == 20  # a drop of a quarter of the quota: measured, kept
    with pytest.raises(errors.StudentCrashed, match="wrote more than 64 MiB of files; they were removed"):
        child.probes.write_mib(50, 20)  # (milliseconds of writing: the free space is read after it)


def test_a_call_whose_bytes_are_unchanged_is_compared_at_once_and_any_change_is_still_named():
    from grader.sandbox.host.shared import BYTES_COMPARED, Region
    region = Region(1 << 20)
    try:
        small = [np.arange(3.0), np.ones(5, dtype=np.int8)]
        specs = region.place(small)
        assert region.changed() == []
        gap = specs[0][2] + small[0].nbytes  # a padding byte after the first array: no argument's
        region.bytes[gap] = 7
        assert region.changed() == []
        region.bytes[specs[1][2] + 2] = 9  # the second argument's third byte
        assert region.changed() == [1]
        region.place(small)  # the next call: its own bytes
        assert region.changed() == []
        large = [np.zeros(BYTES_COMPARED // 8 + 1)]
        specs = region.place(large)
        assert region.span is None and region.changed() == []
        region.bytes[specs[0][2] + 5] = 1
        assert region.changed() == [0]
    finally:
        region.close()


def test_a_shape_of_thousands_of_sizes_is_refused_before_its_product_is_taken():
    header = json.dumps({"ok": True, "arrays": [["<f8", [3] * 200_000]]}).encode()
    body = bytearray(wire.HEADER.pack(len(header), 1) + header)
    start = time.monotonic()
    with pytest.raises(wire.WireError, match="bad shape"):
        wire.parse(body)
    assert time.monotonic() - start < 0.5


def test_arrays_are_written_into_the_region_by_their_own_bytes():
    from grader.sandbox.host.shared import Region
    region = Region(1 << 20)
    try:
        sent = [np.array(2.5), np.array(["ab", "c"]), np.array([[True, False]]), np.arange(6, dtype=">i4"),
                np.zeros((0, 3)), np.asfortranarray(np.arange(6.0).reshape(2, 3))]
        for (dtype, shape, offset), array in zip(region.place(sent), sent):
            got = wire.shared_arrays(region.map, [[dtype, shape, offset]])[0]
            assert got.dtype == array.dtype and got.shape == array.shape and np.array_equal(got, array)
        assert region.changed() == []
    finally:
        region.close()
