"""What a student's ``attnkit check`` reads in the release: on correct modules, the recording's results of the modules
checked and the parsed copies of the kit's YAML files; never the YAML parser, the arguments kept for near matches or
the mistakes' outputs (read only for a call not recorded exactly, a diagnosis)."""
from __future__ import annotations

import json

from tests.release.releasekit import LAUNCH, SOLUTIONS, isolated

READS = LAUNCH + """import json, os
opened = []
sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], str) and opened.append(args[0]))
from attnkit.cli import main
code = main(sys.argv[1:])
read = sorted(set(os.path.basename(p) for p in opened if p.endswith((".json", ".yaml", ".bin"))))
print(json.dumps(dict(code=code, yaml="yaml" in sys.modules, read=read)))
"""


def reads(release, *argv):
    done = isolated(release, READS, "check", *argv, "--impl", str(SOLUTIONS))
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_checking_correct_modules_reads_only_what_it_answers_from(release):
    one = reads(release, "softmax")
    assert one["code"] == 0 and not one["yaml"]
    recorded = [name for name in one["read"] if name.startswith(("reference", "near", "mistakes"))]
    assert recorded == ["reference-softmax.json", "reference.bin", "reference.json"]
    assert "curriculum.parsed.json" in one["read"]
    every = reads(release)
    assert every["code"] == 0 and not every["yaml"] and "document_values.parsed.json" in every["read"]
    assert not [name for name in every["read"] if name.startswith(("near", "mistakes"))]
