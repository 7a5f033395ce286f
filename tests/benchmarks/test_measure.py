"""benchmarks.measure.run_command: the wall time and the CPU time of a command's whole process tree."""
import sys

from benchmarks.measure import run_command

BUSY = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end: pass\n"


def test_the_cpu_time_counts_the_grandchildren_too():
    """A command that spends 0.2 s of CPU in a child of its own (as attnkit check's zygote and children do) is
    charged for it; the wall time bounds the CPU time of a tree that ran on one core at a time."""
    code = ("import subprocess, sys\n"
            f"subprocess.run([sys.executable, '-c', {BUSY.format(seconds=0.2)!r}], check=True)\n")
    run = run_command([sys.executable, "-c", code])
    assert run.status == 0
    assert 0.2 <= run.cpu_seconds <= run.seconds + 0.05


def test_an_idle_command_costs_little_cpu():
    run = run_command([sys.executable, "-c", "import time; time.sleep(0.3)"])
    assert run.seconds >= 0.3 and run.cpu_seconds < 0.2
