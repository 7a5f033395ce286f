"""What students read cites papers and books by title and year, never the seed files they do not have:
the solutions' and stubs' docstrings, and the release's copy of the curriculum."""
import re
from pathlib import Path

import pytest
import yaml

from grader import curriculum

ROOT = Path(__file__).resolve().parents[2]
SEED_FILE = re.compile(r"00[0-9]_[0-9a-f]{16}\.txt")
TITLE_AND_YEAR = re.compile(r'"[^"]+" \([^()]*\b(19|20)\d\d\)')


@pytest.mark.parametrize("folder", ["solutions", "exercises"])
def test_modules_cite_no_seed_file(folder):
    for exercise in curriculum.exercises():
        text = (ROOT / folder / f"{exercise.id}.py").read_text(encoding="utf-8")
        assert not SEED_FILE.search(text), (folder, exercise.id, SEED_FILE.search(text).group())
        reading = re.search(r"^Reading: (.*?)\n(?:\n|\"\"\")", text, re.MULTILINE | re.DOTALL)
        assert reading is None or TITLE_AND_YEAR.search(reading.group(1)), (folder, exercise.id)


def test_the_students_curriculum_leaves_the_seed_notes_out():
    text = curriculum.subset_text(curriculum.ids(), for_students=True)
    assert not SEED_FILE.search(text)
    entries = yaml.safe_load(text)["exercises"]
    assert [e["id"] for e in entries] == list(curriculum.ids())
    assert all("source" not in e and "quotes" not in e["explanation"] for e in entries)
    assert SEED_FILE.search(curriculum.subset_text(curriculum.ids()))  # the maintainers' copy keeps them
