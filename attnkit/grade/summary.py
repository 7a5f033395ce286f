"""The class-level outputs: ``grades.csv``, ``summary.json`` and ``summary.txt`` (all atomic, deterministic)."""
from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

from grader import atomic
from grader.results import GRADER_ERROR, Note, NoteKind, SubmissionResult
from grader.text import printable

from .unnamed import shared_unnamed

TOP_MISTAKES = 10


def number(value: float) -> float | int:
    value = round(float(value), 6)
    return int(value) if value.is_integer() else value


def graded(results: list[SubmissionResult]) -> list[SubmissionResult]:
    """The students whose hand-in was graded: the one rule of every class figure (means, full marks, the
    histogram, the mistakes). A refused hand-in scores 0 in grades.csv and is listed, never averaged."""
    return [r for r in results if not r.problem]


def note(result: SubmissionResult | None, handed_in: dict[str, str], student: str) -> str:
    """grades.csv's ``note``: why a row is not an ordinary grade (refused, not graded), and which hand-in
    was graded when a student had two."""
    parts = [handed_in[student]] if student in handed_in else []
    if result is None:
        parts.append("not graded (the grader failed; re-run to retry)")
    elif result.problem:
        parts.append(f"refused: {next((n.detail for n in result.notes if n.kind is NoteKind.REFUSED), result.problem)}")
    return "; ".join(parts)


def grades_csv(results: list[SubmissionResult], exercise_ids: tuple[str, ...], missing: list[str] = (),
               handed_in: dict[str, str] | None = None) -> str:
    """student, score, max_score, one column per exercise, note; one row per student, sorted by student.

    ``missing`` students (the grader failed on them) get a row with empty cells; ``handed_in``: for a student
    with two hand-ins, which one was graded (:meth:`Entry.duplicates`), put in the note.
    """
    handed_in = handed_in or {}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "score", "max_score", *exercise_ids, "note"])
    rows = {r.student: r for r in results}
    for student in sorted(set(rows) | set(missing)):
        result = rows.get(student)
        if result is None:
            writer.writerow([student, "", "", *([""] * len(exercise_ids)), note(None, handed_in, student)])
            continue
        scores = {e.exercise: number(e.score) for e in result.exercises}
        writer.writerow([student, number(result.score), number(result.max_score),
                         *(scores.get(ex, "") for ex in exercise_ids), note(result, handed_in, student)])
    return buffer.getvalue()


def class_summary(results: list[SubmissionResult], exercise_ids: tuple[str, ...], errors: dict[str, str],
                  warnings: list[str], handed_in: dict[str, str] | None = None) -> dict:
    counted = graded(results)
    per_exercise = []  # a list, in curriculum order (the JSON's keys are sorted)
    for ex in exercise_ids:
        rows = [e for r in counted for e in r.exercises if e.exercise == ex]
        per_exercise.append({
            "exercise": ex,
            "mean": number(sum(e.score for e in rows) / len(rows)) if rows else 0,
            "max_score": number(max((e.max_score for e in rows), default=0)),
            "full_marks": sum(e.max_score > 0 and e.score == e.max_score for e in rows),
        })
    mistakes = Counter()
    for result in results:  # a mistake counts once per student
        mistakes.update({(c.exercise, c.mistake) for e in result.exercises for c in e.checks if c.mistake})
    ranked = sorted(mistakes.items(), key=lambda item: (-item[1], item[0]))[:TOP_MISTAKES]
    broken = Counter(f"{c.exercise}.{c.name}" for r in results for e in r.exercises for c in e.checks
                     if c.status == GRADER_ERROR)
    total = [r.score for r in counted]
    return {
        "students": len(results) + len(errors),
        "graded": len(counted),
        "refused": len(results) - len(counted),  # listed under problems; they score 0 in grades.csv
        "mean_score": number(sum(total) / len(total)) if total else 0,
        "max_score": number(max((r.max_score for r in results), default=0)),
        "exercises": per_exercise,
        "mistakes": [{"exercise": ex, "mistake": m, "students": n} for (ex, m), n in ranked],
        "unnamed": shared_unnamed(results),
        "problems": problems(results, errors, handed_in or {}),
        "grader_errors": [{"check": name, "students": n} for name, n in sorted(broken.items())],
        "warnings": list(warnings),
    }


def problems(results: list[SubmissionResult], errors: dict[str, str], handed_in: dict[str, str]) -> list[dict]:
    """Every submission with a problem, one row per problem: student, kind, detail (capped), sorted by student.

    Kinds: the values of :class:`grader.results.NoteKind` (the hand-ins' notes, then not_graded: the grader
    failed, a re-run retries; handed_in_twice: which hand-in was graded).
    """
    rows = [_row(s, Note(NoteKind.HANDED_IN_TWICE, line)) for s, line in handed_in.items()]
    for result in results:
        notes = result.notes or ([Note(NoteKind.REFUSED, result.problem)] if result.problem else [])
        rows += [_row(result.student, Note(n.kind, n.detail[:300])) for n in notes]
    rows += [_row(s, Note(NoteKind.NOT_GRADED, f"{message[:300]}; re-run to retry")) for s, message in errors.items()]
    return sorted(rows, key=lambda row: row["student"])


def _row(student: str, note: Note) -> dict:
    """A row of the summary's problems: the student, then the note's ``kind`` and ``detail``."""
    return {"student": student, **note.to_dict()}


def summary_text(summary: dict) -> str:
    refused = summary.get("refused", 0)
    counted = f" ({refused} refused: listed below, not in the figures)" if refused else ""
    lines = [f"{summary['graded']} of {summary['students']} submissions graded{counted}; "
             f"mean {summary['mean_score']:.1f}/{summary['max_score']:g}", "",
             f"{'exercise':<18}{'mean':>8}{'max':>7}{'full marks':>12}"]
    for row in summary["exercises"]:
        lines.append(f"{row['exercise']:<18}{row['mean']:>8.1f}{row['max_score']:>7g}{row['full_marks']:>12}")
    if summary["mistakes"]:
        lines += ["", "most frequent diagnosed mistakes (students):"]
        lines += [f"  {m['students']:>4}  {m['exercise']}: {m['mistake']}" for m in summary["mistakes"]]
    if summary.get("unnamed"):
        lines += ["", "wrong values shared by several students that no known mistake explains (worth naming):"]
        for u in summary["unnamed"]:
            more = f" and {len(u['checks']) - 1} more check(s)" if len(u["checks"]) > 1 else ""
            lines += [f"  {u['students']:>4}  {u['exercise']}: {u['check']}{more} (e.g. {u['example']})",
                      f"        {u['call']} returned {u['difference'][:160]}"]
    if summary["problems"]:
        lines += ["", "submissions with problems:"]
        lines += [f"  {p['student']}: {p['kind'].replace('_', ' ')}: {(p['detail'].splitlines() or [''])[0]}"
                  for p in summary["problems"]]
    if summary["grader_errors"]:
        lines += ["", "checks that failed on the grader's side (not the students' fault; please report):"]
        lines += [f"  {g['students']:>4}  {g['check']}" for g in summary["grader_errors"]]
    if summary["warnings"]:
        lines += ["", "left out of SUBMISSIONS:"] + [f"  {w}" for w in summary["warnings"]]
    return printable("\n".join(lines)) + "\n"  # names and details from hand-ins: no raw escape sequence


def write_all(out: Path, results: list[SubmissionResult], exercise_ids: tuple[str, ...],
              errors: dict[str, str], warnings: list[str], *, pictures: bool = True,
              handed_in: dict[str, str] | None = None) -> str:
    """Write grades.csv, summary.json, report.html (:mod:`attnkit.report`), summary.txt (and, with ``pictures``,
    the PNGs of attnkit.show.class_summary); returns the text. ``handed_in``: student -> which of their two
    hand-ins was graded."""
    from attnkit.report import write_report
    from attnkit.show.class_summary import drop_pictures, write_pictures  # matplotlib only when installed

    files = (Path(out) / "grades.csv", Path(out) / "summary.json")
    before = [_contents(path) for path in files]
    atomic.write_text(files[0], grades_csv(results, exercise_ids, list(errors), handed_in))
    summary = class_summary(results, exercise_ids, errors, warnings, handed_in)
    atomic.write_json(files[1], summary)
    unchanged = None not in before and before == [_contents(path) for path in files]
    drawn = write_pictures(Path(out), graded(results), summary, reuse=unchanged) + "\n" if pictures else ""
    if not pictures and not unchanged:
        drop_pictures(Path(out))
    text = summary_text(summary) + "\n" + drawn
    write_report(Path(out), results, summary, exercise_ids)
    atomic.write_text(Path(out) / "summary.txt", text)
    return text


def _contents(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None
