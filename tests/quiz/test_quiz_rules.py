"""The round-two validate rules, each broken by a bank: the message names the file, line and question id."""
import pytest

from attnkit.quiz import main
from attnkit.quiz.bank import BankError, load_bank

from .test_quiz_validation import entry, write

HARD = "".join(entry(f"hard-{number}", "type: true_false\nanswer: true\n").replace("easy", "hard")
               for number in range(3))


def problems_of(*paths):
    with pytest.raises(BankError) as caught:
        load_bank(paths, against_shipped=True, schema_too=True)
    return caught.value.problems


def bank(tmp_path, body, name="mine.yaml", topic="softmax"):
    return write(tmp_path, name, f"topic: {topic}\nquestions:\n" + body)


def test_a_multiple_answer_question_needs_two_wrong_choices(tmp_path):
    path = bank(tmp_path, entry("all-but-one", """\
        type: multiple
        choices: [a, b, c, d]
        answer: [a, b, c]
    """))
    (problem,) = problems_of(path)
    assert (problem.file, problem.line, problem.qid) == (str(path), 10, "all-but-one")
    assert "at least two wrong choices, not 1" in problem.message


def test_two_wrong_choices_are_enough(tmp_path):
    path = bank(tmp_path, entry("fair-multi", """\
        type: multiple
        choices: [a, b, c, d]
        answer: [a, b]
    """))
    assert load_bank([path], against_shipped=True, schema_too=True).get("fair-multi").answer == ("a", "b")


@pytest.mark.parametrize("answer,what,form", [
    ('"(10, 32)"', "a shape or a set of integers", "shape"), ('"[0, 1, 2]"', "a shape or a set", "set"),
    ("O(n^2 d)", "a big-O expression", "big_o"), ('["softmax", "O(n d)"]', "big-O", "big_o")])
def test_a_shape_set_or_big_o_answer_written_as_text_is_refused(tmp_path, answer, what, form):
    path = bank(tmp_path, entry("as-text", f"type: short\nanswer: {answer}\n"))
    (problem,) = problems_of(path)
    assert (problem.line, problem.qid) == (10, "as-text")
    assert what in problem.message and f"form: {form}" in problem.message


@pytest.mark.parametrize("form,answer,expected", [
    ("shape", '["(10, 32)", "(32, 10)"]', "different shapes"), ("big_o", '["O(n^2 d)", "O(n d)"]', "different big_os"),
    ("set", '"0, one, 2"', "is not a set"), ("big_o", '"O(n ? d)"', "is not a big_o")])
def test_structural_answers_must_read_and_agree(tmp_path, form, answer, expected):
    path = bank(tmp_path, entry("structural", f"type: short\nform: {form}\nanswer: {answer}\n"))
    (problem,) = problems_of(path)
    assert problem.qid == "structural" and expected in problem.message


def test_form_is_only_for_short_answers_and_named_forms(tmp_path):
    path = bank(tmp_path, entry("odd-form", "type: true_false\nform: shape\nanswer: true\n")
                + entry("bad-form", "type: short\nform: matrix\nanswer: x\n"))
    messages = {problem.qid: problem.message for problem in problems_of(path)}
    assert "'form' is only for short questions" in messages["odd-form"]
    assert "'form' must be one of: text, shape, set, big_o" in messages["bad-form"]


def test_a_fixed_question_may_not_be_an_instance_of_a_generator(tmp_path):
    path = bank(tmp_path, entry("n-heads-copy", """\
        type: numeric
        prompt: d_model = 512 is split over 8 heads. What is each head's width?
        answer: 64
        tolerance: 0
    """).replace("    prompt: A prompt.\n", "", 1) + entry("n-heads-gen", """\
        type: numeric
        prompt: d_model = {d_model} is split over {n_heads} heads. What is each head's width?
        generator: head_dim
        tolerance: 0
    """).replace("    prompt: A prompt.\n", "", 1) + HARD)
    (problem,) = problems_of(path)
    assert (problem.qid, problem.line) == ("n-heads-copy", 3)
    assert "asks what generated question 'n-heads-gen'" in problem.message and "answer 64" in problem.message


def test_the_same_numbers_with_another_answer_are_not_a_repeat(tmp_path):
    path = bank(tmp_path, entry("n-heads-other", """\
        type: numeric
        prompt: d_model = 512 is split over 8 heads. How many heads?
        answer: 8
        tolerance: 0
    """).replace("    prompt: A prompt.\n", "", 1) + entry("n-heads-gen", """\
        type: numeric
        prompt: d_model = {d_model} is split over {n_heads} heads. What is each head's width?
        generator: head_dim
        tolerance: 0
    """).replace("    prompt: A prompt.\n", "", 1) + HARD)
    assert len(load_bank([path], against_shipped=True, schema_too=True).questions) == 5


def test_a_topic_needs_three_hard_questions(tmp_path, capsys):
    path = bank(tmp_path, entry("only-easy", "type: true_false\nanswer: true\n")
                + entry("one-hard", "type: true_false\nanswer: false\n").replace("easy", "hard"),
                topic="softmax", name="softmax.yaml")  # stands in for the shipped softmax bank
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:1: topic 'softmax' has 1 hard question; a topic needs at least 3" in err


def test_shipped_hard_questions_count_for_a_new_file_of_their_topic(tmp_path):
    path = bank(tmp_path, entry("extra-easy", "type: true_false\nanswer: true\n"))
    assert load_bank([path], against_shipped=True, schema_too=True).get("extra-easy").difficulty == "easy"


def test_every_question_is_tagged_with_a_difficulty(tmp_path):
    path = bank(tmp_path, entry("no-level", "type: true_false\nanswer: true\n").replace("    difficulty: easy\n", ""))
    (problem,) = problems_of(path)
    assert problem.qid == "no-level" and "'difficulty' must be one of: easy, medium, hard" in problem.message


@pytest.mark.parametrize("key,body,expected", [
    ("mistakes", "type: true_false\nanswer: true\nmistakes: ~\n", "'mistakes' must be a list of mistake ids"),
    ("generator", "type: numeric\nanswer: 1\ntolerance: 0\ngenerator: ~\n", "'generator' has no value")])
def test_an_optional_field_left_empty_is_refused_as_the_schema_refuses_it(tmp_path, key, body, expected):
    path = bank(tmp_path, entry("empty-field", body))
    with pytest.raises(BankError) as plain:  # what a session sees, without the JSON schema
        load_bank([path])
    assert any(expected in problem.message for problem in plain.value.problems)


def test_a_generators_instances_are_computed_once_per_process(tmp_path, monkeypatch):
    """Validating the shipped banks again (``attnkit quiz validate`` of several files, the fuzz tests) draws no
    generator variant again: a seed's variant never changes."""
    from attnkit.quiz import bankrules

    calls = []
    real = bankrules.generate
    monkeypatch.setattr(bankrules, "generate", lambda name, seed: calls.append(name) or real(name, seed))
    bankrules._instances_of.cache_clear()
    path = bank(tmp_path, HARD)
    load_bank([path], against_shipped=True, schema_too=True)
    first = len(calls)
    assert first >= bankrules.SEEDS  # the shipped banks have generated questions, each tried on SEEDS seeds
    load_bank([path], against_shipped=True, schema_too=True)
    assert len(calls) == first
