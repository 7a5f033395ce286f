"""The grading machine's paths, taken out of what a student is shown.

A child can read its own ``sys.argv`` (the zygote's script in the kit's checkout), ``numpy.__file__``
(the virtual environment), ``sys.prefix`` (the Python installation) and its environment (its scratch
folder in the grader's temp folder), and put them in an exception message or in printed output that
is quoted back. Every such path the trusted side knows is replaced by a name for what it is, longest
first, in every text of the child's that a student or instructor reads.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[3]  # the checkout (or installation) holding grader/


def machine_paths() -> dict[str, str]:
    """{path: what it is} for the grading process's own places (the kit, Python, the temp and home folders)."""
    return {str(KIT): "<attnkit>", sys.prefix: "<python environment>", sys.exec_prefix: "<python environment>",
            sys.base_prefix: "<python>", sys.base_exec_prefix: "<python>", os.path.dirname(sys.executable): "<python>",
            tempfile.gettempdir(): "<temp>", os.environ.get("TMPDIR", ""): "<temp>", os.path.expanduser("~"): "<home>"}


class Scrubber:
    """Replaces each known path (and its resolved form) by its name; paths shorter than 4 characters (``/``)
    are left alone, since they would turn every slash into a name."""

    def __init__(self, paths: dict[str, str]):
        found: dict[str, str] = {}
        for path, name in paths.items():
            if not path:
                continue
            for form in (str(path), os.path.realpath(path)):
                form = form.rstrip(os.sep)
                if len(form) >= 4:
                    found.setdefault(form, name)
        self.paths = sorted(found.items(), key=lambda item: -len(item[0]))

    def __call__(self, text: str) -> str:
        for path, name in self.paths:
            if path in text:
                text = text.replace(path, name)
        return text
