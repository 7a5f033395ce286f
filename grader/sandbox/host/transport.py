"""The trusted side of the sandbox: a child per exercise, forked by the zygote (:mod:`spawner`).

:class:`ChildTransport` carries one exercise's requests to its child. Every request has a wall-clock timeout;
on expiry the child's whole session is killed with SIGKILL. Nothing from the child is unpickled, evaluated or
read from its stdout.
"""
from __future__ import annotations

import os
import signal
import socket
import time
from typing import Any

from ... import printed as printed_output
from ...interfaces import NO_REPORT, CallReport
from ...results import Note, NoteKind
from ...text import printable
from .. import wire
from . import errors, shared
from .callbacks import CallbackRefused, Siblings, answer_callback
from .channel import Channel
from .limits import PRINT_LIMIT
from .memory import read_peak, reset_peak, status_kib
from .proxy import MISSING_MODULE, called, error_info, import_failure, judged, student_error
from .scrub import Scrubber
from .spawner import Zygote
from .workspace import DISK_QUOTA, Workspace, disk_free

DISK_LOOK_SECONDS = 0.25       # the scratch dir's size is measured at least this often (see _check_disk)
DISK_RUN_SECONDS = 0.002       # and the disk's free space read after requests that took this long together
NO_KWARGS = wire.encode([], [])  # a call's keyword arguments when it has none (encoded once: never changed)
SHOWN_OUTPUT = 2000            # characters of a crashed child's output quoted back
MAX_TIMEOUTS = 2               # after this many timeouts in one exercise, its other checks are not run
SIGNAL_NAMES = {signal.SIGSEGV: "a segmentation fault", signal.SIGKILL: "SIGKILL (out of memory?)",
                signal.SIGABRT: "an abort", signal.SIGBUS: "a bus error", signal.SIGFPE: "a floating-point exception"}


MAX_CALLBACKS = 10_000  # calls of sibling functions answered within one request (the deadline bounds them too)


class ChildTransport:
    """Requests to one child over its socket, with a timeout per request.

    ``report``: what the last request did (:class:`grader.interfaces.CallReport`): the arguments it changed in
    place, decided here from the memory shared with the child (:mod:`shared`), never from what the child says,
    and a ``measure`` request's kernel memory; ``siblings_called``: the sibling modules answered by the
    reference."""

    def __init__(self, zygote: Zygote, workspace: Workspace, exercise: str, module: str,
                 siblings: Siblings | None = None):
        self.zygote, self.workspace, self.exercise, self.module = zygote, workspace, exercise, module
        self.siblings = siblings
        self.report = NO_REPORT
        self.siblings_called: set[str] = set()
        self.trusted_own: set[str] = set()   # own functions its checks have proven (trust_own): run as written
        self.timeout = zygote.limits.timeout
        self.output = workspace.output_file(exercise)
        self.output_seen = 0        # bytes of it already shown (own_output)
        self.dead = False           # the child died after its module imported: the runner starts a new one
        self.broken: errors.StudentError | None = None  # the module never imported: every request fails so
        self.pid: int | None = None                 # the child's, once started (never, for an exercise given up)
        self.channel: Channel | None = None     # its socket
        self.region: shared.Region | None = None
        self.baseline_kib: int | None = None
        self.free_disk: int | None = None
        self.unlooked = 0.0  # seconds of requests since the disk's free space was read
        self.scratch = str(workspace.scratch)  # (a str: a Path is made one at every system call)
        self.limits = zygote.limits
        self.answered = self.populated = False
        spent = workspace.timeouts.get(exercise, 0)
        if spent >= MAX_TIMEOUTS:  # no new child for an exercise that already timed out this often
            self.broken = errors.StudentTimeout(f"not run: your {module}.py timed out {spent} times",
                                                call=f"import {module}", exercise=exercise)
            return
        self._start()

    def _start(self, populate: bool = False) -> None:
        """Spawn the child (``populate``: for a memory check) and import the exercise's module in it."""
        region = self.region = shared.Region()
        self.answered = False  # it has answered a request besides its import
        self.populated = populate
        siblings = self.siblings
        pid, sock = self.zygote.spawn(
            self.workspace.submission, self.workspace.scratch, self.output, self.exercise,
            siblings.functions if siblings else None,
            {"module": self.module, "names": list(siblings.own), "trusted": sorted(self.trusted_own)}
            if siblings else None, region, populate)
        self.pid, channel = pid, Channel(sock)
        self.channel = channel
        if populate:  # its files' pages are mapped in once it says it is ready
            try:
                channel.recv(time.monotonic() + self.timeout)
            except (wire.WireError, OSError):
                pass  # a child that never got ready fails its import next
        # before any student code ran in it; only a child started for a memory check reads its peak (read_peak)
        self.baseline_kib = status_kib(pid, "VmRSS") if populate else None
        self.free_disk = disk_free(self.workspace.scratch)
        try:
            self.request("import", {"module": self.module}, call=f"import {self.module}")
        except errors.StudentError as failure:
            self.broken = failure if isinstance(failure, errors.StudentImportFailed) else errors.StudentImportFailed(
                f"your {self.module}.py could not be imported: {failure.message}", call=failure.call,
                exercise=self.exercise)

    def _restart(self) -> None:
        """A fresh child in place of this one (which has done other work): a ``measure`` call's peak above the spawn
        baseline then holds only the module's import and that call."""
        self.kill(wait=False)
        self.dead = False
        self._start(populate=True)

    def trust_own(self, names: list[str]) -> None:
        """The child may run these functions of the exercise's own module as the student wrote them when its other
        functions call them (they passed every check judging them: ``grader.proven``). One frame the child does not
        answer (what it does with it can only cost it round trips: the reference still answers those functions'
        callbacks); a child started later is told at spawn."""
        own = self.siblings.own if self.siblings is not None else ()
        new = sorted(name for name in set(names) if name in own and name not in self.trusted_own)
        if not new:
            return
        self.trusted_own.update(new)
        if self.broken is not None or self.dead or self.channel is None:
            return
        try:
            self.channel.send({"op": "trust_own", "names": new}, [], time.monotonic() + self.timeout)
        except (socket.timeout, TimeoutError, wire.WireError, OSError):
            self.kill(wait=False)  # a child that does not read its socket: the next request starts another

    def request(self, op: str, target: dict, args: tuple = (), kwargs: dict | None = None,
                name: str = "", call: object = "") -> Any:
        if self.broken is not None:
            raise self.broken
        if self.dead:
            raise errors.StudentCrashed(f"{call}: your process had already stopped", call=call, exercise=self.exercise)
        self.report = NO_REPORT
        if op == "touch_last_args" and self.region is not None and self.region.sent:
            return self.region.touch()  # in the shared memory: the child's arguments and whatever kept them
        if op == "measure" and (self.answered or not self.populated):
            self._restart()
            if self.broken is not None:
                raise self.broken
        allowed, budget = self._time_left()
        if allowed <= 0:
            raise self._too_slow(call, budget)
        if op != "import":
            self.answered = True
        arrays: list = []
        header = {"op": op, "target": target, "name": name, "args": wire.encode(tuple(args), arrays),
                  "kwargs": wire.encode(list(kwargs.items()), arrays) if kwargs else NO_KWARGS}
        watched = None  # the arguments whose arrays are placed in the shared region (labelled only when one changed)
        if arrays and op == "call" and self.region is not None:
            specs = self.region.place(arrays)
            if specs is not None:
                header["shared"], arrays, watched = specs, [], (tuple(args), kwargs or {})
        start = time.monotonic()
        deadline = start + allowed  # one for the whole request: the call and every callback it makes
        channel, pid = self.channel, self.pid
        assert channel is not None and pid is not None  # started: a child never started is broken, raised above
        try:
            rss_before = reset_peak(pid) if op == "measure" else None
            channel.send(header, arrays, deadline)
            answer, values = channel.recv(deadline)
            for _ in range(MAX_CALLBACKS):  # the student's code called a sibling: the reference answers
                if "callback" not in answer:
                    break
                channel.send(*answer_callback(self.siblings, answer, values, self.siblings_called, self.module),
                             deadline)
                answer, values = channel.recv(deadline)
            else:
                raise CallbackRefused(f"more than {MAX_CALLBACKS} calls of other exercises' functions in one call")
            kernel = None if rss_before is None else read_peak(pid, rss_before, self.baseline_kib)
            mutated = () if watched is None else self._mutated(watched, answer.get("mutated"))
            if mutated or kernel is not None:  # (most calls: NO_REPORT, set above)
                self.report = CallReport(mutated, kernel)
        except (socket.timeout, TimeoutError):
            self._spend(start)
            self.kill()
            if budget:  # the exercise's or the submission's time ran out, not one call's
                raise self._too_slow(call, budget) from None
            spent = self.workspace.timeouts[self.exercise] = self.workspace.timeouts.get(self.exercise, 0) + 1
            self._note(NoteKind.TIMEOUT, f"{self.exercise}: {call} stopped after {self.timeout:g} s")
            if spent >= MAX_TIMEOUTS:
                self.broken = errors.StudentTimeout(
                    f"not run: your {self.module}.py timed out {spent} times", call=call, exercise=self.exercise)
            raise errors.StudentTimeout(f"{call}: your code was stopped after {self.timeout:g} s", call=call,
                                        exercise=self.exercise) from None
        except CallbackRefused as failure:
            self._spend(start)
            raise self._bad_value(call, f"the grader refused a call your code made to another exercise ({failure})"
                                  ) from None
        except (wire.WireError, OSError) as failure:
            self._spend(start)
            how = self.kill()
            printed = self.printed()
            detail = f"\n  your code printed:\n{printed}" if printed else ""
            if isinstance(failure, wire.WireError) and "closed" not in str(failure):
                raise self._bad_value(call, f"the value your code returned could not be read ({failure})") from None
            raise errors.StudentCrashed(f"your process {how} during {call}{detail}", call=call,
                                        exercise=self.exercise) from None
        self._check_disk(call, self._spend(start))
        try:  # every field of the answer is the student's: anything malformed is their error, never ours
            return self._answer(op, target, answer, values, call)
        except errors.StudentError:
            raise
        except Exception as failure:  # noqa: BLE001
            raise self._bad_value(call, f"malformed answer ({type(failure).__name__})") from None

    @property
    def scrub(self) -> Scrubber:
        """The machine's paths taken out of a text of the child's: made on first use (an error, printed output),
        once per submission (it resolves some fifty paths), not for every child."""
        scrubber = self.workspace.scrubbers.get(self.zygote)
        if scrubber is None:
            workspace = self.workspace
            scrubber = self.workspace.scrubbers[self.zygote] = Scrubber({
                **dict.fromkeys(map(str, workspace.root.parents), "<temp>"), **self.zygote.paths,
                str(workspace.submission): "<your submission>", str(workspace.scratch): "<scratch>",
                str(workspace.root): "<workspace>"})  # the folders above it: the grader's temp
        return scrubber

    def _mutated(self, arguments: tuple[tuple, dict], stated) -> tuple[str, ...]:
        """The arguments the last call changed: those whose bytes differ in the shared region, decided here, and
        those the child says it changed (a shape or dtype set in place): a statement that can only cost the
        student, so only the labels of arrays actually sent are taken from it, never one made up. The arguments
        (``(args, kwargs)`` as sent) are labelled only then: most calls change nothing."""
        indices = self.region.changed() if self.region is not None else []
        if not indices and not stated:  # most calls
            return ()
        watched = shared.labels(*arguments)
        changed = {watched[index] for index in indices}
        if isinstance(stated, list):
            changed |= {label for label in stated[:len(watched)] if isinstance(label, str) and label in watched}
        return tuple(label for label in dict.fromkeys(watched) if label and label in changed)

    def _answer(self, op: str, target: dict, answer: dict, values: list, call: object) -> Any:
        if answer.get("ok") is True:
            return judged(wire.decode(answer.get("value"), values), call=call, exercise=self.exercise)
        info = error_info(answer.get("error"), self.scrub)
        if info["bad_value"]:
            raise errors.StudentBadValue(f"{call} returned a value that cannot be checked: {info['message']}",
                                         call=call, exercise=self.exercise)
        if info["import"] and op == "import" and not info["not_implemented"]:
            where = f" ({info['where']})" if info["where"] else ""
            self._note_import(info, where)
            message, sibling = import_failure(info, self.module, where)
            raise errors.StudentImportFailed(message, call=call, exercise=self.exercise, sibling=sibling)
        raise student_error(info, call=call, exercise=self.exercise, function=called(target))

    def _note_import(self, info: dict, where: str) -> None:
        """A module that is missing or does not import; not the modules that only fail through it."""
        missing = info["type"] == "ModuleNotFoundError" and MISSING_MODULE.match(info["message"])
        if missing and missing.group(1) == self.module:
            self._note(NoteKind.MISSING_MODULE, f"{self.module}.py")
        elif not missing and not info["sibling"]:
            self._note(NoteKind.IMPORT_ERROR, f"{self.module}.py: {info['type']}: {info['message'][:200]}{where}")

    def _check_disk(self, call: object, took: float) -> None:
        """After a request that took ``took`` seconds: what this submission keeps in its scratch dir is measured when
        the disk's free space fell by a quarter of :data:`DISK_QUOTA` since the last look, or :data:`DISK_LOOK_SECONDS`
        have passed (a walk costs tens of microseconds, a round trip about eighty); past the quota its files are
        removed and the call fails (a hand-in never fills the disk its classmates are graded on). The free space is
        read (a system call) after a request once the requests since it was last read took :data:`DISK_RUN_SECONDS`
        together, and after every request that long: a child that answers at once has had no time to write a quarter
        of the quota (writing 16 MiB takes milliseconds), and what it writes is seen at the latest two milliseconds of
        requests later."""
        self.unlooked += took
        now = time.monotonic()
        if self.unlooked < DISK_RUN_SECONDS and now - self.workspace.looked < DISK_LOOK_SECONDS:
            return
        self.unlooked = 0.0
        free = disk_free(self.scratch)
        dropped = free is not None and self.free_disk is not None and self.free_disk - free >= DISK_QUOTA // 4
        if not dropped and now - self.workspace.looked < DISK_LOOK_SECONDS:
            return
        self.free_disk, self.workspace.looked = free, now  # the rest of a drop is other processes'
        used = self.workspace.scratch_bytes()
        if used > DISK_QUOTA:
            self.kill()
            self.workspace.clear_scratch()
            self._note(NoteKind.DISK_QUOTA, f"{self.exercise}: {call} left more than {DISK_QUOTA >> 20} MiB of files")
            raise errors.StudentCrashed(f"{call}: your code wrote more than {DISK_QUOTA >> 20} MiB of files; they "
                                        "were removed", call=call, exercise=self.exercise)

    def _bad_value(self, call: object, why: str) -> errors.StudentBadValue:
        self.kill()  # its process is not trusted to answer the next request sensibly
        return errors.StudentBadValue(f"{call}: {why}", call=call, exercise=self.exercise)

    # -- time ---------------------------------------------------------------------------------
    def _time_left(self) -> tuple[float, str]:
        """(seconds the next request may take, "" or the budget that limits it below the per-call timeout)."""
        limits, spent = self.limits, self.workspace.spent
        exercise = limits.per_exercise - spent.get(self.exercise, 0.0)
        student = limits.student_seconds - sum(spent.values())
        if exercise >= self.timeout and student >= self.timeout:
            return self.timeout, ""
        if student <= exercise:
            return student, f"your whole submission ({limits.student_seconds:g} s)"
        return exercise, f"exercise {self.exercise} ({limits.per_exercise:g} s)"

    def _spend(self, start: float) -> float:
        """Count the seconds since ``start`` to this exercise; returns them."""
        took = time.monotonic() - start
        self.workspace.spent[self.exercise] = self.workspace.spent.get(self.exercise, 0.0) + took
        return took

    def _too_slow(self, call: object, budget: str) -> errors.StudentTimeout:
        self._note(NoteKind.TOO_SLOW, f"{self.exercise}: the time for {budget} ran out")
        return errors.StudentTimeout(f"{call}: not run, your code was too slow: it used all the time for {budget}",
                                     call=call, exercise=self.exercise)

    # -- what the instructor is told ------------------------------------------------------------
    def _note(self, kind: NoteKind, detail: str) -> None:
        note = Note(kind, detail)
        if note not in self.workspace.problems:
            self.workspace.problems.append(note)

    def _note_output(self) -> None:
        try:
            size = os.path.getsize(self.output)
        except OSError:
            return
        if size >= PRINT_LIMIT:
            self._note(NoteKind.OUTPUT_TRUNCATED, f"{self.exercise}: printed more than {PRINT_LIMIT >> 10} KiB; "
                                           "the rest was discarded")

    def own_output(self) -> tuple[str, int]:
        """What the student's code printed in this child since the last call of this method (bounded, see
        ``grader.printed``), and how many bytes that was."""
        text, size = printed_output.read(self.output, self.output_seen)
        self.output_seen += size
        return printable(self.scrub(text)), size  # as everything else shown: no machine path, no escape sequence

    def printed(self) -> str:
        try:
            with open(self.output, "rb") as handle:
                text = printable(self.scrub(handle.read(SHOWN_OUTPUT + 1).decode("utf-8", "replace")))
        except OSError:
            return ""
        if not text.strip():
            return ""
        shown = text[:SHOWN_OUTPUT].rstrip().replace("\n", "\n    ")
        return "    " + shown + ("..." if len(text) > SHOWN_OUTPUT else "")

    def kill(self, wait: bool = True) -> str:
        """SIGKILL the child's whole session; returns how it ended, for a message (``wait=False``: a child that is
        done with, whose end nobody reads, is killed and reaped by the zygote, see ``Zygote.release``; its
        workspace waits for it)."""
        if self.dead or self.pid is None:
            return "had stopped"
        self.dead = True
        self._note_output()
        if wait:
            self._sigkill()
        if self.channel is not None:
            self.channel.close()
        if self.region is not None:
            self.region.close()
        if not wait:
            self.workspace.released.add(self.zygote)
            try:
                self.zygote.release(self.pid)
            except OSError:  # no zygote left to kill it
                self._sigkill()
            return "was stopped"
        status = self.zygote.reap(self.pid)
        if "signal" in status:
            number = status["signal"]
            if number == signal.SIGKILL:
                return "was stopped"
            return f"crashed with {SIGNAL_NAMES.get(number, f'signal {number}')}"
        return f"exited (status {status.get('exit')})"

    def _sigkill(self) -> None:
        assert self.pid is not None
        for kill in (os.killpg, os.kill):  # its session, then itself (were it in another process group)
            try:
                kill(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        if not self.dead:
            self.kill(wait=False)
