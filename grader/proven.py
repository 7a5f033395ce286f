"""Under ``attnkit grade``: which of an exercise's own functions its checks have proven, and the order that proves
them before their callers are checked.

While one function of the exercise's module runs, the module's other functions are answered by the reference
(``Siblings.own``), each call a round trip from the child to this process. A function whose every check has passed
in this run (every check that judges it: :func:`judges`) runs in the child as the student wrote it from then on, as a
sibling exercise graded at full marks does (``runner.run_submission``): the trusted side tells the child so, the child
never decides.

A check judges the functions it names (:func:`named`): the exercise's own functions its code, and the code of the
helpers of ``grader.checks`` it uses, name as a global, an attribute or a string (``impl.layers.gelu(x)``,
``expect_untouched(impl, "layers", "gelu", ...)``), read from the compiled code (no source is parsed). Naming more
than a check calls only proves a function later.

The checks run in :func:`order`: a check waits for the checks that judge the functions it reaches only through the
functions it judges (the reference module's calls, :func:`calls`), so that they can be proven first; the property
checks that judge every function of a module (dtypes, inputs untouched) thus run before the value checks of its
callers. Results keep the checks' own order.
"""
from __future__ import annotations

import importlib
import inspect
from functools import lru_cache
from typing import Any, Callable, Sequence

CHECKS_PACKAGE = "grader.checks"
MAX_HELPERS = 200   # helper functions read for one check (the checks' own code: a bound, never reached)


@lru_cache(maxsize=None)
def _code_names(function: Callable) -> frozenset[str]:
    """The names (globals, attributes) and strings of ``function``'s code and of the code nested in it
    (comprehensions, lambdas, inner functions), but its docstring."""
    found: set[str] = set()
    pending = [function.__code__]
    while pending:
        code = pending.pop()
        found.update(code.co_names)
        for constant in code.co_consts:
            if inspect.iscode(constant):
                pending.append(constant)
            elif isinstance(constant, str) and constant is not function.__doc__:  # words about it, never a call
                found.add(constant)
    return frozenset(found)


@lru_cache(maxsize=None)
def named(check: Callable) -> frozenset[str]:
    """Every name, attribute and string in the code of ``check`` and of the ``grader.checks`` functions it uses,
    followed through the helpers they use in turn (at most :data:`MAX_HELPERS`)."""
    mentioned: set[str] = set()
    pending, seen = [check], {check}
    while pending and len(seen) <= MAX_HELPERS:
        function = pending.pop()
        names = _code_names(function)
        mentioned |= names
        for name in names:
            helper = function.__globals__.get(name)
            if inspect.isfunction(helper) and helper not in seen and \
                    str(helper.__module__).startswith(CHECKS_PACKAGE):
                seen.add(helper)
                pending.append(helper)
    return frozenset(mentioned)


@lru_cache(maxsize=None)
def calls(module_name: str, functions: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """``{function: the other ``functions`` its reference code names}`` for the reference module ``module_name``."""
    module = importlib.import_module(f"solutions.{module_name}")
    found = {}
    for name in functions:
        found[name] = frozenset(_code_names(getattr(module, name)) & set(functions)) - {name}
    return found


def judges(specs: Sequence[Any], functions: tuple[str, ...]) -> list[frozenset[str]]:
    """For each check of ``specs`` (``spec.function``), the ``functions`` it judges."""
    return [named(spec.function) & frozenset(functions) for spec in specs]


def _reached(start: frozenset[str], graph: dict[str, frozenset[str]]) -> frozenset[str]:
    found, pending = set(start), list(start)
    while pending:
        for callee in graph.get(pending.pop(), ()):
            if callee not in found:
                found.add(callee)
                pending.append(callee)
    return frozenset(found)


def order(judged: list[frozenset[str]], graph: dict[str, frozenset[str]]) -> list[int]:
    """The indices of the checks in the order they run: each, in its own order, once every check judging a
    function it reaches only through others (``graph``: who calls whom) has run; when checks wait for each other,
    the one waiting for the fewest others first."""
    waits = [{other for other, theirs in enumerate(judged) if other != index and theirs & (
        _reached(mine, graph) - mine)} for index, mine in enumerate(judged)]
    done: list[int] = []
    left = list(range(len(judged)))
    while left:
        ready = min(left, key=lambda index: (len(waits[index] - set(done)), index))
        done.append(ready)
        left.remove(ready)
    return done


@lru_cache(maxsize=256)
def _plan(specs: tuple, module_name: str, functions: tuple[str, ...]) -> tuple[list[frozenset[str]], list[int]]:
    """What :meth:`Proof.of` needs of an exercise's checks, worked out once per grading process."""
    judged = judges(specs, functions)
    return judged, order(judged, calls(module_name, functions))


class Proof:
    """The own functions proven so far in one exercise's run (those whose judging checks have all passed), and
    :attr:`order`, the order its checks run in."""

    def __init__(self, judged: list[frozenset[str]], ran_in: list[int]):
        self.judged = judged   # per check, the functions it judges
        self.order = ran_in    # the checks' indices in the order they run
        self.open: dict[str, set[int]] = {}       # per function, the checks judging it not yet passed
        for index, functions in enumerate(judged):
            for function in functions:
                self.open.setdefault(function, set()).add(index)
        self.failed: set[str] = set()
        self.proven: set[str] = set()

    @classmethod
    def of(cls, specs: Sequence[Any], module_name: str, functions: tuple[str, ...]) -> Proof:
        """The proof of the checks ``specs`` of the exercise whose module ``module_name`` defines ``functions``."""
        return cls(*_plan(tuple(specs), module_name, functions))

    def ran(self, index: int, passed: bool) -> list[str]:
        """Check ``index`` ran (``passed``: at full marks); the functions it proves now (it was their last judge)."""
        new = []
        for function in sorted(self.judged[index]):
            self.open[function].discard(index)
            if not passed:
                self.failed.add(function)
            elif not self.open[function] and function not in self.failed:
                self.proven.add(function)
                new.append(function)
        return new
