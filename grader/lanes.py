"""Several exercises of one submission checked at once (``attnkit check``): one thread of this process per lane,
each talking to a child of its own, and the next exercise's child started while the lanes work."""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .results import ExerciseResult
    from .sandbox import Implementation


class _Started:
    """A child being started by a thread of its own, for an exercise no lane has taken yet."""

    def __init__(self, start: Callable[[str], Implementation], exercise: str):
        self._value: Implementation | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(start, exercise), daemon=True,
                                        name=f"attnkit-start-{exercise}")
        self._thread.start()

    def _run(self, start: Callable[[str], Implementation], exercise: str) -> None:
        try:
            self._value = start(exercise)
        except BaseException as error:  # noqa: B902 - raised in the lane that takes the exercise
            self._error = error

    def result(self) -> Implementation:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._value is not None  # the thread ended with a value or an error
        return self._value

    def discard(self) -> None:
        """Close the child of an exercise no lane took (a lane failed)."""
        self._thread.join()
        if self._value is not None:
            self._value.close()


def in_lanes(run_one: Callable[..., ExerciseResult], exercises: tuple[str, ...], lanes: int,
             start: Callable[[str], Implementation] | None = None) -> dict[str, ExerciseResult]:
    """``{exercise: run_one(exercise, started)}``, run by ``lanes`` threads taking the next exercise in the order
    given as they finish one (the caller puts the longest first, so that the other lanes do the rest meanwhile).
    With ``start``, the child of the next exercise in line is started (``start(exercise)``, by a thread of its
    own) while the lanes work, and handed to the lane that takes that exercise as ``started``. An exception in a
    lane (a trusted-side failure: checks never raise) stops the others after their exercise and is raised here."""
    waiting = list(exercises)
    taking = threading.Lock()
    done: dict[str, ExerciseResult] = {}
    failures: list[BaseException] = []
    ahead: dict[str, _Started] = {}  # children started for exercises no lane has taken yet

    def take() -> tuple[str | None, _Started | None]:
        with taking:
            if not waiting:
                return None, None
            exercise = waiting.pop(0)
            if start is not None and waiting and not failures:
                ahead[waiting[0]] = _Started(start, waiting[0])
            return exercise, ahead.pop(exercise, None)

    def lane() -> None:
        while not failures:
            exercise, started = take()
            if exercise is None:
                return
            try:
                done[exercise] = run_one(exercise, started.result() if started else None)
            except BaseException as failure:  # noqa: B902 - handed to the caller's thread
                failures.append(failure)

    threads = [threading.Thread(target=lane, name=f"attnkit-lane-{index}", daemon=True) for index in range(lanes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for started in ahead.values():
        started.discard()
    if failures:
        raise failures[0]
    return done
