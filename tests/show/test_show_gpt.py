"""``attnkit show gpt``: the student's own generate writes text with the shipped tiny GPT-2 (here: the reference
solutions as the student's modules), and a stub gives one "blocked by" line, no traceback."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grader import tiny_gpt
from solutions.gpt import gpt_forward
from solutions.sampling import generate, sampling_probs
from tests.show.showkit import assert_real_picture, show

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS, STUBS = REPO / "solutions", REPO / "exercises"


@pytest.fixture(scope="module")
def written():
    return show("gpt", "--impl", SOLUTIONS, "--prompt", "Attention ", "--n-new", 20, "--temperature", 0.9,
                "--top-k", 12, "--top-p", 0.9, "--seed", 3)


def test_prints_the_text_the_reference_generate_writes(written):
    model = tiny_gpt.load()
    prompt = model.encode("attention ")
    greedy = model.decode(generate(prompt, model.params, model.n_head, 20))
    sampled_ids = generate(prompt, model.params, model.n_head, 20, np.random.default_rng(3), temperature=0.9,
                           top_k=12, top_p=0.9)
    assert written.status == 0, written.err
    assert f"greedy:  {greedy!r}" in written.out
    assert f"sampled: {model.decode(sampled_ids)!r} (temperature 0.9, top-k 12, top-p 0.9, seed 3)" in written.out
    probs = sampling_probs(gpt_forward(sampled_ids[:-1], model.params, model.n_head)[-1], 0.9, 12, 0.9)
    best = int(np.argmax(probs))
    shown = "' '" if model.vocabulary[best] == " " else model.vocabulary[best]
    assert f"{shown:>3} {probs[best]:6.3f}" in written.out
    assert f"({np.count_nonzero(probs)} of {len(probs)} characters kept by the filters)" in written.out
    assert written.out.rstrip().endswith("your code wrote this.")


def test_the_stubs_give_one_blocked_by_line():
    run = show("gpt", "--impl", STUBS)
    assert run.status == 1
    assert run.out.startswith("attnkit show gpt: blocked by exercise sampling: not implemented yet (implement "
                              "generate: ")
    assert run.out.count("\n") == 1 and "Traceback" not in run.out + run.err


def test_a_png_of_the_last_distribution(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("PIL")
    path = tmp_path / "gpt.png"
    run = show("gpt", "--impl", SOLUTIONS, "--n-new", 5, "-o", path)
    assert run.status == 0, run.err
    assert run.out == f"wrote {path}\n"
    assert_real_picture(path, (800, 500), min_bytes=10_000, min_colours=20)


@pytest.mark.parametrize("argv, message", [
    (("--prompt", "attention!"), "--prompt: the tiny model knows only the characters"),
    (("--prompt", ""), "--prompt has 0 characters; the tiny model reads 1 to"),
    (("--n-new", 400), "--n-new 400: after a prompt of 10 characters the model has room for 1 to"),
    (("--top-p", 1.5), "--top-p 1.5: use a mass in (0, 1]."),
    (("--temperature", -1), "--temperature -1: use a finite number >= 0"),
    (("--impl", "no/such/folder"), "--impl no/such/folder: no such folder"),
])
def test_bad_arguments_are_one_line(argv, message):
    run = show("gpt", "--impl", SOLUTIONS, *argv)
    assert run.status == 2
    assert run.err.startswith(f"attnkit show: {message}") and run.err.count("\n") == 1
    assert run.out == ""
