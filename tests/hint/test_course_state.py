"""Per-user state is kept per course (a release's id, else the checkout's folder): one course copy's hints and
quiz progress never show in another; ``attnkit hint --reset`` says what it reset."""
import io
import json

import pytest

from attnkit import hint, userdata
from attnkit.quiz import main as quiz
from attnkit.quiz.progress import Progress, note_mistakes
from grader import curriculum


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNKIT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def copies(tmp_path, monkeypatch):
    """``use(name, release_id=None)`` makes attnkit run as if installed from the course copy ``name``."""

    def use(name, release_id=None):
        grader = tmp_path / name / "grader"
        grader.mkdir(parents=True, exist_ok=True)
        if release_id is not None:
            (grader / userdata.COURSE_FILE).write_text(json.dumps({"format": userdata.COURSE_FORMAT,
                                                                   "id": release_id}))
        monkeypatch.setattr(curriculum, "__file__", str(grader / "curriculum.py"))
        return userdata.course()

    return use


def ask(*args, **options) -> str:
    out = io.StringIO()
    assert hint.main(*args, out=out, **options) == 0
    return out.getvalue()


def test_a_course_is_its_release_id_else_its_checkout(copies, tmp_path):
    first, second = copies("a"), copies("b")
    assert first.key != second.key and first.label == f"the checkout in {tmp_path / 'a'}"
    release = copies("c", "0123456789abcdef")
    assert release == userdata.Course("release-0123456789abcdef", "release 0123456789abcdef")
    assert copies("d", "0123456789abcdef") == release  # the same release unpacked twice is the same course
    assert copies("e", "../../etc").label == f"the checkout in {tmp_path / 'e'}"  # not an id: the folder counts


def test_hint_progress_of_one_copy_never_shows_in_another(copies):
    first = copies("a")
    assert "hint 1/4" in ask("softmax") and "hint 2/4" in ask("softmax")
    second = copies("b")
    text = ask("softmax")
    assert "hint 1/4" in text and "hint 2/4" not in text
    copies("a")
    assert "hint 3/4" in ask("softmax")
    assert (userdata.course_home(first) / "hints.json").is_file()
    assert json.loads((userdata.course_home(first) / "course.json").read_text())["course"] == first.label
    assert json.loads((userdata.course_home(second) / "hints.json").read_text()) == {"softmax/1": 1}


def test_hint_reset_says_what_it_reset_in_which_course(copies):
    course = copies("a")
    ask("masking", task=1)
    ask("masking", task=1)
    ask("masking", task=3)
    copies("b")
    ask("masking", task=1)
    copies("a")
    text = ask("masking", task=3, reset=True)
    assert text == (f"attnkit hint: reset masking task 3 (1 of 3 hints shown) in {course.label}; "
                    "`attnkit hint masking --task 3` starts again from hint 1\n")
    text = ask("masking", reset=True)
    assert text == (f"attnkit hint: reset masking task 1 (2 of 2 hints shown) in {course.label}; "
                    "`attnkit hint masking` starts again from hint 1\n")
    assert ask("masking", reset=True) == (f"attnkit hint: no hint of masking any task had been shown in "
                                          f"{course.label}; nothing to reset\n")
    assert "hint 1/2" in ask("masking", task=1) and "hint 2/2" not in ask("masking", task=2)
    copies("b")
    assert "hint 2/2" in ask("masking", task=1)  # the other copy's progress was not reset


def test_state_from_before_courses_goes_to_the_first_course_that_asks(copies, home):
    home.mkdir()
    (home / "hints.json").write_text(json.dumps({"softmax/1": 2}))
    course = copies("a")
    text = ask("softmax")
    assert text.startswith(f"note: {home / 'hints.json'}, from before attnkit kept state per course, was moved to "
                           f"this course ({course.label})")
    assert "hint 3/4" in text and not (home / "hints.json").exists()
    copies("b")
    assert "note:" not in ask("softmax")


def test_quiz_progress_of_one_copy_never_shows_in_another(copies):
    copies("a")
    assert note_mistakes(["softmax_no_max_subtraction"]) > 0
    assert Progress.load().cards
    copies("b")
    assert not Progress.load().cards
    out = io.StringIO()
    assert quiz(["--stats"], stdout=out) == 0
    assert "0 questions tracked" in out.getvalue() and str(userdata.course().label) in out.getvalue()
