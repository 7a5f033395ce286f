"""Loading question banks: every file is read and checked before anything is returned."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .model import TOPICS, Question
from .shipped import default_dir, default_files
from .validate import Problem, check_entry, shown_key
from .yamlmarks import Located, LocatedList, YamlSyntaxError, load


class BankError(Exception):
    """One or more banks are broken; ``problems`` lists each with file, line and question id."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


@dataclass(frozen=True)
class Bank:
    questions: tuple[Question, ...]
    files: tuple[str, ...]

    def get(self, qid: str) -> Question:
        for question in self.questions:
            if question.id == qid:
                return question
        raise KeyError(qid)

    def ids(self) -> set[str]:
        return {question.id for question in self.questions}

    def by_topic(self, topics) -> list[Question]:
        topics = set(topics or TOPICS)
        return [question for question in self.questions if question.topic in topics]


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_file(path: Path, schema_too: bool = False) -> tuple[list[Question], list[Problem]]:
    """The questions of one bank file, or the problems that stop it loading (``schema_too``: see check_entry).

    A shipped bank (the kit's own files, which every load of another bank reads again to find repeated ids) is
    parsed once per process while its size and modification time stay the same."""
    path = Path(path)
    if _shipped(path):
        try:
            stat = os.stat(path)
        except OSError:
            pass
        else:
            found, broken = _read_shipped(str(path.resolve()), _display(path), stat.st_mtime_ns, stat.st_size,
                                          schema_too)
            return list(found), list(broken)
    return _read(path, schema_too)


@lru_cache(maxsize=64)
def _read_shipped(path: str, name: str, mtime_ns: int, size: int, schema_too: bool) -> tuple[tuple, tuple]:
    found, broken = _read(Path(path), schema_too, name)
    return tuple(found), tuple(broken)


def _read(path: Path, schema_too: bool, name: str = "") -> tuple[list[Question], list[Problem]]:
    name = name or _display(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        return [], [Problem(name, 1, None, f"cannot read the file ({error.strerror or error})")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return [], [Problem(name, line, None, f"not UTF-8 text: byte 0x{raw[error.start]:02x} at column {column} "
                                              "(save the file as UTF-8)")]
    try:
        data = load(text)
    except YamlSyntaxError as error:
        return [], [Problem(name, error.line, None, f"{error.message} (fix the YAML syntax near this line)")]
    if not isinstance(data, Located) or not isinstance(data.get("questions"), list):
        return [], [Problem(name, getattr(data, "line", 1), None,
                            "a bank is a mapping with 'topic: <topic>' and 'questions: [ ... ]'")]
    topic = data.get("topic")
    problems: list[Problem] = []
    if topic not in TOPICS:
        problems.append(Problem(name, data.line_of("topic"), None,
                                f"file topic {topic!r} is not one of: {', '.join(TOPICS)}"))
        topic = None
    for key in data:
        if key not in ("topic", "title", "questions"):
            problems.append(Problem(name, data.line_of(key), None,
                                    f"unknown top-level field {shown_key(key)} (allowed: topic, title, questions)"))
    questions = []
    listed = data["questions"]
    for index, entry in enumerate(listed):
        line = listed.line_at(index) if isinstance(listed, LocatedList) else data.line_of("questions")
        question, found = check_entry(name, entry, topic, line, schema_too)
        problems.extend(found)
        if question is not None:
            questions.append(question)
    return questions, problems


def _shipped(path: Path) -> bool:
    return path.resolve().parent == default_dir()


def _duplicates(questions: list[tuple[Question, bool]]) -> list[Problem]:
    """One problem per repeated id, blamed on the file being added (not a shipped bank), else the later one."""
    problems, first = [], {}
    for question, shipped in questions:
        if question.id not in first:
            first[question.id] = (question, shipped)
            continue
        other, other_shipped = first[question.id]
        blamed, kept = (other, question) if other_shipped is False and shipped else (question, other)
        problems.append(Problem(blamed.file, blamed.line, blamed.id,
                                f"duplicate id: also defined at {kept.file}:{kept.line} (ids are unique across all "
                                "banks, the shipped ones included; rename this one)"))
    return problems


def load_bank(paths=None, *, against_shipped: bool = False, schema_too: bool = False) -> Bank:
    """Load and validate banks (default: the shipped ones); raise ``BankError`` listing every problem.

    Nothing is half-loaded: one broken entry anywhere means no Bank at all. With ``against_shipped`` the
    ids of ``paths`` must also differ from those of the shipped banks (what an author adding a bank needs),
    except the shipped bank a file of the same name stands in for.
    """
    files = [Path(p) for p in paths] if paths else default_files()
    if not files:
        raise BankError([Problem(str(default_dir()), 0, None, "no question banks (*.yaml) found")])
    questions: list[Question] = []
    problems: list[Problem] = []
    for path in files:
        found, broken = read_file(path, schema_too)
        questions.extend(found)
        problems.extend(broken)
    named = {path.name for path in files}  # a file named like a shipped bank (an edited copy) stands in for it
    others = [path for path in default_files() if path.name not in named] if against_shipped else []
    shipped = [question for path in others for question in read_file(path)[0]]
    problems.extend(_duplicates([(question, _shipped(Path(question.file))) for question in questions]
                                + [(question, True) for question in shipped]))
    if schema_too and not problems:  # `attnkit quiz validate`: the rules over whole banks
        from .bankrules import check

        problems.extend(check([*questions, *shipped], {question.file for question in questions}))
    if problems:
        raise BankError(problems)
    return Bank(tuple(questions), tuple(_display(p) for p in files))
