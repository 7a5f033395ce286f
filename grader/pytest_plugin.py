"""pytest plugin (entry point ``pytest11``): ``pytest --impl DIR`` runs the attnkit checks on DIR.

Inert unless ``--impl`` is given. Then it collects ``grader/checks/check_*.py`` (instead of the
project's tests, unless paths are given) as one item per check; each item runs its check through
the kit's single executor (``grader.runner.execute``, as ``attnkit check`` and ``grade`` do) on a
fresh sandboxed child, is marked ``points(n)``, fails with the check's message (diagnosis
included) instead of a traceback, and the score is printed at the end. A property check held while its
calls' values are wrong (``grader.runner.execute``) is skipped with its one-line reason: 0 points, no
second failure for the values a value check explains.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.sandbox import TIMEOUT_SECONDS

CHECKS_DIR = Path(__file__).resolve().parent / "checks"
IMPL_HELP = "run the attnkit checks on the implementation in DIR (e.g. exercises or solutions)"
NO_SUCH_DIR = "attnkit: --impl {path}: no such directory; pass the folder that holds your softmax.py, attention.py, ..."
SCORE_LINE = "attnkit score: {score:g} / {max_score:g} points"
EXERCISE_LINE = "  {exercise:<16} {score:>5g} / {max_score:<5g} ({passed}/{total} checks)"
POINTS_MARKER = "points(n): the points an attnkit check is worth (set from @check)"
SANDBOX = pytest.StashKey["RunSandbox"]()  # the plugin's state on the config: one zygote and session per run
PRINTED_SECTION = "printed by the student's code"


def pytest_addoption(parser):
    group = parser.getgroup("attnkit")
    group.addoption("--impl", action="store", default=None, metavar="DIR", help=IMPL_HELP)
    group.addoption("--attnkit-timeout", action="store", type=float, default=TIMEOUT_SECONDS, metavar="S",
                    help="wall-clock seconds allowed per call into the implementation "
                         f"(default {TIMEOUT_SECONDS:g})")


def pytest_configure(config):
    config.addinivalue_line("markers", POINTS_MARKER)
    impl = config.getoption("impl")
    if not impl:
        return
    if not Path(impl).is_dir():
        raise pytest.UsageError(NO_SUCH_DIR.format(path=impl))
    if config.args_source != pytest.Config.ArgsSource.ARGS:  # no paths given: run the checks only
        config.args[:] = [str(CHECKS_DIR)]
    config.stash[SANDBOX] = RunSandbox(config)


def _is_check_file(config, file_path: Path) -> bool:
    return bool(config.getoption("impl")) and file_path.parent == CHECKS_DIR \
        and file_path.name.startswith("check_") and file_path.suffix == ".py"


def pytest_collect_file(file_path, parent):
    # a check file named on the command line reaches pytest_pycollect_makemodule instead
    if _is_check_file(parent.config, file_path) and not parent.session.isinitpath(file_path):
        return CheckFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    if _is_check_file(parent.config, module_path):
        return CheckFile.from_parent(parent, path=module_path)
    return None


class CheckFile(pytest.File):
    """``grader/checks/check_<exercise>.py``: one item per check, in the runner's order."""

    def collect(self):
        from grader.runner import discover

        for spec in discover(self.path.stem.removeprefix("check_")):
            yield CheckItem.from_parent(self, name=spec.name, spec=spec)


class CheckNotPassed(AssertionError):
    """Carries the result of a check that did not pass to :meth:`CheckItem.repr_failure`."""


class CheckItem(pytest.Item):
    """One check, run by the single executor (``grader.runner.execute``) on a fresh sandboxed child."""

    def __init__(self, *, spec, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec
        self.result = None
        self.add_marker(pytest.mark.points(spec.points))
        self.user_properties.append(("attnkit_points", spec.points))

    def runtest(self):
        from grader import printed
        from grader.results import Status
        from grader.runner import execute

        impl = self.session.config.stash[SANDBOX]().implementation(self.spec.exercise)
        try:
            self.result = execute(self.spec, impl)
        finally:
            impl.close()
            own_output = "\n".join(printed.block(self.spec.exercise, *impl.own_output()))
            if own_output:  # under -s shown after the check's result; else with a failure, as pytest shows prints
                self.add_report_section("call", PRINTED_SECTION, own_output)
        if self.result.status == Status.HELD:  # 0 points, and no second failure for values a value check explains
            pytest.skip(self.result.message)
        if self.result.status != Status.PASSED:
            hint = f"\n  hint: {self.result.hint}" if self.result.hint else ""
            raise CheckNotPassed(self.result.message + hint)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CheckNotPassed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.spec.function.__code__.co_firstlineno - 1, f"{self.spec.exercise}: {self.spec.title}"


class RunSandbox:
    """The sandbox and the grading session of ``--impl``, made on first use and closed at the end of the run."""

    def __init__(self, config):
        self.config = config
        self.parts = None

    def __call__(self):
        """The run's :class:`grader.sandbox.GradingSession`."""
        if self.parts is None:
            from grader.runner import modules_dir_of
            from grader.sandbox import Limits, Sandbox

            sandbox = Sandbox(Limits(timeout=self.config.getoption("attnkit_timeout")))
            self.parts = sandbox, sandbox.session(modules_dir_of(self.config.getoption("impl")))
        return self.parts[1]

    def close(self):
        if self.parts is not None:
            sandbox, session = self.parts
            session.close()
            sandbox.close()


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report):
    """Under ``-s`` (nothing captured), what the student's code printed during a check, after its result."""
    config = getattr(report, "attnkit_config", None)
    if report.when != "call" or config is None or config.getoption("capture") != "no":
        return
    writer = config.pluginmanager.get_plugin("terminalreporter")
    for title, text in report.sections:
        if writer is not None and PRINTED_SECTION in title:
            writer.write("\n")
            writer.write_line(text)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if isinstance(item, CheckItem):
        outcome.get_result().attnkit_config = item.config


def pytest_unconfigure(config):
    sandbox = config.stash.get(SANDBOX, None)
    if sandbox is not None:
        sandbox.close()


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config):
    if not config.getoption("impl"):
        return
    totals: dict[str, list] = {}
    for status in ("passed", "failed", "error", "skipped"):  # a held property check is skipped: 0 points
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
