"""The shipped banks: valid, complete, citing every seed document."""
import re
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from attnkit.quiz import main
from attnkit.quiz.bank import default_dir, load_bank
from attnkit.quiz.model import DOCUMENTS, GENERAL_TOPIC, TOPICS, TYPES
from attnkit.quiz.yamlmarks import load
from grader import curriculum

SEEDS = set(DOCUMENTS)
QA_IDS = ["qa1-purpose", "qa2-why-scale", "qa3-self-vs-cross", "qa4-multihead-relation", "qa5-complexity"]


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def test_every_shipped_bank_validates(capsys):
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {len(TOPICS)} files, ")  # one bank per topic


def test_one_file_per_topic_and_schema_accepts_every_file():
    import json

    schema = json.loads((default_dir() / "schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    files = sorted(default_dir().glob("*.yaml"))
    assert {path.stem for path in files} == set(TOPICS)
    for path in files:
        data = load(path.read_text())
        jsonschema.validate(json.loads(json.dumps(data)), schema)
        assert data["topic"] == path.stem


def test_topics_and_the_schema_follow_the_curriculum():
    import json

    assert TOPICS == (*curriculum.ids(), GENERAL_TOPIC)
    defs = json.loads((default_dir() / "schema.json").read_text())["$defs"]
    assert "enum" not in defs["topic"]  # the curriculum is the only list of exercises; the validator checks topics
    assert all(re.fullmatch(defs["topic"]["pattern"], topic) for topic in TOPICS)
    assert defs["document"]["enum"] == list(DOCUMENTS)


def test_size_and_types(bank):
    assert len(bank.questions) >= 60
    kinds = Counter(question.type for question in bank.questions)
    assert set(kinds) == set(TYPES)
    assert all(question.topic in TOPICS for question in bank.questions)
    assert {question.topic for question in bank.questions} == set(TOPICS)


def test_every_seed_document_is_cited_and_papers_by_title_and_year(bank):
    cited = {question.source.document for question in bank.questions} - {""}
    assert SEEDS == cited, f"uncited: {SEEDS - cited}"
    papers = {question.source.paper for question in bank.questions} - {""}
    assert papers and all(re.fullmatch(r".+ \((19|20)\d\d\)", paper) for paper in papers), papers


def test_the_five_qa_questions_are_present(bank):
    for qid in QA_IDS:
        question = bank.get(qid)
        assert question.source.document == "004_40fbc8846b023c24.txt"
        assert "Q&A" in question.source.section


@pytest.mark.parametrize("needle", [
    "seven steps", "complexity", "convolution", "RNN", "pitfall", "causal", "multi-head",
    "RoPE", "Relative", "Learned", "sinusoidal", "4096", "KV cache", "Flash", "Sparse", "Linear attention",
    "applications", "What do I offer",
])
def test_coverage_of_the_seed_claims(bank, needle):
    text = " ".join(f"{q.prompt} {q.explanation} {q.source.section} {' '.join(q.choices)}".lower()
                    for q in bank.questions)
    assert needle.lower() in text


def test_generated_questions_exist_for_the_issue_examples(bank):
    generators = {question.generator for question in bank.questions if question.generated}
    assert {"softmax_max_weight", "attention_weight_0_2", "head_memory_mb"} <= generators


def test_choice_answers_are_consistent(bank):
    for question in bank.questions:
        if question.type == "single":
            assert question.answer in question.choices
        if question.type == "multiple":
            assert set(question.answer) <= set(question.choices)
        if question.type == "numeric":
            assert question.tolerance is not None


def test_memory_figure_matches_the_seed(bank):
    question = bank.get("memory-4096-floats")  # 4096 x 4096 floats, in millions of 10^6
    assert abs(4096 * 4096 / 1e6 - question.answer) <= question.tolerance
    assert Path(question.file).name == "tiled_attention.yaml"


# Phrases that send the reader to a document the kit does not ship ("as printed in 003", "the table").
DOCUMENT_REFERENCES = re.compile(
    r"\b00[0-4]\b|\d{3}_[0-9a-f]{16}|according to|\bthe (lesson|notes|chapter|walkthrough|notebook|text|document)\b"
    r"|\b(the|this|comparison|summary|breakdown) table\b|q&a|printed|\blisted\b|\bpitfall \d", re.I)


def test_no_question_needs_a_source_document_to_be_understood(bank):
    offending = []
    for question in bank.questions:
        for text in (question.prompt, question.explanation, *question.choices):
            found = DOCUMENT_REFERENCES.search(text)
            if found:
                offending.append(f"{question.file}:{question.line} {question.id}: {found.group(0)!r}")
    assert not offending, "state the fact instead of pointing at the document:\n" + "\n".join(offending)


def test_the_document_reference_pattern_catches_the_old_wording():
    for old in ("According to the training vs inference table, which statement is right?",
                "in 002's SelfAttention.forward, a mask entry of True", "as printed in the walkthrough's weights",
                "Q2 of the Q&A table", "Common pitfall 1, forgetting the scale factor"):
        assert DOCUMENT_REFERENCES.search(old), old


def single_choice(bank):
    return [q for q in bank.questions if q.type == "single" and len(q.choices) >= 3]


def test_the_right_option_is_not_given_away_by_its_length(bank):
    questions = single_choice(bank)

    def strictly(pick, question):
        lengths = sorted(len(choice) for choice in question.choices)
        extreme, runner_up = (lengths[-1], lengths[-2]) if pick is max else (lengths[0], lengths[1])
        return len(question.answer) == extreme != runner_up

    longest = [q.id for q in questions if strictly(max, q)]
    shortest = [q.id for q in questions if strictly(min, q)]
    assert len(longest) <= len(questions) / 4, f"right option strictly the longest: {longest}"
    assert len(shortest) <= len(questions) / 4, f"right option strictly the shortest: {shortest}"


def test_true_false_answers_are_balanced(bank):
    answers = Counter(q.answer for q in bank.questions if q.type == "true_false")
    assert min(answers[True], answers[False]) >= 0.4 * sum(answers.values()), answers


def test_predict_questions_are_about_an_exercise(bank):
    """"Predict, then run" asks for code of an exercise (how many each has: attnkit/devcheck/rules.py)."""
    assert {q.topic for q in bank.questions if q.predict} == set(curriculum.ids())


def test_the_bank_and_the_diagnosis_agree_on_how_an_all_masked_row_becomes_nan(bank):
    """Unshifted, exp(-inf) = 0 everywhere and the division is 0/0; shifted, -inf - (-inf) is NaN already."""
    from grader.mistakes.softmax import ALL_INF_NAN

    for text in (bank.get("predict-softmax-all-inf").explanation, ALL_INF_NAN.looks_like):
        assert "0/0" in text and "-inf - (-inf)" in text
    assert "0/0" in bank.get("cross-empty-source").explanation


def test_fixed_review_items_stay_fixed(bank):
    """Figures an expert review recomputed: what the questions state must match them."""
    uniform = bank.get("near-uniform-weights")
    assert "0.307" in uniform.prompt and "0.351" in uniform.prompt and "0.134" in uniform.explanation
    assert f"{64 * 2**30 / 1e9:.1f} GB" in bank.get("memory-32-heads-batch-32").explanation  # 64 GiB = 68.7 GB
    state = bank.get("linattn-state-size")
    assert state.answer == 32 * 48 != 4096  # d_k x d_v, and not n: one number per token would be marked right
    assert "output projection" not in " ".join(bank.get("why-multihead-table").answer)
    assert all(q.id != "translation-focus" for q in bank.questions)
