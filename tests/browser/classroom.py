"""A small class graded by ``attnkit grade`` for the browser tests: right, stubs, named mistakes, a refused
hand-in, and a student whose id and error message are HTML."""
from __future__ import annotations

from pathlib import Path

from grader import mistakes
from grader.mistakes.model import apply
from tests.grade.gradekit import EXERCISES, SOLUTIONS, copy_modules

HOSTILE_ID = "mallory<img src=x onerror=alert(1)>"
HOSTILE_MESSAGE = "<script>document.title='pwned'</script>"
MISTAKES = ("softmax_no_max_subtraction", "softmax_wrong_axis")


def mutant(root: Path, student: str, mistake_id: str) -> None:
    module = mistakes.module_of(mistake_id)
    path = copy_modules(SOLUTIONS, root / student) / f"{module}.py"
    path.write_text(apply(path.read_text(), mistakes.all_mistakes()[mistake_id].mutant_patch, str(path)))


def build(root: Path) -> Path:
    root.mkdir(parents=True)
    copy_modules(SOLUTIONS, root / "alice")
    copy_modules(SOLUTIONS, root / "ben")
    copy_modules(EXERCISES, root / "bob")
    mutant(root, "carol", MISTAKES[0])
    mutant(root, "dave", MISTAKES[0])
    mutant(root, "erin", MISTAKES[1])
    eve = copy_modules(SOLUTIONS, root / "eve")
    (eve / "masking.py").unlink()
    (eve / "masking.py").symlink_to(SOLUTIONS / "masking.py")
    hostile = copy_modules(SOLUTIONS, root / HOSTILE_ID)
    (hostile / "softmax.py").write_text(f"def softmax(x, axis=-1):\n    raise ValueError({HOSTILE_MESSAGE!r})\n")
    return root


def grade(root: Path) -> Path:
    from attnkit.grade import main

    root.mkdir(parents=True, exist_ok=True)
    out = root / "out"
    with open(root / "stdout.txt", "w") as stdout, open(root / "stderr.txt", "w") as stderr:
        status = main(build(root / "class"), out, jobs=2, timeout=2, progress=False, stdout=stdout, stderr=stderr)
    assert status == 0, (root / "stderr.txt").read_text()
    return out
