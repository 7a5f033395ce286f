"""The kit's YAML data files (the curriculum, the document values), read through a parsed copy where a build left one.

A build that ships these files (the student release) writes beside each ``<name>.yaml`` a ``<name>.parsed.json``: the
data the file parses to and the sha256 of its bytes. Reading the copy costs a JSON parse instead of importing the YAML
library and parsing (a twentieth of a student's ``attnkit check``, spent before anything is checked). A copy whose
digest is not the file's (the file was edited after the build) is not used: the file itself is read, as in the
project's checkout, where no copy is written (there the data parsed and checked once is kept per content by
``grader.parse_cache``). Whoever reads the data checks it as before (the curriculum's schema).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable

SUFFIX = ".parsed.json"


class NotYaml(ValueError):
    """A file the YAML parser refuses; the message is the parser's, on one line."""


def copy_of(path: Path) -> Path:
    """Where the parsed copy of ``path`` is written."""
    return path.with_name(path.stem + SUFFIX)


def load(path: Path, check: Callable[[Any], None] | None = None, checked_by: tuple[Path, ...] = ()) -> Any:
    """The data of the YAML file ``path`` (:class:`NotYaml` when it is not valid YAML; OSError as reading raises).

    ``check``: called on the data, raises what is wrong with it; ``checked_by``: the files its verdict rests on.
    Without a parsed copy, the data parsed and checked once is kept in ``grader.parse_cache`` for the same bytes."""
    data = path.read_bytes()
    try:
        built = json.loads(copy_of(path).read_bytes())
    except (OSError, ValueError):
        built = None
    if isinstance(built, dict) and built.get("sha256") == hashlib.sha256(data).hexdigest() and "data" in built:
        if check is not None:
            check(built["data"])
        return built["data"]
    from . import parse_cache

    digest = parse_cache.key(data, checked_by)
    cached, value = parse_cache.read(path, digest)
    if cached:
        return value
    import yaml

    try:
        with path.open(encoding="utf-8") as handle:   # from the file: the parser's messages name it
            value = yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml: 10x faster
    except yaml.YAMLError as error:
        raise NotYaml(" ".join(str(error).split())) from None
    if check is not None:
        check(value)  # what it raises is never cached: a broken file is refused alike at every run
    if _still(path, data):  # kept only under the digest of the bytes that were parsed
        parse_cache.write(path, digest, value)
    return value


def _still(path: Path, data: bytes) -> bool:
    """Whether the file ``path`` still holds ``data`` (it was not written to while it was parsed)."""
    try:
        return path.read_bytes() == data
    except OSError:
        return False


def write_copy(path: Path) -> bool:
    """Write the parsed copy of the YAML file ``path`` (a build step: ``path`` is the kit's own, valid file); none
    (False) for data JSON does not carry as it is (a date, a key that is no string): the file is then read itself."""
    import yaml

    data = path.read_bytes()
    parsed = yaml.load(data.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    text = json.dumps({"sha256": hashlib.sha256(data).hexdigest(), "data": parsed}, ensure_ascii=False,
                      separators=(",", ":"), default=repr)
    if json.loads(text)["data"] != parsed:
        return False
    copy_of(path).write_text(text + "\n", encoding="utf-8")
    return True
