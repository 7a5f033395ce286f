"""What a student's ``attnkit check`` reads in the release: on correct modules, the recording's results of the modules
checked and the parsed copies of the kit's YAML files; never the YAML parser, the arguments kept for near matches or
the mistakes' outputs (read only for a call not recorded exactly, a diagnosis). A diagnosed mistake's quiz questions
are found in the banks' index, without loading the banks."""
from __future__ import annotations

import json

from grader.mistakes import module_of
from grader.mistakes.model import apply
from grader.mistakes.softmax import NO_MAX_SUBTRACTION
from tests.release.releasekit import LAUNCH, SOLUTIONS, copy_modules, isolated

READS = LAUNCH + """import json, os
opened = []
sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], str) and opened.append(args[0]))
from attnkit.cli import main
code = main(sys.argv[1:])
read = sorted(set(os.path.basename(p) for p in opened if p.endswith((".json", ".yaml", ".bin"))))
print(json.dumps(dict(code=code, yaml="yaml" in sys.modules, banks="attnkit.quiz.bank" in sys.modules, read=read)))
"""


def reads(release, home, *argv, impl=SOLUTIONS) -> dict:
    done = isolated(release, READS, "check", *argv, "--impl", str(impl), env={"ATTNKIT_HOME": str(home)})
    assert done.stdout.strip(), done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]), shown=done.stdout)


def test_checking_correct_modules_reads_only_what_it_answers_from(release, tmp_path):
    one = reads(release, tmp_path, "softmax")
    assert one["code"] == 0 and not one["yaml"]
    recorded = [name for name in one["read"] if name.startswith(("reference", "near", "mistakes"))]
    assert recorded == ["reference-softmax.json", "reference.bin", "reference.json"]
    assert "curriculum.parsed.json" in one["read"]
    every = reads(release, tmp_path)
    assert every["code"] == 0 and not every["yaml"] and "document_values.parsed.json" in every["read"]
    assert not [name for name in every["read"] if name.startswith(("near", "mistakes"))]


def test_a_diagnosed_mistake_queues_its_questions_without_loading_the_banks(release, tmp_path):
    student = copy_modules(SOLUTIONS, tmp_path / "mine")
    path = student / f"{module_of(NO_MAX_SUBTRACTION.id)}.py"
    path.write_text(apply(path.read_text(), NO_MAX_SUBTRACTION.mutant_patch, NO_MAX_SUBTRACTION.id))
    found = reads(release, tmp_path / "home", "softmax", impl=student)
    assert found["code"] == 1 and not found["banks"] and "about.json" in found["read"]
    assert "mistakes-softmax.json" in found["read"]   # the diagnosis read the mistakes' outputs
    assert "quiz questions about this mistake now wait in `attnkit quiz --review`." in found["shown"]
    (saved,) = (tmp_path / "home").rglob("quiz-progress.json")
    assert NO_MAX_SUBTRACTION.id in saved.read_text()
