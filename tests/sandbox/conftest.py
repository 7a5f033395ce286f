"""Fixtures of the sandbox tests: one zygote for the module, submissions built from solutions/."""
import shutil
from pathlib import Path

import pytest

from grader.sandbox.host.inprocess import in_process
from grader.sandbox.host.spawner import Zygote
from grader.sandbox.host.workspace import Workspace

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


@pytest.fixture(scope="module")
def zygote():
    with Zygote() as zygote:
        yield zygote


@pytest.fixture
def submission(tmp_path):
    """A copy of the reference solutions; ``submission(module=text, ...)`` replaces or adds modules."""
    def build(**modules: str) -> Path:
        target = tmp_path / "submission"
        if not target.exists():
            shutil.copytree(SOLUTIONS, target, ignore=shutil.ignore_patterns("__pycache__"))
        for name, text in modules.items():
            (target / f"{name}.py").write_text(text)
        return target

    return build


@pytest.fixture
def child(zygote, submission, request):
    """An ``impl`` whose module ``probes`` is the test module's ``PROBES``, in a sandboxed child."""
    with Workspace(submission(probes=request.module.PROBES), zygote.user) as workspace:
        impl = zygote.implementation(workspace, "softmax", module="probes")
        yield impl
        impl.close()


@pytest.fixture
def trusted(submission, request):
    """The same ``impl`` run in this process (the in-process transport)."""
    return in_process(submission(probes=request.module.PROBES), "softmax")
