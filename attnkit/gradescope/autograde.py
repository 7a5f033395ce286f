"""``attnkit gradescope run``: what ``run_autograder`` calls for one submission on Gradescope.

Grades ``ROOT/submission`` (Gradescope puts the student's upload there, zips unpacked; a lone
.zip it left packed is graded as a zip; ROOT defaults to ``/autograder``) exactly as
``attnkit grade`` grades one student of a class folder: the same
refusals (symlinks), the same sandbox, the same checks, hidden ones included, and the same
Gradescope formatter (attnkit.grade.gradescope_results). The result is checked against the documented
results.json format (``results_schema.json``) and written to ``ROOT/results/results.json``
atomically. When the grader itself fails, no results.json is written and the exit status is
1: Gradescope then reports an autograder failure to the student and the instructor, instead
of a zero the student did not earn. What is printed goes to Gradescope's stdout log
(instructors only).
"""
from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from pathlib import Path

from grader.sandbox import MEMORY_MB, TIMEOUT_SECONDS

STUDENT = "submission"
SCHEMA_PATH = Path(__file__).with_name("results_schema.json")
NO_SUBMISSION = "attnkit gradescope run: no submission folder at {path} (is --root / ATTNKIT_GRADESCOPE_ROOT right?)"
GRADER_FAILED = "attnkit gradescope run: the grader failed (status {status}); no results.json was written"
INVALID = "attnkit gradescope run: the results do not match Gradescope's results.json format: {error}"
DONE = "attnkit gradescope run: {score:g}/{max_score:g}; wrote {path}"
# the first line of the log: which code grades (the bundle's wheel, never a checkout the script was started in)
GRADING_WITH = "attnkit gradescope run: attnkit {version} from {folder}; course: {count} exercises, {points:g} points"
# Lines of `attnkit grade` about its class files (a temporary folder here) and the summary PNGs (never
# drawn here): they do not apply on Gradescope, so they stay out of its log.
NOT_ON_GRADESCOPE = "wrote "  # the closing line of attnkit grade names its temporary output folder


def copy_submission(source: Path, target: Path) -> None:
    """Regular files and symlinks (kept as links, which the grader refuses) of ``source``; nothing else."""
    for base, dirs, names in os.walk(source, followlinks=False):
        here = target / Path(base).relative_to(source)
        here.mkdir(parents=True, exist_ok=True)
        for name in names + [d for d in dirs if os.path.islink(os.path.join(base, d))]:
            path = Path(base, name)
            if path.is_symlink():
                os.symlink(os.readlink(path), here / name)
            elif path.is_file():
                shutil.copyfile(path, here / name)


def lone_zip(submission: Path) -> Path | None:
    """The one .zip of a submission that holds no .py file (an upload Gradescope did not unpack), else None."""
    if any(submission.rglob("*.py")):
        return None
    zips = [p for p in submission.iterdir() if p.is_file() and not p.is_symlink() and p.suffix.lower() == ".zip"]
    return zips[0] if len(zips) == 1 else None


def validate(results: dict) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``results`` is a documented results.json."""
    import jsonschema

    jsonschema.validate(results, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def run(root: Path, timeout: float = TIMEOUT_SECONDS, memory_mb: int = MEMORY_MB, out=None) -> int:
    """Grade ``root/submission`` into ``root/results/results.json``; returns the exit status."""
    import sys

    import attnkit
    from attnkit.grade import main as grade
    from attnkit.grade import records
    from grader import atomic, curriculum

    out = out or sys.stdout
    print(GRADING_WITH.format(version=attnkit.__version__, folder=Path(attnkit.__file__).resolve().parent.parent,
                              count=len(curriculum.ids()), points=curriculum.total_points()), file=out)
    submission = Path(root) / "submission"
    if not submission.is_dir():
        print(NO_SUBMISSION.format(path=submission), file=out)
        return 2
    with tempfile.TemporaryDirectory(prefix="attnkit-gradescope-") as work:
        klass, graded = Path(work) / "class", Path(work) / "graded"
        archive = lone_zip(submission)
        if archive is not None:  # graded as `attnkit grade` grades a zip: checked entry by entry, bombs refused
            klass.mkdir()
            shutil.copyfile(archive, klass / f"{STUDENT}.zip")
        else:
            copy_submission(submission, klass / STUDENT)
        log = io.StringIO()
        status = grade(klass, graded, jobs=1, timeout=timeout, memory_mb=memory_mb, progress=False,
                       stdout=log, stderr=out, pictures=False)  # one student: no class pictures
        out.writelines(line for line in log.getvalue().splitlines(keepends=True)
                       if not line.startswith(NOT_ON_GRADESCOPE))
        produced = records.gradescope_path(graded, STUDENT)
        if not produced.is_file():
            print(GRADER_FAILED.format(status=status), file=out)
            return 1
        results = json.loads(produced.read_text(encoding="utf-8"))
    try:
        validate(results)
    except Exception as error:  # jsonschema.ValidationError: our formatter is wrong, not the student
        print(INVALID.format(error=getattr(error, "message", error)), file=out)
        return 1
    target = Path(root) / "results" / "results.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_json(target, results)
    max_score = sum(test.get("max_score", 0) for test in results.get("tests", []))
    print(DONE.format(score=results["score"], max_score=max_score, path=target), file=out)
    return 0
