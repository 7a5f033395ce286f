"""Both ends of a child's socket: the trusted side's (host/channel.py, one deadline per frame) and the child's
(wire.Receiver), each reading a frame in few system calls."""
import socket
import threading
import time

import numpy as np
import pytest

from grader.sandbox import wire
from grader.sandbox.host.channel import Channel


def _pair():
    ours, theirs = socket.socketpair()
    return Channel(ours), theirs


def test_a_frame_trickled_past_its_deadline_times_out_once():
    channel, theirs = _pair()
    with theirs:
        length = wire.LENGTH.pack(256)  # a frame of 256 bytes, one byte every 0.3 s
        trickle = threading.Thread(target=lambda: [theirs.send(length[i:i + 1]) or time.sleep(0.3) for i in range(8)])
        trickle.start()
        start = time.monotonic()
        with pytest.raises(socket.timeout):
            channel.recv(start + 1.0)
        assert time.monotonic() - start < 1.5  # the deadline, not 8 x 0.3 s
        trickle.join()
        channel.close()


def test_frames_that_arrive_together_are_taken_one_at_a_time():
    channel, theirs = _pair()
    with theirs:
        first, second = np.arange(5.0), np.arange(3, dtype=np.int32)
        wire.send(theirs, {"ok": 1}, [first])
        wire.send(theirs, {"ok": 2}, [second])
        deadline = time.monotonic() + 5
        header, arrays = channel.recv(deadline)
        assert header == {"ok": 1} and np.array_equal(arrays[0], first)
        header, arrays = channel.recv(deadline)
        assert header == {"ok": 2} and np.array_equal(arrays[0], second) and arrays[0].dtype == np.int32
        channel.close()


def test_a_frame_larger_than_a_chunk_is_read_whole_and_its_arrays_are_its_own():
    channel, theirs = _pair()
    with theirs:
        big = np.arange(3 * wire.CHUNK, dtype=np.float64)  # 24 chunks: read in place, never past its end
        sender = threading.Thread(target=lambda: (wire.send(theirs, {"n": 1}, [big]), wire.send(theirs, {"n": 2})))
        sender.start()
        deadline = time.monotonic() + 10
        header, arrays = channel.recv(deadline)
        assert header == {"n": 1} and np.array_equal(arrays[0], big)
        assert channel.recv(deadline)[0] == {"n": 2}
        arrays[0][0] = -1.0  # a view of its own frame's buffer
        sender.join()
        channel.close()


def test_sending_to_a_child_that_does_not_read_stops_at_the_deadline():
    channel, theirs = _pair()
    with theirs:
        start = time.monotonic()
        with pytest.raises(socket.timeout):
            channel.send({"op": "call"}, [np.zeros(8 << 20)], start + 0.5)  # 64 MiB: more than the socket holds
        assert time.monotonic() - start < 1.5
        channel.close()


def test_a_closed_or_lying_peer_is_a_wire_error():
    channel, theirs = _pair()
    theirs.sendall(wire.LENGTH.pack(wire.MAX_FRAME + wire.MAX_HEADER + 1))
    with pytest.raises(wire.WireError, match="larger than"):
        channel.recv(time.monotonic() + 5)
    channel.close()
    theirs.close()
    channel, theirs = _pair()
    theirs.sendall(wire.LENGTH.pack(100) + b"x" * 10)
    theirs.close()
    with pytest.raises(wire.WireError, match="closed"):
        channel.recv(time.monotonic() + 5)
    channel.close()


def test_the_childs_end_reads_a_small_frame_in_one_system_call_and_keeps_what_follows():
    """A request (its length and its body) is one read in the child, not two; a frame that arrived with it (the
    trusted side's ``trust_own`` before a call) is kept for the next ``recv``, and a large one is read whole."""
    ours, theirs = socket.socketpair()
    reads = []

    def read_into(view):
        reads.append(len(view))
        return ours.recv_into(view)

    frames = wire.Receiver(read_into)
    with ours, theirs:
        wire.send(theirs, {"op": "trust_own", "names": ["f"]})
        wire.send(theirs, {"op": "call"}, [np.arange(4.0)])
        assert frames.recv() == ({"op": "trust_own", "names": ["f"]}, [])
        assert len(reads) == 1
        header, arrays = frames.recv()
        assert header == {"op": "call"} and np.array_equal(arrays[0], np.arange(4.0)) and len(reads) == 1
        big = np.arange(3 * wire.CHUNK, dtype=np.float64)
        sender = threading.Thread(target=lambda: wire.send(theirs, {"n": 1}, [big]))
        sender.start()
        header, arrays = frames.recv()
        sender.join()
        assert header == {"n": 1} and np.array_equal(arrays[0], big)
        theirs.close()
        with pytest.raises(wire.WireError, match="closed"):
            frames.recv()
