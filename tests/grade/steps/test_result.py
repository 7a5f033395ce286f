"""The submission step ``result``: the checks' results with the notes, or a refusal that keeps the maximum."""
from __future__ import annotations

from attnkit.grade.steps import result
from attnkit.grade.submissions import Intake
from grader.results import FAILED, PASSED, CheckResult, ExerciseResult, Note, NoteKind
from grader.runner import discover
from tests.grade.steps.stepkit import submission


def test_a_refusal_fails_every_check_of_the_course_with_the_reason(tmp_path):
    state = result.result(submission(tmp_path / "eve", tmp_path / "out", refusal="eve is a symbolic link"))
    refused = state.result
    specs = discover("softmax")
    assert refused.student == "alice" and refused.score == 0
    assert refused.max_score == sum(s.points for s in specs) > 0
    assert refused.problem == result.REFUSAL.format(reason="eve is a symbolic link")
    assert [c.name for c in refused.exercises[0].checks] == [s.name for s in specs]
    assert {(c.status, c.message) for c in refused.exercises[0].checks} == {(FAILED, refused.problem)}
    assert refused.notes == [Note(NoteKind.REFUSED, "eve is a symbolic link")]


def test_the_notes_are_the_skipped_entries_then_the_sandbox_s_problems(tmp_path):
    checks = [CheckResult("softmax", "test_sum", "sums to 1", 1, 2.0, 2.0, PASSED)]
    intake = Intake(files=[("Softmax (1).py", 10), ("masking.py", 10)],
                    skipped=["x.py (a FIFO (named pipe), not a file)"])
    state = submission(tmp_path / "bob", tmp_path / "out", intake=intake, modules=tmp_path / "m",
                       exercises=[ExerciseResult("softmax", checks)],
                       problems=[Note(NoteKind.MISSING_MODULE, "softmax.py"), Note(NoteKind.TIMEOUT, "masking: 10 s")])
    graded = result.result(state).result
    assert graded.problem == "" and graded.score == 2.0 and graded.exercises[0].checks == checks
    assert graded.notes == [Note(NoteKind.SKIPPED, "x.py (a FIFO (named pipe), not a file)"),
                            Note(NoteKind.MISSING_MODULE, "softmax.py (found instead: Softmax (1).py)"),
                            Note(NoteKind.TIMEOUT, "masking: 10 s")]


def test_found_instead_names_look_alikes_but_never_the_module_itself(tmp_path):
    modules = tmp_path / "m"
    intake = Intake(files=[("softmax.py", 1), ("sub/softmax2.py", 1), ("SOFTMAX_.py", 1), ("attention.py", 1)])
    note = result.found_instead(Note(NoteKind.MISSING_MODULE, "softmax.py"), modules, intake)
    assert note == Note(NoteKind.MISSING_MODULE, "softmax.py (found instead: sub/softmax2.py, SOFTMAX_.py)")
    other = Note(NoteKind.TIMEOUT, "softmax.py")
    assert result.found_instead(other, modules, intake) is other


def test_letters_keep_what_a_student_meant():
    assert result.letters("Softmax (1).py") == "softmax"
    assert result.letters("kv_cache copy 2.py") == "kv_cachecopy"
    assert result.letters("multihead") == "multihead"
