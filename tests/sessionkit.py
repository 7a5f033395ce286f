"""``run_submission`` on a folder with a zygote a test module shares (one grading session per call)."""
from pathlib import Path

from grader.runner import run_submission
from grader.sandbox.host.session import GradingSession


def run_folder(zygote, folder, *args, **kwargs):
    with GradingSession(zygote, Path(folder)) as session:
        return run_submission(session, *args, **kwargs)
