"""The wire between the trusted side and a student child: framed JSON plus ``.npy`` blobs.

A frame is ``[u64 body length][u32 header length][u32 array count][header JSON]`` followed
by each array's raw bytes, each starting on a 16-byte boundary; the header lists each
array's dtype string and shape. The receiver reads a small frame with one ``recv`` call (a large one
in place, :class:`Receiver`) and views the arrays in place. Only plain numeric, bool and
fixed-width string dtypes are accepted (``SAFE_DTYPE``), so an object array cannot cross
and nothing is ever unpickled (the same guarantee as ``.npy`` with ``allow_pickle=False``,
without its slow header parser). Values are encoded as a JSON tree:

    {"t": "array", "i": 0}                     an ndarray (always a plain ndarray on arrival)
    {"t": "npscalar", "i": 0}                  a numpy scalar (sent as a 0-d array)
    {"t": "none"} / {"t": "py", "v": 1.5}      None, bool, int, float, str
    {"t": "tuple" | "list", "items": [...]}
    {"t": "dict", "items": [["key", {...}], ...]}   a dict with string keys (a model's parameters), in order
    {"t": "handle", "id": 3, "type": "KVCache", "methods": ["append"]}
                                               an object that stays in the child, with the public
                                               functions of its class (called in one request each)

This module is self-contained (numpy and the standard library only): the zygote loads it
by file path before any student code runs, without importing the ``grader`` package.
"""
from __future__ import annotations

import json
import json.encoder
import json.scanner
import math
import re
import socket
import struct
import types

import numpy as np

LENGTH = struct.Struct("!Q")   # bytes in the frame's body
HEADER = struct.Struct("!II")  # header length, array count
PREFIX = struct.Struct("!QII")  # both, as a frame starts
ALIGN = 16
MAX_HEADER = 1 << 20          # 1 MiB of JSON
MAX_FRAME = 512 << 20         # 512 MiB of arrays in one answer
MAX_DEPTH = 32                # nesting of tuples, lists and dicts
MAX_METHODS = 64              # method names listed with a handle
# the values with nothing inside that make up most argument trees: a walk looking for anything else passes over them
# by their exact type, without a call each (a model's parameter tree is one loop per dict)
LEAVES = frozenset((np.ndarray, int, float, bool, str, type(None)))
# what method_names lists: Python functions, methods of C classes, and of compiled (Cython) ones such as numpy's
# Generator, whose rng.random() is then one request
ROUTINES = (types.FunctionType, types.MethodDescriptorType, type(vars(np.random.Generator)["random"]))


class WireError(Exception):
    """A frame that is malformed, too large, or ends early (the peer died)."""


class Handle:
    """A reference to an object that lives in the child (decoded form of a ``handle`` node)."""

    __slots__ = ("id", "type_name", "methods")

    def __init__(self, handle_id: int, type_name: str, methods: tuple[str, ...] = ()):
        self.id = handle_id
        self.type_name = type_name
        self.methods = methods  # what the object's side said its class defines as public functions

    def __repr__(self) -> str:
        return f"<{self.type_name} object in the student's process>"


def encode(value, arrays: list, handles=None, depth: int = 0):
    """JSON tree for ``value``; arrays are appended to ``arrays``.

    ``handles`` is a callable that turns an unsupported object into a handle id (the child
    passes one; the trusted side passes ``None`` and gets ``TypeError`` instead).
    """
    if depth > MAX_DEPTH:
        raise TypeError(f"value nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, np.ndarray):  # most values, first (a Handle is never an array)
        dtype = value.dtype
        if dtype.hasobject or dtype.kind not in "biufcSUV?":
            raise TypeError(f"an array of dtype {dtype} cannot be sent")
        arrays.append(value if type(value) is np.ndarray else np.asarray(value))
        return {"t": "array", "i": len(arrays) - 1}
    if isinstance(value, Handle):
        return {"t": "handle", "id": value.id, "type": value.type_name, "methods": list(value.methods)}
    if isinstance(value, np.generic):
        arrays.append(np.asarray(value))
        return {"t": "npscalar", "i": len(arrays) - 1}
    if value is None:
        return {"t": "none"}
    if type(value) in (bool, int, str):
        if type(value) is int and abs(value) > 2**63:
            raise TypeError("integer too large to send")
        if type(value) is str and len(value) > 100_000:
            raise TypeError("string too long to send")
        return {"t": "py", "v": value}
    if type(value) is float:
        if math.isfinite(value):
            return {"t": "py", "v": value}
        return {"t": "float", "v": repr(value)}  # inf, -inf, nan (JSON has no literal for them)
    if type(value) in (tuple, list):
        if len(value) > 10_000:
            raise TypeError("sequence too long to send")
        return {"t": type(value).__name__, "items": [encode(item, arrays, handles, depth + 1) for item in value]}
    if type(value) is dict:
        if len(value) > 10_000:
            raise TypeError("dict too long to send")
        if not all(type(key) is str and len(key) <= 200 for key in value):
            raise TypeError("only a dict with short string keys can be sent")
        return {"t": "dict", "items": [[key, encode(item, arrays, handles, depth + 1)] for key, item in value.items()]}
    if handles is not None:
        return {"t": "handle", "id": handles(value), "type": type(value).__name__[:80], "methods": method_names(value)}
    raise TypeError(f"a {type(value).__name__} cannot be sent")


def method_names(value) -> list[str]:
    """The public plain functions (and C or Cython methods) of ``value``'s class and its bases (at most
    :data:`MAX_METHODS`, in the order they are defined): the trusted side calls ``obj.name(...)`` for these in one
    request, not two.

    Read from the classes' own dictionaries without running any of their code; whatever goes wrong
    (a student's class is anything) gives fewer names, and those attributes are then fetched first."""
    names: list[str] = []
    try:
        for klass in type(value).__mro__[:16]:
            for name, attribute in list(vars(klass).items())[:256]:
                if (type(name) is str and not name.startswith("_") and len(name) <= 80 and name not in names
                        and type(attribute) in ROUTINES):
                    names.append(name)
                    if len(names) == MAX_METHODS:
                        return names
    except Exception:  # noqa: BLE001 - a class whose dictionary cannot be read lists what it gave so far
        pass
    return names


def decode(node, arrays: list, depth: int = 0):
    """The value a JSON tree stands for (arrays are plain ndarrays; handles are :class:`Handle`).

    Raises :class:`WireError` on anything malformed (never another exception for what the peer sent).
    """
    if depth > MAX_DEPTH:
        raise WireError(f"value nested more than {MAX_DEPTH} levels deep")
    kind = node.get("t") if isinstance(node, dict) else None
    if kind in ("array", "npscalar"):
        index = node.get("i")
        if type(index) is not int or not 0 <= index < len(arrays):
            raise WireError("malformed array reference")
        return arrays[index] if kind == "array" else arrays[index][()]
    if kind == "none":
        return None
    if kind == "py":
        value = node.get("v")
        if type(value) not in (bool, int, float, str):
            raise WireError("malformed scalar")
        return value
    if kind == "float":
        if node.get("v") not in ("inf", "-inf", "nan"):
            raise WireError("malformed float")
        return float(node["v"])
    if kind in ("tuple", "list"):
        items = node.get("items")
        if not isinstance(items, list):
            raise WireError("malformed sequence")
        items = [decode(item, arrays, depth + 1) for item in items]
        return tuple(items) if kind == "tuple" else items
    if kind == "dict":
        pairs = node.get("items")
        if not isinstance(pairs, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is str for pair in pairs):
            raise WireError("malformed dict")
        return {key: decode(item, arrays, depth + 1) for key, item in pairs}
    if kind == "handle":
        handle_id, type_name, methods = node.get("id"), node.get("type"), node.get("methods", [])
        if type(handle_id) is not int or not isinstance(type_name, str) or not isinstance(methods, list) \
                or len(methods) > MAX_METHODS or not all(type(name) is str and len(name) <= 80 for name in methods):
            raise WireError("malformed handle")
        return Handle(handle_id, type_name[:80], tuple(methods))
    raise WireError(f"unknown node {kind!r}")


SAFE_DTYPE = re.compile(r"^[<>|=]?(b1|[iu][1248]|f[248]|c(8|16)|[SU][1-9][0-9]{0,5})$")  # no size-0 strings
MAX_ITEMS = 1 << 31           # elements of one received array (also bounds empty arrays' shapes)
INTS = frozenset((int,))       # the one type of a shared argument's sizes (not bool)
_SAFE_DTYPES: dict[str, np.dtype] = {}  # dtype strings already checked against SAFE_DTYPE


def _safe_dtype(text) -> np.dtype:
    """The dtype of an array spec's string, when it matches :data:`SAFE_DTYPE` (ValueError otherwise)."""
    if type(text) is str and text in _SAFE_DTYPES:
        return _SAFE_DTYPES[text]
    if not isinstance(text, str) or not SAFE_DTYPE.match(text):
        raise ValueError(f"dtype {text!r} not allowed")
    dtype = np.dtype(text)
    if len(_SAFE_DTYPES) < 256:  # a peer sending many distinct strings cannot grow it further
        _SAFE_DTYPES[text] = dtype
    return dtype


# made once (json.dumps with options makes one a call); no check for cycles: every header is a tree encode() built
# afresh, bounded by MAX_DEPTH (the check kept a set of the ids of every dict and list it met: a fifth of the time)
_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
_DECODER = json.JSONDecoder()
# and their C parts, made once too (JSONEncoder.encode makes its C encoder anew at every call; JSONDecoder.decode
# wraps its C scanner in two regular-expression matches for the whitespace around a value, which frames never have)
_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)  # (None without the _json module)
_MAKE_SCANNER = getattr(json.scanner, "c_make_scanner", None)
_C_ENCODE = _MAKE_ENCODER and _MAKE_ENCODER(  # JSONEncoder's own arguments to it, for these options
    None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
_C_SCAN = _MAKE_SCANNER and _MAKE_SCANNER(_DECODER)


def _encode(header: dict) -> str:
    """``header`` as compact JSON (:data:`_ENCODER`'s text)."""
    return "".join(_C_ENCODE(header, 0)) if _C_ENCODE else _ENCODER.encode(header)


def _decode(text: str):
    """The value of a JSON text (what :data:`_DECODER` reads, with the same errors: ValueError, RecursionError)."""
    if _C_SCAN:
        try:
            value, end = _C_SCAN(text, 0)
        except StopIteration:  # (not a value where the text starts: whitespace first, or nothing)
            end = -1
        if end == len(text):  # most texts: one value, nothing around it
            return value
    return _DECODER.decode(text)


_PADS = [bytes(n) for n in range(ALIGN)]


def frame(header: dict, arrays: list | tuple = ()) -> tuple[list, int]:
    """One frame as the pieces to write in order (its length, the header with each array's dtype and shape, then
    the raw bytes, each array on a multiple of :data:`ALIGN` bytes of the body so the receiver can view it in place
    without copying), and its total size in bytes."""
    if not arrays:  # most requests (their arrays are in the shared region) and every error: one piece, the header
        #             without the "arrays" key (parse() reads its absence as none)
        payload = _encode(header).encode()
        return [PREFIX.pack(HEADER.size + len(payload), len(payload), 0) + payload], PREFIX.size + len(payload)
    blobs, specs = [], []
    for array in arrays:  # (ascontiguousarray would make 0-d arrays 1-d)
        blob = array if type(array) is np.ndarray and array.flags.c_contiguous else np.asarray(array, order="C")
        if blob.dtype.kind not in "biufcSU":  # the real dtype, whatever a subclass's .dtype said to encode(): no
            #                                   pointers leave
            raise TypeError(f"an array of dtype {blob.dtype} cannot be sent")
        blobs.append(blob)
        specs.append([blob.dtype.str, list(blob.shape)])
    payload = _encode(dict(header, arrays=specs)).encode()
    parts: list = [b"", payload]
    size = HEADER.size + len(payload)
    for blob in blobs:
        pad = -size % ALIGN
        parts.append(_PADS[pad])
        parts.append(blob)  # (a C-contiguous array: its buffer is its bytes in order)
        size += pad + blob.nbytes
    parts[0] = PREFIX.pack(size, len(payload), len(blobs))
    if size < 1 << 16:
        return [b"".join(parts)], LENGTH.size + size
    parts[3::2] = [memoryview(blob).cast("B") if blob.nbytes else b"" for blob in blobs]  # type: ignore[arg-type]
    return parts, LENGTH.size + size  # large arrays: no joined copy, each array's bytes as a flat view


def send(sock: socket.socket, header: dict, arrays: list | tuple = ()) -> None:
    """Write one frame (:func:`frame`) on a blocking socket (or one with a timeout)."""
    for part in frame(header, arrays)[0]:
        sock.sendall(part)


CHUNK = 1 << 16   # bytes read at once when a frame's rest is smaller (larger rests are read in place)


class Receiver:
    """Frames read from a stream in few system calls: whatever has arrived is read at once, up to :data:`CHUNK`
    bytes, so a small frame (its length and its body) costs one read; bytes read past the end of a frame are kept
    for the next. ``read_into(view)`` reads what is there into ``view`` (at least one byte, waiting for it) and
    returns the count, 0 when the peer closed: a blocking socket's ``recv_into`` in the child, the trusted side's
    read against a deadline in ``host/channel.py``."""

    def __init__(self, read_into):
        self.read_into = read_into
        self.pending = bytearray()  # bytes received past the last frame taken
        self.chunk = bytearray(CHUNK)
        self.view = memoryview(self.chunk)

    def recv(self, max_bytes: int = MAX_FRAME) -> tuple[dict, list]:
        """One whole frame: (header, arrays). Raises :class:`WireError` on anything malformed or when the peer
        closed the stream. The frame's rules are :func:`body_size` and :func:`parse`."""
        if not self.pending:  # most frames: one read holds the whole of it and nothing else, its body copied once
            count = self.read_into(self.view)
            if count == 0:
                raise WireError("connection closed")
            if count >= LENGTH.size:
                end = LENGTH.size + body_size(self.view[:LENGTH.size], max_bytes)
                if end == count:
                    return parse(self.chunk[LENGTH.size:end])
            self.pending += self.view[:count]
        size = body_size(self._take(LENGTH.size), max_bytes)
        return parse(self._take(size))

    def _take(self, size: int) -> bytearray:
        """The next ``size`` bytes, as a buffer of their own (a frame's arrays are views of it)."""
        while len(self.pending) < size and size - len(self.pending) <= CHUNK:
            self.pending += self.view[:self._read(self.view)]
        if len(self.pending) >= size:
            taken = self.pending[:size]
            del self.pending[:size]
            return taken
        buffer = bytearray(size)  # a large rest: read straight into the frame's buffer, never past its end
        got = len(self.pending)
        buffer[:got] = self.pending
        self.pending = bytearray()
        view = memoryview(buffer)
        while got < size:
            got += self._read(view[got:])
        return buffer

    def _read(self, view: memoryview) -> int:
        count = self.read_into(view)
        if count == 0:
            raise WireError("connection closed")
        return count


def body_size(prefix, max_bytes: int = MAX_FRAME) -> int:
    """The size of the body that follows a frame's length ``prefix`` (its first :data:`LENGTH` bytes); WireError
    when it is too large for ``max_bytes`` of arrays or too short for a header."""
    (size,) = LENGTH.unpack(prefix)
    if size > max_bytes + MAX_HEADER:
        raise WireError(f"answer larger than {max_bytes >> 20} MiB")
    if size < HEADER.size:
        raise WireError("frame too short")
    return size


def parse(body: bytearray) -> tuple[dict, list]:
    """A frame's body as (header, arrays); WireError on anything malformed.

    Array dtypes must be plain numeric, bool or fixed-width string types (``SAFE_DTYPE``):
    no object, structured or void dtype is ever constructed from what the peer sends.
    Arrays are writable views of ``body`` (one buffer per frame)."""
    size = len(body)
    header_size, count = HEADER.unpack_from(body)
    if header_size > MAX_HEADER or count > 10_000 or HEADER.size + header_size > size:
        raise WireError("frame header too large")
    try:
        header = _decode(body[HEADER.size:HEADER.size + header_size].decode())
    except (ValueError, RecursionError) as error:  # RecursionError: JSON nested thousands deep (UnicodeError: a
        #                                            ValueError: the header is not UTF-8)
        raise WireError(f"malformed header: {type(error).__name__}") from None
    if not isinstance(header, dict):
        raise WireError("header is not an object")
    if not count and "arrays" not in header:  # no arrays (every request whose arrays are in the shared region)
        if HEADER.size + header_size != size:
            raise WireError("frame has trailing bytes")
        return header, []
    specs = header.pop("arrays", [])
    if not isinstance(specs, list) or len(specs) != count:
        raise WireError("array descriptions do not match the frame")
    arrays, offset = [], HEADER.size + header_size
    for spec in specs:
        offset += -offset % ALIGN
        try:
            dtype_text, shape = spec
            dtype = _safe_dtype(dtype_text)
            if len(shape) > 32:  # before anything is made of its items (a hostile list of thousands of sizes)
                raise ValueError("bad shape")
            shape = tuple(map(int, shape))
            if min(shape, default=0) < 0 or math.prod(shape) > MAX_ITEMS:
                raise ValueError("bad shape")
            items = math.prod(shape)
            nbytes = items * dtype.itemsize
            if offset + nbytes > size:
                raise ValueError("shape does not match the data")
            arrays.append(np.ndarray(shape, dtype, body, offset) if nbytes else np.zeros(shape, dtype=dtype))
        except (ValueError, TypeError) as error:
            raise WireError(f"malformed array: {error}") from None
        offset += nbytes
    if offset != size:
        raise WireError("frame has trailing bytes")
    return header, arrays


def shared_arrays(region, specs) -> list:
    """In the child: the arguments the trusted side wrote into the shared ``region`` (an mmap), as writable views
    of it (``specs``: ``[dtype, shape, offset]`` each; see ``grader/sandbox/host/shared.py``).
    WireError if malformed."""
    if not isinstance(specs, list) or len(specs) > 10_000:
        raise WireError("malformed shared arguments")
    arrays = []
    size = len(region)
    for spec in specs:
        try:
            dtype_text, shape, offset = spec
            dtype = _safe_dtype(dtype_text)
            if type(shape) is not list or len(shape) > 32 or not INTS.issuperset(map(type, shape)) \
                    or min(shape, default=0) < 0:
                raise ValueError("a shape of non-negative integers")
            count = math.prod(shape)
            if type(offset) is not int or offset < 0 or offset + count * dtype.itemsize > size:
                raise ValueError("out of the region")
            arrays.append(np.ndarray(shape, dtype, region, offset) if count else np.zeros(shape, dtype=dtype))
        except (ValueError, TypeError) as error:
            raise WireError(f"malformed shared argument: {error}") from None
    return arrays
