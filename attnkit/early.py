"""The sandbox's zygote started first thing for the verbs that check exercises (``attnkit check``, ``attnkit watch``).

The zygote needs about a tenth of a second to import numpy. Started before this process parses its arguments, reads
the curriculum and imports the grader and the checks, it loads on one core while they run on the other, and the
first exercise is checked sooner. Any other verb, and ``--help``, start nothing. A verb that stops before checking
anything (a usage error, a missing folder, an unknown exercise) leaves its zygote to :func:`discard`. When the
early start fails, the verb starts its zygote itself at its usual place and reports any error from there, as before.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.sandbox import Launched

VERBS = ("check", "watch")
HELP = ("-h", "--help")
_started: list[Launched] = []


def start(argv: list[str]) -> None:
    """Start the zygote when ``argv`` runs one of :data:`VERBS` (its first word) without asking for help."""
    if not argv or argv[0] not in VERBS or _started or any(word in HELP for word in argv):
        return
    from grader.sandbox import launch_early

    try:
        _started.append(launch_early())
    except Exception:  # noqa: BLE001 - the verb launches again where it always did, and says what went wrong
        return


def take() -> Launched | None:
    """The zygote :func:`start` launched, handed over once (None when none was started or it was taken)."""
    return _started.pop() if _started else None


def discard() -> None:
    """Stop a zygote that was started and never taken."""
    launched = take()
    if launched is not None:
        launched.stop()
