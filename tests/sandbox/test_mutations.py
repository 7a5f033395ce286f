"""Issue 11 item 4: the student's side reports every argument array a call changed in place (nested in
tuples and lists too), and can change the arrays the last call received (to see what an object kept)."""
import numpy as np
import pytest

from grader.checks.untouched import argument_name
from grader.sandbox.host.workspace import Workspace

PROBES = '''import numpy as np


def overwrite_first(x, y):
    x[0] = 99
    return y


def overwrite_nested(pair, mask=None):
    pair[1][...] = 0
    if mask is not None:
        mask[...] = False
    return 1.0


def reshape_in_place(x):
    x.shape = (-1,)
    return 0


def leave_alone(x, y):
    return x + y


class Keeper:
    def keep(self, k, v):
        self.kept = (k, np.array(v))

    def kept_sum(self):
        return float(self.kept[0].sum() + self.kept[1].sum())
'''


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_every_changed_argument_is_reported(side, request):
    impl = request.getfixturevalue(side)
    x, y = np.zeros((2, 3)), np.ones(3)
    impl.probes.overwrite_first(x, y)
    assert impl.last_call_mutated == ["0"]
    assert (x == 0).all()  # the caller's own array is never the one changed
    impl.probes.overwrite_nested((x, y), mask=np.ones(3, dtype=bool))
    assert impl.last_call_mutated == ["0[1]", "mask"]
    impl.probes.overwrite_first(np.zeros((300, 100)), y)  # past COPIED_BYTES: compared by digest
    assert impl.last_call_mutated == ["0"]
    impl.probes.reshape_in_place(np.zeros((2, 2)))
    assert impl.last_call_mutated == ["0"]
    impl.probes.leave_alone(x, y)
    assert impl.last_call_mutated == []


@pytest.mark.parametrize("side", ["child", "trusted"])
def test_touching_the_last_arguments_shows_what_an_object_kept(side, request):
    impl = request.getfixturevalue(side)
    keeper = impl.probes.Keeper()
    k, v = np.zeros(3), np.zeros(2)
    keeper.keep(k, v)
    impl.touch_last_arguments()
    assert keeper.kept_sum() == 3.0  # the kept k changed with the caller's; the copied v did not
    assert (k == 0).all() and (v == 0).all()


def test_a_raising_call_reports_nothing(child):
    child.probes.overwrite_first(np.zeros(2), None)
    with pytest.raises(AssertionError):
        child.probes.overwrite_first(np.zeros(0), None)  # IndexError in the student's code
    assert child.last_call_mutated == []


HIDING = '''import sys

runtime = sys.modules.get("attnkit_sandbox_runtime")
runtime.snapshot = runtime.layout = lambda array: None   # the student's side now reports nothing


def overwrite_first(x, labels=None):
    x[0] = 99
    return 0
'''


def test_a_change_is_seen_on_the_trusted_side_whatever_the_child_says(zygote, submission):
    """Issue 22 item 3: the bytes of the arguments are compared in the memory shared with the child."""
    with Workspace(submission(probes=HIDING), zygote.user) as workspace:
        impl = zygote.implementation(workspace, "softmax", module="probes")
        try:
            impl.probes.overwrite_first(np.zeros(4), labels=np.zeros(2))
            assert impl.last_call_mutated == ["0"]
            impl.probes.overwrite_first(np.zeros(4, dtype=np.float32), labels=np.zeros(2))
            assert impl.last_call_mutated == ["0"]
        finally:
            impl.close()


def test_only_labels_of_arrays_sent_are_taken_from_the_child():
    from grader.sandbox import wire
    from grader.sandbox.host import shared

    assert shared.labels((np.zeros(2), 3, (np.zeros(1), np.float32(2))), {"mask": np.ones(2, bool)}) == \
        ["0", "2[0]", None, "mask"]
    # a parameter tree (a dict) is sent array by array too, in wire.encode's order, labelled as the child labels it
    tree = {"wte": np.zeros(2), "h": [{"attn": np.ones(1)}], "n": 3}
    arrays: list = []
    wire.encode((tree, np.zeros(1)), arrays)
    assert shared.labels((tree, np.zeros(1)), {}) == ["0['wte']", "0['h'][0]['attn']", "1"]
    assert len(arrays) == 3
    assert argument_name("²", ("x",)) == "²"  # a digit that int() does not take: never a grader error


def test_the_childs_views_of_the_shared_region_are_what_was_placed_and_nothing_out_of_it():
    from grader.sandbox import wire
    from grader.sandbox.host import shared

    region = shared.Region(1 << 16)
    try:
        sent = [np.arange(6.0).reshape(2, 3), np.zeros((0, 4), np.float32), np.array(7, np.int64)]
        specs = region.place(sent)
        for got, want in zip(wire.shared_arrays(region.map, specs), sent):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)
        for bad in ([["<f8", [2, 3], 1 << 16]], [["<f8", [-1, 3], 0]], [["<f8", [True, 3], 0]],
                    [["<f8", (2, 3), 0]], [["|O", [1], 0]], [["<f8", [2, 3]]], "specs"):
            with pytest.raises(wire.WireError):
                wire.shared_arrays(region.map, bad)
    finally:
        region.close()


@pytest.mark.parametrize("size", [1, 40, 4096, (32 << 10) // 8 + 1, (3 << 20) // 8 + 5])
def test_a_change_to_any_byte_of_an_argument_of_any_size_is_found(size):
    """Small arguments are compared as bytes, large ones in numpy a megabyte at a time: a change in the last byte of
    the last piece, or the first, is found either way, and only in the array that changed."""
    from grader.sandbox import wire
    from grader.sandbox.host import shared

    region = shared.Region(16 << 20)
    try:
        sent = [np.arange(3.0), np.arange(size, dtype=np.float64), np.ones(2, np.float32)]
        for flat_index in (0, size - 1):
            specs = region.place(sent)
            assert region.changed() == []
            views = wire.shared_arrays(region.map, specs)
            views[1][flat_index] += 0.5
            assert region.changed() == [1]
            views[1][flat_index] -= 0.5
            assert region.changed() == []
            views[2].view(np.uint8)[-1] ^= 1   # one bit of the last byte
            assert region.changed() == [2]
            del views
    finally:
        region.close()


def test_only_a_child_started_for_a_memory_check_has_its_size_read(child):
    """The spawn size (a read of /proc) is the baseline of a memory check's peak alone: a child for plain calls is
    not measured at spawn, and a ``measure`` call, which gets a child of its own, still reports the kernel's figure."""
    transport = child._transport
    assert transport.baseline_kib is None
    child.probes.leave_alone(np.zeros(3), np.ones(3))
    assert child.last_call.kernel_memory is None
    result, _ = child.probes.leave_alone.measure(np.zeros(1000), np.ones(1000))
    assert transport.baseline_kib is not None and transport.baseline_kib > 0
    kernel = child.last_call.kernel_memory
    assert kernel is not None and kernel.peak >= 0
    np.testing.assert_array_equal(result, np.ones(1000))


def test_small_calls_are_packed_into_the_region_not_a_page_each():
    """A call's arrays follow the last call's (each on a multiple of ALIGN bytes), so a class of small calls does not
    fault in a new page of shared memory on both sides every call; the region starts again at its beginning when the
    next call does not fit."""
    from grader.sandbox.host import shared

    region = shared.Region(1 << 16)
    try:
        first = region.place([np.zeros(3), np.zeros(9)])
        second = region.place([np.zeros(2)])
        assert [spec[2] for spec in first] == [0, shared.ALIGN] and second[0][2] == 3 * shared.ALIGN
        assert region.place([np.zeros(((1 << 16) - 4 * shared.ALIGN) // 8 + 1)])[0][2] == 0
    finally:
        region.close()


def _shared_kib(pid: int) -> int:
    """The child's resident shared memory (its view of the argument region), in KiB."""
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("RssShmem:"))


def test_a_calls_arguments_stay_mapped_in_the_child(child):
    """The child keeps the region's pages of a call's arguments mapped after the call (no system call to drop them,
    no page faults when the next call's arguments land there): only a measured call's memory is read, and its
    arrays come over the socket to a child that has answered nothing but its import."""
    pid = child._transport.pid
    before = _shared_kib(pid)
    child.probes.leave_alone(np.zeros(1 << 17), np.zeros(1 << 17))  # 2 MiB read by the child
    assert _shared_kib(pid) - before >= 2 << 10
    _, _ = child.probes.leave_alone.measure(np.zeros(1000), np.ones(1000))
    assert child.last_call.kernel_memory is not None
