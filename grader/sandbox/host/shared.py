"""A call's array arguments in memory the trusted side shares with the child: mutation decided here.

Each child gets, at spawn, a memory file of :data:`REGION_BYTES` (``memfd``) that the trusted side
also maps. A call's array arguments are written into it, and the child's arguments are views of
those bytes, not copies: what the student's function changes in place changes there. After the
call the trusted side compares the region with the arrays it sent and names the arguments that
differ. Nothing the child says about its arguments counts, so patching the student's side cannot
hide a change (a change undone before the call returns is, for the caller, no change at all).

Space is taken call after call and starts again at the beginning when the next call does not
fit, so an array the student's code keeps without copying is overwritten after
:data:`REGION_BYTES` of later arguments. A call whose arrays are larger together is sent over
the socket as before and not watched.
"""
from __future__ import annotations

import mmap
import os
import tempfile

import numpy as np

REGION_BYTES = 64 << 20   # arguments of one call larger than this (together) are not watched for changes
ALIGN = 64                # each array starts on a multiple of this many bytes
SENDABLE = "biufcSU"      # the dtype kinds the wire carries
BYTES_COMPARED = 32 << 10  # arrays up to this size are compared after a call as bytes, larger ones in numpy
COMPARED_AT_ONCE = 1 << 20  # bytes of a large array compared in one numpy step (bounds the temporary it makes)


def labels(args: tuple, kwargs: dict) -> list[str | None]:
    """The label of each array ``wire.encode`` collects from ``(args, kwargs)``, in its order (through tuples, lists
    and dicts): ``0``, ``mask``, ``1[0]``, ``1['wte']``; None for a numpy scalar (sent as a 0-d array, but not the
    caller's array)."""
    found: list[str | None] = []

    def visit(value, label: str) -> None:
        if isinstance(value, np.ndarray):
            found.append(label)
        elif isinstance(value, np.generic):
            found.append(None)
        elif type(value) in (tuple, list):
            for index, item in enumerate(value):
                visit(item, f"{label}[{index}]")
        elif type(value) is dict:
            for key, item in value.items():
                visit(item, f"{label}[{key!r}]")

    for index, value in enumerate(args):
        visit(value, str(index))
    for name, value in kwargs.items():
        visit(value, str(name))
    return found


def _raw(blob: np.ndarray) -> memoryview:
    """A contiguous array's bytes, as a flat byte view (no copy)."""
    return (memoryview(blob) if blob.ndim else memoryview(blob.reshape(1))).cast("B")  # type: ignore[arg-type]


class Region:
    """The trusted side's end of one child's shared argument memory."""

    def __init__(self, size: int = REGION_BYTES):
        if hasattr(os, "memfd_create"):
            self.fd = os.memfd_create("attnkit-arguments", os.MFD_CLOEXEC)
        else:  # no memfd (not Linux): an unlinked file in the grader's temp folder
            handle = tempfile.TemporaryFile()
            self.fd = os.dup(handle.fileno())
            handle.close()
        os.ftruncate(self.fd, size)  # sparse: pages exist once written
        self.size = size
        self.map = mmap.mmap(self.fd, size)
        self.bytes = memoryview(self.map)  # byte slices copied and compared without numpy (a few microseconds)
        self.next = 0
        self.span: tuple[int, int, bytes] | None = None  # the last placed call's bytes, start to end, when small
        self.sent: list[tuple[int, np.ndarray]] = []  # (offset, array) of the last placed call

    def place(self, arrays: list) -> list | None:
        """Write ``arrays`` into the region; their specs ``[dtype, shape, offset]`` for the child, or None when
        they do not fit together (they go over the socket then, unwatched)."""
        blobs, total = [], 0
        for array in arrays:  # (a 0-d array stays 0-d: ascontiguousarray alone would make it 1-d)
            blob = array if array.flags.c_contiguous else np.ascontiguousarray(array).reshape(array.shape)
            if blob.dtype.kind not in SENDABLE:
                raise TypeError("an array of this dtype cannot be sent")
            blobs.append(blob)
            total += -(-blob.nbytes // ALIGN) * ALIGN
        if total > self.size:   # (calls are packed, not each on pages of its own: a page's first write is a fault
            #                       on both sides, a few microseconds each, and most calls send a few hundred bytes)
            self.sent, self.span = [], None
            return None
        if self.next + total > self.size:
            self.next = 0
        offset, specs, sent, region = self.next, [], [], self.map
        for blob in blobs:
            size = blob.nbytes
            if size:
                region[offset:offset + size] = blob  # type: ignore[assignment]  # (a C-contiguous array's buffer)
            specs.append([blob.dtype.str, list(blob.shape), offset])
            sent.append((offset, blob))
            offset += -(-size // ALIGN) * ALIGN
        start, self.next = self.next, self.next + total
        self.sent = sent
        self.span = (start, start + total, self.map[start:start + total]) if total <= BYTES_COMPARED else None
        return specs

    def _view(self, offset: int, blob: np.ndarray) -> np.ndarray:
        return np.frombuffer(self.map, blob.dtype, blob.size, offset).reshape(blob.shape)

    def changed(self) -> list[int]:
        """Indices of the last placed call's arrays whose bytes in the region differ from what was sent (most calls
        change none: their bytes together, when small, are compared at once first)."""
        span = self.span
        if span is not None and self.map[span[0]:span[1]] == span[2]:
            return []
        return [index for index, (offset, blob) in enumerate(self.sent)
                if blob.nbytes and self._differs(offset, _raw(blob))]

    def _differs(self, offset: int, raw: memoryview) -> bool:
        """Whether the region's bytes at ``offset`` differ from ``raw``: compared as ``bytes`` (one ``memcmp``) up to
        :data:`BYTES_COMPARED`, in numpy beyond, :data:`COMPARED_AT_ONCE` bytes at a time (two memoryviews compare
        byte by byte in Python's own loop: 1.7 ms for a megabyte of a model's parameters)."""
        size = raw.nbytes
        if size <= BYTES_COMPARED:
            return self.bytes[offset:offset + size].tobytes() != raw.tobytes()
        sent = np.frombuffer(raw, np.uint8)
        for start in range(0, size, COMPARED_AT_ONCE):
            end = min(size, start + COMPARED_AT_ONCE)
            if (np.frombuffer(self.map, np.uint8, end - start, offset + start) != sent[start:end]).any():
                return True
        return False

    def touch(self) -> int:
        """Add 1 to every float array of the last placed call, in the region (so in the child's arguments and
        in whatever the student's objects kept of them); how many arrays were changed."""
        touched = 0
        for offset, blob in self.sent:
            if blob.dtype.kind == "f" and blob.nbytes:
                view = self._view(offset, blob)
                view += 1
                touched += 1
        return touched

    def close(self) -> None:
        self.sent, self.span = [], None
        self.bytes.release()
        try:
            self.map.close()
        except BufferError:  # a view still alive: the mapping goes with it
            pass
        try:
            os.close(self.fd)
        except OSError:
            pass
