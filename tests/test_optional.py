"""The cross-checks' heavy optional packages are imported when a test uses them, never when a test module is
collected (tests/optional.py): every pytest-xdist worker collects every module, so such an import would cost each
worker seconds of CPU for tests only one of them runs."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.optional import lazy

TESTS = Path(__file__).resolve().parent
HEAVY = ("torch", "transformers")


def collection_imports(tree: ast.Module) -> list[str]:
    """The heavy packages a module imports while it is imported: its statements outside function bodies (an
    ``import``, or ``importorskip`` / ``import_module`` called with the package's name)."""
    found, todo = [], list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)) and node.args:
            called = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if called in ("importorskip", "import_module") and isinstance(node.args[0], ast.Constant):
                names = [str(node.args[0].value)]
        found += [name for name in names if name.split(".")[0] in HEAVY]
        todo.extend(ast.iter_child_nodes(node))
    return found


def test_no_test_module_imports_torch_or_transformers_when_collected():
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:  # a hand-in of the hostile catalogue or the corpus: data, never imported by pytest
            continue
        found = collection_imports(tree)
        if found:
            offenders[str(path.relative_to(TESTS))] = found
    assert offenders == {}, f"use tests.optional.lazy and the fixture of the same name instead: {offenders}"


def test_the_scan_finds_each_form_of_import():
    source = ("import torch\nfrom transformers import GPT2Config\nimport pytest\nF = pytest.importorskip('torch')\n"
              "if True:\n    import torch.nn\ndef later():\n    import torch\n")
    assert sorted(collection_imports(ast.parse(source))) == ["torch", "torch", "torch.nn", "transformers"]


def test_a_lazy_module_is_imported_on_its_first_public_attribute(tmp_path, monkeypatch):
    (tmp_path / "attnkit_lazy_probe.py").write_text("VALUE = 42\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "attnkit_lazy_probe", raising=False)
    probe = lazy("attnkit_lazy_probe")
    assert not hasattr(probe, "_pytestfixturefunction")  # what pytest looks for on module globals while collecting
    assert "attnkit_lazy_probe" not in sys.modules
    assert probe.VALUE == 42 and "attnkit_lazy_probe" in sys.modules
