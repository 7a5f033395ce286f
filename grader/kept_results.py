"""The reference's results kept between runs of ``attnkit check`` in the project's checkout.

The checks' inputs come from generators seeded by the checks' names, so every run of ``attnkit check`` asks the
reference the same questions; computing the answers again is a fifth of a run's trusted-side work (the memory checks'
reference runs at n = 2048 and 4096 most of it). The student release answers from the recording it ships
(``attnkit.release.replay``); the checkout keeps what its runs computed instead: one file per reference module in the
bytecode folder beside the module (``solutions/__pycache__/softmax.results.<tag>.bin``), written at the end of a run
that computed something new, read the first time a run asks that module.

What a result may be kept for: a call with a digest (``grader.calls.Call.digest``: arrays, numbers, strings and trees
of them; never an object, whose calls change its state) or handed seeded generators as arguments of their own
(``Call.seeded``: keyed by their states, kept with the states the call leaves them in), and a result with a canonical
form (``grader.calls.encode``: arrays of the wire's dtypes, numbers, strings, ``None``, tuples, lists, string-keyed
dicts).
The file's name and header carry a tag, the sha256 of everything a kept answer rests on: every reference module's
source bytes (they import each other), the digest's definition, numpy's and Python's versions and the machine's
architecture. A changed solution is another tag, so a result is never read for another reference; writing a module's
file removes its files of other tags.

A file is written whole or not at all (a temporary file, renamed); one that cannot be read (damaged, another format,
an array past its end) is ignored and the answers computed. Writing is best effort: a read-only checkout computes at
every run. Only this trusted process writes these files; a student's code runs in children confined to their scratch
folders, and ``attnkit grade`` never reads them (it memoises in memory, per class).
"""
from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np

from . import calls, content_cache
from .array_blob import ALIGN, pack, view
from .calls import Unencodable, decode, encode
from .memo import MISSING

MAGIC = b"attnkit-kept-results 1\n"
LENGTH = 8                 # bytes of the header's length, little-endian, after the magic line
TAG_CHARS = 32             # of the tag, in a file's name
FILE_BYTES = 64 * 2**20    # a module's file holds at most this much; past it, only the newest run's results are kept


def tag(sources: list[Path]) -> str:
    """The sha256 naming the results of a reference whose folders hold the files ``sources``."""
    machine = os.uname().machine if hasattr(os, "uname") else sys.platform
    stamp = f"{np.__version__}|{sys.implementation.name}|{sys.version}|{machine}"
    return content_cache.sha256_of(MAGIC, (stamp.encode(), Path(calls.__file__).read_bytes(),
                                           *(item for path in sorted(sources) for item in (path.name.encode(),
                                                                                           path.read_bytes()))))


class Kept:
    """The kept results of one reference (``sources``: its modules' files, ``{module: path}``; the tag covers every
    Python file in their folders), read per module at its first lookup; what a run adds is written by :meth:`save`."""

    def __init__(self, sources: dict[str, Path]):
        self.sources = sources
        self.tag = tag(sorted({path for source in sources.values() for path in source.parent.glob("*.py")}))
        self._read: dict[str, dict] = {}         # module -> {hex digest: (tree, fetch)} read from its file
        self._new: dict[str, dict] = {}          # module -> {hex digest: (tree, arrays)} computed by this run
        self._lock = threading.Lock()            # ``attnkit check`` asks from several lanes at once

    def path(self, module: str) -> Path:
        source = self.sources[module]
        return content_cache.entry(source, f"{source.stem}.results", self.tag[:TAG_CHARS], ".bin")

    def get(self, module: str, key: bytes) -> Any:
        """The result kept for the call whose digest is ``key`` (its lists and dicts new, its arrays read-only), or
        :data:`grader.memo.MISSING`."""
        if module not in self.sources:
            return MISSING
        with self._lock:
            if module not in self._read:
                self._read[module] = _read(self.path(module), self.tag)
            found = self._read[module].get(key.hex())
        if found is None:
            return MISSING
        tree, fetch = found
        try:
            return decode(tree, fetch)
        except (KeyError, ValueError, TypeError, AttributeError, RecursionError):   # not whole in the file
            return MISSING

    def add(self, module: str, key: bytes, result: Any) -> None:
        """Keep ``result`` (read-only arrays, no views of a caller's arrays) for the call whose digest is ``key``;
        nothing when it has no canonical form."""
        if module not in self.sources:
            return
        arrays: dict[str, np.ndarray] = {}
        try:
            tree = encode(result, arrays)
        except Unencodable:
            return
        with self._lock:
            self._new.setdefault(module, {})[key.hex()] = (tree, arrays)

    def save(self) -> None:
        """Write the file of every module this run computed something new for: what was kept before and what is new,
        or only what is new when both pass :data:`FILE_BYTES`."""
        with self._lock:
            new, self._new = self._new, {}
        for module, entries in sorted(new.items()):
            path = self.path(module)
            old = self._read.get(module)
            if old is None:
                old = self._read[module] = _read(path, self.tag)
            merged = {}
            for key, (tree, fetch) in old.items():
                if key not in entries:
                    try:
                        merged[key] = (tree, {digest: fetch(digest) for digest in _named(tree)})
                    except (KeyError, ValueError, TypeError):   # not whole in the old file: left out
                        continue
            merged.update(entries)
            data = _packed(self.tag, merged)
            if len(data) > FILE_BYTES:
                data = _packed(self.tag, entries)
            if len(data) <= FILE_BYTES:   # the module's files of other tags go
                content_cache.keep(path, data, self.tag[:TAG_CHARS])


def _named(tree: Any) -> list[str]:
    """The digests of the arrays a kept result's tree names (at most :data:`grader.calls.MAX_DEPTH` deep, as
    ``encode`` writes them)."""
    found: list[str] = []
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > 2 * calls.MAX_DEPTH + 2:
            raise ValueError("a kept result nested deeper than any encoded one")
        if isinstance(node, dict):
            if node.get("t") in ("array", "scalar"):
                found.append(node["h"])
            stack.extend((item, depth + 1) for item in node.values())
        elif isinstance(node, list):
            stack.extend((item, depth + 1) for item in node)
    return found



def _packed(file_tag: str, entries: dict) -> bytes:
    """The bytes of a file holding ``entries`` (``{hex digest: (tree, {array digest: array})}``)."""
    arrays: dict[str, np.ndarray] = {}
    for _, named in entries.values():
        arrays.update(named)
    blob, table = pack(arrays)
    header = json.dumps({"tag": file_tag, "calls": {key: tree for key, (tree, _) in entries.items()},
                         "arrays": table}, sort_keys=True, separators=(",", ":")).encode()
    header += b" " * (-(len(MAGIC) + LENGTH + len(header)) % ALIGN)
    return b"".join([MAGIC, len(header).to_bytes(LENGTH, "little"), header, blob])


def _read(path: Path, file_tag: str) -> dict:
    """``{hex digest: (tree, fetch)}`` of the file at ``path``; empty when there is none or it cannot be trusted to be
    whole and of this tag."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    try:
        if not data.startswith(MAGIC):
            return {}
        start = len(MAGIC) + LENGTH
        size = int.from_bytes(data[len(MAGIC):start], "little")
        header = json.loads(data[start:start + size])
        if header.get("tag") != file_tag:
            return {}
        blob = memoryview(data)[start + size:]
        table, found = dict(header["arrays"]), dict(header["calls"])
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return {}
    arrays: dict[str, np.ndarray] = {}

    def fetch(digest: str) -> np.ndarray:
        """The array ``digest`` names, read at its first use (KeyError, ValueError: not in the file whole)."""
        if digest not in arrays:
            arrays[digest] = _array(blob, table[digest])
        return arrays[digest]

    return {key: (tree, fetch) for key, tree in found.items()}


def _array(blob: memoryview, spec: list) -> np.ndarray:
    """One kept array, read-only, in the file's bytes (ValueError: a dtype outside the wire's, or past the end)."""
    if not calls.SAFE_DTYPE.match(np.dtype(spec[0]).str):
        raise ValueError(f"kept array of dtype {spec[0]}")
    return view(blob, spec)
