"""Exports: GIFT through an independent parser, Moodle XML checked structurally, golden files."""
import html
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from attnkit.quiz import main
from attnkit.quiz.bank import load_bank
from attnkit.quiz.exporting import expand, render
from attnkit.quiz.fractions import ALLOWED

HERE = Path(__file__).parent
MINI = str(HERE / "fixtures" / "mini.yaml")
GOLDEN = HERE / "golden"
SUFFIX = {"gift": "gift.txt", "moodle-xml": "moodle.xml", "markdown": "sheet.md", "qti": "text2qti.txt"}


def gift_unescape(text):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def parse_gift(text):
    """Parse with pygiftparserrgmf. Its FEEDBACK token ends at an escaped '\\=' (a parser bug; Moodle reads
    it fine), so the '####' general-feedback lines are checked separately and removed before parsing."""
    from pygiftparser import parser

    return parser.parse(re.sub(r"\n\t####[^\n]*", "", text)).questions


@pytest.mark.parametrize("fmt", sorted(SUFFIX))
def test_golden_files_for_the_fixture_bank(tmp_path, fmt, capsys):
    out = tmp_path / f"mini.{SUFFIX[fmt]}"
    assert main(["export", "--format", fmt, "--variants", "2", "-o", str(out), "--bank", MINI]) == 0
    assert "wrote 8 questions" in capsys.readouterr().out
    golden = GOLDEN / f"mini.{SUFFIX[fmt]}"
    if os.environ.get("ATTNKIT_UPDATE_GOLDEN"):
        golden.write_text(out.read_text())
    assert out.read_text() == golden.read_text()


@pytest.mark.parametrize("banks,variants", [([MINI], 2), (None, 3)])
def test_gift_round_trips_through_an_independent_parser(banks, variants):
    entries = expand(load_bank(banks).questions, variants)
    text = render(load_bank(banks).questions, "gift", variants)
    parsed = {question.name: question for question in parse_gift(text) if question.name in
              {entry.id for entry in entries}}
    assert len(parsed) == len(entries)
    kinds = {"single": "MultipleChoiceRadio()", "multiple": "MultipleChoiceCheckbox()", "true_false": "TrueFalse()",
             "numeric": "Numerical()", "short": "Short()", "ordering": "Matching()"}
    feedback = dict(re.findall(r"::((?:[^:\\]|\\.)+)::(?:.*\n)*?\t####([^\n]*)\n}", text))
    for entry in entries:
        question = parsed[entry.id]
        assert repr(question.answer) == kinds[entry.type], entry.id
        # the parser unescapes ~ = # { } : itself but leaves \\ and \n to the reader
        assert gift_unescape(question.text) == entry.prompt + (
            "\n(Match each item with its position, 1 = first.)" if entry.type == "ordering" else "")
        options = question.answer.options
        if entry.type == "single":
            assert [gift_unescape(o.text.strip()) for o in options if o.percentage == 1.0] == [entry.answer]
        if entry.type == "multiple":
            # read the weights from the raw option: the parser only understands integer percentages
            weights = [re.match(r"~%(-?[\d.]+)%(.*)$", o.raw_text.strip()).groups() for o in options]
            right = [gift_unescape(rest).strip() for percent, rest in weights if float(percent) > 0]
            assert sorted(right) == sorted(entry.answer)
            assert abs(sum(float(percent) for percent, _ in weights if float(percent) > 0) - 100) < 0.01
        if entry.type == "numeric":
            assert abs(question.answer.get_number() - entry.answer) < 1e-9
            assert question.answer.get_error_margin() == entry.tolerance
        if entry.type == "true_false":
            assert options[0].text == str(entry.answer)
        if entry.type == "short":
            assert [gift_unescape(o.text.strip()) for o in options] == list(entry.answer)
        if entry.type == "ordering":
            pairs = [question.answer.get_pair(o) for o in options]
            positions = {gift_unescape(p["first"]): int(p["second"]) for p in pairs}
            assert sorted(positions, key=positions.get) == list(entry.answer)
            assert [gift_unescape(p["first"]) for p in pairs] != list(entry.answer)  # listed out of order
        assert gift_unescape(feedback[entry.id]).startswith(entry.explanation)


def test_gift_escapes_special_characters():
    text = render(load_bank([MINI]).questions, "gift")
    assert r"a \{tricky\} \= prompt\: \#1 \~ \\ )" in text
    assert r"=\~ \= \# \{ \} \:" in text


@pytest.mark.parametrize("banks,variants", [([MINI], 2), (None, 2)])
def test_moodle_xml_is_structurally_sound(banks, variants):
    bank = load_bank(banks)
    entries = {entry.id: entry for entry in expand(bank.questions, variants)}
    text = render(bank.questions, "moodle-xml", variants)
    root = ET.fromstring(text.encode())
    assert root.tag == "quiz"
    questions = [q for q in root.findall("question") if q.get("type") != "category"]
    assert len(questions) == len(entries)
    assert sorted(q.findtext("name/text") for q in questions) == sorted(entries)
    assert text.count("<![CDATA[") >= 2 * len(entries)
    allowed_percent = {round(f * 100, 5) for f in ALLOWED}
    for node in questions:
        entry = entries[node.findtext("name/text")]
        assert node.get("type") == {"single": "multichoice", "multiple": "multichoice", "true_false": "truefalse",
                                    "numeric": "numerical", "short": "shortanswer", "ordering": "matching"}[entry.type]
        feedback = html.unescape(re.sub(r"<[^>]+>", " ", node.findtext("generalfeedback/text")))
        assert " ".join(entry.explanation.split()) in " ".join(feedback.split())
        fractions = [float(a.get("fraction")) for a in node.findall("answer")]
        assert all(round(f, 5) in allowed_percent for f in fractions), (entry.id, fractions)
        if entry.type == "single":
            assert sorted(fractions, reverse=True)[:2] == [100, 0] and node.findtext("single") == "true"
        if entry.type == "multiple":
            assert node.findtext("single") == "false"
            assert abs(sum(f for f in fractions if f > 0) - 100) < 0.01
        if entry.type == "numeric":
            (answer,) = node.findall("answer")
            assert float(answer.findtext("text")) == pytest.approx(entry.answer)
            assert float(answer.findtext("tolerance")) == entry.tolerance
        if entry.type == "ordering":
            assert len(node.findall("subquestion")) == len(entry.answer)


def test_cdata_survives_a_closing_sequence():
    root = ET.fromstring(render(load_bank([MINI]).questions, "moodle-xml").encode())
    feedback = [q.findtext("generalfeedback/text") for q in root.findall("question") if q.get("type") != "category"]
    assert any("]]&gt; must survive" in text for text in feedback)


def test_variants_give_k_fixed_versions():
    text = render(load_bank([MINI]).questions, "markdown", variants=3)
    assert [f"mini-generated-v{k}" in text for k in (1, 2, 3)] == [True] * 3


def test_export_to_an_unwritable_place_fails_cleanly(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    status = main(["export", "--format", "gift", "-o", str(blocker / "out.gift"), "--bank", MINI])
    err = capsys.readouterr().err
    assert status == 1 and "cannot write" in err and "Traceback" not in err
