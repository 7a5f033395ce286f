"""Which tests share a pytest-xdist worker, and in which order the workers take them.

A module-, package- or session-scoped fixture of this test tree (a graded class, a built release, a started
browser) is computed once per worker that runs a test using it. So every test using such a fixture goes into
one ``xdist_group`` (``--dist loadgroup``, set in pyproject.toml), and tests that share fixtures transitively
land in the same group: the fixture is built once in the whole run, not once per worker.

The workers take the groups holding a ``slow`` test and the slow tests first, then the other groups, then the
other tests, each in collection order (with ``--no-loadscope-reorder``): the long runs start at once, and the
~2,000 short tests after them keep both workers busy until the end, so the two finish together. Tests that wait for
what scripts/test.sh installs in the background (``installing`` marker: chromium on a new machine) go last while
that install runs.
"""
from __future__ import annotations

import os

import pytest

SHARED_SCOPES = ("module", "package", "session")
TREE = "tests."  # only the test tree's own fixtures: pytest's tmp_path_factory and the like are cheap


def shared_fixtures(item) -> list[str]:
    """The test tree's shared-scope fixtures ``item`` uses, by where they are defined (module.function)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    found = []
    for name in item.fixturenames:
        for definition in info.name2fixturedefs.get(name, ()):
            module = getattr(definition.func, "__module__", "") or ""
            if definition.scope in SHARED_SCOPES and module.startswith(TREE):
                found.append(f"{module}.{definition.func.__name__}")
    return found


def groups(items) -> dict[int, str]:
    """Index of each item that uses a shared fixture -> its group: the items linked by the fixtures they share
    (union-find over fixture keys), named after the first key in sorted order."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    keys_of = {}
    for index, item in enumerate(items):
        keys = shared_fixtures(item)
        if not keys:
            continue
        keys_of[index] = keys
        for key in keys:
            parent.setdefault(key, key)
        first = root(keys[0])
        for key in keys[1:]:
            other = root(key)
            if other != first:
                parent[max(first, other)] = min(first, other)
                first = min(first, other)
    return {index: root(keys[0]) for index, keys in keys_of.items()}


def assign(items, mark) -> None:
    """Mark each item of a group with ``mark(name)`` and order ``items`` in place: slow groups and slow tests, other
    groups, other tests (a stable sort, so each group's and module's tests keep their order and stay together)."""
    group_of = groups(items)
    slow = {group_of[i] for i, item in enumerate(items) if i in group_of and item.get_closest_marker("slow")}
    late = {group_of[i] for i, item in enumerate(items) if i in group_of and installing(item)}
    rank = {}
    for index, item in enumerate(items):
        name = group_of.get(index)
        if name is not None:
            item.add_marker(mark(name))
        if installing(item) or (name is not None and name in late):  # waits for a background install: last
            rank[id(item)] = 3
        elif name is None:
            rank[id(item)] = 0 if item.get_closest_marker("slow") else 2
        else:
            rank[id(item)] = 0 if name in slow else 1
    items.sort(key=lambda item: rank[id(item)])


def installing(item) -> bool:
    """Whether ``item`` waits for something scripts/test.sh installs in the background (``@pytest.mark.installing(
    "VARIABLE")``: that install runs while the environment variable is set)."""
    marker = item.get_closest_marker("installing")
    return marker is not None and bool(os.environ.get(marker.args[0], ""))


def tag(items) -> None:
    """Let the xdist controller see each item's group. pytest-xdist 3.8 appends ``@group`` to ``item._nodeid``, a field
    pytest 9.2 no longer reads (its node id is structured: pytest-dev/pytest-xdist#1386, open), so the groups
    silently vanish; append it to the id pytest 9.2 keeps when xdist's did not take."""
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        if mark is None or item.nodeid.rfind("@") > item.nodeid.rfind("]"):
            continue  # no group, or xdist's suffix took (older pytest)
        from _pytest.nodeid import coerce_node_id

        item._id = coerce_node_id(f"{item.nodeid}@{mark.args[0]}")


@pytest.hookimpl(hookwrapper=True)
def pytest_collection_modifyitems(config, items):
    """In an xdist worker: group and order the items first, then (after xdist's own hook) make sure the controller
    sees the groups."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "").startswith("gw")
    if worker:
        assign(items, pytest.mark.xdist_group)
    yield
    if worker and config.getvalue("loadgroup"):
        tag(items)
