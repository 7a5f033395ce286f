"""The files of a recorded reference: one small index, three indexes per reference module, one file of arrays.

    grader/recorded/reference.json            format, numpy version, the functions recorded, the modules
    grader/recorded/reference-<module>.json   that module's reference calls (key -> result as a JSON tree, an array in
                                              it by its digest) and the arrays they name: digest -> dtype, shape, offset
    grader/recorded/near-<module>.json        the arguments of those calls kept for near matches (key -> their
                                              shapes as text and the arguments as a JSON tree) and the arrays they name
    grader/recorded/mistakes-<module>.json    the classic mistakes' outputs recorded with those calls, as results
    grader/recorded/reference.bin             the arrays' raw C-order bytes, one after another (8-byte aligned)

A check of one exercise asks ``ref`` for a few modules, so a student who checks ``softmax`` reads the
small index, ``reference-softmax.json`` and the bytes of the arrays it names; a module's index is read
the first time one of its calls is looked up, its near calls' the first time a call of it is not recorded exactly (a
last-bit difference: never on the machine that recorded), its mistakes' index the first time a diagnosis asks for a
mistake's output (most of the recording, and never read when every check passes), the arrays' file the first
time an array is needed. An
array is read with ``np.frombuffer`` at its offset: no per-array header to parse, no zip directory, and
nothing but numbers in the file (never a pickle). Writing is deterministic: the same recording gives the
same bytes.

A mistake's recorded output belongs to the module of the reference call it was recorded for.

Self-contained (numpy, the standard library, ``grader.atomic``, ``grader.array_blob`` and ``grader.curriculum``): the
release copies it to ``grader/recording.py``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from grader import atomic
from grader.array_blob import pack, view
from grader.curriculum import CourseFilesError

FORMAT = 4   # 4: calls keyed by their digest (``replay.recorded_key``); the near calls' arguments in files of their own
MISTAKES = "mistakes"   # the space of a mistake's recorded output (``replay.mistake_key``)
REFERENCE, NEAR = "reference", "near"   # a module's reference calls' results, its near calls' arguments
PARTS = (REFERENCE, NEAR, MISTAKES)     # the files of a module, by the part of the recording each holds
INDEX_NAME, ARRAYS_NAME = "reference.json", "reference.bin"


def module_file(module: str, part: str = REFERENCE) -> str:
    """The file of one :data:`PARTS` of ``module``'s recording."""
    if not module.isidentifier():
        raise ValueError(f"recorded module name {module!r} is not a Python identifier")
    if part not in PARTS:
        raise ValueError(f"no recorded part {part!r}")
    return f"{part}-{module}.json"


class RecordingUnreadable(CourseFilesError):
    """The recorded reference answers cannot be read (a damaged release, or one from another version of attnkit)."""


REDOWNLOAD = "the release's files are damaged or from another version of attnkit: download the release again"


def _wrong_format(meta: dict, where: Any) -> str:
    found = meta.get("format")
    return f"{where}: recorded reference format {found!r}; this grader reads format {FORMAT} ({REDOWNLOAD})"


class Store:
    """The calls and arrays of one recording, read as they are needed."""

    def __init__(self, meta: dict, read_module: Callable[[str, str], dict],
                 read_array: Callable[[str], np.ndarray]):
        if meta.get("format") != FORMAT:
            raise RecordingUnreadable(_wrong_format(meta, "the recording"))
        self.meta = meta
        self._read_module, self._read_array = read_module, read_array
        self._modules: dict[tuple[str, str], dict] = {}
        self._arrays: dict[str, np.ndarray] = {}

    @classmethod
    def load(cls, folder: Path) -> "Store":
        """The recording in ``folder``."""
        folder = Path(folder)
        try:
            meta = json.loads((folder / INDEX_NAME).read_text(encoding="utf-8"))
            if not isinstance(meta, dict):
                raise ValueError("not a JSON object")
            if meta.get("format") != FORMAT:
                raise RecordingUnreadable(_wrong_format(meta, folder / INDEX_NAME))
        except RecordingUnreadable:
            raise
        except (OSError, ValueError) as error:
            raise RecordingUnreadable(f"{folder / INDEX_NAME}: {getattr(error, 'strerror', None) or error} "
                                      f"({REDOWNLOAD})") from None
        known = {part: set(meta.get(f"{part}_modules", ())) for part in PARTS}
        table: dict[str, list] = {}
        blob: list[bytes] = []

        def read_module(module: str, part: str) -> dict:
            if module not in known[part]:
                return {}
            found = json.loads((folder / module_file(module, part)).read_text(encoding="utf-8"))
            table.update(found["arrays"])
            return found["calls"]

        def read_array(digest: str) -> np.ndarray:
            if not blob:
                blob.append((folder / ARRAYS_NAME).read_bytes())
            return view(blob[0], table[digest])

        return cls(meta, read_module, read_array)

    @classmethod
    def in_memory(cls, index: dict, arrays: dict) -> "Store":
        """A recording still in memory (``Recorder.index()`` and its arrays), as the build verifies it."""
        grouped = by_module(index["calls"])
        meta = {k: v for k, v in index.items() if k != "calls"}
        return cls(meta, lambda module, part: grouped.get((module, part), {}), arrays.__getitem__)

    def calls(self, module: str) -> dict:
        """``{key: result}`` of the reference calls recorded for ``module``."""
        return self._part(module, REFERENCE)

    def near(self, module: str) -> dict:
        """``{key: {"shapes": ..., "args": arguments}}`` of ``module``'s calls kept for near matches (read at the first
        asked)."""
        return self._part(module, NEAR)

    def mistakes(self, module: str) -> dict:
        """``{key: result}`` of the mistakes' outputs recorded with ``module``'s calls (read at the first asked)."""
        return self._part(module, MISTAKES)

    def _part(self, module: str, part: str) -> dict:
        if (module, part) not in self._modules:
            self._modules[(module, part)] = self._read_module(module, part)
        return self._modules[(module, part)]

    def fetch(self, digest: str) -> np.ndarray:
        """A fresh, writable copy of one recorded array."""
        if digest not in self._arrays:
            self._arrays[digest] = self._read_array(digest)
        return self._arrays[digest].copy()

    @staticmethod
    def write(folder: Path, index: dict, arrays: dict) -> None:
        """Write ``index`` (``Recorder.index()``) and ``arrays`` into ``folder``, each file atomically."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        blob, table = pack(arrays)
        grouped = by_module(index["calls"])
        meta = dict({k: v for k, v in index.items() if k != "calls"},
                    **{f"{part}_modules": sorted(module for module, kind in grouped if kind == part)
                       for part in PARTS})
        files = {ARRAYS_NAME: blob, INDEX_NAME: dump(meta)}
        for (module, part), calls in grouped.items():
            if part != NEAR:   # a result's arrays by their digests alone: the table holds their dtypes and shapes
                calls = {key: lean(result) for key, result in calls.items()}
            named = sorted(set(digests(list(calls.values()))))
            files[module_file(module, part)] = dump({"calls": calls, "arrays": {d: table[d] for d in named}})
        for name, data in files.items():
            atomic.write_bytes(folder / name, data)


def by_module(calls: dict) -> dict[tuple[str, str], dict]:
    """``{(module, part): {key: tree}}`` of a recorder's calls: a module's reference calls' results (:data:`REFERENCE`),
    the shapes and arguments of those kept for near matches (:data:`NEAR`) and its mistakes' outputs
    (:data:`MISTAKES`)."""
    grouped: dict[tuple[str, str], dict] = {}
    for key, entry in calls.items():
        module = entry["module"]
        if entry["space"] == MISTAKES:
            grouped.setdefault((module, MISTAKES), {})[key] = entry["result"]
            continue
        grouped.setdefault((module, REFERENCE), {})[key] = entry["result"]
        if "near" in entry:
            grouped.setdefault((module, NEAR), {})[key] = entry["near"]
    return grouped


def lean(node: Any) -> Any:
    """A recorded result's tree with each array named by its digest only (``decode`` reads no more; the mistakes'
    files, read at every diagnosis, are half as long to parse)."""
    if isinstance(node, dict):
        if node.get("t") in ("array", "scalar"):
            return {"t": node["t"], "h": node["h"]}
        return {key: lean(value) for key, value in node.items()}
    if isinstance(node, list):
        return [lean(value) for value in node]
    return node


def digests(node: Any) -> Iterator[str]:
    """Every array digest named in a JSON tree of recorded values (a result, the arguments of a near call)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("t") in ("array", "scalar"):
                yield item["h"]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def dump(tree: dict) -> bytes:
    return json.dumps(tree, sort_keys=True, separators=(",", ":")).encode()

