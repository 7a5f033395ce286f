"""Where the right answers sit in each export, read back from the exported text itself.

``correct_positions(fmt, text)`` returns one 0-based option position per right answer (a multiple-choice
question contributes one per right choice). Formats that show no options for a question type (GIFT's
TRUE/FALSE token, numeric, short answer, matching pairs) contribute nothing for it.
"""
import html
import json
import re
import xml.etree.ElementTree as ET


def _qti(text):
    positions = []
    for block in text.split("\n\n"):
        options = [line for line in block.splitlines() if re.match(r"^(\*?[a-z]\) |\[[* ]\] )", line)]
        positions += [index for index, line in enumerate(options) if line.startswith(("*", "[*]"))]
    return positions


def _gift(text):
    positions = []
    for kind, body in re.findall(r"^// \S+ \| (\w+) \|.*\n::.*\{\n((?:\t.*\n)*?)\t####", text, re.M):
        answers = body.splitlines()
        if kind == "single":
            positions += [index for index, line in enumerate(answers) if line.startswith("\t=")]
        elif kind == "multiple":
            positions += [index for index, line in enumerate(answers)
                          if float(re.match(r"\t~%(-?[\d.]+)%", line).group(1)) > 0]
    return positions


def _moodle(text):
    positions = []
    for node in ET.fromstring(text.encode()).findall("question"):
        if node.get("type") in ("multichoice", "truefalse"):
            fractions = [float(answer.get("fraction")) for answer in node.findall("answer")]
            positions += [index for index, fraction in enumerate(fractions) if fraction > 0]
    return positions


def _markdown(text):
    sheet, key = text.split("## Answer key", 1)
    answers = dict(re.findall(r"^\*\*(\d+)\.\*\* `[^`]+`: \*\*(.*)\*\*  $", key, re.M))
    positions = []
    for number, body in re.findall(r"^\*\*(\d+)\.\*\* (.*?)(?=^\*\*\d+\.\*\* |^---)", sheet, re.M | re.S):
        options = re.findall(r"^- (?:\( \)|\[ \]) (.*)$", body, re.M)
        if options:
            right = set(answers[number].split("; "))
            positions += [index for index, option in enumerate(options) if option in right]
    return positions


def _html(text):
    positions = []
    for kind, key in re.findall(r'<article class="q" [^>]*data-type="(\w+)" data-key="([^"]*)"', text):
        if kind in ("single", "multiple"):
            value = json.loads(html.unescape(key))
            positions += value if isinstance(value, list) else [value]
    return positions


PARSERS = {"qti": _qti, "gift": _gift, "moodle-xml": _moodle, "markdown": _markdown, "html": _html}


def correct_positions(fmt, text):
    return PARSERS[fmt](text)
