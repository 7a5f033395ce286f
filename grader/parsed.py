"""The kit's YAML data files (the curriculum, the document values), read through a parsed copy where a build left one.

A build that ships these files (the student release) writes beside each ``<name>.yaml`` a ``<name>.parsed.json``: the
data the file parses to and the sha256 of its bytes. Reading the copy costs a JSON parse instead of importing the YAML
library and parsing (a twentieth of a student's ``attnkit check``, spent before anything is checked). A copy whose
digest is not the file's (the file was edited after the build) is not used: the file itself is read, as in the
project's checkout, where no copy is written. Whoever reads the data checks it as before (the curriculum's schema).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

SUFFIX = ".parsed.json"


class NotYaml(ValueError):
    """A file the YAML parser refuses; the message is the parser's, on one line."""


def copy_of(path: Path) -> Path:
    """Where the parsed copy of ``path`` is written."""
    return path.with_name(path.stem + SUFFIX)


def load(path: Path) -> Any:
    """The data of the YAML file ``path`` (:class:`NotYaml` when it is not valid YAML; OSError as reading raises)."""
    data = path.read_bytes()
    try:
        built = json.loads(copy_of(path).read_bytes())
    except (OSError, ValueError):
        built = None
    if isinstance(built, dict) and built.get("sha256") == hashlib.sha256(data).hexdigest() and "data" in built:
        return built["data"]
    import yaml

    try:
        with path.open(encoding="utf-8") as handle:   # from the file: the parser's messages name it
            return yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml: 10x faster
    except yaml.YAMLError as error:
        raise NotYaml(" ".join(str(error).split())) from None


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
