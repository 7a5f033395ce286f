"""Write the student release's tree (see attnkit.release.build for what goes in and why).

A course's subset of the exercises (``exercises``) ships only their stubs, checks, mistakes and
quiz banks, and a ``grader/curriculum.yaml`` that lists only them, so that every front end of
the release (check, hint, quiz, the README's table) follows the subset.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from attnkit.quiz import about
from attnkit.userdata import COURSE_FILE, COURSE_FORMAT
from grader import curriculum, mistakes, parsed
from grader.runner import discover

from . import generate, leaks, stubs
from .public import public_source
from .record import public_checks, record, released_mistakes
from .recording import Store
from .replay import Replay
from .sources import BuildFailed, Sources
from .verify import verify

SHIPPED_VERBS = ("check", "hint", "pack", "quiz", "show", "watch")  # the students' verbs (when the project has them)
# a verb shipped in part: of ``attnkit show`` only the gpt view (the student's own model writing text); the other
# pictures compute with the reference solutions, which a release never holds
SHIPPED_PARTS = {"show": ("__init__.py", "errors.py", "gpt.py", "render.py", "tokens.py")}
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")

REPLAY_SOURCES = tuple(Path(__file__).with_name(name) for name in ("replay.py", "recording.py"))
MISTAKES = Path(curriculum.__file__).with_name("mistakes")
# the trusted side's modules a release does not get: the reference (generated anew: it replays the recording) and the
# results the checkout's runs keep of it
LEFT_OUT_GRADER_MODULES = {"reference.py", "kept_results.py"}
MISTAKE_TAGS = re.compile(r"^(?P<indent>[ \t]+)mistakes: \[(?P<ids>[^\]]*)\]\n", re.MULTILINE)


@dataclass(frozen=True)
class Summary:
    public_checks: int
    public_points: float
    hidden_names: set[str]
    recorded_calls: int
    recorded_bytes: int
    unverified: tuple[str, ...] = ()  # checks the nudged replay could not walk to the end


def assemble(tree: Path, sources: Sources, exercises: tuple[str, ...] | None = None) -> Summary:
    """Write everything into the new folder ``tree``; raises BuildFailed when the recording falls short."""
    chosen = curriculum.ids() if exercises is None else tuple(exercises)
    tree.mkdir(parents=True)
    specs = [spec for spec in public_checks() if spec.exercise in chosen]
    hidden = {spec.name for e in chosen for spec in discover(e) if spec.visibility == "hidden"}
    calls, unverified = write_recording(tree / "grader" / "recorded", sources, specs)
    write_grader(tree / "grader", sources, hidden, chosen)
    write_attnkit(tree / "attnkit", sources)
    write_quizzes(tree / "quizzes", sources, chosen)
    stub_exercises(sources, tree / "exercises", chosen)
    requires_python, requires = dependencies()
    from attnkit import __version__

    (tree / "pyproject.toml").write_text(generate.pyproject(__version__, requires_python, requires), encoding="utf-8")
    per_exercise = [(e, curriculum.get(e).title, sum(s.points for s in specs if s.exercise == e),
                     sum(s.exercise == e for s in specs)) for e in chosen]
    hidden_points = sum(s.points for e in chosen for s in discover(e) if s.visibility == "hidden")
    verbs = tuple(p.name for p in (tree / "attnkit").iterdir() if (p / "__init__.py").is_file())
    (tree / "README.md").write_text(generate.readme(per_exercise, len(hidden), hidden_points, verbs), encoding="utf-8")
    size = sum(p.stat().st_size for p in (tree / "grader" / "recorded").iterdir())
    write_course_id(tree)
    return Summary(len(specs), sum(s.points for s in specs), hidden, calls, size, unverified)


def write_recording(folder: Path, sources: Sources, specs: list) -> tuple[int, tuple[str, ...]]:
    """Record the public checks on the reference, verify the replay, write it.

    Returns the number of recorded calls and the checks that failed on the nudged reference
    (their path after the failure was not verified).
    """
    from grader.reference import reference
    from grader.sandbox import in_process, trusted_transport

    recorder, outcomes = record(lambda exercise: in_process(sources.solutions, exercise), reference(), specs)
    failed = [o for o in outcomes if o.status != "passed"]
    if failed:
        raise BuildFailed("attnkit release: the reference solutions fail public checks, nothing to record:\n  "
                          + "\n  ".join(f"{o.exercise}.{o.name}: {o.message[:300]}" for o in failed))
    replay = Replay(Store.in_memory(recorder.index(), recorder.arrays), strict=True)
    verdict = verify(replay, lambda exercise: trusted_transport(sources.solutions, exercise), specs)
    if verdict.misses:
        raise BuildFailed(
            "attnkit release: these public checks pass values computed from the student's results to `ref` or to "
            "a mistake variant, which a recording cannot answer; make them give `ref` only the check's own inputs:\n  "
            + "\n  ".join(f"{check}: {', '.join(calls[:3])}" for check, calls in sorted(verdict.misses.items())))
    if verdict.failures:
        raise BuildFailed("attnkit release: replayed, the reference fails public checks:\n  "
                          + "\n  ".join(f"{o.exercise}.{o.name}: {o.message[:300]}" for o in verdict.failures))
    Store.write(folder, recorder.index(), recorder.arrays)
    return len(recorder.calls), tuple(f"{o.exercise}.{o.name}" for o in verdict.nudged_failures)


def write_grader(target: Path, sources: Sources, hidden: set[str], chosen: tuple[str, ...]) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(sources.grader.iterdir()):
        if path == curriculum.PATH:  # the course's exercises, without the maintainers' notes on the seeds
            (target / path.name).write_text(curriculum.subset_text(chosen, for_students=True), encoding="utf-8")
        elif path.is_file() and path.suffix in (".yaml", ".json", ".npz"):   # .npz: the shipped tiny GPT-2
            shutil.copyfile(path, target / path.name)
        elif path.is_file() and path.suffix == ".py" and path.name not in LEFT_OUT_GRADER_MODULES:
            if not leaks.solution_imports(path.read_text(encoding="utf-8")):
                shutil.copyfile(path, target / path.name)
    for data in sorted(target.glob("*.yaml")):   # the curriculum, the document values: read without the YAML parser
        parsed.write_copy(data)
    (target / "reference.py").write_text(generate.REFERENCE_MODULE, encoding="utf-8")
    from grader import signatures

    names = {e: signatures.of_module(e) for e in chosen}  # a module's name is its exercise's id
    (target / signatures.RECORDED.name).write_text(json.dumps(names, indent=1, sort_keys=True), encoding="utf-8")
    for source in REPLAY_SOURCES:
        shutil.copyfile(source, target / source.name)
    copy_tree(sources.grader / "sandbox", target / "sandbox")
    checks = target / "checks"
    checks.mkdir()
    for path in sorted((sources.grader / "checks").glob("*.py")):
        if path.name.startswith("check_") and path.stem.removeprefix("check_") not in chosen:
            continue
        text = path.read_text(encoding="utf-8")
        if path.name.startswith("check_"):
            names = {spec.name for spec in discover(path.stem.removeprefix("check_")) if spec.visibility == "hidden"}
            text = public_source(text, names & hidden, str(path))
        (checks / path.name).write_text(text, encoding="utf-8")
    write_mistakes(target / "mistakes", chosen)


def write_quizzes(target: Path, sources: Sources, chosen: tuple[str, ...]) -> None:
    """The question banks: every bank but those of exercises left out of the course, whose mistakes
    are also left out of the questions' ``mistakes:`` tags (the release's registry does not know them)."""
    left_out = set(curriculum.ids()) - set(chosen)
    shutil.copytree(sources.quizzes, target, ignore=lambda folder, names: [
        *SKIPPED(folder, names), *(name for name in names if name.removesuffix(".yaml") in left_out)])
    if left_out:
        known = {mistake.id for exercise in chosen for mistake in mistakes.of_exercise(exercise)}
        for bank in target.glob("*.yaml"):
            bank.write_text(kept_mistake_tags(bank.read_text(encoding="utf-8"), known), encoding="utf-8")
    about.write_index(target)   # which questions are about which mistake, for check's note without the banks


def kept_mistake_tags(text: str, known: set[str]) -> str:
    """A bank's text with only the ``known`` ids in its ``mistakes: [...]`` lists (a list left empty goes)."""

    def keep(match: re.Match) -> str:
        ids = [name.strip() for name in match["ids"].split(",") if name.strip() in known]
        return f"{match['indent']}mistakes: [{', '.join(ids)}]\n" if ids else ""

    return MISTAKE_TAGS.sub(keep, text)


def write_mistakes(target: Path, chosen: tuple[str, ...]) -> None:
    """``grader/mistakes/``: the registry and the model as they are, each exercise's mistakes without patches."""
    target.mkdir()
    for name in ("__init__.py", "model.py", "anchors.py", "generic.py"):
        shutil.copyfile(MISTAKES / name, target / name)
    for exercise in chosen:
        text = released_mistakes(exercise)
        if text is not None:
            (target / f"{exercise}.py").write_text(text, encoding="utf-8")


def write_attnkit(target: Path, sources: Sources) -> None:
    """The CLI's shared modules and the students' verbs; the CLI says the others are not part of the release."""
    target.mkdir(parents=True)
    for module in sorted(sources.attnkit.glob("*.py")):  # cli.py, userdata.py...: shared by the student verbs
        shutil.copyfile(module, target / module.name)
    for verb in SHIPPED_VERBS:
        if verb in SHIPPED_PARTS and (sources.attnkit / verb).is_dir():
            (target / verb).mkdir()
            for name in SHIPPED_PARTS[verb]:
                shutil.copyfile(sources.attnkit / verb / name, target / verb / name)
        elif (sources.attnkit / verb).is_dir():
            copy_tree(sources.attnkit / verb, target / verb)


def write_course_id(tree: Path) -> None:
    """``grader/course.json``: the release's id, a digest of everything in it, so that a student's per-user state
    (hints shown, quiz progress) is kept apart from any other course's (attnkit.userdata.course)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in tree.rglob("*") if p.is_file()):
        digest.update(path.relative_to(tree).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    (tree / "grader" / COURSE_FILE).write_text(
        json.dumps({"format": COURSE_FORMAT, "id": digest.hexdigest()[:16]}) + "\n", encoding="utf-8")


def dependencies() -> tuple[str, list[str]]:
    """(requires-python, runtime dependencies) of the installed attnkit distribution."""
    try:
        meta = importlib.metadata.metadata("attnkit")
        requires = importlib.metadata.requires("attnkit") or []
    except importlib.metadata.PackageNotFoundError:
        return ">=3.10", ["numpy>=1.24", "pyyaml>=6.0", "pytest>=7.4", "jsonschema>=4.18", "platformdirs>=3.0"]
    return meta.get("Requires-Python", ">=3.10"), [r for r in requires if "extra ==" not in r]


def copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=SKIPPED)


def stub_exercises(sources: Sources, target: Path, chosen: tuple[str, ...]) -> None:
    target.mkdir(parents=True)
    for name, text in stubs.generate(sources.solutions, chosen).items():
        (target / name).write_text(text, encoding="utf-8")
