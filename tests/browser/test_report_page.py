"""report.html of a class graded by ``attnkit grade``, opened in headless Chromium: the numbers shown are
summary.json's, the students table sorts and filters, a student's feedback opens, student text stays text."""
from __future__ import annotations

import json

import pytest

from . import classroom
from .conftest import INSTALLING

pytestmark = [pytest.mark.slow, pytest.mark.installing(INSTALLING)]
HALF_CENT = 0.005 + 1e-9  # the page shows two decimals


@pytest.fixture(scope="module")
def graded(tmp_path_factory, chromium):  # chromium first: no grading when the tests skip
    out = classroom.grade(tmp_path_factory.mktemp("report-class"))
    return out, json.loads((out / "summary.json").read_text())


@pytest.fixture
def page(browser, graded):
    out, summary = graded
    browser.get((out / "report.html").as_uri())
    return browser, summary


def texts(driver, selector):
    from selenium.webdriver.common.by import By

    return [node.text for node in driver.find_elements(By.CSS_SELECTOR, selector)]


def visible_rows(driver):
    from selenium.webdriver.common.by import By

    return [row for row in driver.find_elements(By.CSS_SELECTOR, "#students tbody tr") if row.is_displayed()]


def test_the_numbers_shown_are_the_summarys(page, tmp_path):
    driver, summary = page
    assert texts(driver, "#graded") == [str(summary["graded"])]
    assert texts(driver, "#student-count") == [str(summary["students"])]
    assert float(texts(driver, "#mean-score")[0]) == pytest.approx(summary["mean_score"], abs=HALF_CENT)
    assert float(texts(driver, "#max-score")[0]) == summary["max_score"]
    shown = texts(driver, "#exercises tbody tr td:first-child")
    assert shown == [row["exercise"] for row in summary["exercises"]]
    for row in summary["exercises"]:
        mean = texts(driver, f'tr[data-exercise="{row["exercise"]}"] td.mean')[0]
        full = texts(driver, f'tr[data-exercise="{row["exercise"]}"] td.full')[0]
        assert (float(mean), int(full)) == (pytest.approx(row["mean"], abs=HALF_CENT), row["full_marks"]), row
    counts = texts(driver, "#mistakes tbody tr td:first-child")
    ids = texts(driver, "#mistakes tbody tr td code")
    assert [(m, int(n)) for m, n in zip(ids, counts)] == [(m["mistake"], m["students"]) for m in summary["mistakes"]]
    assert "carol, dave" in texts(driver, '#mistakes tr[data-mistake="softmax_no_max_subtraction"]')[0]
    assert texts(driver, "#groups p") == ["none found"]  # no shared unnamed mistake in the summary yet
    assert len(visible_rows(driver)) == summary["students"]
    driver.save_screenshot(str(tmp_path / "report-top.png"))


def test_the_students_table_sorts_by_a_column_and_back(page):
    from selenium.webdriver.common.by import By

    driver, _ = page
    header = driver.find_element(By.CSS_SELECTOR, "#students thead th:nth-child(2)")
    header.click()
    scores = [float(row.find_elements(By.TAG_NAME, "td")[1].text) for row in visible_rows(driver)]
    assert scores == sorted(scores) and scores[0] < scores[-1]
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    scores = [float(row.find_elements(By.TAG_NAME, "td")[1].text) for row in visible_rows(driver)]
    assert scores == sorted(scores, reverse=True)
    driver.find_element(By.CSS_SELECTOR, "#students thead th:nth-child(1)").click()
    names = [row.find_elements(By.TAG_NAME, "td")[0].text for row in visible_rows(driver)]
    assert names == sorted(names, key=str.lower)


def test_the_filters_narrow_the_table(page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver, summary = page
    driver.find_element(By.ID, "filter").send_keys("softmax_no_max")
    assert sorted(row.find_element(By.TAG_NAME, "a").text for row in visible_rows(driver)) == ["carol", "dave"]
    assert driver.find_element(By.ID, "shown").text == f"2 of {summary['students']} students shown"
    driver.find_element(By.ID, "filter").clear()
    driver.execute_script("document.getElementById('filter').dispatchEvent(new Event('input'))")
    Select(driver.find_element(By.ID, "standing")).select_by_visible_text("problem")
    with_problems = {p["student"] for p in summary["problems"]}
    assert {row.find_element(By.TAG_NAME, "td").text for row in visible_rows(driver)} == with_problems
    Select(driver.find_element(By.ID, "standing")).select_by_visible_text("full marks")
    rows = visible_rows(driver)
    assert rows and all(float(r.find_elements(By.TAG_NAME, "td")[1].text) == summary["max_score"] for r in rows)


def test_a_row_opens_that_students_feedback(page, tmp_path):
    from selenium.webdriver.common.by import By

    driver, _ = page
    row = next(r for r in visible_rows(driver) if r.find_element(By.TAG_NAME, "td").text == "carol")
    row.find_elements(By.TAG_NAME, "td")[2].click()  # anywhere on the row, not only the name
    target = driver.execute_script("return location.hash").lstrip("#")
    details = driver.find_element(By.ID, target)
    assert details.get_attribute("open") is not None and details.is_displayed()
    assert details.find_element(By.TAG_NAME, "summary").text == "carol"
    assert "hint:" in details.text and "checks passed" in details.text
    driver.save_screenshot(str(tmp_path / "report-feedback.png"))


def test_text_from_student_code_stays_text(page):
    from selenium.webdriver.common.by import By

    driver, _ = page
    assert driver.title == "attnkit class report"  # the student's <script> did not run
    assert not driver.find_elements(By.CSS_SELECTOR, "img")
    assert len(driver.find_elements(By.TAG_NAME, "script")) == 1
    names = [r.find_element(By.TAG_NAME, "td").text for r in visible_rows(driver)]
    assert classroom.HOSTILE_ID in names
    assert classroom.HOSTILE_MESSAGE in driver.find_element(By.ID, "feedback").get_attribute("textContent")
