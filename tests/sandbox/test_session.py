"""One GradingSession per submission: its notes are its own (never another submission's), its files go with it."""
import shutil

from grader.results import Note, NoteKind
from grader.sandbox import GradingSession, Limits, Sandbox, SubmissionReport


def test_a_sessions_notes_are_its_own_and_its_files_go_with_it(submission, tmp_path):
    without_softmax = tmp_path / "without_softmax"
    shutil.copytree(submission(), without_softmax)
    (without_softmax / "softmax.py").unlink()
    with Sandbox(Limits(timeout=10)) as sandbox:
        with sandbox.session(without_softmax) as first:
            assert isinstance(first, GradingSession)
            failure = first.import_failure("softmax", "softmax")
            root = first.workspace.root
        assert failure is not None and "softmax" in failure.message
        assert not root.exists()
        assert isinstance(first.report, SubmissionReport)
        assert first.report.notes == (Note(NoteKind.MISSING_MODULE, "softmax.py"),)
        assert first.report.seconds["softmax"] > 0  # the import request counts against the exercise's budget
        with sandbox.session(submission()) as second:
            assert second.import_failure("softmax", "softmax") is None
        assert second.report.notes == ()


def test_the_report_names_no_private_workspace_path(submission):
    with Sandbox() as sandbox, sandbox.session(submission()) as session:
        session.workspace.problems.append(Note(NoteKind.IMPORT_ERROR,
                                               f"{session.workspace.submission}/softmax.py: SyntaxError"))
        assert session.report.notes == (Note(NoteKind.IMPORT_ERROR, "softmax.py: SyntaxError"),)
