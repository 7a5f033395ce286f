"""Grade the realistic corpus through ``attnkit grade`` and report how the kit's feedback holds up.

    python -m tests.realworld.measure [--messages N] [--keep DIR] [--kit DIR]

Every file of ``tests/realworld/corpus/`` implements one exercise module in a style seen in public
code (see ``SOURCES.md``) and says what it should be named for in a module-level
``EXPECTED = {"exercise": ..., "mistake": id or None}``. One submission is built per entry (a copy
of ``solutions/`` with that one module replaced), plus the untouched reference; all are graded in
one black-box ``attnkit grade`` run, and ``grades.csv`` and the per-student JSON are read back.

Printed: correct entries at full marks, buggy entries caught in their own exercise, points lost in
OTHER exercises (cascade), the named rate (the expected mistake id is carried by a check of the
entry's own exercise), a per-exercise breakdown and the table of misses with what the kit said.
``--kit DIR`` grades with another copy of the kit (e.g. ``git archive`` of an older commit, for
before/after figures): its ``solutions/``, its curriculum and its ``attnkit`` (run with
``PYTHONPATH=DIR`` by this interpreter).
"""
from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
REFERENCE = "_reference"  # the untouched solutions, graded alongside as a sanity check


@dataclass(frozen=True)
class Entry:
    """One corpus file and what it should get."""

    name: str          # file stem, also the student id of its submission
    path: Path
    exercise: str
    module: str
    mistake: str | None  # None: a correct implementation


@dataclass
class Graded:
    """What ``attnkit grade`` gave one submission, per exercise."""

    score: dict[str, float] = field(default_factory=dict)
    max_score: dict[str, float] = field(default_factory=dict)
    named: dict[str, set] = field(default_factory=dict)        # mistake ids carried by the exercise's checks
    messages: dict[str, list] = field(default_factory=dict)    # outputs of the exercise's failed checks

    def lost(self, exercise: str) -> float:
        return self.max_score.get(exercise, 0) - self.score.get(exercise, 0)


@dataclass
class Outcome:
    entry: Entry
    graded: Graded

    @property
    def full_marks(self) -> bool:
        return all(self.graded.lost(e) == 0 for e in self.graded.max_score)

    @property
    def caught(self) -> bool:
        return self.graded.lost(self.entry.exercise) > 0

    @property
    def cascade(self) -> float:
        """Points lost in every other exercise (part-two exercises that call this one included)."""
        return self.cascade_in(self.graded.max_score)

    def cascade_in(self, exercises) -> float:
        return sum(self.graded.lost(e) for e in exercises if e != self.entry.exercise and e in self.graded.max_score)

    @property
    def named(self) -> bool:
        """The expected id is carried (two mistakes at once, ``a+b``, in either order)."""
        carried = {"+".join(sorted(i.split("+"))) for i in self.graded.named.get(self.entry.exercise, set())}
        return self.entry.mistake is not None and "+".join(sorted(self.entry.mistake.split("+"))) in carried

    @property
    def misnamed(self) -> bool:
        """A buggy entry whose exercise feedback names only other mistakes (a wrong cause)."""
        return self.entry.mistake is not None and not self.named and bool(self.graded.named.get(self.entry.exercise))

    def said_instead(self, width: int = 150) -> str:
        ids = sorted(self.graded.named.get(self.entry.exercise, set()))
        if ids:
            return "named " + ", ".join(ids)
        messages = self.graded.messages.get(self.entry.exercise) or ["(no failed check)"]
        first = messages[0].strip().splitlines()[0] if messages[0].strip() else "(empty message)"
        return first if len(first) <= width else first[: width - 3] + "..."


@dataclass
class Report:
    outcomes: list[Outcome]
    reference_full_marks: bool
    seconds: float

    @property
    def correct(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.entry.mistake is None]

    @property
    def buggy(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.entry.mistake is not None]

    @property
    def covered(self) -> list[str]:
        """The exercises the corpus has entries for, in corpus order."""
        return list(dict.fromkeys(o.entry.exercise for o in self.outcomes))

    @property
    def cascade_points(self) -> float:
        """Points lost in other exercises of the corpus (a fixed basis while new exercises are added)."""
        return sum(o.cascade_in(self.covered) for o in self.outcomes)

    @property
    def cascade_points_all(self) -> float:
        """Points lost in every other exercise of the curriculum."""
        return sum(o.cascade for o in self.outcomes)

    @property
    def named_rate(self) -> float:
        return sum(o.named for o in self.buggy) / max(len(self.buggy), 1)

    @property
    def misnamed(self) -> list[Outcome]:
        return [o for o in self.buggy if o.misnamed]

    @property
    def misses(self) -> list[Outcome]:
        return [o for o in self.buggy if not (o.caught and o.named)]


def exercise_modules(kit: Path = ROOT) -> dict[str, str]:
    """Exercise id -> module name, from the kit's curriculum (the one list of exercises)."""
    data = yaml.safe_load((kit / "grader" / "curriculum.yaml").read_text(encoding="utf-8"))
    return {item["id"]: item.get("module", item["id"]) for item in data["exercises"]}


def expected_of(path: Path) -> dict:
    """The module-level ``EXPECTED`` literal of a corpus file, read without running the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EXPECTED" for t in node.targets):
            return ast.literal_eval(node.value)
    raise ValueError(f"{path}: no module-level EXPECTED = {{...}}")


def load_corpus(corpus: Path = CORPUS, kit: Path = ROOT) -> list[Entry]:
    modules = exercise_modules(kit)
    entries = []
    for path in sorted(corpus.glob("*.py")):
        expected = expected_of(path)
        exercise = expected["exercise"]
        if exercise not in modules:
            raise ValueError(f"{path.name}: unknown exercise {exercise!r} (curriculum: {', '.join(modules)})")
        entries.append(Entry(path.stem, path, exercise, modules[exercise], expected.get("mistake")))
    return entries


def build_submissions(entries: list[Entry], folder: Path, kit: Path = ROOT) -> None:
    """One folder per entry: the reference modules with the entry's module replaced; plus the reference."""
    for student, replaced in [(REFERENCE, None)] + [(e.name, e) for e in entries]:
        target = folder / student
        target.mkdir(parents=True)
        for source in (kit / "solutions").glob("*.py"):
            shutil.copyfile(source, target / source.name)
        if replaced is not None:
            shutil.copyfile(replaced.path, target / f"{replaced.module}.py")


def run_grade(submissions: Path, out: Path, jobs: int = 2, kit: Path = ROOT, course: list[str] | None = None) -> None:
    """``attnkit grade`` as an instructor runs it (the installed script; another kit: its package on PYTHONPATH),
    on the exercises of ``course`` (all when None)."""
    script = Path(sys.executable).parent / "attnkit"
    env = dict(os.environ)
    if kit.resolve() == ROOT and script.exists():
        command = [str(script)]
    else:
        command = [sys.executable, "-m", "attnkit"]
        env["PYTHONPATH"] = os.pathsep.join([str(kit)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    command += ["grade", str(submissions), "--out", str(out), "--jobs", str(jobs)]
    command += ["--exercises", ",".join(course)] if course else []
    command += ["--no-pictures"] if kit.resolve() == ROOT else []   # an older kit may not know the option
    done = subprocess.run(command, capture_output=True, text=True, cwd=kit, env=env)
    if not (out / "grades.csv").exists():
        raise RuntimeError(f"attnkit grade wrote no grades.csv (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")


def exercise_of(test: dict, exercises) -> str | None:
    tags = test.get("tags") or []
    if tags and tags[0] in exercises:
        return tags[0]
    prefix = str(test.get("name", "")).split(":", 1)[0].strip()
    return prefix if prefix in exercises else None


def mistake_ids(test: dict, exercises) -> set:
    """The mistake ids a check carries: its tags other than the exercise and the task, or explicit fields."""
    ids = {t for t in test.get("tags") or [] if t not in exercises and not str(t).startswith("task")}
    for key in ("mistake", "mistakes"):
        value = test.get(key)
        if isinstance(value, str):
            ids.add(value)
        elif isinstance(value, list):
            ids.update(v for v in value if isinstance(v, str))
    return ids


def read_graded(out: Path, student: str, exercises) -> Graded:
    graded = Graded()
    with open(out / "grades.csv", newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["student"] == student:
                graded.score = {e: float(row[e] or 0) for e in exercises if e in row}
    report = json.loads((out / f"{student}.json").read_text(encoding="utf-8"))
    for test in report.get("tests", []):
        exercise = exercise_of(test, exercises)
        if exercise is None:
            continue
        graded.max_score[exercise] = graded.max_score.get(exercise, 0) + float(test.get("max_score") or 0)
        graded.named.setdefault(exercise, set()).update(mistake_ids(test, exercises))
        if float(test.get("score") or 0) < float(test.get("max_score") or 0):
            graded.messages.setdefault(exercise, []).append(str(test.get("output", "")))
    for exercise in graded.max_score:
        graded.score.setdefault(exercise, 0.0)
    return graded


def courses(entries: list[Entry], kit: Path = ROOT) -> list[tuple[list[str] | None, list[Entry]]]:
    """The entries grouped by the course their grading needs: an entry's exercise and every exercise that uses it,
    directly or through another (``depends_on`` in the kit's curriculum), in the curriculum's order. No other
    exercise imports the entry's module, so its points there cannot move. A kit whose curriculum names no
    dependencies grades every entry in every exercise (``None``: the whole course)."""
    data = yaml.safe_load((kit / "grader" / "curriculum.yaml").read_text(encoding="utf-8"))["exercises"]
    if not any("depends_on" in item for item in data):
        return [(None, entries)] if entries else []
    order = [item["id"] for item in data]
    users = {item["id"]: {other["id"] for other in data if item["id"] in other.get("depends_on", ())} for item in data}
    grouped: dict[tuple[str, ...], list[Entry]] = {}
    for entry in entries:
        course, frontier = {entry.exercise}, [entry.exercise]
        while frontier:  # the curriculum's exercises bound this walk
            for user in users.get(frontier.pop(), ()):
                if user not in course:
                    course.add(user)
                    frontier.append(user)
        grouped.setdefault(tuple(e for e in order if e in course), []).append(entry)
    return [(list(course), members) for course, members in grouped.items()]


def measure(entries: list[Entry] | None = None, keep: Path | None = None, jobs: int = 2, kit: Path = ROOT) -> Report:
    """Grade every entry (beside the reference) with ``attnkit grade``, one run per course of :func:`courses`."""
    kit = Path(kit).resolve()
    entries = load_corpus(kit=kit) if entries is None else entries
    exercises = set(exercise_modules(kit))
    outcomes: dict[str, Outcome] = {}
    reference_ok, seconds = True, 0.0
    with tempfile.TemporaryDirectory(prefix="attnkit-realworld-") as scratch:
        base = Path(keep) if keep else Path(scratch)
        if keep and base.exists():
            shutil.rmtree(base)
        for number, (course, members) in enumerate(courses(entries, kit)):
            submissions, out = base / f"course{number}" / "submissions", base / f"course{number}" / "results"
            build_submissions(members, submissions, kit)
            start = time.perf_counter()
            run_grade(submissions, out, jobs, kit, course)
            seconds += time.perf_counter() - start
            reference = read_graded(out, REFERENCE, exercises)
            reference_ok &= bool(reference.max_score) and all(reference.lost(e) == 0 for e in reference.max_score)
            outcomes.update((e.name, Outcome(e, read_graded(out, e.name, exercises))) for e in members)
    return Report([outcomes[e.name] for e in entries], reference_ok, seconds)


def fraction(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


FAMILIES = (("+", "two mistakes at once"), ("shape_rank_dependent", "rank that works"), ("shape_", "shape"),
            ("setting_", "settings"),
            ("error_", "exception from the failing line"), ("dtype_changed", "dtype"),
            ("axis_tail_ignored", "trailing part ignored"), ("input_tail_ignored", "trailing part ignored"),
            ("scale_by_other_size", "scale by another size"), ("values_transposed", "transposed as a whole"),
            ("other_algorithm", "another algorithm"))


def mechanism_of(mistake_id: str, exercise: str) -> str:
    """The diagnosis mechanism a carried id comes from: a generic family, the exercise's own catalogue, or a shared
    piece's mistake (by concept)."""
    from grader import mistakes

    found = next((name for prefix, name in FAMILIES if prefix in mistake_id if prefix == "+" or
                  mistake_id.startswith(prefix)), None)
    if found is not None:
        return found
    if mistake_id in {m.id for m in mistakes.of_exercise(exercise)}:
        return "own catalogue"
    return "concept (shared piece)" if mistake_id in mistakes.all_mistakes() else "other"


def mechanism_counts(report: Report) -> tuple[dict[str, int], dict[str, int]]:
    """(mechanism -> buggy entries whose expected id it named, mechanism -> buggy entries it named anything in)."""
    expected: dict[str, int] = {}
    fired: dict[str, int] = {}
    for o in report.buggy:
        if o.named:
            name = mechanism_of(o.entry.mistake, o.entry.exercise)
            expected[name] = expected.get(name, 0) + 1
        for name in {mechanism_of(i, o.entry.exercise) for i in o.graded.named.get(o.entry.exercise, set())}:
            fired[name] = fired.get(name, 0) + 1
    return expected, fired


def format_report(report: Report, messages: int = 0) -> str:
    lines = [f"realistic corpus: {len(report.outcomes)} entries graded in {report.seconds:.1f} s "
             f"(reference at full marks: {'yes' if report.reference_full_marks else 'NO'})"]
    correct, buggy = report.correct, report.buggy
    lines.append(f"correct entries at full marks      {fraction(sum(o.full_marks for o in correct), len(correct))}")
    lines.append(f"buggy entries caught in their own  {fraction(sum(o.caught for o in buggy), len(buggy))}")
    lines.append(f"named (expected id in own exercise) {fraction(sum(o.named for o in buggy), len(buggy))}")
    lines.append(f"misnamed (only other ids named)    {fraction(len(report.misnamed), len(buggy))}")
    cascading = [o for o in report.outcomes if o.cascade]
    lines.append(f"cascade: {report.cascade_points:g} points lost in other exercises of the corpus "
                 f"({report.cascade_points_all:g} counting every exercise of the curriculum) "
                 f"by {len(cascading)} entries")
    for o in cascading:
        others = ", ".join(f"{e} -{o.graded.lost(e):g}" for e in o.graded.max_score
                           if e != o.entry.exercise and o.graded.lost(e))
        lines.append(f"    {o.entry.name:<40} {o.cascade:>5g}  ({others})")
    lines.append("")
    lines.append(f"{'exercise':<16} {'correct ok':>10} {'buggy':>6} {'caught':>7} {'named':>6} {'cascade caused':>15}")
    for exercise in report.covered:
        mine = [o for o in report.outcomes if o.entry.exercise == exercise]
        if not mine:
            continue
        ok = [o for o in mine if o.entry.mistake is None]
        bad = [o for o in mine if o.entry.mistake is not None]
        lines.append(f"{exercise:<16} {sum(o.full_marks for o in ok):>4}/{len(ok):<5} {len(bad):>6} "
                     f"{sum(o.caught for o in bad):>7} {sum(o.named for o in bad):>6} "
                     f"{sum(o.cascade for o in mine):>15g}")
    lines.append("")
    expected, fired = mechanism_counts(report)
    lines.append(f"{'mechanism':<34} {'named the expected id':>21} {'named something':>16}")
    for name in sorted(set(expected) | set(fired), key=lambda n: (-expected.get(n, 0), n)):
        lines.append(f"{name:<34} {expected.get(name, 0):>21} {fired.get(name, 0):>16}")
    lines.append("")
    not_full = [o for o in correct if not o.full_marks]
    if not_full:
        lines.append("correct entries that lost points:")
        for o in not_full:
            lost = ", ".join(f"{e} -{o.graded.lost(e):g}" for e in o.graded.max_score if o.graded.lost(e))
            lines.append(f"    {o.entry.name:<40} {lost}: {o.said_instead()}")
        lines.append("")
    lines.append(f"misses ({len(report.misses)}): entry | expected | caught | what the kit said instead")
    for o in report.misses:
        lines.append(f"    {o.entry.name:<40} {o.entry.mistake:<36} {'yes' if o.caught else 'NO ':<3} "
                     f"{o.said_instead()}")
    if messages:
        lines.append("")
        lines.append("messages for named real-world mistakes:")
        for o in [o for o in buggy if o.named][:messages]:
            lines.append(f"--- {o.entry.name} ({o.entry.mistake})")
            lines.append((o.graded.messages.get(o.entry.exercise) or [""])[0].rstrip())
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.realworld.measure", description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=0, metavar="N", help="also print N named feedback messages")
    parser.add_argument("--keep", type=Path, help="build and grade in this folder and keep it (replaced if present)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--kit", type=Path, default=ROOT, help="the kit to grade with (default: this checkout)")
    parser.add_argument("--corpus", type=Path, default=CORPUS,
                        help="the implementations to grade (default: corpus/; heldout/ is the held-out set)")
    args = parser.parse_args(argv)
    entries = load_corpus(args.corpus, kit=args.kit.resolve())
    print(format_report(measure(entries, keep=args.keep, jobs=args.jobs, kit=args.kit), args.messages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
