"""Checks one bank entry and turns it into a ``Question``; every problem names file, line and id."""
from __future__ import annotations

import difflib
import json
import math
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import answers
from .answers import FORMS, Form
from .generators import GENERATORS, generate
from .model import DIFFICULTIES, DOCUMENTS, FIELDS, GENERAL_TOPIC, TOPICS, TYPES, Question, Source
from .yamlmarks import Located

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "quizzes" / "schema.json"


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    qid: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        return f"{where}: question '{self.qid}': {self.message}" if self.qid else f"{where}: {self.message}"


@lru_cache(maxsize=1)
def schema() -> dict:
    try:
        from importlib.resources import files

        text = (files("quizzes") / "schema.json").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        text = SCHEMA_PATH.read_text(encoding="utf-8")
    return json.loads(text)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _strings(value) -> bool:
    return isinstance(value, list) and value and all(isinstance(item, str) and item.strip() for item in value)


class _Collector:
    def __init__(self, file: str, entry: Located, qid: str | None):
        self.file, self.entry, self.qid = file, entry, qid
        self.problems: list[Problem] = []

    def add(self, message: str, key: str | None = None) -> None:
        line = self.entry.line_of(key) if key is not None else self.entry.line
        self.problems.append(Problem(self.file, line, self.qid, message))


# Questions come one at a time, in any order (a review, a generated set, an LMS export): a prompt that points at
# another question's setup ("in the same example", "the previous question") cannot be understood on its own.
BACK_REFERENCE = re.compile(
    r"\b(?:in|from|for|with|of|on) the same (?:[\w\"'-]+ ){0,4}?"
    r"(?:example|sentence|setup|matrix|matrices|question|numbers|values|scores|input)\b"
    r"|\b(?:previous|last|above|earlier) (?:question|example|answer)\b|\bas (?:above|before)\b", re.IGNORECASE)


def _template_fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def shown_key(key) -> str:
    """A mapping key as a message shows it: ``'prompt'``; odd ones (newlines, numbers, None) by repr."""
    return f"'{key}'" if isinstance(key, str) and key.isprintable() and "'" not in key else repr(key)


def check_entry(file: str, entry, file_topic: str | None, line: int = 1,
                schema_too: bool = False) -> tuple[Question | None, list[Problem]]:
    """Validate one entry of a bank's ``questions`` list (written at ``line``); return the Question only when
    it has no problem. The checks here cover the schema's rules; ``schema_too`` also runs the JSON schema
    (``attnkit quiz validate``: importing jsonschema takes about a second, too slow for every session)."""
    if not isinstance(entry, Located):
        return None, [Problem(file, line, None, "each question must be a mapping (id: ..., type: ..., ...)")]
    qid = entry.get("id")
    out = _Collector(file, entry, qid if isinstance(qid, str) else None)
    for key, key_line in entry.duplicates:
        out.problems.append(Problem(file, key_line, out.qid, f"field {shown_key(key)} is given twice"))
    if not isinstance(qid, str) or not ID_PATTERN.match(qid):
        out.add("missing or invalid 'id' (lowercase letters, digits, '-' and '_', e.g. softmax-stable-max)",
                "id" if "id" in entry else None)
    for key in entry:
        if key not in FIELDS:
            close = difflib.get_close_matches(str(key), FIELDS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (allowed: {', '.join(FIELDS)})"
            out.add(f"unknown field {shown_key(key)}{hint}", key)
    qtype = entry.get("type")
    if qtype not in TYPES:
        out.add(f"unknown type {qtype!r} (expected one of: {', '.join(TYPES)})", "type" if "type" in entry else None)
    topic = entry.get("topic")
    if topic not in TOPICS:
        out.add(f"unknown topic {topic!r} (expected one of: {', '.join(TOPICS)})", "topic")
    elif file_topic is not None and topic != file_topic:
        out.add(f"topic '{topic}' differs from the file's topic '{file_topic}' (one file per topic)", "topic")
    for key in ("prompt", "explanation"):
        if key not in entry or entry[key] is None:
            out.add(f"missing '{key}' (a non-empty string)", key if key in entry else None)
        elif not isinstance(entry[key], str):
            out.add(f"'{key}' must be text, not {_kind(entry[key])}: put it in quotes", key)
        elif not entry[key].strip():
            out.add(f"'{key}' is empty: write the text", key)
        elif key == "prompt" and (found := BACK_REFERENCE.search(entry[key])):
            out.add(f"the prompt refers to another question ({found.group(0)!r}): questions are asked one at a time "
                    "and in any order, so state the setup in this one", key)
    if entry.get("difficulty") not in DIFFICULTIES:
        out.add(f"'difficulty' must be one of: {', '.join(DIFFICULTIES)}", "difficulty")
    _check_source(out)
    for key in ("pinned", "predict"):
        if key in entry and not isinstance(entry[key], bool):
            out.add(f"'{key}' must be true or false", key)
    if entry.get("predict") is True and topic == GENERAL_TOPIC:
        out.add(f"'predict: true' is for a question about one exercise; topic '{topic}' is not an exercise", "predict")
    _check_mistakes(out)
    if "tags" in entry and not (isinstance(entry["tags"], list) and all(isinstance(t, str) for t in entry["tags"])):
        out.add("'tags' must be a list of words, e.g. [qa-table]", "tags")
    if qtype in TYPES:
        _check_answer(out, qtype)
    if out.problems:
        return None, out.problems
    if schema_too:
        _check_schema(out)
    if out.problems:
        return None, out.problems
    return _build(file, entry), []


def _kind(value) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else type(value).__name__


SOURCE_FORMS = ("'source' is {file: <document>, section: <section>} with a document among: " + ", ".join(DOCUMENTS)
                + "; or, for a paper, {paper: <title>, year: <year>, section: <section>}")


def _check_source(out: _Collector) -> None:
    source = out.entry.get("source")
    where = "source" if "source" in out.entry else None
    if not isinstance(source, dict):
        out.add(f"missing {SOURCE_FORMS}", where)
        return
    keys = set(source)
    text = [key for key in ("file", "paper", "section") if key in source and not
            (isinstance(source[key], str) and source[key].strip())]
    if text:
        out.add(f"'source' {text[0]} must be non-empty text", where)
    elif keys == {"file", "section"}:
        if source["file"] not in DOCUMENTS:
            close = difflib.get_close_matches(source["file"], DOCUMENTS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            out.add(f"unknown source document {source['file']!r}{hint}: {SOURCE_FORMS}", where)
    elif keys == {"paper", "year", "section"}:
        year = source["year"]
        if not (isinstance(year, int) and not isinstance(year, bool) and 1900 <= year <= 2100):
            out.add("'source' year must be a year such as 2017", where)
    else:
        out.add(SOURCE_FORMS, where)


def _check_mistakes(out: _Collector) -> None:
    if "mistakes" not in out.entry:
        return
    listed = out.entry["mistakes"]
    if not isinstance(listed, list) or not all(isinstance(item, str) for item in listed):
        out.add("'mistakes' must be a list of mistake ids, e.g. [softmax_no_max_subtraction]", "mistakes")
        return
    known = mistake_ids()
    for item in listed:
        if item not in known:
            close = difflib.get_close_matches(item, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else " (`attnkit quiz validate --mistakes` lists them)"
            out.add(f"unknown mistake id {item!r}{hint}", "mistakes")


@lru_cache(maxsize=1)
def mistake_ids() -> tuple[str, ...]:
    """The ids of every classic mistake the checks diagnose (grader.mistakes), sorted."""
    from grader.mistakes import all_mistakes

    return tuple(sorted(all_mistakes()))


def _check_answer(out: _Collector, qtype: str) -> None:
    entry = out.entry
    answer, choices, generator = entry.get("answer"), entry.get("choices"), entry.get("generator")
    if qtype in ("single", "multiple"):
        if not isinstance(choices, list) or len(choices) < 2:
            out.add("needs 'choices': a list of at least two strings", "choices" if "choices" in entry else None)
            return
        bad = [number for number, choice in enumerate(choices, 1) if not (isinstance(choice, str) and choice.strip())]
        if bad:
            out.add(f"choice {bad[0]} is not a string: quote it (YAML reads yes/no/on/off as booleans, numbers as "
                    "numbers, and text with ': ' as a mapping)", "choices")
            return
        if len(set(choices)) != len(choices):
            out.add("'choices' has the same choice twice", "choices")
    elif "choices" in entry:
        out.add(f"'choices' is only for single and multiple questions, not {qtype}", "choices")
    if "generator" in entry and generator is None:
        out.add("'generator' has no value: name a generator or remove the line", "generator")
    if generator is not None:
        if qtype != "numeric":
            out.add("'generator' is only supported for numeric questions", "generator")
        elif generator not in GENERATORS:
            out.add(f"unknown generator {generator!r} (known: {', '.join(sorted(GENERATORS))})", "generator")
        else:
            _check_templates(out, generator)
        if "answer" in entry:
            out.add("a generated question takes its answer from the generator; remove 'answer'", "answer")
    elif "answer" not in entry:
        out.add("missing 'answer'")
        return
    if qtype == "single" and generator is None:
        if not isinstance(answer, str):
            out.add("'answer' must be one of the choices (a string)", "answer")
        elif answer not in choices:
            out.add(f"answer {answer!r} is not among the choices", "answer")
    elif qtype == "multiple":
        if not _strings(answer):
            out.add("'answer' must be a non-empty list of the correct choices", "answer")
            return
        for item in answer:
            if item not in choices:
                out.add(f"answer {item!r} is not among the choices", "answer")
        if len(set(answer)) != len(answer):
            out.add("'answer' lists a choice twice", "answer")
        wrong = len(choices) - len(set(answer) & set(choices))
        if wrong < 2:
            out.add(f"a multiple-answer question needs at least two wrong choices, not {wrong}: with one, 'tick all "
                    "but the odd one out' wins; add a mistake a student would really make", "choices")
    elif qtype == "true_false" and not isinstance(answer, bool):
        out.add("'answer' must be true or false", "answer")
    elif qtype == "numeric":
        if "tolerance" not in entry:
            out.add("missing 'tolerance': numeric questions need an explicit absolute tolerance (0 for exact)")
        elif not _is_number(entry["tolerance"]) or entry["tolerance"] < 0:
            out.add("'tolerance' must be a number >= 0", "tolerance")
        if generator is None and not _is_number(answer):
            out.add("'answer' must be a number", "answer")
    elif qtype == "short":
        if not (isinstance(answer, str) and answer.strip()) and not _strings(answer):
            out.add("'answer' must be a string or a list of accepted forms", "answer")
        else:
            _check_form(out, [answer] if isinstance(answer, str) else answer)
    elif qtype == "ordering":
        if not _strings(answer) or len(answer) < 3:
            out.add("'answer' must list at least three items in their correct order", "answer")
        elif len(set(answer)) != len(answer):
            out.add("'answer' lists an item twice", "answer")
    if qtype != "short" and "form" in entry:
        out.add(f"'form' is only for short questions, not {qtype}", "form")
    if qtype != "numeric" and "tolerance" in entry:
        out.add("'tolerance' is only for numeric questions", "tolerance")


_LOOKS = ((Form.BIG_O, re.compile(r"^\s*(?:o|θ)\s*\(", re.IGNORECASE), "a big-O expression"),
          (Form.SHAPE, re.compile(r"^[\s(\[{]*\d+\s*(?:[,x×;*]|by|\s)\s*\d"), "a shape or a set of integers"))


def _check_form(out: _Collector, accepted: list[str]) -> None:
    """A short answer's forms read in its ``form`` and agree; a text answer that looks like a shape, a set or a
    big-O expression must say so (compared as text, ``[10, 32]`` would not match ``(10, 32)``)."""
    name = out.entry.get("form", Form.TEXT.value)
    if name not in FORMS:
        out.add(f"'form' must be one of: {', '.join(FORMS)}", "form")
        return
    form = Form(name)
    if form is Form.TEXT:
        for written in accepted:
            for kind, pattern, what in _LOOKS:
                if pattern.match(written):
                    suggestion = "big_o" if kind is Form.BIG_O else "shape' or 'form: set"
                    out.add(f"answer {written!r} looks like {what}: add 'form: {suggestion}' so it is compared as "
                            "a value (as text, other spellings and orders are marked wrong)", "answer")
                    return
        return
    values = []
    for written in accepted:
        try:
            values.append(answers.read(form, written))
        except answers.Unreadable as error:
            out.add(f"answer {written!r} is not a {name} ({error})", "answer")
            return
    if any(value != values[0] for value in values):
        out.add(f"the accepted forms are different {name}s ({', '.join(map(repr, accepted))}); a {name} answer is "
                "compared as a value, so give one form", "answer")


def _check_templates(out: _Collector, name: str) -> None:
    try:
        params = generate(name, 0).params
    except Exception as error:  # a broken generator is a bank problem, not a crash
        out.add(f"generator {name!r} failed: {error}", "generator")
        return
    for key in ("prompt", "explanation"):
        text = out.entry.get(key)
        if not isinstance(text, str):
            continue
        try:
            missing = _template_fields(text) - set(params) - {"answer"}
        except ValueError as error:
            out.add(f"'{key}' is not a valid template ({error}); write literal braces as {{{{ }}}}", key)
            continue
        if missing:
            out.add(f"'{key}' uses {', '.join(sorted(missing))}, which generator {name!r} does not provide "
                    f"(it provides: {', '.join(sorted(params))}, answer)", key)


@lru_cache(maxsize=1)
def _question_validator():
    """The JSON schema's question validator, made once (building it costs more than checking an entry)."""
    import jsonschema

    return jsonschema.Draft202012Validator({"$ref": "#/$defs/question", "$defs": schema()["$defs"]})


def _check_schema(out: _Collector) -> None:
    for error in sorted(_question_validator().iter_errors(dict(out.entry)), key=lambda e: list(e.path)):
        key = error.path[0] if error.path else None
        out.add(f"schema: {error.message}", key if key in out.entry else None)


def _build(file: str, entry: Located) -> Question:
    qtype = entry["type"]
    answer = entry.get("answer")
    if qtype in ("multiple", "ordering"):
        answer = tuple(answer)
    elif qtype == "short":
        answer = (answer,) if isinstance(answer, str) else tuple(answer)
    elif qtype == "numeric" and answer is not None:
        answer = float(answer)
    tolerance = entry.get("tolerance")
    source = entry["source"]
    cited = (Source(source["section"], document=source["file"]) if "file" in source
             else Source(source["section"], paper=f"{source['paper']} ({source['year']})"))
    return Question(
        id=entry["id"], topic=entry["topic"], type=qtype, prompt=entry["prompt"].strip(),
        explanation=entry["explanation"].strip(), source=cited,
        difficulty=entry["difficulty"], choices=tuple(entry.get("choices") or ()), answer=answer,
        form=Form(entry.get("form", Form.TEXT.value)),
        tolerance=float(tolerance) if tolerance is not None else None,
        pinned=bool(entry.get("pinned", qtype == "true_false")), generator=entry.get("generator"),
        tags=tuple(entry.get("tags") or ()), mistakes=tuple(entry.get("mistakes") or ()),
        predict=bool(entry.get("predict", False)), file=file, line=entry.line)
