"""`attnkit quiz export --exercises` takes a course subset as `attnkit release --exercises` does (concepts kept);
no export names a seed document, which no student or LMS user has."""
import re

import pytest

from attnkit.quiz import main
from attnkit.quiz.exporting import FORMATS

SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def categories(text):
    return re.findall(r"\$CATEGORY: \$course\$/top/attnkit/(\w+)", text)


def test_exercises_selects_the_course_topics_and_keeps_concepts(tmp_path, capsys):
    out = tmp_path / "course.gift"
    assert main(["export", "--format", "gift", "--exercises", "softmax,masking", "-o", str(out)]) == 0
    assert categories(out.read_text()) == ["softmax", "masking", "concepts"]


def test_exercises_takes_the_course_file_release_takes(tmp_path, capsys):
    course = tmp_path / "course.yaml"
    course.write_text("- attention\n- kv_cache\n")
    out = tmp_path / "course.gift"
    assert main(["export", "--format", "gift", "--exercises", str(course), "-o", str(out)]) == 0
    assert categories(out.read_text()) == ["attention", "kv_cache", "concepts"]


@pytest.mark.parametrize("argv,expected", [
    (["--exercises", "softmax,nope"], "unknown exercise(s) 'nope'"),
    (["--exercises", "softmax", "--topic", "masking"], "not allowed with argument --exercises")])
def test_a_bad_subset_is_a_usage_error_and_writes_nothing(tmp_path, capsys, argv, expected):
    out = tmp_path / "x.gift"
    assert main(["export", "--format", "gift", *argv, "-o", str(out)]) == 2
    assert expected in capsys.readouterr().err and not out.exists()


def test_export_options_have_help(capsys):
    assert main(["export", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    for text in ("--format {gift,moodle-xml,markdown,qti,html} gift (Moodle GIFT)",
                 "-o OUT, --out OUT the file to write",
                 "--topic T only this topic", "--exercises IDS|FILE only the topics of these exercises, plus concepts"):
        assert text in shown


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_export_names_a_seed_document_and_papers_keep_title_and_year(tmp_path, capsys, fmt):
    out = tmp_path / f"all.{fmt}"
    assert main(["export", "--format", fmt, "-o", str(out)]) == 0
    text = out.read_text()
    assert not SEED_FILE.search(text)
    assert re.search(r"Source\\?: Attention Is All You Need \(2017\)", text)  # GIFT escapes the colon


def test_structured_short_answers_export_their_common_spellings(tmp_path, capsys):
    out = tmp_path / "all.gift"
    assert main(["export", "--format", "gift", "--topic", "concepts", "-o", str(out)]) == 0
    block = out.read_text().split("::qa5-complexity::")[1].split("}")[0]
    for spelled in ("=O(n^2 d)", "=O(d n^2)", "=O(n**2*d)"):
        assert spelled in block
