"""Correct implementations written differently from the reference (loops, einsum, lists) get full marks."""
import pytest

from grader.results import PASSED
from tests.grader.graderkit import ALTERNATIVES, copy_solutions, run

CASES = [
    ("softmax_two_pass.py", "softmax"),
    ("masking_loops.py", "masking"),
    ("attention_einsum.py", "attention"),
    ("multihead_loops.py", "multihead"),
    ("positional_loops.py", "positional"),
    ("kv_cache_list.py", "kv_cache"),
    ("tiled_attention_2d.py", "tiled_attention"),
    ("layers_var.py", "layers"),
    ("block_loops.py", "block"),
    ("gpt_einsum.py", "gpt"),
    ("sampling_choice.py", "sampling"),
]


@pytest.mark.parametrize("filename, exercise", CASES, ids=[c[0] for c in CASES])
def test_alternative_gets_full_marks(tmp_path, filename, exercise):
    impl = copy_solutions(tmp_path)
    (impl / f"{exercise}.py").write_text((ALTERNATIVES / filename).read_text())
    result = run(impl, exercise)
    failures = [(c.name, c.status, c.message) for c in result.checks if c.status != PASSED]
    assert not failures
    assert result.score == result.max_score


def test_alternatives_together(tmp_path):
    """Every alternative at once (attention on the two-pass softmax, multihead on einsum attention...)."""
    impl = copy_solutions(tmp_path)
    for filename, exercise in CASES:
        (impl / f"{exercise}.py").write_text((ALTERNATIVES / filename).read_text())
    for _, exercise in CASES:
        result = run(impl, exercise)
        assert result.score == result.max_score, [(c.name, c.message) for c in result.checks if c.status != PASSED]
