"""Student latency: ``attnkit check`` wall time from process start (median of several runs), where students
run it (the student release) beside the project checkout, measured in turns in one run; and the CPU time of the
whole process tree (the grader, the zygote, the children), which this shared machine's drift in speed moves far
less than the wall time: the wall time cannot go below that CPU time divided by the cores.

The release is built into a temporary folder with the reference solutions as its ``exercises/``, and run
with this interpreter and its packages (``PYTHONPATH`` = the release, so its ``attnkit`` and ``grader`` are
the ones imported). "installed" is the release with its bytecode compiled, as ``pip install .`` leaves it;
"first run" has no bytecode at all (deleted before each run, none written), as the first run of an editable
install: the difference is what compiling at install buys.
"""
from __future__ import annotations

import compileall
import shutil
import tempfile
from pathlib import Path

from .measure import ROOT, attnkit, median, run_command

FAILING = "softmax_wrong_axis"  # a classic mistake in the first exercise: the students' common case, at its widest


def _release(folder: Path) -> Path:
    """A student release in ``folder``, its exercises replaced by the reference solutions."""
    from attnkit.release import main

    out = folder / "student"
    if main([str(out)]) != 0:
        raise RuntimeError("attnkit release failed")
    for module in (ROOT / "solutions").glob("*.py"):
        if module.name != "__init__.py":
            shutil.copyfile(module, out / "exercises" / module.name)
    return out


def _with_mistake(release: Path, folder: Path, mistake_id: str) -> Path:
    """A copy of ``release`` whose exercise module holding ``mistake_id`` carries that classic mistake (its mutant)."""
    from grader import curriculum
    from grader.mistakes import module_of, reaching
    from grader.mistakes.model import apply

    mistake = next(m for e in curriculum.ids() for m in reaching(e) if m.id == mistake_id)
    shutil.copytree(release, folder)
    module = folder / "exercises" / f"{module_of(mistake_id)}.py"
    module.write_text(apply(module.read_text(encoding="utf-8"), mistake.mutant_patch, mistake_id), encoding="utf-8")
    return folder


def _no_bytecode(release: Path) -> None:
    for cache in release.rglob("__pycache__"):
        shutil.rmtree(cache)


def run(repeats: int = 5) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="attnkit-latency-") as tmp:
        release = _release(Path(tmp))
        compiled = Path(tmp) / "compiled"
        shutil.copytree(release, compiled)
        compileall.compile_dir(compiled, quiet=1)
        broken = _with_mistake(compiled, Path(tmp) / "broken", FAILING)
        home = {"ATTNKIT_HOME": str(Path(tmp) / "home")}  # the quiz questions a mistake queues go there
        cases = [  # (label, argv, cwd, env, before each run)
            ("checkout: correct exercises (the reference)", attnkit("check", "--impl", str(ROOT / "solutions")),
             ROOT, {}, None),
            ("checkout: untouched stubs", attnkit("check", "--impl", str(ROOT / "exercises")), ROOT, {}, None),
            ("checkout: one exercise (softmax)", attnkit("check", "softmax", "--impl", str(ROOT / "solutions")),
             ROOT, {}, None),
            ("release, installed: all exercises", attnkit("check"), compiled,
             {"PYTHONPATH": str(compiled), "PYTHONDONTWRITEBYTECODE": "1"}, None),
            ("release, installed: one exercise (softmax)", attnkit("check", "softmax"), compiled,
             {"PYTHONPATH": str(compiled), "PYTHONDONTWRITEBYTECODE": "1"}, None),
            (f"release, installed: all exercises, {FAILING} (every exercise using softmax fails)",
             attnkit("check"), broken, {"PYTHONPATH": str(broken), "PYTHONDONTWRITEBYTECODE": "1", **home}, None),
            ("release, first run (no bytecode): all exercises", attnkit("check"), release,
             {"PYTHONPATH": str(release), "PYTHONDONTWRITEBYTECODE": "1"}, lambda: _no_bytecode(release)),
        ]
        runs: dict[str, list] = {label: [] for label, *_ in cases}
        for turn in range(repeats + 1):  # in turns, so a drift of the machine's speed touches every row alike
            for label, argv, cwd, env, before in cases:
                if before:
                    before()
                measured = run_command(argv, cwd=cwd, env=env)
                if turn:
                    runs[label].append(measured)
    return [{"impl": label, "median_s": median(r.seconds for r in found), "min_s": min(r.seconds for r in found),
             "cpu_s": median(r.cpu_seconds for r in found), "status": found[-1].status}
            for label, found in runs.items()]
