"""Waiting for scripts/test.sh's background installs (tests/background_install.py), and which tests wait."""
from __future__ import annotations

import threading

import pytest

from tests import background_install, conftest

FLAG = "ATTNKIT_TEST_FAKE_INSTALLED"


def test_no_install_running_means_no_wait(monkeypatch):
    monkeypatch.delenv(FLAG, raising=False)
    assert background_install.wait(FLAG, "a package", ".venv/fake.log") is None


def test_a_finished_install_reports_its_status(monkeypatch, tmp_path):
    flag = tmp_path / "installed"
    monkeypatch.setenv(FLAG, str(flag))
    flag.write_text("0\n")
    assert background_install.wait(FLAG, "a package", ".venv/fake.log") is None
    flag.write_text("2\n")
    assert background_install.wait(FLAG, "a package", ".venv/fake.log") == \
        "a package could not be installed (exit status 2; see .venv/fake.log)"


def test_the_wait_ends_when_the_install_does(monkeypatch, tmp_path):
    flag = tmp_path / "installed"
    monkeypatch.setenv(FLAG, str(flag))
    monkeypatch.setattr(background_install, "POLL_SECONDS", 0.01)
    timer = threading.Timer(0.1, flag.write_text, args=("0",))
    timer.start()
    try:
        assert background_install.wait(FLAG, "a package", ".venv/fake.log") is None
    finally:
        timer.join()
    assert flag.exists()


def test_an_install_that_never_ends_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv(FLAG, str(tmp_path / "never"))
    monkeypatch.setattr(background_install, "WAIT_SECONDS", 0.05)
    monkeypatch.setattr(background_install, "POLL_SECONDS", 0.01)
    reason = background_install.wait(FLAG, "a package", ".venv/fake.log")
    assert reason == "the install of a package by scripts/test.sh did not end within 0.05 s (.venv/fake.log)"


class _Item:
    def __init__(self, fixturenames):
        self.fixturenames = fixturenames
        self.markers = []

    def add_marker(self, marker):
        self.markers.append(marker)


@pytest.mark.parametrize("fixtures, waits", [(["torch"], True), (["tmp_path", "transformers"], True),
                                             (["tmp_path"], False)])
def test_the_tests_using_torch_or_transformers_wait_for_their_install(fixtures, waits):
    item = _Item(fixtures)
    conftest.pytest_itemcollected(item)
    marks = [(m.name, m.args) for m in item.markers]
    assert marks == ([("installing", (conftest.CROSSCHECK,))] if waits else [])
