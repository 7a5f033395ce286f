"""worker_groups: the tests sharing a module-, package- or session-scoped fixture land in one xdist group, and the
slow groups are taken first (collected with pytester, in process: real items and real fixture definitions)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests import worker_groups

CONFTEST = """
import pytest

@pytest.fixture(scope="session")
def built():
    return 1

@pytest.fixture
def cheap():
    return 2
"""
FIRST = """
import pytest

@pytest.fixture(scope="module")
def graded():
    return 3

def test_plain(cheap): pass
def test_graded_a(graded): pass
def test_built(built): pass
def test_graded_b(graded, tmp_path): pass
def test_both(graded, built): pass
"""
SECOND = """
import pytest

@pytest.fixture(scope="module")
def own():
    return 4

def test_alone(): pass
@pytest.mark.slow
def test_slow_own(own): pass
def test_own(own): pass
@pytest.mark.slow
def test_slow_alone(): pass
"""


@pytest.fixture
def items(pytester, monkeypatch):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_first=FIRST, test_second=SECOND)
    pytester.makeini("[pytest]\nmarkers =\n    slow: slow\n")
    collected, _ = pytester.inline_genitems()
    monkeypatch.setattr(worker_groups, "TREE", ("conftest", "test_first", "test_second"))  # not under tests/
    return collected


def group_of(item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    return mark.args[0] if mark else None


def test_tests_sharing_a_fixture_share_a_group_transitively(items):
    worker_groups.assign(items, pytest.mark.xdist_group)
    groups = {item.name: group_of(item) for item in items}
    # test_both links the module's graded with the session's built: one group for all four
    assert groups["test_graded_a"] == groups["test_graded_b"] == groups["test_both"] == groups["test_built"]
    assert groups["test_slow_own"] == groups["test_own"] != groups["test_graded_a"]
    assert groups["test_plain"] is None and groups["test_alone"] is None  # function-scoped fixtures: no group
    assert None not in (groups["test_built"], groups["test_own"])


def test_slow_groups_and_slow_tests_first_each_group_together(items):
    worker_groups.assign(items, pytest.mark.xdist_group)
    order = [item.name for item in items]
    # the group with a slow test and the slow test first, then the other group, then the rest (collection order)
    assert order == ["test_slow_own", "test_own", "test_slow_alone",
                     "test_graded_a", "test_built", "test_graded_b", "test_both",
                     "test_plain", "test_alone"]


INSTALLING = """
import pytest

@pytest.fixture(scope="module")
def browser():
    return 5

pytestmark = pytest.mark.installing("FAKE_INSTALL")

def test_page(browser): pass
@pytest.mark.slow
def test_slow_page(browser): pass
"""


def test_what_waits_for_a_background_install_goes_last_while_it_runs(pytester, monkeypatch):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_first=FIRST, test_third=INSTALLING)
    pytester.makeini("[pytest]\nmarkers =\n    slow: slow\n    installing(flag): waits\n")
    monkeypatch.setattr(worker_groups, "TREE", ("conftest", "test_first", "test_third"))
    monkeypatch.delenv("FAKE_INSTALL", raising=False)
    collected, _ = pytester.inline_genitems()
    worker_groups.assign(collected, pytest.mark.xdist_group)
    assert [item.name for item in collected][:2] == ["test_page", "test_slow_page"]  # no install: a slow group
    monkeypatch.setenv("FAKE_INSTALL", "/somewhere/installed")
    collected, _ = pytester.inline_genitems()
    worker_groups.assign(collected, pytest.mark.xdist_group)
    assert [item.name for item in collected][-2:] == ["test_page", "test_slow_page"]
    assert group_of(collected[-1]) == group_of(collected[-2]) is not None


def test_fixtures_outside_the_tree_make_no_group(items, monkeypatch):
    monkeypatch.setattr(worker_groups, "TREE", "tests.")
    worker_groups.assign(items, pytest.mark.xdist_group)
    assert [group_of(item) for item in items] == [None] * len(items)



INNER_CONFTEST = """
from tests import worker_groups
from tests.worker_groups import pytest_collection_modifyitems  # noqa: F401

worker_groups.TREE = ("conftest", "test_")
"""
INNER_SHARED = """
import os

import pytest

@pytest.fixture(scope="module")
def shared():
    with open("builds.txt", "a") as handle:
        handle.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")

@pytest.mark.parametrize("number", range(12))
def test_uses_shared(number, shared):
    pass
"""


def test_two_workers_build_a_shared_fixture_once(pytester, monkeypatch):
    """Through xdist itself, two workers: without the groups, or with groups the controller never sees (pytest 9.2
    with xdist 3.8, see worker_groups.tag), the twelve tests using ``shared`` are spread and both workers build it."""
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))
    pytester.makeconftest(INNER_CONFTEST)
    pytester.makepyfile(test_shared=INNER_SHARED, test_other="".join(f"def test_{i}(): pass\n" for i in range(12)))
    result = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder")
    result.assert_outcomes(passed=24)
    assert (pytester.path / "builds.txt").read_text().split() in (["gw0"], ["gw1"]), result.outlines
