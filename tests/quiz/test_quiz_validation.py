"""Broken banks: each problem names the file, the line and the question id; nothing is half-loaded."""
import textwrap
from pathlib import Path

import pytest

from attnkit.quiz import main
from attnkit.quiz.bank import BankError, load_bank

MINI_PATH = Path(__file__).parent / "fixtures" / "mini.yaml"

GOOD = """\
topic: softmax
questions:
  - id: good-one
    topic: softmax
    type: single
    prompt: Pick a.
    choices: [a, b]
    answer: a
    explanation: It is a.
    source: {file: 002_5d842bf762d216d9.txt, section: In Code}
    difficulty: easy
"""


def entry(qid, body):
    head = f"""\
  - id: {qid}
    topic: softmax
    prompt: A prompt.
    explanation: Why.
    source: {{file: 002_5d842bf762d216d9.txt, section: In Code}}
    difficulty: easy
"""
    return head + textwrap.indent(textwrap.dedent(body), "    ")


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def problems_of(*paths):
    with pytest.raises(BankError) as caught:
        load_bank(paths)
    return caught.value.problems


def test_duplicate_id_names_both_places(tmp_path):
    first = write(tmp_path, "softmax.yaml", GOOD)
    second = write(tmp_path, "other.yaml", GOOD)
    (problem,) = problems_of(first, second)
    assert problem.qid == "good-one" and problem.line == 3 and problem.file.endswith("other.yaml")
    assert "duplicate id" in str(problem) and "softmax.yaml:3" in str(problem)


def test_answer_not_among_choices(tmp_path):
    path = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("bad-answer", """\
        type: single
        choices: [a, b]
        answer: c
    """))
    (problem,) = problems_of(path)
    assert (problem.qid, problem.line) == ("bad-answer", 11)
    assert str(problem).startswith(f"{path}:11: question 'bad-answer': answer 'c' is not among the choices")


def test_multiple_answer_not_among_choices(tmp_path):
    path = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("bad-multi", """\
        type: multiple
        choices: [a, b, c]
        answer: [a, d]
    """))
    (problem,) = problems_of(path)
    assert problem.line == 11 and "'d' is not among the choices" in problem.message


def test_missing_tolerance(tmp_path):
    path = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("no-tol", """\
        type: numeric
        answer: 3.5
    """))
    (problem,) = problems_of(path)
    assert (problem.qid, problem.line) == ("no-tol", 3)
    assert "missing 'tolerance'" in problem.message


def test_unknown_type(tmp_path):
    path = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("odd-type", """\
        type: essay
        answer: x
    """))
    (problem,) = problems_of(path)
    assert (problem.qid, problem.line) == ("odd-type", 9)
    assert "unknown type 'essay'" in problem.message


def test_bad_yaml_names_the_line(tmp_path):
    path = write(tmp_path, "bad.yaml", GOOD.replace("    prompt: Pick a.", "    prompt: Pick: a: b"))
    (problem,) = problems_of(path)
    assert problem.line == 6 and "bad YAML" in problem.message and str(path) in str(problem)


def test_unknown_field_suggests_the_right_one(tmp_path):
    path = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("typo", """\
        type: numeric
        answer: 1
        tolerence: 0.1
    """))
    messages = [str(problem) for problem in problems_of(path)]
    assert any(":11: question 'typo': unknown field 'tolerence' (did you mean 'tolerance'?)" in m for m in messages)


def test_unquoted_boolean_choice(tmp_path):
    path = write(tmp_path, "bad.yaml", GOOD.replace("[a, b]", "[yes, no]").replace("answer: a", "answer: 'yes'"))
    (problem,) = problems_of(path)
    assert "choice 1 is not a string" in problem.message and problem.line == 7


def test_generator_template_must_match_params(tmp_path):
    path = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("gen", """\
        type: numeric
        generator: head_memory_mb
        tolerance: 0.5
    """).replace("A prompt.", "n = {nn}"))
    (problem,) = problems_of(path)
    assert "uses nn" in problem.message and problem.qid == "gen"


def test_nothing_is_half_loaded(tmp_path):
    good = write(tmp_path, "softmax.yaml", GOOD)
    bad = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("no-tol", "type: numeric\nanswer: 1\n"))
    with pytest.raises(BankError):
        load_bank([good, bad])
    assert len(load_bank([good]).questions) == 1


def test_cli_validate_reports_and_fails_without_traceback(tmp_path, capsys):
    bad = write(tmp_path, "bad.yaml", "topic: softmax\nquestions:\n" + entry("no-tol", "type: numeric\nanswer: 1\n"))
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:3: question 'no-tol': missing 'tolerance'" in err
    assert "Traceback" not in err and "nothing was loaded" in err


def test_cli_usage_errors_are_clean(capsys):
    assert main(["export", "--format", "pdf", "-o", "x"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "Traceback" not in err


def test_explanation_given_as_a_number_is_not_called_missing(tmp_path):
    path = write(tmp_path, "bad.yaml", GOOD.replace("explanation: It is a.", "explanation: 8."))
    (problem,) = problems_of(path)
    assert problem.line == 9 and problem.message == "'explanation' must be text, not the number 8.0: put it in quotes"


@pytest.mark.parametrize("source,expected", [
    ("{file: 009_0000000000000000.txt, section: In Code}", "unknown source document '009_0000000000000000.txt'"),
    ("{file: 002_5d842bf762d216d8.txt, section: In Code}", "did you mean 002_5d842bf762d216d9.txt?"),
    ("{paper: Attention Is All You Need, year: seventeen, section: '3.2'}", "year must be a year"),
    ("{file: 002_5d842bf762d216d9.txt}", "'source' is {file: <document>, section: <section>}"),
])
def test_unknown_or_incomplete_source_is_rejected(tmp_path, source, expected):
    path = write(tmp_path, "bad.yaml", GOOD.replace("{file: 002_5d842bf762d216d9.txt, section: In Code}", source))
    (problem,) = problems_of(path)
    assert problem.line == 10 and expected in problem.message


@pytest.mark.parametrize("prompt", ["In the same example, what is the scaled score?",
                                    "With the same \"India is great\" scores, pick the largest weight.",
                                    "Using the matrix of the previous question, what is entry (0, 1)?",
                                    "As above, which axis does the softmax normalise?"])
def test_a_prompt_that_leans_on_another_question_is_refused(tmp_path, prompt):
    path = write(tmp_path, "bad.yaml", GOOD.replace("prompt: Pick a.", f"prompt: '{prompt}'"))
    (problem,) = problems_of(path)
    assert problem.line == 6 and "refers to another question" in problem.message


def test_a_prompt_may_say_the_same_about_its_own_setup(tmp_path):
    path = write(tmp_path, "ok.yaml", GOOD.replace("prompt: Pick a.",
                                                  "prompt: Does adding the same constant to every score change a?"))
    assert load_bank([path])


def test_a_paper_is_cited_by_title_and_year(tmp_path):
    path = write(tmp_path, "ok.yaml", GOOD.replace("{file: 002_5d842bf762d216d9.txt, section: In Code}",
                                                   "{paper: Attention Is All You Need, year: 2017, section: '3.2.1'}"))
    (question,) = load_bank([path]).questions
    assert str(question.source) == 'Attention Is All You Need (2017), "3.2.1"'


def test_duplicate_of_a_shipped_id_is_blamed_on_the_new_file(tmp_path, capsys):
    from attnkit.quiz.bank import default_dir

    shipped = default_dir() / "softmax.yaml"
    taken = load_bank([shipped]).questions[0]
    new = write(tmp_path, "mine.yaml", GOOD.replace("good-one", taken.id))
    for order in ([new, shipped], [shipped, new]):
        (problem,) = problems_of(*order)
        assert problem.file.endswith("mine.yaml") and problem.line == 3
        assert f"also defined at {taken.file}:{taken.line}" in problem.message
    assert main(["validate", str(new)]) == 1  # the shipped banks are consulted even when not named
    err = capsys.readouterr().err
    assert f"{new}:3: question '{taken.id}': duplicate id: also defined at" in err and "softmax.yaml" in err


def test_a_tab_in_the_indentation_says_to_indent_with_spaces(tmp_path):
    path = write(tmp_path, "bad.yaml", GOOD.replace("    type: single", "\ttype: single"))
    (problem,) = problems_of(path)
    assert problem.line == 5 and "indent with spaces, not tabs" in problem.message


def test_mistake_ids_are_checked_against_the_registry(tmp_path, capsys):
    path = write(tmp_path, "bad.yaml", GOOD.replace("    difficulty: easy", "    difficulty: easy\n"
                                                    "    mistakes: [softmax_no_max_subtractoin]"))
    (problem,) = problems_of(path)
    assert problem.line == 12 and "did you mean 'softmax_no_max_subtraction'?" in problem.message
    assert main(["validate", "--mistakes"]) == 0
    assert "softmax_no_max_subtraction" in capsys.readouterr().out


def test_predict_questions_belong_to_an_exercise(tmp_path):
    path = write(tmp_path, "bad.yaml", GOOD.replace("softmax", "concepts").replace(
        "    difficulty: easy", "    difficulty: easy\n    predict: true"))
    (problem,) = problems_of(path)
    assert "not an exercise" in problem.message


def test_the_complete_bank_example_in_the_docs_validates(tmp_path):
    import re

    docs = Path(__file__).resolve().parents[2] / "docs" / "quiz.md"
    (example,) = re.findall(r"```yaml\n(.*?)```", docs.read_text(), re.S)
    path = write(tmp_path, "mybank.yaml", example)
    assert main(["validate", str(path)]) == 0
    questions = load_bank([path]).questions
    assert {q.type for q in questions} == {"single", "numeric"} and any(q.predict for q in questions)
    assert any(q.mistakes for q in questions) and any("(2017)" in q.source.paper for q in questions)


def test_an_edited_copy_of_a_shipped_bank_stands_in_for_it(tmp_path):
    from attnkit.quiz.bank import default_dir

    copy = write(tmp_path, "softmax.yaml", (default_dir() / "softmax.yaml").read_text())
    assert main(["validate", str(copy)]) == 0


def test_validate_and_loading_agree_without_the_json_schema(tmp_path):
    """Sessions skip the JSON schema (its import is slow): the hand checks must refuse whatever it refuses."""
    from attnkit.quiz.bank import default_files

    for path in [*default_files(), MINI_PATH]:
        plain = load_bank([path])
        assert load_bank([path], against_shipped=True, schema_too=True).questions == plain.questions
    odd = write(tmp_path, "odd.yaml", GOOD.replace("    difficulty: easy", "    difficulty: easy\n    tags: [1, 2]"))
    (problem,) = problems_of(odd)
    assert "'tags' must be a list of words" in problem.message


def test_counts_of_one_are_singular(tmp_path, capsys):
    good = write(tmp_path, "mine.yaml", GOOD)  # a new file: the shipped softmax bank's hard questions count
    assert main(["validate", str(good)]) == 0
    assert capsys.readouterr().out == "ok: 1 file, 1 question (single 1)\n"
    assert main(["export", "--format", "markdown", "-o", str(tmp_path / "one.md"), "--bank", str(good)]) == 0
    assert "wrote 1 question (markdown)" in capsys.readouterr().out
