"""Students never have the source documents: nothing in the release may send them to one.

A document may be named only in a citation: a YAML ``source:`` / ``file:`` entry, or a docstring's
``Source:`` / ``Sources:`` paragraph. Anywhere else, a file name (``002_5d842bf762d216d9.txt``), a
possessive or a pointer by number ("002's pitfall 1", "printed in 003", "the shapes of 002/000")
is a text that does not stand alone. Code that knows the documents only to validate citations
(the quiz validator's list, the bank schema's enum) and maintainers' notes on where the worked
numbers come from are listed below, each with the reason it does not reach a student.
"""
from __future__ import annotations

import re
from pathlib import Path

DOCUMENT = re.compile(
    r"(?<![\w.])00[0-4]_[0-9a-f]{16}\.txt"            # a file name
    r"|(?<![\w.])00[0-4](?:'s|’s)"                      # 002's pitfall 1
    r"|\b(?:in|of|from|by|see|as)\s+00[0-4](?![\w.])"  # printed in 003, the example of 003
    r"|(?<![\w.])00[0-4]/00[0-4](?![\w.])"              # 002/000
    r"|\(00[0-4]\)",                                    # (003)
    re.IGNORECASE)
CITATION_KEY = re.compile(r"^\s*(?:-\s*)?(?:source|file)\s*:")
CITATION_START = re.compile(r"\bSources?:")
TEXTS = {".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt"}
NOT_FOR_STUDENTS = {
    "attnkit/quiz/model.py": "the documents a quiz question may cite: the validator's list",
    "attnkit/quiz/validate.py": "the validator's message about a citation",
    "quizzes/schema.json": "the bank schema's enum of citable documents",
    "grader/document_values.py": "maintainers' notes: where each worked number is printed",
    "grader/document_values.yaml": "maintainers' notes: where each worked number is printed",
    "grader/document_values.parsed.json": "the same notes, parsed (grader.parsed)",
}


def references(path: Path, text: str) -> list[tuple[int, str]]:
    """(line, text) of every reference to a document outside a citation."""
    found = []
    citing = False  # inside a "Source:" paragraph (it ends at a blank line or a closing quote)
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.strip() in ('"""', "'''"):
            citing = False
            continue
        if CITATION_KEY.match(line):
            continue
        start = CITATION_START.search(line)
        shown = "" if citing else line[:start.start()] if start else line
        citing = citing or start is not None
        if DOCUMENT.search(shown):
            found.append((number, line.strip()))
    return found


def test_nothing_in_the_release_sends_a_student_to_a_source_document(release):
    hits = []
    for path in sorted(release.rglob("*")):
        name = path.relative_to(release).as_posix()
        if not path.is_file() or path.suffix not in TEXTS or name in NOT_FOR_STUDENTS:
            continue
        hits += [f"{name}:{line}: {text}" for line, text in references(path, path.read_text(errors="replace"))]
    assert not hits, f"{len(hits)} references to source documents outside citations:\n" + "\n".join(hits)


def test_the_scan_finds_what_it_must_and_spares_citations(tmp_path):
    text = '''"""Scaled dot-product attention.

The weights of 003's example, printed in 003, shapes of 002/000 (003).
Source: 002_5d842bf762d216d9.txt ("In Code"),
003_63dbfe1d11fdc09a.txt (the worked numbers).
"""
HINT = "see 002_5d842bf762d216d9.txt for the table"
x = 0.002 * 1000  # mode 000 and 0.004 are not documents
'''
    found = references(tmp_path / "m.py", text)
    assert [line for line, _ in found] == [3, 7]
    yaml = "source: '002_5d842bf762d216d9.txt, \"In Code\"'\n  - file: 003_63dbfe1d11fdc09a.txt\nhint: 002's pitfall\n"
    assert [line for line, _ in references(tmp_path / "c.yaml", yaml)] == [3]
