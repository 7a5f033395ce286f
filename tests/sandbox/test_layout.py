"""The trust boundary as the layout states it: ``inside/`` imports only the standard library, numpy and the wire;
code outside ``grader/sandbox/`` uses only the package's public face; that face loads nothing heavy until asked."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import grader.sandbox as sandbox

ROOT = Path(__file__).resolve().parents[2]
SANDBOX = ROOT / "grader" / "sandbox"
INSIDE = SANDBOX / "inside"
# what an inside module may import besides the standard library: numpy, the wire, and its own folder (both as a
# package, and under the names the zygote loads them by path: attnkit_sandbox_<module>)
INSIDE_NAMES = {path.stem for path in INSIDE.glob("*.py")} - {"__init__"}
LOADED_BY_PATH = {f"attnkit_sandbox_{name}" for name in INSIDE_NAMES | {"wire"}}


def imported(path: Path) -> list[tuple[str, int, tuple[str, ...]]]:
    """Every import of ``path`` as (absolute or dotted-relative module, level, names), at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, 0, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level, tuple(alias.name for alias in node.names)))
    return found


def absolute(path: Path, module: str, level: int) -> str:
    """The absolute name of an import written in ``path`` (relative imports resolved against its package)."""
    if not level:
        return module
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, module] if module else base)


@pytest.mark.parametrize("path", sorted(INSIDE.glob("*.py")), ids=lambda p: p.name)
def test_inside_imports_only_the_standard_library_numpy_and_the_wire(path):
    allowed_inside = {f"grader.sandbox.inside.{name}" for name in INSIDE_NAMES} | {"grader.sandbox.inside"}
    refused = []
    for module, level, names in imported(path):
        full = absolute(path, module, level)
        top = full.split(".")[0]
        if level == 0 and (top in sys.stdlib_module_names or top == "numpy" or full in LOADED_BY_PATH):
            continue
        if full in allowed_inside or full == "grader.sandbox.wire":
            continue
        if full == "grader.sandbox" and set(names) == {"wire"}:
            continue
        refused.append(f"line of {'.' * level}{module} import {', '.join(names)}")
    assert not refused, f"{path.name} imports beyond the standard library, numpy and the wire: {refused}"


def outside_modules():
    for folder in ("grader", "attnkit", "benchmarks", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if SANDBOX not in path.parents:
                yield path


def test_code_outside_the_sandbox_uses_only_its_public_face():
    public = set(sandbox.__all__)
    reaching = []
    for path in outside_modules():
        for module, level, names in imported(path):
            full = absolute(path, module, level)
            if full.startswith("grader.sandbox."):
                reaching.append(f"{path.relative_to(ROOT)}: {full}")
            elif full == "grader.sandbox" and not set(names) <= public:
                reaching.append(f"{path.relative_to(ROOT)}: grader.sandbox import {', '.join(set(names) - public)}")
    assert not reaching, "import the sandbox's public names (grader.sandbox.__all__) instead:\n" + "\n".join(reaching)


def test_every_public_name_resolves():
    for name in sandbox.__all__:
        assert getattr(sandbox, name) is not None, name
    with pytest.raises(AttributeError):
        sandbox.not_a_public_name  # noqa: B018


def test_the_public_face_reads_limits_and_starts_the_zygote_without_numpy():
    """``attnkit``'s command line reads the defaults and the single-threaded environment, and ``attnkit check``
    starts the zygote, before numpy is imported (numpy would start its BLAS threads first)."""
    script = ("import sys\nfrom grader.sandbox import Limits, SINGLE_THREADED, TIMEOUT_SECONDS, launch_early\n"
              "assert Limits().timeout == TIMEOUT_SECONDS and SINGLE_THREADED\n"
              "print('numpy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
