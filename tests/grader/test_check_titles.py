"""A check's title is the first line of its docstring that holds anything, stripped: for every check of the course,
the first line ``inspect.getdoc`` gives (``runner.discover`` reads it without dedenting the whole docstring)."""
import inspect

import pytest

from grader import curriculum
from grader.runner import _first_line, discover


@pytest.mark.parametrize("doc, first", [("one line", "one line"), ("\n\n   indented first\n  more", "indented first"),
                                        ("  lead  \n body", "lead"), ("", ""), (None, ""), ("\n \n", "")])
def test_the_first_line_that_holds_anything(doc, first):
    assert _first_line(doc) == first


def test_every_checks_title_is_its_docstrings_first_line():
    for exercise in curriculum.ids():
        for spec in discover(exercise):
            assert spec.title == (inspect.getdoc(spec.function) or spec.name).splitlines()[0], spec.name
