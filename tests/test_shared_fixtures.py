"""Each shared fixture of the test tree (module, package or session scope) is registered with pytest in one place.

A fixture function imported into two conftest files (or test modules) is two fixture definitions to pytest, each
with its own cache: the worker that runs the tests of both places builds it twice (the student release was, once
for the release tests and once for the nbgrader student-kernel test). A fixture the tests of several folders use is
imported by tests/conftest.py alone. Read from the sources (nothing imported)."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tests.worker_groups import SHARED_SCOPES

TESTS = Path(__file__).resolve().parent


def fixture_scope(node: ast.AST) -> str | None:
    """The scope of a function defined as ``@pytest.fixture(scope="...")`` (``function`` for a plain fixture)."""
    if not isinstance(node, ast.FunctionDef):
        return None
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        target = call.func if call else decorator
        if isinstance(target, ast.Attribute) and target.attr == "fixture" or \
                isinstance(target, ast.Name) and target.id == "fixture":
            scopes = [k.value.value for k in (call.keywords if call else []) if k.arg == "scope"
                      and isinstance(k.value, ast.Constant)]
            return scopes[0] if scopes else "function"
    return None


def registrations(root: Path) -> dict[str, list[str]]:
    """Shared fixture (module.function where it is defined) -> the conftest files and test modules registering it."""
    trees = {}
    for path in sorted(root.rglob("*.py")):
        try:
            trees[".".join(path.relative_to(root.parent).with_suffix("").parts)] = ast.parse(path.read_text("utf-8"))
        except SyntaxError:  # a hand-in of the hostile catalogue or the corpus: data, never collected
            continue
    shared = {(module, node.name) for module, tree in trees.items() for node in tree.body
              if fixture_scope(node) in SHARED_SCOPES}
    found: dict[str, list[str]] = defaultdict(list)
    for module, tree in trees.items():
        name = module.rsplit(".", 1)[-1]
        if name != "conftest" and not name.startswith("test_"):
            continue  # pytest reads fixtures from conftest files and test modules only
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    if (node.module, alias.name) in shared:
                        found[f"{node.module}.{alias.name}"].append(module)
            elif (module, getattr(node, "name", None)) in shared:
                found[f"{module}.{node.name}"].append(module)
    return dict(found)


def test_every_shared_fixture_is_registered_once():
    twice = {name: places for name, places in registrations(TESTS).items() if len(places) > 1}
    assert twice == {}, "import each into tests/conftest.py alone (or define it there): built once per place otherwise"


def test_a_fixture_registered_in_two_places_is_found(tmp_path):
    tree = tmp_path / "tests"
    (tree / "kit").mkdir(parents=True)
    (tree / "kit" / "builtkit.py").write_text("import pytest\n\n\n@pytest.fixture(scope='session')\ndef built():\n"
                                               "    return 1\n\n\n@pytest.fixture\ndef cheap():\n    return 2\n")
    for folder in ("a", "b", "c"):
        (tree / folder).mkdir()
    (tree / "a" / "conftest.py").write_text("from tests.kit.builtkit import built, cheap  # noqa: F401\n")
    (tree / "b" / "test_b.py").write_text("from tests.kit.builtkit import built  # noqa: F401\n")
    (tree / "c" / "helpers.py").write_text("from tests.kit.builtkit import built  # noqa: F401\n")
    assert registrations(tree) == {"tests.kit.builtkit.built": ["tests.a.conftest", "tests.b.test_b"]}
