"""Both pages with JavaScript turned off: the tables, the feedback, the answers are all there to read."""
from __future__ import annotations

import pytest

from attnkit.quiz import main
from attnkit.report import page as report_page
from attnkit.report.data import build
from tests.report.classkit import EXERCISES, make_class, summarise

from ..quiz.test_quiz_export import MINI
from .conftest import INSTALLING, start

pytestmark = [pytest.mark.slow, pytest.mark.installing(INSTALLING)]


@pytest.fixture(scope="module")
def no_script(tmp_path_factory):
    driver = start(tmp_path_factory.mktemp("chromium-profile"), javascript=False)
    yield driver
    driver.quit()


def test_the_report_reads_without_javascript(no_script, tmp_path):
    from selenium.webdriver.common.by import By

    results = make_class(12)
    summary = summarise(results)
    path = tmp_path / "report.html"
    path.write_text(report_page.render(build(results, summary, EXERCISES), EXERCISES))
    no_script.get(path.as_uri())
    assert no_script.find_element(By.ID, "mean-score").text
    assert not no_script.find_element(By.ID, "controls").is_displayed()  # the filters need the script
    rows = no_script.find_elements(By.CSS_SELECTOR, "#students tbody tr")
    assert len(rows) == 12 and all(row.is_displayed() for row in rows)
    no_script.find_element(By.CSS_SELECTOR, "#students tbody tr a").click()  # to the folded feedback
    details = no_script.find_element(By.ID, "fb-0")
    details.find_element(By.TAG_NAME, "summary").click()
    assert details.get_attribute("open") is not None and "checks passed" in details.text
    no_script.save_screenshot(str(tmp_path / "report-no-javascript.png"))


def test_the_quiz_reads_without_javascript(no_script, tmp_path):
    from selenium.webdriver.common.by import By

    out = tmp_path / "quiz.html"
    assert main(["export", "--format", "html", "-o", str(out), "--bank", MINI]) == 0
    no_script.get(out.as_uri())
    articles = no_script.find_elements(By.CSS_SELECTOR, "article.q")
    assert len(articles) == 7 and not no_script.find_element(By.ID, "review").is_displayed()
    solution = articles[0].find_element(By.CSS_SELECTOR, "details.solution")
    solution.find_element(By.TAG_NAME, "summary").click()
    assert "Answer:" in solution.text and "GIFT escapes" in solution.text  # the mini bank cites a seed: no source line
