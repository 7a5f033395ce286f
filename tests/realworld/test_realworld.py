"""The realistic corpus, graded through ``attnkit grade`` (one run per course: an entry's exercise and the exercises
that use it, ``measure.courses``): a ratchet on how the feedback holds up.

The figures asserted here are what held when the corpus was written (commit 5e32aad, 2026-11-25);
each is a floor or a ceiling that later work may only improve. Issue 11's targets are in the comments:
when a target is reached, tighten the number here so it cannot slip back.
"""
import os
import re
from pathlib import Path

import pytest

from tests.realworld import measure

pytestmark = pytest.mark.slow
NEW_MISTAKES = Path(__file__).with_name("NEW_MISTAKES.md")

# Correct entries the kit does not give full marks today, and why (target: none).
# (tiled_attention_01, a FlashAttention-1 form with several (n_q, block) temporaries, was over the memory
# budget at blocks of 64 keys; the memory check uses blocks of 32 since, where it peaks at 2.9 MiB of 4.)
KNOWN_FALSE_FAILS: set[str] = set()
# Buggy entries that lose no point in their own exercise today (target: none). The four in-place and aliasing
# entries were caught once the sandbox reported arguments modified in place and arrays a cache kept (issue 11
# item 4).
KNOWN_UNCAUGHT: set[str] = set()
# Buggy entries whose feedback names only OTHER mistakes (a wrong cause; target: none). At commit 5e32aad one
# (an unguarded softmax called "masked and renormalised after the softmax"); none since mistakes must differ
# from the reference on the call to be named (grader.compare.explains). New wrong causes fail this test.
KNOWN_MISNAMED: set[str] = set()
NAMED_FLOOR = 57 / 57       # measured: 57 of 57 buggy entries named (53 before issue 11 item 4; 27 at 5e32aad)
# measured: 0 points lost in the corpus's other exercises (target: 0, reached). It was 172 while every exercise
# ran the student's own siblings; `attnkit grade` answers sibling calls with the reference since (issue 11 item 1).
CASCADE_CEILING = 0


@pytest.fixture(scope="module")
def report():
    """The corpus graded with a worker per core this process may use (the suite pins each of its workers to one
    core, where a second grading worker only adds its own start and switches: 75 -> 68 s on one core)."""
    return measure.measure(jobs=max(1, min(2, len(os.sched_getaffinity(0)))))


def test_corpus_is_well_formed():
    entries = measure.load_corpus()
    assert len(entries) >= 40
    correct = [e for e in entries if e.mistake is None]
    assert 0.25 <= len(correct) / len(entries) <= 0.45, "about a third of the corpus is correct code"
    for entry in entries:
        assert entry.path.read_text(encoding="utf-8").startswith('"""'), f"{entry.name}: header docstring"
        if entry.mistake is not None:
            assert re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", entry.mistake), f"{entry.name}: id {entry.mistake!r}"


def test_each_entry_is_graded_in_its_exercise_and_every_exercise_that_uses_it():
    from grader import curriculum

    entries = measure.load_corpus()
    grouped = measure.courses(entries)
    assert sorted(e.name for _, members in grouped for e in members) == sorted(e.name for e in entries)
    for course, members in grouped:
        assert course == [e for e in curriculum.ids() if e in course]  # the curriculum's order
        for entry in members:
            assert entry.exercise in course
            users = [e for e in curriculum.ids() if set(curriculum.prerequisites(e)) & set(course)]
            assert set(users) <= set(course), (entry.name, sorted(set(users) - set(course)))
    assert len(grouped) > 1 and any("attention" in course and "softmax" not in course for course, _ in grouped)


def test_every_expected_id_is_defined_or_proposed():
    """Each expected mistake id is in the kit (grader/mistakes) or proposed with a hint in NEW_MISTAKES.md."""
    defined = set()
    for path in (measure.ROOT / "grader" / "mistakes").glob("*.py"):
        defined.update(re.findall(r"[\"']([a-z0-9_]+)[\"']", path.read_text(encoding="utf-8")))
    proposed = set(re.findall(r"^## `([a-z0-9_]+)`", NEW_MISTAKES.read_text(encoding="utf-8"), flags=re.M))
    missing = {e.mistake for e in measure.load_corpus() if e.mistake} - defined - proposed
    assert not missing, f"expected ids neither in grader/mistakes nor in NEW_MISTAKES.md: {sorted(missing)}"


def test_reference_gets_full_marks(report):
    assert report.reference_full_marks


def test_correct_entries_get_full_marks(report):
    lost = {o.entry.name for o in report.correct if not o.full_marks}
    assert lost <= KNOWN_FALSE_FAILS, f"correct code lost points: {sorted(lost - KNOWN_FALSE_FAILS)}"
    fixed = KNOWN_FALSE_FAILS - lost
    assert not fixed, f"now at full marks, remove from KNOWN_FALSE_FAILS: {sorted(fixed)}"


def test_every_bug_loses_points_in_its_own_exercise(report):
    uncaught = {o.entry.name for o in report.buggy if not o.caught}
    assert uncaught <= KNOWN_UNCAUGHT, f"bugs that now get full marks: {sorted(uncaught - KNOWN_UNCAUGHT)}"
    fixed = KNOWN_UNCAUGHT - uncaught
    assert not fixed, f"now caught, remove from KNOWN_UNCAUGHT: {sorted(fixed)}"


def test_named_rate_does_not_fall(report):
    # target (issue 11): at least 90% of the buggy entries named in their own exercise
    assert report.named_rate >= NAMED_FLOOR, measure.format_report(report)


def test_no_new_wrong_causes(report):
    misnamed = {o.entry.name for o in report.misnamed}
    assert misnamed <= KNOWN_MISNAMED, f"feedback names the wrong mistake for: {sorted(misnamed - KNOWN_MISNAMED)}"


def test_cascade_points_do_not_grow(report):
    # target (issue 11): 0 points lost in exercises that contain only correct code
    assert report.cascade_points <= CASCADE_CEILING, measure.format_report(report)


def test_every_mechanism_is_counted_apart():
    """The measure tool counts the named entries per mechanism: every generic family, the own catalogue and the
    shared pieces' mistakes each have a name of their own."""
    cases = {("input_tail_ignored", "tiled_attention"): "trailing part ignored",
             ("axis_tail_ignored", "linear_attention"): "trailing part ignored",
             ("scale_by_other_size", "attention"): "scale by another size",
             ("values_transposed", "attention_backward"): "transposed as a whole",
             ("other_algorithm", "linear_attention"): "another algorithm",
             ("shape_transposed", "kv_cache"): "shape", ("shape_rank_dependent", "gqa"): "rank that works",
             ("setting_applied", "attention"): "settings",
             ("error_matmul_shapes", "multihead"): "exception from the failing line",
             ("attention_no_scale+attention_mask_inverted", "attention"): "two mistakes at once",
             ("attention_no_scale", "attention"): "own catalogue",
             ("softmax_wrong_axis", "attention"): "concept (shared piece)"}
    assert {case: measure.mechanism_of(*case) for case in cases} == cases


def test_held_out_set_3_is_well_formed():
    """Held-out set #3 (issue 21, round three): at least 34 buggy entries and 3 correct ones, at least 8 buggy ones in
    part three, every exercise covered, every expected id defined (a catalogue entry or a generic family)."""
    from grader import mistakes
    from grader.mistakes import generic, of_module

    entries = measure.load_corpus(Path(__file__).with_name("heldout3"))
    buggy = [e for e in entries if e.mistake]
    assert len(buggy) >= 34 and len(entries) - len(buggy) >= 3
    assert len([e for e in buggy if e.exercise in ("layers", "block", "gpt", "sampling", "training")]) >= 8
    assert {e.exercise for e in entries} == set(measure.exercise_modules())
    known = set(mistakes.all_mistakes()) | {m.id for m in of_module(generic)}
    assert {e.mistake for e in buggy} <= known, {e.mistake for e in buggy} - known


def test_held_out_set_4_is_well_formed():
    """Held-out set #4 (written after the 2026-11-27 mechanisms were frozen: numbers diagnosed as arrays, draws from a
    generator diagnosed on copies, check diagnosing the failure it shows): 10 buggy entries in training, sampling and
    gpt and 2 correct ones, every expected id defined. Measured when written: 10/10 caught in their own exercise,
    6/10 named, cascade 0 (the closing note of that stop says why the other four were not)."""
    from grader import mistakes

    entries = measure.load_corpus(Path(__file__).with_name("heldout4"))
    buggy = [e for e in entries if e.mistake]
    assert len(buggy) == 10 and len(entries) - len(buggy) == 2
    assert {e.exercise for e in entries} == {"training", "sampling", "gpt"}
    assert {e.mistake for e in buggy} <= set(mistakes.all_mistakes())


def test_held_out_set_5_is_well_formed():
    """Held-out set #5 (written after the rule for wrong discrete values under ``attnkit check`` was frozen): 7 buggy
    entries of the exercises sampling builds on (layers, block, gpt), every expected id defined. Measured when
    written: what sampling's token checks name with each bug upstream (4 of 5 unrelated mistakes before the rule,
    none after; tests/realworld/README.md)."""
    from grader import mistakes

    entries = measure.load_corpus(Path(__file__).with_name("heldout5"))
    assert len(entries) == 7 and all(e.mistake for e in entries)
    assert {e.exercise for e in entries} == {"layers", "block", "gpt"}
    assert {e.mistake for e in entries} <= set(mistakes.all_mistakes())
