"""The shipped banks: valid, complete, citing every seed document."""
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
    assert capsys.readouterr().out.startswith("ok: 8 file(s)")


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
    assert defs["topic"]["enum"] == list(TOPICS), "quizzes/schema.json: make the topic enum the curriculum's ids"
    assert defs["document"]["enum"] == list(DOCUMENTS)


def test_size_and_types(bank):
    assert len(bank.questions) >= 60
    kinds = Counter(question.type for question in bank.questions)
    assert set(kinds) == set(TYPES)
    assert all(question.topic in TOPICS for question in bank.questions)
    assert {question.topic for question in bank.questions} == set(TOPICS)


def test_every_seed_document_is_cited(bank):
    cited = Counter(question.source.file for question in bank.questions)
    assert set(cited) == SEEDS, f"uncited: {SEEDS - set(cited)}; unknown: {set(cited) - SEEDS}"


def test_the_five_qa_questions_are_present(bank):
    for qid in QA_IDS:
        question = bank.get(qid)
        assert question.source.file == "004_40fbc8846b023c24.txt"
        assert "Q&A" in question.source.section


@pytest.mark.parametrize("needle", [
    "seven steps", "complexity", "comparison table", "RNN", "pitfall", "causal", "multi-head",
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
    question = bank.get("memory-4096")
    assert abs(4096 * 4096 * 4 / 2**20 - question.answer) <= question.tolerance
    assert Path(question.file).name == "tiled_attention.yaml"
