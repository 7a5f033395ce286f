"""Run on both cores: ``scripts/test.sh`` starts two pytest-xdist workers. Each worker keeps to a core of its
own (the grader pins a grading process to the first core it may use, so two unpinned workers grading at once
would share one core and leave the other idle), and the tests sharing an expensive fixture share a worker
(worker_groups.py). A shared fixture that tests of several folders use is registered here, once
(test_shared_fixtures.py): the student release, the optional packages of the cross-checks (tests/optional.py)."""
from __future__ import annotations

import os
import sys

import pytest

from tests import background_install
from tests.release.releasekit import release  # noqa: F401  (a fixture: tests/release and tests/nbgrader use it)
from tests.worker_groups import pytest_collection_modifyitems  # noqa: F401  (a hook: groups for xdist)


def pytest_configure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or not hasattr(os, "sched_setaffinity"):
        return
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) > 1:
        os.sched_setaffinity(0, {cpus[int(worker[2:]) % len(cpus)]})


CROSSCHECK = "ATTNKIT_CROSSCHECK_INSTALLED"  # scripts/test.sh: the file its background install of torch writes last
CROSSCHECK_FIXTURES = ("torch", "transformers")


def pytest_itemcollected(item):
    """A test using torch or transformers waits for scripts/test.sh's background install of them, if one runs
    (tests/background_install.py), and is taken last meanwhile."""
    if set(CROSSCHECK_FIXTURES) & set(getattr(item, "fixturenames", ())):
        item.add_marker(pytest.mark.installing(CROSSCHECK))


def _crosscheck_package(name: str):
    failed = background_install.wait(CROSSCHECK, "torch and transformers", ".venv/crosscheck.log")
    return pytest.importorskip(name, reason=failed)


@pytest.fixture(scope="session")
def torch():
    """torch (the optional ``torch`` extra), imported by the one worker that runs the tests using it
    (tests/optional.py); those tests are skipped where it is not installed."""
    return _crosscheck_package("torch")


@pytest.fixture(scope="session")
def transformers(torch):
    """HuggingFace transformers (the ``crosscheck`` extra, with torch), as the ``torch`` fixture."""
    return _crosscheck_package("transformers")


@pytest.fixture(autouse=True)
def _diagnoses_afresh():
    """Each test diagnoses afresh: a grading process keeps its diagnoses (``grader.diagnosis.DIAGNOSES``), which
    would carry an answer into a test that changes what a diagnosis tries (a time budget, a registry)."""
    diagnosis = sys.modules.get("grader.diagnosis")
    if diagnosis is not None:
        diagnosis.DIAGNOSES.clear()
