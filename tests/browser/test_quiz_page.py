"""The offline quiz page in headless Chromium: attnkit quiz's answer rules, explanations after each answer,
and the review schedule surviving a reload (localStorage)."""
from __future__ import annotations

import itertools
import math
import random

import pytest

from attnkit.quiz import main
from attnkit.quiz.answers import text as normalise
from attnkit.quiz.bank import load_bank
from attnkit.quiz.export_html import options_of
from attnkit.quiz.exporting import expand
from attnkit.quiz.grading import Asked, BadAnswer, mark
from attnkit.quiz.model import format_number

from ..quiz.test_quiz_export import MINI
from .conftest import INSTALLING

pytestmark = [pytest.mark.slow, pytest.mark.installing(INSTALLING)]


@pytest.fixture(scope="module")
def quiz_page(tmp_path_factory, chromium):
    out = tmp_path_factory.mktemp("quiz") / "quiz.html"
    assert main(["export", "--format", "html", "--variants", "2", "-o", str(out), "--bank", MINI]) == 0
    return out


HOSTS = itertools.count(2)  # 127.0.0.2, 127.0.0.3...: one loopback address, so one origin, per test


@pytest.fixture
def page(browser, quiz_page):
    """The quiz page served at an origin of the test's own (a loopback address no other test uses): Chromium
    commits a page's localStorage writes asynchronously, so an earlier test's last answer could otherwise land
    in this test's storage after it was cleared."""
    import http.server
    import threading
    from functools import partial

    class Handler(http.server.SimpleHTTPRequestHandler):
        def send_head(self):
            if self.path.split("?")[0] != "/" + quiz_page.name:  # /favicon.ico: nothing, and no console error
                self.send_response(204)
                self.end_headers()
                return None
            return super().send_head()

        def log_message(self, *args):
            pass

    number = next(HOSTS)
    host = f"127.0.{number // 250}.{number % 250 + 2}"
    handler = partial(Handler, directory=str(quiz_page.parent))
    try:
        server = http.server.ThreadingHTTPServer((host, 0), handler)
    except OSError:  # only 127.0.0.1 on this system's loopback: an origin of its own by the port alone
        host, server = "127.0.0.1", http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        browser.get(f"http://{host}:{server.server_port}/{quiz_page.name}")
        browser.execute_script("localStorage.clear()")
        browser.refresh()
        yield browser
    finally:
        server.shutdown()
        server.server_close()


def article(driver, qid):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'article[data-qid="{qid}"]')


def choose(driver, qid, label):
    from selenium.webdriver.common.by import By

    node = article(driver, qid)
    option = next(o for o in node.find_elements(By.CSS_SELECTOR, "label.option") if o.text.strip() == label)
    option.find_element(By.TAG_NAME, "input").click()
    node.find_element(By.CSS_SELECTOR, "button.check").click()
    return node.find_element(By.CLASS_NAME, "verdict").text


def type_answer(driver, qid, text):
    from selenium.webdriver.common.by import By

    node = article(driver, qid)
    node.find_element(By.CSS_SELECTOR, "input.typed").send_keys(text)
    node.find_element(By.CSS_SELECTOR, "button.check").click()
    return node.find_element(By.CLASS_NAME, "verdict").text


def due_ids(driver):
    from selenium.webdriver.common.by import By

    return [link.get_attribute("data-qid") for link in driver.find_elements(By.CSS_SELECTOR, "#due-list a")]


def reloaded_due_ids(driver, expected: list, seconds: float = 5.0) -> list:
    """The due list after a reload. Chromium hands a page's localStorage writes to its storage process
    asynchronously, so a reload at once after an answer (no person is that quick) may still read the schedule
    from before it: reload until the expected list shows, for a few seconds at most."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        driver.refresh()
        found = due_ids(driver)
        if found == expected or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def status(driver, qid):
    from selenium.webdriver.common.by import By

    return article(driver, qid).find_element(By.CLASS_NAME, "status").text


def test_a_wrong_answer_is_due_again_after_a_reload(page, tmp_path):
    from selenium.webdriver.common.by import By

    assert choose(page, "mini-single", "~ = # { } :") == "Right."
    assert choose(page, "mini-true-false", "False").startswith("Not quite")
    assert type_answer(page, "mini-numeric", "64.4") == "Right."  # 64 within +/- 0.5
    solution = article(page, "mini-true-false").find_element(By.CSS_SELECTOR, "details.solution")
    assert solution.get_attribute("open") is not None and "By construction." in solution.text
    assert "Source" not in solution.text.split("\n", 1)[1] and "004_" not in solution.text  # a seed: no source shown
    page.save_screenshot(str(tmp_path / "quiz-answered.png"))
    assert reloaded_due_ids(page, ["mini-true-false"]) == ["mini-true-false"]
    assert status(page, "mini-true-false") == "due now"
    assert status(page, "mini-single") == status(page, "mini-numeric") == "next review in 1 day"
    assert status(page, "mini-short") == ""  # never answered: not scheduled
    page.find_element(By.ID, "only-due").click()
    shown = [a.get_attribute("data-qid") for a in page.find_elements(By.CSS_SELECTOR, "article.q") if a.is_displayed()]
    assert shown == ["mini-true-false"]
    page.save_screenshot(str(tmp_path / "quiz-due.png"))


def test_unreadable_answers_are_refused_and_not_scheduled(page):
    from selenium.webdriver.common.by import By

    assert type_answer(page, "mini-numeric", "64 MB") == "Type a number, e.g. 0.418 (no units)."
    node = article(page, "mini-ordering")
    for select in node.find_elements(By.TAG_NAME, "select"):
        select.send_keys("1")
    node.find_element(By.CSS_SELECTOR, "button.check").click()
    assert node.find_element(By.CLASS_NAME, "verdict").text == "Give every position from 1 to 4 once."
    page.refresh()
    assert due_ids(page) == [] and status(page, "mini-numeric") == status(page, "mini-ordering") == ""


def test_a_non_ascii_short_answer_is_graded_by_the_learner(page):
    from selenium.webdriver.common.by import By

    assert type_answer(page, "mini-short", "Sóftmax").startswith("This answer cannot be checked in the page")
    node = article(page, "mini-short")
    assert node.find_element(By.CSS_SELECTOR, "details.solution").text.count("softmax") >= 1
    node.find_element(By.CSS_SELECTOR, '.selfgrade button[data-right="0"]').click()
    assert reloaded_due_ids(page, ["mini-short"]) == ["mini-short"]


TYPED = ["softmax", " Soft\tMax ", "SOFT\x1cMAX", "soft-max", "", "64", " 64.4 ", "6_4", "1e2", "+inf", "-Infinity",
         "nan", ".5", "5.", "0x40", "1,5", "--1", "1e", "64 MB", "e5", "_", "\x0b64\x0c"]


# typed in turn into every numeric and short question (None: the answer at the edge of its tolerance / its last form)
TYPED_ANSWERS = (None, "64", "63.5", "64.5", "64.51", "63.4999", "6_4.0", "Soft max", "SOFTMAX", "soft-max", "64 MB")


def python_float(text):
    try:
        return float(text.replace("_", ""))
    except ValueError:
        return None


def test_the_pages_normalisation_and_numbers_are_attnkit_quizs(page):
    got = page.execute_script("return arguments[0].map(t => [attnkitQuiz.normalise(t), "
                              "String(attnkitQuiz.parseNumber(t))])", TYPED)
    for text, (normalised, number) in zip(TYPED, got):
        assert normalised == normalise(text), repr(text)
        expected = python_float(text)
        if expected is None:
            assert number == "null", repr(text)
        elif math.isnan(expected):
            assert number == "NaN", repr(text)
        else:
            assert float(number.replace("Infinity", "inf")) == expected, repr(text)


def _page_answer(driver, number, entry, options, rng, round_):
    """Fill question ``number``'s inputs (choices at random, typed answers in turn from ``TYPED_ANSWERS``);
    returns the same answer as typed for attnkit quiz."""
    if entry.type in ("single", "true_false"):
        index = rng.randrange(len(options))
        driver.execute_script(f"document.querySelectorAll('#q{number} input')[{index}].checked = true")
        return str(index + 1)
    if entry.type == "multiple":
        chosen = sorted(rng.sample(range(len(options)), rng.randint(1, len(options))))
        for index in chosen:
            driver.execute_script(f"document.querySelectorAll('#q{number} input')[{index}].checked = true")
        return ",".join(str(i + 1) for i in chosen)
    if entry.type == "ordering":
        positions = list(range(1, len(options) + 1))
        if rng.random() < 0.5:
            rng.shuffle(positions)
        for index, position in enumerate(positions):
            driver.execute_script(f"document.querySelectorAll('#q{number} select')[{index}].value = '{position}'")
        return " ".join(str(positions.index(p) + 1) for p in range(1, len(options) + 1))
    text = TYPED_ANSWERS[round_ % len(TYPED_ANSWERS)]
    if text is None:
        text = format_number(entry.answer + entry.tolerance) if entry.type == "numeric" else entry.answer[-1]
    driver.execute_script(f"document.querySelector('#q{number} input.typed').value = arguments[0]", text)
    return text


def test_every_answer_is_marked_as_attnkit_quiz_marks_it(page):
    entries = expand(load_bank([MINI]).questions, 2)
    rng = random.Random(7)
    for round_ in range(len(TYPED_ANSWERS)):
        page.refresh()
        for number, entry in enumerate(entries, 1):
            options = options_of(entry)
            text = _page_answer(page, number, entry, options, rng, round_)
            verdict = page.execute_script(f"return attnkitQuiz.mark(document.getElementById('q{number}'))")
            try:
                expected = mark(Asked(entry, tuple(options)), text)[0]
            except BadAnswer:
                assert "bad" in verdict, (entry.id, text, verdict)
                continue
            assert verdict == {"correct": expected}, (entry.id, text, verdict)


def test_a_page_that_throws_is_caught(chromium, tmp_path):
    from .conftest import js_errors

    thrower = tmp_path / "thrower.html"
    thrower.write_text("<!DOCTYPE html><p>x</p><script>null.property;</script>")
    js_errors(chromium)
    chromium.get(thrower.as_uri())
    assert any("TypeError" in message for message in js_errors(chromium))


@pytest.mark.parametrize("answers", [(True, True, True, True, True, True), (False, True, True, False, True),
                                     (True, False, False, True, True, True)])
def test_the_schedule_moves_through_attnkit_quizs_leitner_boxes(page, tmp_path, answers):
    from datetime import datetime, timezone

    from attnkit.quiz.progress import Progress
    from attnkit.quiz.schedule import Kind

    # the page keeps attnkit quiz's fallback schedule (Leitner boxes; FSRS needs its package)
    progress, when = Progress(tmp_path / "progress.json", kind=Kind.LEITNER), datetime(2026, 1, 1, tzinfo=timezone.utc)
    for correct in answers:
        card = progress.record("q", correct, when)
        page.execute_script("attnkitQuiz.record('q', arguments[0])", correct)
        stored = page.execute_script("return attnkitQuiz.load()['q']")
        assert stored["box"] == card.box and stored["reviews"] == card.reviews and stored["lapses"] == card.lapses
        assert (stored["due"] - stored["last"]) / 1000 == (card.due_at() - when).total_seconds()


def test_the_due_list_puts_the_earliest_due_first(page):
    page.execute_script("localStorage.setItem('attnkit-quiz-review', JSON.stringify({"
                        "'mini-short': {box: 1, reviews: 1, lapses: 1, last: 0, due: 3000},"
                        "'mini-single': {box: 1, reviews: 2, lapses: 2, last: 0, due: 1000},"
                        "'mini-numeric': {box: 3, reviews: 3, lapses: 0, last: 0, due: 8.64e15}}))")
    page.refresh()
    assert due_ids(page) == ["mini-single", "mini-short"]
    assert status(page, "mini-numeric").startswith("next review in ")


@pytest.mark.parametrize("stored", ["{not json", "[1, 2]", "null",
                                    '{"mini-single": {"box": 9, "due": 0, "reviews": 1, "lapses": 0}}',
                                    '{"mini-single": {"box": 1, "due": "soon", "reviews": 1, "lapses": 0}}'])
def test_a_damaged_schedule_starts_afresh(page, stored):
    page.execute_script("localStorage.setItem('attnkit-quiz-review', arguments[0])", stored)
    page.refresh()
    assert due_ids(page) == [] and status(page, "mini-single") == ""
    assert choose(page, "mini-true-false", "False").startswith("Not quite")
    stored = page.execute_script("return attnkitQuiz.load()")
    assert list(stored) == ["mini-true-false"] and stored["mini-true-false"]["box"] == 1, stored
    assert reloaded_due_ids(page, ["mini-true-false"]) == ["mini-true-false"]
