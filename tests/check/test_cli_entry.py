"""``attnkit.cli.entry``, the installed command: it ends the process without tearing the interpreter down, yet
what an exit must do still happens (output flushed, ``atexit`` functions run, the status kept), and a thread still
running is waited for as the interpreter would."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = """
import atexit, sys, threading, time
from attnkit import cli

def main():
    atexit.register(lambda: print("atexit ran", flush=True))
    print("printed, never flushed by the verb")   # stdout is a pipe: block-buffered
    sys.stderr.write("to stderr ")
    if {thread}:
        threading.Thread(target=lambda: (time.sleep(0.2), print("thread finished"))).start()
    return {code}

cli.main = main
cli.entry()
"""


def _run(code: int, thread: bool) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT.format(code=code, thread=thread))],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("code", [0, 1, 2])
def test_output_atexit_and_status_survive_the_quick_end(code):
    done = _run(code, thread=False)
    assert done.returncode == code
    assert done.stdout.splitlines() == ["printed, never flushed by the verb", "atexit ran"]
    assert done.stderr == "to stderr "


def test_a_thread_still_running_is_waited_for():
    done = _run(0, thread=True)
    assert done.returncode == 0
    assert "thread finished" in done.stdout.splitlines() and "atexit ran" in done.stdout.splitlines()


def test_the_installed_command_and_python_dash_m_use_it():
    root = Path(__file__).resolve().parents[2]
    assert 'attnkit = "attnkit.cli:entry"' in (root / "pyproject.toml").read_text().splitlines()
    assert "entry()" in (root / "attnkit" / "__main__.py").read_text()


@pytest.mark.parametrize("verb, collecting", [("check", False), ("quiz", True), ("watch", True)])
def test_only_a_check_runs_without_the_cyclic_garbage_collector(verb, collecting):
    """``attnkit check`` is one run, then the exit: its reference cycles are never collected (``watch`` collects
    after each of its reports)."""
    script = ("import gc, sys\nfrom attnkit import cli\ncli.main = lambda: print(gc.isenabled()) or 0\n"
              f"sys.argv = ['attnkit', {verb!r}]\ncli.entry()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == str(collecting)


def test_a_reader_that_stops_reading_gets_no_traceback():
    """``attnkit check | head``: the pipe closes while the report is written."""
    script = ("import sys\nfrom attnkit import cli\n"
              "cli.main = lambda: [print('a line of the report') for _ in range(100_000)] and 0\n"
              "sys.argv = ['attnkit', 'check']\ncli.entry()\n")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(100)
    process.stdout.close()
    error = process.stderr.read().decode()
    assert process.wait(timeout=60) == 1 and error == ""
