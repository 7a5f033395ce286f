"""pytest plugin (entry point ``pytest11``): ``pytest --impl DIR`` runs the attnkit checks on DIR.

Inert unless ``--impl`` is given. Then it collects ``grader/checks/check_*.py`` (instead of the
project's tests, unless paths are given), provides the fixtures ``impl`` (the student's code
in a sandboxed child), ``ref`` and ``rng``, marks each check with ``points(n)``, reports a
student's failure as a short message instead of a traceback, and prints the score.
"""
from __future__ import annotations

from pathlib import Path

import pytest

CHECKS_DIR = Path(__file__).resolve().parent / "checks"
IMPL_HELP = "run the attnkit checks on the implementation in DIR (e.g. exercises or solutions)"
NO_SUCH_DIR = "attnkit: --impl {path}: no such directory; pass the folder that holds your softmax.py, attention.py, ..."
SCORE_LINE = "attnkit score: {score:g} / {max_score:g} points"
EXERCISE_LINE = "  {exercise:<16} {score:>5g} / {max_score:<5g} ({passed}/{total} checks)"
POINTS_MARKER = "points(n): the points an attnkit check is worth (set from @check)"


def pytest_addoption(parser):
    group = parser.getgroup("attnkit")
    group.addoption("--impl", action="store", default=None, metavar="DIR", help=IMPL_HELP)
    group.addoption("--attnkit-timeout", action="store", type=float, default=10.0, metavar="S",
                    help="wall-clock seconds allowed per call into the implementation (default 10)")


def pytest_configure(config):
    config.addinivalue_line("markers", POINTS_MARKER)
    impl = config.getoption("impl")
    if not impl:
        return
    if not Path(impl).is_dir():
        raise pytest.UsageError(NO_SUCH_DIR.format(path=impl))
    if config.args_source != pytest.Config.ArgsSource.ARGS:  # no paths given: run the checks only
        config.args[:] = [str(CHECKS_DIR)]


def pytest_collect_file(file_path, parent):
    # a check file named on the command line is collected by pytest itself (explicit paths always are)
    if parent.config.getoption("impl") and file_path.parent == CHECKS_DIR and file_path.name.startswith("check_") \
            and file_path.suffix == ".py" and not parent.session.isinitpath(file_path):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        points = getattr(getattr(item, "function", None), "attnkit_points", None)
        if points is not None:
            item.add_marker(pytest.mark.points(points))


def exercise_of(item) -> str:
    return Path(str(item.fspath)).stem.removeprefix("check_")


@pytest.fixture(scope="session")
def attnkit_zygote(pytestconfig):
    from grader.sandbox.child import Limits, Zygote

    zygote = Zygote(Limits(timeout=pytestconfig.getoption("attnkit_timeout")))
    yield zygote
    zygote.close()


@pytest.fixture(scope="session")
def attnkit_workspace(pytestconfig, attnkit_zygote):
    from grader.runner import modules_dir_of
    from grader.sandbox.child import Workspace

    impl = pytestconfig.getoption("impl")
    if not impl:
        pytest.skip("the attnkit checks need --impl DIR")
    workspace = Workspace(modules_dir_of(impl), attnkit_zygote.user)
    yield workspace
    workspace.close()


@pytest.fixture
def impl(request, attnkit_zygote, attnkit_workspace):
    """The implementation under test, in a sandboxed child process (a fresh one per check)."""
    implementation = attnkit_zygote.implementation(attnkit_workspace, exercise_of(request.node))
    yield implementation
    implementation.transport.close()


@pytest.fixture
def ref():
    """The reference solutions (trusted, in this process)."""
    from grader.reference import reference

    return reference()


@pytest.fixture
def rng(request):
    """A numpy Generator seeded from the check's name."""
    import numpy as np

    from grader.runner import seed_for

    return np.random.default_rng(seed_for(exercise_of(request.node), request.node.name))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    points = getattr(getattr(item, "function", None), "attnkit_points", None)
    if points is not None and item.config.getoption("impl"):
        report.user_properties.append(("attnkit_points", points))
    if call.excinfo is not None and item.config.getoption("impl"):
        from grader.compare import CheckFailed
        from grader.runner import NOT_IMPLEMENTED_MESSAGE
        from grader.sandbox.errors import StudentError, StudentNotImplemented

        error = call.excinfo.value
        if isinstance(error, StudentNotImplemented):
            report.longrepr = f"{NOT_IMPLEMENTED_MESSAGE}: {error.message}"
        elif isinstance(error, (StudentError, CheckFailed)):
            report.longrepr = str(error)
    return report


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config):
    if not config.getoption("impl"):
        return
    totals: dict[str, list] = {}
    for status in ("passed", "failed", "error"):
        for report in terminalreporter.stats.get(status, []):
            if report.when != "call" and status != "error":
                continue
            points = dict(report.user_properties).get("attnkit_points")
            if points is None:
                continue
            exercise = Path(report.fspath).stem.removeprefix("check_")
            entry = totals.setdefault(exercise, [0.0, 0.0, 0, 0])
            entry[1] += points
            entry[3] += 1
            if status == "passed":
                entry[0] += points
                entry[2] += 1
    if not totals:
        return
    terminalreporter.section("attnkit")
    for exercise, (score, max_score, passed, total) in totals.items():
        terminalreporter.write_line(EXERCISE_LINE.format(exercise=exercise, score=score, max_score=max_score,
                                                         passed=passed, total=total))
    terminalreporter.write_line(SCORE_LINE.format(score=sum(v[0] for v in totals.values()),
                                                  max_score=sum(v[1] for v in totals.values())))
