"""The numbers the docs state about the kit come from the kit (attnkit.devcheck.docs), and the docs send
no reader to files a clone does not have."""
import re
import shutil
from pathlib import Path

from attnkit.devcheck import docs

ROOT = Path(__file__).resolve().parents[2]


def test_every_stated_number_matches_the_kit():
    assert [str(claim) for claim, _, _ in docs.stale(ROOT)] == []


def test_a_stale_number_is_found_and_rewritten(tmp_path):
    for file in {file for file, _, _ in docs.CLAIMS} | set(docs.TABLE_FILES) | {docs.RULES_FILE}:
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / file, tmp_path / file)
    readme = tmp_path / "README.md"
    points = docs.fact("points")
    text = readme.read_text().replace(f"({points} points), each split", "(100 points), each split")
    row = re.search(r"^PASS  softmax +11/11 +6/6 checks$", text, re.MULTILINE).group(0)  # spacing follows the table
    readme.write_text(text.replace(row, row.replace("11/11", "11/12").replace("6/6", "6/7")))
    found = [claim for claim, _, _ in docs.stale(tmp_path)]
    assert {(c.file, c.says, c.what) for c in found} == {("README.md", "100", "points"),
                                                         ("README.md", "12", "points of softmax"),
                                                         ("README.md", "7", "checks of softmax")}
    assert docs.write(tmp_path, docs.stale(tmp_path)) == 3
    assert docs.stale(tmp_path) == [] and readme.read_text() == (ROOT / "README.md").read_text()


def test_no_doc_points_at_the_source_documents_folder():
    for path in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "shared/seeds" not in path.read_text(), path
