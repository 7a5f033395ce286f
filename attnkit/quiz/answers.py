"""Reading a typed answer as a value: one normaliser per answer form, so equal answers compare equal.

A short answer names its ``form`` in the bank: ``text`` (compared without case and spaces), ``shape`` (a
tuple of integers: ``(10, 32)``, ``[10, 32]``, ``10x32``, ``10 × 32``), ``set`` (integers in any order:
``0, 1, 2``, ``[2, 1, 0]``, ``{0 1 2}``) or ``big_o`` (a sum of products of factors in any order and
notation: ``O(n^2 d)``, ``O(d*n**2)``, ``O(n^2 \\cdot d)``, ``O(n·n·d)``, ``n² d``). Numeric answers take
thousands separators (``4,096``, ``4 096``, ``4_096``). Every reader raises ``Unreadable`` with what to type.
"""
from __future__ import annotations

import re
from collections import Counter
from enum import Enum


class Form(Enum):
    TEXT = "text"
    SHAPE = "shape"
    SET = "set"
    BIG_O = "big_o"


FORMS = tuple(form.value for form in Form)
HOW_TO_TYPE = {  # what a session shows under a short question
    Form.TEXT: "type a short answer (case and spaces do not matter)",
    Form.SHAPE: "type a shape, e.g. (10, 32) or 10x32",
    Form.SET: "type the numbers in any order, e.g. 0, 4",
    Form.BIG_O: "type a big-O expression, e.g. O(n^2 d), factors in any order",
}
MAX_CHARS = 200  # a typed answer longer than this is not one of these forms; nothing below loops on more


class Unreadable(ValueError):
    """The text cannot be read in the expected form; the message says what to type."""


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_GROUPED = re.compile(r"[+-]?\d{1,3}(?:([,_ \u2009\u202f])\d{3})(?:\1\d{3})*(?:\.\d*)?")


def number(text: str) -> float:
    """A typed number: ``0.418``, ``-2``, ``1e-3``, ``4,096``, ``4 096``, ``4_096`` (one separator, groups of 3)."""
    text = text.strip()
    if len(text) > MAX_CHARS:
        raise Unreadable("type a number, e.g. 0.418 (no units)")
    if _GROUPED.fullmatch(text):
        text = re.sub(r"[,_ \u2009\u202f]", "", text)
    try:
        value = float(text)
    except ValueError:
        if "," in text:
            raise Unreadable("type a number with a decimal point, e.g. 0.418; a comma only between groups of "
                             "three digits, e.g. 4,096") from None
        raise Unreadable("type a number, e.g. 0.418 (no units)") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise Unreadable("type a finite number, e.g. 0.418")
    return value


def text(typed: str) -> str:
    """Case- and whitespace-insensitive form of a short text answer."""
    return re.sub(r"\s+", "", typed).casefold()


def _integers(typed: str, separators: str, what: str, example: str) -> list[int]:
    if len(typed) > MAX_CHARS:
        raise Unreadable(f"type {what} as integers, e.g. {example}")
    inner = typed.strip()
    pairs = {"(": ")", "[": "]", "{": "}"}
    if inner[:1] in pairs and inner.endswith(pairs[inner[0]]):
        inner = inner[1:-1]
    parts = [part for part in re.split(separators, inner.strip()) if part]
    if not parts or not all(part.isdecimal() for part in parts):  # isdecimal: no '²' reaching int()
        raise Unreadable(f"type {what} as integers, e.g. {example}")
    return [int(part) for part in parts]


def shape(typed: str) -> tuple[int, ...]:
    """``(10, 32)``, ``[10, 32]``, ``10x32``, ``10 × 32``, ``10 by 32``, ``(10,)`` -> ``(10, 32)``: order matters."""
    return tuple(_integers(typed.casefold(), r"\s*(?:,|x|×|\*|\bby\b)\s*|\s+", "a shape", "(10, 32)"))


def integer_set(typed: str) -> frozenset[int]:
    """``0, 1, 2``, ``[2, 1, 0]``, ``{0 1 2}``, ``0; 1 and 2`` -> ``{0, 1, 2}``: order does not matter."""
    return frozenset(_integers(typed.casefold(), r"\s*(?:[,;]|\band\b)\s*|\s+", "the numbers", "0, 1, 2"))


_SPELLED = [(r"\\cdot|\\times|[·⋅×∙]|\*(?!\*)", "*"), (r"\*\*", "^"), (r"\\log", "log"), (r"\\left|\\right", ""),
            (r"\^\{(\d+)\}", r"^\1"), (r"_\{(\w+)\}", r"_\1")]
_OUTER = re.compile(r"^(?:o|θ|\\theta|big-?o)\s*\((.*)\)$")
_FACTOR = re.compile(r"(log)\s*\(?\s*([a-z](?:_[a-z0-9]+)?)\s*\)?|([a-z](?:_[a-z0-9]+)?)|(\d+(?:\.\d+)?)")
BigO = frozenset  # of terms; a term is a frozenset of (factor, exponent) pairs


def big_o(typed: str) -> BigO:
    """A big-O expression as a set of terms, each a product of factors with exponents, constants dropped:
    ``O(d*n^2)``, ``O(n**2 d)``, ``O(n^2 \\cdot d)``, ``O(n·n·d)`` and ``n² d`` are all ``{{n: 2, d: 1}}``."""
    example = "O(n^2 d)"
    if len(typed) > MAX_CHARS:
        raise Unreadable(f"type a big-O expression, e.g. {example}")
    # a superscript digit right after a factor is an exponent: n²d -> n^2d (after translate, '²' is '2')
    work = re.sub(r"([a-z])([⁰¹²³⁴⁵⁶⁷⁸⁹])", r"\1^\2", typed.strip().casefold()).translate(_SUPERSCRIPTS)
    for pattern, replacement in _SPELLED:
        work = re.sub(pattern, replacement, work)
    outer = _OUTER.match(work.strip())
    if outer:
        work = outer.group(1)
    terms = set()
    for term in work.split("+"):
        terms.add(_term(term, example))
    return frozenset(terms)


def _term(term: str, example: str) -> frozenset:
    powers: Counter = Counter()
    position, sign = 0, 1
    term = term.strip()
    if not term:
        raise Unreadable(f"type a big-O expression, e.g. {example}")
    while position < len(term):
        char = term[position]
        if char in " *":
            position += 1
            continue
        if char == "/":
            sign, position = -1, position + 1
            continue
        found = _FACTOR.match(term, position)
        if not found:
            raise Unreadable(f"cannot read {term[position:]!r} in a big-O expression; type e.g. {example}")
        position = found.end()
        exponent = 1
        power = re.match(r"\s*\^\s*(\d+)", term[position:])
        if power:
            exponent, position = int(power.group(1)), position + power.end()
        if found.group(4) is not None:  # a constant factor: O ignores it
            sign = 1
            continue
        name = f"log {found.group(2)}" if found.group(1) else found.group(3)
        powers[name] += sign * exponent
        sign = 1
    return frozenset((name, power) for name, power in powers.items() if power)


_READERS = {Form.TEXT: text, Form.SHAPE: shape, Form.SET: integer_set, Form.BIG_O: big_o}


def read(form: Form, typed: str):
    """The comparable value of ``typed`` in ``form``; raises ``Unreadable``."""
    return _READERS[form](typed)


def spellings(form: Form, written: str) -> list[str]:
    """Common ways to type ``written`` (an accepted form), for an LMS that compares text: the terminal quiz
    compares values, Moodle and Canvas compare strings."""
    if form is Form.SHAPE or form is Form.SET:
        numbers = [str(n) for n in (shape(written) if form is Form.SHAPE else sorted(integer_set(written)))]
        joined = [", ".join(numbers), ",".join(numbers)]
        out = [f"({joined[0]})", f"[{joined[0]}]", joined[0], f"({joined[1]})", f"[{joined[1]}]", joined[1]]
        if form is Form.SHAPE:
            out += ["x".join(numbers), " x ".join(numbers), "×".join(numbers), " × ".join(numbers)]
        else:
            out += [" ".join(numbers), f"{{{joined[0]}}}"]
        return list(dict.fromkeys(out))
    if form is Form.BIG_O:
        terms = sorted(big_o(written), key=sorted)
        if len(terms) != 1:
            return [written]
        factors = sorted(terms[0], key=lambda pair: (-pair[1], pair[0]))
        out = []
        for power_mark in ("^", "**"):
            for joiner in (" ", "*", "", "·"):
                for order in (factors, factors[::-1]):
                    body = joiner.join(name + (f"{power_mark}{power}" if power != 1 else "") for name, power in order)
                    out.append(f"O({body or '1'})")
        return list(dict.fromkeys([written, *out]))
    return [written]
