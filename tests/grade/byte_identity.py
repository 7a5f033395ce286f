"""``python -m tests.grade.byte_identity CLASS OUT KIT [KIT...]``: grade one mixed class with each kit, compare.

A refactoring of ``attnkit grade`` must not change what it writes. This builds a class of 60 hand-ins
(:func:`build`: the reference as folders, nested folders and zips, the stubs, the classic mistakes of the course,
half-done work, syntax errors, a missing module handed in under another name, symbolic links (a file of a folder,
a whole hand-in), a corrupt zip, a zip with unsafe entries, a student who handed in twice, a name that is not
plain) in CLASS, grades it with each KIT (a checkout of attnkit: its packages on PYTHONPATH) into OUT/<n>, and
prints every file that differs between the first kit's output and the others'. Exit status 0 when every file is
byte-identical. A KIT of an earlier revision: ``git archive REV | tar -x -C KIT``.

The lead's before/after check of issue 20 item 7; a grading run per kit (about 15 s each with
two workers); the class and the two kits make it a script, not a test.
"""
from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.grade.gradekit import copy_modules, zip_modules

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"
COURSE = ("softmax", "masking", "attention", "positional", "tiled_attention")
SIZE = 60


def _mistaken(root: Path, index: int, module: str, mistake) -> None:
    from grader.mistakes.model import apply

    folder = copy_modules(SOLUTIONS, root / f"m{index:02d}_{mistake.id}")
    path = folder / f"{module}.py"
    path.write_text(apply(path.read_text(encoding="utf-8"), mistake.patch, mistake.id), encoding="utf-8")


def build(root: Path) -> Path:
    """The class of :data:`SIZE` hand-ins described in the module's docstring, in ``root``."""
    from grader import mistakes

    root.mkdir(parents=True)
    copy_modules(SOLUTIONS, root / "ref_folder")
    copy_modules(SOLUTIONS, root / "ref_nested" / "exercises")
    zip_modules(SOLUTIONS, root / "ref_zip.zip", "handin/exercises/")
    copy_modules(EXERCISES, root / "stubs")
    half = copy_modules(SOLUTIONS, root / "half_done")
    for name in ("positional.py", "tiled_attention.py"):
        shutil.copyfile(EXERCISES / name, half / name)
    broken = copy_modules(SOLUTIONS, root / "syntax_error")
    with open(broken / "masking.py", "a") as handle:
        handle.write("\ndef oops(:\n")
    renamed = copy_modules(SOLUTIONS, root / "renamed")
    (renamed / "softmax.py").rename(renamed / "Softmax (1).py")
    linked = copy_modules(SOLUTIONS, root / "linked")
    (linked / "masking.py").unlink()
    (linked / "masking.py").symlink_to(SOLUTIONS / "masking.py")
    (root / "symlinked").symlink_to(root / "ref_folder")
    (root / "corrupt.zip").write_bytes(b"PK\x03\x04 not really a zip")
    with zipfile.ZipFile(root / "unsafe.zip", "w") as zipped:
        for path in sorted(SOLUTIONS.glob("*.py")):
            zipped.write(path, path.name)
        zipped.writestr("../escape.py", "x = 1\n")
        zipped.writestr("/tmp/attnkit-x/submission/absolute.py", "x = 1\n")
    copy_modules(SOLUTIONS, root / "twice")
    zip_modules(EXERCISES, root / "twice.zip", "")
    copy_modules(SOLUTIONS, root / "zoë (2)")
    chosen = [(module, mistake) for module in COURSE for mistake in mistakes.of_exercise(module) if mistake.patch]
    students = len(list(root.iterdir())) - 1  # twice/ and twice.zip are one student
    for index, (module, mistake) in enumerate(chosen[:SIZE - students - 6]):
        _mistaken(root, index, module, mistake)
    filler = 0
    while len(list(root.iterdir())) - 1 < SIZE:
        copy_modules(EXERCISES if filler % 3 == 2 else SOLUTIONS, root / f"ref_{filler:02d}")
        filler += 1
    return root


def grade(kit: Path, submissions: Path, out: Path) -> int:
    env = dict(os.environ, PYTHONPATH=str(kit))
    command = [sys.executable, "-m", "attnkit", "grade", str(submissions), "--out", str(out), "--jobs", "2",
               "--no-progress", "--exercises", ",".join(COURSE)]
    return subprocess.run(command, cwd=kit, env=env, stdout=subprocess.DEVNULL).returncode


def differences(one: Path, other: Path) -> list[str]:
    """The relative names of the files that are not byte-identical (or exist on one side only)."""
    names = {p.relative_to(one).as_posix() for p in one.rglob("*") if p.is_file()}
    names |= {p.relative_to(other).as_posix() for p in other.rglob("*") if p.is_file()}
    return sorted(n for n in names if not ((one / n).is_file() and (other / n).is_file()
                                           and filecmp.cmp(one / n, other / n, shallow=False)))


def main(argv: list[str]) -> int:
    submissions, out, kits = Path(argv[0]), Path(argv[1]), [Path(k).resolve() for k in argv[2:]]
    if not submissions.exists():
        build(submissions)
    outs = []
    for number, kit in enumerate(kits):
        outs.append(out / str(number))
        status = grade(kit, submissions, outs[-1])
        files = sum(1 for p in outs[-1].rglob("*") if p.is_file())
        print(f"{kit}: exit {status}, {files} files in {outs[-1]}")
    different = 0
    for other in outs[1:]:
        for name in differences(outs[0], other):
            print(f"differs: {name} ({outs[0]} vs {other})")
            different += 1
    print("byte-identical" if not different else f"{different} files differ")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
