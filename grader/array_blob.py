"""Arrays kept as one buffer of bytes: laid out one after another, found again by a table of their dtypes, shapes and
offsets. The student release's recorded reference values (``attnkit.release.recording``) and the checkout's kept
reference results (``grader.kept_results``) are stored this way: reading an array is one ``np.frombuffer`` at its
offset, with no header of its own to parse and nothing but numbers in the bytes (never a pickle)."""
from __future__ import annotations

import math

import numpy as np

ALIGN = 8   # each array's bytes start at a multiple of this


def pack(arrays: dict) -> tuple[bytes, dict]:
    """The arrays' C-order bytes one after another, in key order, each at a multiple of :data:`ALIGN`; and the table
    ``{key: [dtype, shape, offset]}`` that finds them again (ValueError for an object array)."""
    parts, table, offset = [], {}, 0
    for key in sorted(arrays):
        array = np.asarray(arrays[key])
        if array.dtype.hasobject:
            raise ValueError("an object array cannot be packed")
        padding = -offset % ALIGN
        parts.append(b"\0" * padding)
        offset += padding
        table[key] = [array.dtype.str, list(array.shape), offset]
        parts.append(array.tobytes(order="C"))
        offset += array.nbytes
    return b"".join(parts), table


def view(blob, spec: list) -> np.ndarray:
    """The array ``spec`` (one row of :func:`pack`'s table) names in ``blob``, read-only when ``blob`` is bytes;
    ValueError for an object dtype or an array past the blob's end."""
    dtype_text, shape, offset = spec
    dtype = np.dtype(dtype_text)
    if dtype.hasobject:
        raise ValueError(f"a packed array of dtype {dtype_text}")
    return np.frombuffer(blob, dtype=dtype, count=math.prod(shape), offset=offset).reshape(shape)
