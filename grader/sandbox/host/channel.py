"""The trusted side's end of one child's socket: whole frames, each against one deadline, in few system calls.

The socket stays non-blocking for the child's whole life. Sending writes at once and waits (``poll``) only while
the child's side of the socket is full; receiving waits until bytes are there and then reads what has arrived, up
to ``wire.CHUNK`` bytes in one call, so a small answer (its length and its body) costs one ``poll`` and one ``recv``:
no timeout is set on the socket for each read (``settimeout`` is a system call of its own, and a socket with a
timeout polls before every read and write). A frame that is not whole by the deadline raises ``socket.timeout``
however its bytes are trickled; bytes read past the end of a frame are kept for the next one.
"""
from __future__ import annotations

import math
import select
import socket
import time

from .. import wire


class Channel:
    """Frames to and from one child over ``sock`` (made non-blocking here)."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        sock.setblocking(False)
        self.poll = select.poll()
        self.poll.register(sock, select.POLLIN)
        self.events = select.POLLIN  # what the poll waits for now
        self.deadline = 0.0  # the frame being received's
        self.frames = wire.Receiver(self._recv_into)

    def _wait(self, events: int, deadline: float) -> None:
        """Until the socket is ready for ``events`` (or hung up); ``socket.timeout`` once ``deadline`` passed."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("deadline passed")
        if events != self.events:
            self.poll.modify(self.sock, events)
            self.events = events
        if not self.poll.poll(math.ceil(left * 1000)):
            raise socket.timeout("deadline passed")

    def send(self, header: dict, arrays: list | tuple, deadline: float) -> None:
        parts, _ = wire.frame(header, arrays)
        for part in parts:
            try:
                sent = self.sock.send(part)  # a small frame: all of it at once
            except BlockingIOError:
                sent = 0
            if sent == len(part):  # (a part is bytes, or an array's bytes as a flat view: its length is its size)
                continue
            view = memoryview(part)[sent:]
            while view:
                try:
                    view = view[self.sock.send(view):]
                except BlockingIOError:
                    self._wait(select.POLLOUT, deadline)

    def recv(self, deadline: float, max_bytes: int = wire.MAX_FRAME) -> tuple[dict, list]:
        """One whole frame (``wire.Receiver``); WireError on anything malformed or when the child closed the socket."""
        self.deadline = deadline
        return self.frames.recv(max_bytes)

    def _recv_into(self, view: memoryview) -> int:
        """Wait for bytes (an answer is seldom there yet when it is asked for), then read what arrived (``_wait``
        written out: a call less for every frame)."""
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("deadline passed")
            if self.events != select.POLLIN:
                self.poll.modify(self.sock, select.POLLIN)
                self.events = select.POLLIN
            if not self.poll.poll(math.ceil(left * 1000)):
                raise socket.timeout("deadline passed")
            try:
                return self.sock.recv_into(view)
            except BlockingIOError:  # woken with nothing to read
                continue

    def close(self) -> None:
        self.sock.close()
