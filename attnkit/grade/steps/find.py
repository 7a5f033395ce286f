"""Class step ``find``: the options, SUBMISSIONS and OUTDIR checked, the hand-ins listed (one per student).

Everything that would stop the run later is refused here, before anything is graded (:class:`UserError`: one
line, exit 2): a limit no child could run under, no class folder, an OUTDIR that cannot take the results (not
writable, its disk full: a probe is written and fsynced, too little free space, a class file's name taken by a
folder), a temporary folder that cannot be made or that student code could not reach.
"""
from __future__ import annotations

import errno
import math
import os
import shutil
import tempfile
from pathlib import Path

from grader import atomic

from .. import records, scratch
from ..state import Course, UserError
from ..submissions import discover

CLASS_FILES = ("grades.csv", "summary.json", "summary.txt")
PROBE_BYTES = 64 << 10            # the probe written (and fsynced) into OUTDIR before anything is graded
BYTES_PER_STUDENT = 128 << 10     # room asked for per submission: its Gradescope JSON + record are ~50 KB
FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
MAX_SECONDS = 3600.0   # --timeout: one call
MIN_MEMORY_MB = 256     # --memory-mb: a child with numpy loaded maps about 172 MiB before any student code

OUT_UNWRITABLE = ("cannot write to output folder {out} ({reason}). Choose a folder you can write to with --out, "
                  "or fix its permissions; nothing was graded.")
OUT_FULL = ("cannot write to output folder {out}: its disk is full ({reason}). Free some space there or choose "
            "another folder with --out; nothing was graded.")
OUT_TOO_SMALL = ("output folder {out} has {free} free; grading {count} submissions needs about {needed}. Free "
                 "some space there or choose another folder with --out; nothing was graded.")
OUT_BLOCKED = ("{path} is a folder, but attnkit grade writes its {name} there. Move it away or choose another "
               "folder with --out; nothing was graded.")
TEMP_UNWRITABLE = ("cannot make a temporary folder in {tmp} ({reason}). Set TMPDIR to a folder you can write to; "
                   "nothing was graded.")
STDLIB_UNREADABLE = ("user {user}, whom student code runs as when the grader runs as root, cannot read the standard "
                     "library in {stdlib}, and a readable copy could not be made in {tmp} ({reason}). Free some space "
                     "there, set TMPDIR to another folder, or install Python where others may read it; nothing "
                     "was graded.")
TEMP_UNREACHABLE = ("the temp dir {tmp} is out of reach of user {user}, whom student code runs as when the "
                    "grader runs as root ({folder} may not be passed through by others). Set TMPDIR to a folder "
                    "everyone may pass through, e.g. TMPDIR=/tmp; nothing was graded.")


def find(course: Course) -> Course:
    """``course`` with its entries and warnings; :class:`UserError` for anything that would stop the run."""
    options, submissions, out = course.options, course.submissions, course.out
    if options.jobs is not None and options.jobs < 1:
        raise UserError(f"--jobs must be at least 1 (got {options.jobs})")
    check_limits(options.timeout, options.memory_mb)
    if not submissions.exists():
        raise UserError(f"no such folder: {submissions}. Name the folder holding one folder or .zip per student.")
    if not submissions.is_dir():
        raise UserError(f"{submissions} is not a folder. Name the folder holding one folder or .zip per student.")
    try:
        entries, warnings = discover(submissions)
    except OSError as error:
        raise UserError(f"cannot read {submissions} ({error.strerror}); check its permissions.") from None
    out_resolved = out.resolve()
    kept = [e for e in entries if e.path.resolve() != out_resolved]
    if len(kept) < len(entries):
        warnings.append(f"ignored {out.name}: it is the output folder")
    if not kept:
        raise UserError(f"{submissions} holds no submissions (expected one folder or .zip per student).")
    check_writable(out, len(kept))
    check_temp()
    student_timeout = options.student_timeout
    if not (math.isfinite(student_timeout) and 0 < student_timeout <= MAX_SECONDS * 100):
        raise UserError(f"--student-timeout must be a number of seconds above 0 and at most {MAX_SECONDS * 100:g} "
                        f"(got {student_timeout:g})")
    course.entries, course.warnings = kept, warnings
    return course


def check_limits(timeout: float, memory_mb: int) -> None:
    """UserError naming the option and what to give, for a limit no child could run under (NaN, infinite, zero,
    negative, more memory than this machine has)."""
    if not (math.isfinite(timeout) and 0 < timeout <= MAX_SECONDS):
        raise UserError(f"--timeout must be a number of seconds above 0 and at most {MAX_SECONDS:g} (got {timeout:g})")
    try:
        machine = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20
    except (ValueError, OSError):
        machine = 1 << 30  # unknown: 1 TiB
    if not MIN_MEMORY_MB <= memory_mb <= machine:
        raise UserError(f"--memory-mb must be between {MIN_MEMORY_MB} and this machine's {machine} MiB "
                        f"(got {memory_mb})")


def check_writable(out: Path, count: int) -> None:
    """Fail before anything is graded when OUTDIR cannot take the results: not a folder we can write,
    a full disk (a probe is written and fsynced), too little free space, or a class file's name taken."""
    try:
        records.record_dir(out).mkdir(parents=True, exist_ok=True)
        atomic.sweep(out)
        atomic.sweep(records.record_dir(out))
        fd, probe = tempfile.mkstemp(dir=records.record_dir(out), prefix=".probe.", suffix=atomic.TMP_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(b"\0" * PROBE_BYTES)
                handle.flush()
                os.fsync(handle.fileno())
        finally:
            os.unlink(probe)
        free = shutil.disk_usage(out).free
    except OSError as error:
        reason = error.strerror or str(error)
        template = OUT_FULL if error.errno in FULL_ERRNOS else OUT_UNWRITABLE
        raise UserError(template.format(out=out, reason=reason)) from None
    needed = count * BYTES_PER_STUDENT + PROBE_BYTES
    if free < needed:
        raise UserError(OUT_TOO_SMALL.format(out=out, free=_size(free), count=count, needed=_size(needed)))
    for name in CLASS_FILES:
        if (out / name).is_dir():
            raise UserError(OUT_BLOCKED.format(path=out / name, name=name))


def check_temp() -> None:
    """The run's temporary folder can be made, and (as root, when children drop to an unprivileged user)
    every folder above it lets that user pass to the workspaces inside."""
    from grader.sandbox import StdlibUnreadable, TempUnreachable, prepare_machine

    try:
        root = scratch.root()
    except OSError as error:
        raise UserError(TEMP_UNWRITABLE.format(tmp=tempfile.gettempdir(), reason=error.strerror or error)) from None
    try:  # the stdlib copy is made once here, under the run's own folder, and handed to every worker
        prepare_machine(root)
    except TempUnreachable as problem:
        raise UserError(TEMP_UNREACHABLE.format(tmp=root.parent, user=problem.user, folder=problem.folder)) from None
    except StdlibUnreadable as problem:
        raise UserError(STDLIB_UNREADABLE.format(user=problem.user, stdlib=problem.folder, tmp=root,
                                                 reason=problem.reason)) from None


def _size(count: int) -> str:
    return f"{count / (1 << 20):.1f} MiB" if count >= 1 << 20 else f"{count >> 10} KiB"
