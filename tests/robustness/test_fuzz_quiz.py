"""Fuzzing the quiz: bank loading and validation, and the answer parser of a session.

A bank file, whatever its bytes, either loads or is refused with :class:`BankError` whose every
problem names the file and a line of it (never a traceback, never line 0). A typed answer, whatever
its text, is either marked or refused with :class:`BadAnswer` (the session asks again).
"""
from __future__ import annotations

import io
import re
import tempfile
from pathlib import Path

import yaml
from hypothesis import assume, event, given
from hypothesis import strategies as st

from attnkit.quiz import cli
from attnkit.quiz.bank import Bank, BankError, default_files, load_bank
from attnkit.quiz.grading import BadAnswer, instantiate, mark, present
from attnkit.quiz.model import DIFFICULTIES, FIELDS, TOPICS, TYPES
from tests.robustness.robustkit import fuzz

BANKS = default_files()
SHIPPED = {path.name: path.read_bytes() for path in BANKS}


def yaml_lines(data: bytes) -> int:
    """How many lines YAML sees: besides \\n it breaks lines at a lone \\r, NEL, LS and PS."""
    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    return 1 + sum(text.count(mark) for mark in ("\n", "\r", "\x85", "\u2028", "\u2029"))


def check_file(data: bytes, name: str = "bank.yaml") -> Bank | None:
    """Load ``data`` as a bank file: a Bank, or BankError naming this file and a real line; via the CLI too."""
    with tempfile.TemporaryDirectory(prefix="attnkit-fuzz-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        lines = yaml_lines(data)
        try:
            bank = load_bank([path])
        except BankError as error:
            assert error.problems
            for problem in error.problems:
                assert problem.file == str(path), problem
                assert 1 <= problem.line <= lines, (problem, lines)
                assert problem.message.strip() and "\n" not in problem.message, problem
                assert str(problem).startswith(f"{path}:{problem.line}: ")
            bank = None
        else:
            assert all(question.file == str(path) and 1 <= question.line <= lines for question in bank.questions)
        out, err = io.StringIO(), io.StringIO()
        status = cli.main(["validate", str(path)], stdout=out, stderr=err)
        assert status == (0 if bank is not None else 1), err.getvalue()
        assert "Traceback" not in err.getvalue()
        if bank is None:
            assert err.getvalue().startswith(f"{path}:")
    return bank


def fuzz_file(data: bytes, name: str = "bank.yaml") -> None:
    """:func:`check_file` inside a hypothesis test, counting the outcomes (--hypothesis-show-statistics)."""
    event("loaded" if check_file(data, name) is not None else "refused")


def test_every_shipped_bank_loads():
    """The mutations below start from valid files."""
    for name, data in SHIPPED.items():
        assert check_file(data, name) is not None, name


# -- random YAML documents ---------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=20) | st.sampled_from(TYPES + TOPICS + DIFFICULTIES + ("", " ", "- x", "a: b", "{x}")))
keys = st.sampled_from(FIELDS + ("questions", "title", "file", "section")) | st.text(max_size=8)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
                      max_leaves=16)
entries = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), values, max_size=len(FIELDS) + 2)
documents = (st.fixed_dictionaries({"topic": st.sampled_from(TOPICS) | scalars,
                                    "questions": st.lists(entries | values, max_size=4)},
                                   optional={"title": values, "extra": values})
             | values)


@fuzz()
@given(documents)
def test_random_yaml_documents(document):
    fuzz_file(yaml.safe_dump(document, allow_unicode=True).encode("utf-8"))


@fuzz()
@given(st.text(alphabet=st.sampled_from(list("ab:- \t\n{}[],&*!|>'\"%@`#?.0123456789\\")) | st.characters(),
               max_size=200))
def test_random_text(text):
    fuzz_file(text.encode("utf-8", "surrogatepass"))


@fuzz()
@given(st.binary(max_size=200))
def test_random_bytes(data):
    fuzz_file(data)


def test_pathological_documents():
    for text in ["? [a, b]\n: c\n", "? {a: 1}\n: c\n", "[" * 5000 + "]" * 5000, "- " * 3000 + "x\n",
                 "a: &x [*x]\n", "a: &x {b: *x}\n", "questions: [1, 2]\ntopic: softmax\n",
                 "topic: softmax\nquestions:\n  - - - id: x\n", "\ufefftopic: softmax\nquestions: []\n",
                 "topic: softmax\nquestions: []\n---\ntopic: masking\n", "x: !!python/object:os.system ls\n"]:
        check_file(text.encode("utf-8"))


# -- mutations of the shipped banks --------------------------------------------------------------------

KEY_LINE = re.compile(rb"^(\s*-?\s*)([A-Za-z_]+):(.*)$")
ID_LINE = re.compile(rb"^(\s*-?\s*id:\s*)(\S+)\s*$")
NEW_VALUES = [b"[1, 2]", b"{a: b}", b"42", b"true", b"null", b"3.5", b"''", b'"x"', b"- a", b"&x", b"*x", b"|", b"~"]
SYNTAX = b":-[]{}&*!|>'\"%@`#,?\\"
BAD_BYTES = [b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\x80abc", b"\xf0\x28\x8c\x28"]
MUTATIONS = ("drop_key", "change_type", "duplicate_id", "indent", "tab", "invalid_utf8", "truncate",
             "duplicate_line", "swap_lines", "insert_char", "delete_char")


def mutate(data: bytes, kind: str, a: int, b: int) -> bytes:
    lines = data.split(b"\n")
    keyed = [i for i, line in enumerate(lines) if KEY_LINE.match(line)]
    ids = [i for i, line in enumerate(lines) if ID_LINE.match(line)]
    i = a % len(lines)
    if kind == "drop_key" and keyed:
        del lines[keyed[a % len(keyed)]]
    elif kind == "change_type" and keyed:
        j = keyed[a % len(keyed)]
        head = KEY_LINE.match(lines[j])
        lines[j] = head.group(1) + head.group(2) + b": " + NEW_VALUES[b % len(NEW_VALUES)]
    elif kind == "duplicate_id" and len(ids) > 1:
        source, target = ids[a % len(ids)], ids[b % len(ids)]
        lines[target] = ID_LINE.match(lines[target]).group(1) + ID_LINE.match(lines[source]).group(2)
    elif kind == "indent":
        shift = b % 7 - 3
        lines[i] = b" " * shift + lines[i] if shift > 0 else lines[i][-shift:]
    elif kind == "tab":
        position = b % (len(lines[i]) + 1)
        lines[i] = lines[i][:position] + b"\t" + lines[i][position:]
    elif kind == "invalid_utf8":
        position = b % (len(lines[i]) + 1)
        lines[i] = lines[i][:position] + BAD_BYTES[a % len(BAD_BYTES)] + lines[i][position:]
    elif kind == "truncate":
        return data[: a % (len(data) + 1)]
    elif kind == "duplicate_line":
        lines.insert(i, lines[i])
    elif kind == "swap_lines":
        j = b % len(lines)
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "insert_char":
        position = b % (len(lines[i]) + 1)
        lines[i] = lines[i][:position] + SYNTAX[a % len(SYNTAX): a % len(SYNTAX) + 1] + lines[i][position:]
    elif kind == "delete_char" and lines[i]:
        position = b % len(lines[i])
        lines[i] = lines[i][:position] + lines[i][position + 1:]
    return b"\n".join(lines)


@fuzz()
@given(st.sampled_from(sorted(SHIPPED)),
       st.lists(st.tuples(st.sampled_from(MUTATIONS), st.integers(0, 10**6), st.integers(0, 10**6)),
                min_size=1, max_size=3))
def test_mutated_shipped_banks(name, mutations):
    data = SHIPPED[name]
    for kind, a, b in mutations:
        data = mutate(data, kind, a, b)
    fuzz_file(data, name)


def test_each_mutation_kind_is_caught():
    """A targeted example of each kind that must be refused, with the line it happened on."""
    data = SHIPPED["softmax.yaml"]
    lines = data.split(b"\n")
    first_id = next(i for i, line in enumerate(lines) if ID_LINE.match(line))
    second_id = next(i for i, line in enumerate(lines) if ID_LINE.match(line) and i > first_id)
    answer = next(i for i, line in enumerate(lines) if line.strip().startswith(b"answer:"))
    cases = {
        "duplicate_id": (mutate(data, "duplicate_id", 0, 1), second_id + 1),
        "change_type": (b"\n".join(lines[:answer] + [lines[answer].split(b":")[0] + b": [1, 2]"] + lines[answer + 1:]),
                        answer + 1),
        "tab": (b"\n".join(lines[:answer] + [b"\t" + lines[answer].lstrip()] + lines[answer + 1:]), answer + 1),
        "invalid_utf8": (b"\n".join(lines[:answer] + [lines[answer] + b"\xff"] + lines[answer + 1:]), answer + 1),
    }
    for kind, (mutated, line) in cases.items():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "softmax.yaml"
            path.write_bytes(mutated)
            try:
                load_bank([path])
            except BankError as error:
                assert line in [problem.line for problem in error.problems], (kind, error.problems)
            else:
                raise AssertionError(f"{kind}: the mutated bank loaded")


# -- the answer parser of a session ------------------------------------------------------------------

QUESTIONS = load_bank().questions
# digits of every kind: ASCII, other scripts' decimals (int() reads them), superscripts and fractions (it does not)
DIGITS = ["0", "1", "2", "3", "4", "7", "12", "-1", "+2", "1.0", "1e0", "\u0663", "\uff11", "\u00b2", "\u2460",
          "\u00bd", "\u2155", "\U0001d7d9", "inf", "nan", "_1", "1_0", "0x1", "true", "T", "f"]
SEPARATORS = [",", " ", ";", ", ", "\t", "\u00a0", "\u3000", ",,", " ,", "\n"]
answers = (st.text(max_size=40)
           | st.text(alphabet=st.sampled_from(list("0123456789 ,;-.e+_tTfF\t\u00a0\u0663\u00b2")), max_size=20)
           | st.lists(st.tuples(st.sampled_from(DIGITS), st.sampled_from(SEPARATORS)), min_size=1, max_size=6).map(
               lambda pairs: "".join(digit + separator for digit, separator in pairs))
           | st.lists(st.integers(-3, 12), max_size=8).map(lambda numbers: ",".join(map(str, numbers))))


@fuzz()
@given(st.sampled_from(QUESTIONS), st.integers(0, 2**31 - 1), answers)
def test_any_typed_answer_is_marked_or_refused(question, seed, text):
    asked = present(instantiate(question, seed), seed)
    try:
        correct, given_text = mark(asked, text)
    except BadAnswer as error:
        assert str(error).strip()
        return
    assert isinstance(correct, bool) and isinstance(given_text, str)


def test_digits_int_cannot_read_are_refused():
    """Found by the fuzzer: '²' passes str.isdigit() but int('²') raises; it must be a BadAnswer."""
    question = next(q for q in QUESTIONS if q.type == "multiple")
    asked = present(question, 1)
    for text in ("1,\u00b2", "\u2460", "1 \u00bd"):
        try:
            mark(asked, text)
        except BadAnswer:
            continue
        raise AssertionError(f"{text!r} was marked")
    assert mark(asked, "\u0661")[1]  # ARABIC-INDIC ONE is a decimal digit: read as 1


@fuzz()
@given(st.sampled_from([q for q in QUESTIONS if q.type in ("single", "multiple", "ordering", "true_false")]),
       st.integers(0, 2**31 - 1), st.data())
def test_the_right_numbers_are_right(question, seed, data):
    """Marking agrees with the options shown: typing the right numbers (in any separator style) is right."""
    asked = present(instantiate(question, seed), seed)
    options = list(asked.options)
    if question.type == "true_false":
        right = [options.index("True" if question.answer else "False") + 1]
    elif question.type == "single":
        right = [options.index(question.answer) + 1]
    elif question.type == "multiple":
        right = data.draw(st.permutations([options.index(choice) + 1 for choice in question.answer]))
    else:
        right = [options.index(item) + 1 for item in question.answer]
    separator = data.draw(st.sampled_from([",", " ", ", ", ";", "  "]))
    assume(right)
    assert mark(asked, separator.join(map(str, right)))[0] is True
