"""Headless Chromium through Selenium, one browser per test module; skipped (saying why) when none can be had.

Every test that uses ``browser`` fails when a page it opened logged a JavaScript error (read from the
browser's console log after the test).
"""
from __future__ import annotations

import shutil

import pytest

from tests import background_install

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900")
BINARIES = ("chromium", "chromium-browser", "google-chrome")
SKIPPED: list[str] = []  # why the browser tests were skipped, for the end of the run
INSTALLING = "ATTNKIT_BROWSER_INSTALLED"  # scripts/test.sh: the file its background install of chromium writes last


def _missing() -> str | None:
    failed = background_install.wait(INSTALLING, "chromium and chromium-driver", ".venv/chromium.log")
    if failed:
        return failed
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not any(shutil.which(name) for name in BINARIES):
        return "no Chromium found (scripts/test.sh installs Debian's chromium and chromium-driver)"
    if not shutil.which("chromedriver"):
        return "no chromedriver found (scripts/test.sh installs Debian's chromium-driver)"
    return None


def js_errors(driver) -> list[str]:
    """The console's errors since the last call (uncaught exceptions included)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def start(profile, javascript: bool = True):
    """A headless Chromium with a fresh profile in ``profile``; skips the calling test when none can be had."""
    reason = _missing()
    if reason:
        SKIPPED.append(reason)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = next(shutil.which(name) for name in BINARIES if shutil.which(name))
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    except Exception as error:  # a broken install: say so and skip rather than fail every test
        reason = f"Chromium could not be started ({type(error).__name__}: {str(error).splitlines()[0]})"
        SKIPPED.append(reason)
        pytest.skip(reason)
    driver.set_page_load_timeout(20)
    return driver


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    driver = start(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium):
    js_errors(chromium)  # start from an empty log
    yield chromium
    errors = js_errors(chromium)
    assert not errors, f"the page threw JavaScript errors: {errors}"


def pytest_terminal_summary(terminalreporter):
    for reason in dict.fromkeys(SKIPPED):
        terminalreporter.write_line(f"browser tests skipped: {reason}")
