"""Isolation for student code: a clean zygote process forks one child per exercise.

Two sides, two folders: ``inside/`` is what runs in the student's process (loaded by path by the zygote; it
imports only the standard library, numpy and :mod:`grader.sandbox.wire`), ``host/`` the trusted side that starts,
talks to and judges the children. The trusted side talks to a child only through the wire (JSON + raw arrays of
whitelisted dtypes, never pickles) and judges nothing the child says about itself.

This module is the sandbox's public face: code outside ``grader/sandbox/`` imports the names below and nothing
else (a test reads every import). A name is loaded on first use, so that a command line can read the default
limits, or start the zygote early, before numpy is imported.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# public name -> (module below grader.sandbox, its name there)
_PUBLIC = {
    "Sandbox": ("host.session", "Sandbox"),
    "GradingSession": ("host.session", "GradingSession"),
    "SubmissionReport": ("host.session", "SubmissionReport"),
    "graded": ("host.session", "graded"),
    "Limits": ("host.limits", "Limits"),
    "TIMEOUT_SECONDS": ("host.limits", "TIMEOUT_SECONDS"),
    "MEMORY_MB": ("host.limits", "MEMORY_MB"),
    "STUDENT_SECONDS": ("host.limits", "STUDENT_SECONDS"),
    "launch_early": ("host.launch", "launch"),
    "Launched": ("host.launch", "Launched"),
    "SINGLE_THREADED": ("host.affinity", "SINGLE_THREADED"),
    "MachineNotReady": ("host.preflight", "MachineNotReady"),
    "TempUnreachable": ("host.preflight", "TempUnreachable"),
    "StdlibUnreadable": ("host.preflight", "StdlibUnreadable"),
    "prepare_machine": ("host.preflight", "prepare"),
    "Implementation": ("host.proxy", "Implementation"),
    "sibling_note": ("host.proxy", "sibling_note"),
    "Siblings": ("host.callbacks", "Siblings"),
    "LENT_CLASSES": ("inside.runtime", "LENT_CLASSES"),
    "in_process": ("host.inprocess", "in_process"),
    "trusted_transport": ("host.inprocess", "trusted_transport"),
    "kernel_implementation": ("host.kernel", "kernel_implementation"),
    "Responder": ("inside.runtime", "Responder"),
    "Unresolved": ("inside.runtime", "Unresolved"),
    "StudentError": ("host.errors", "StudentError"),
    "StudentNotImplemented": ("host.errors", "StudentNotImplemented"),
    "StudentRaised": ("host.errors", "StudentRaised"),
    "StudentImportFailed": ("host.errors", "StudentImportFailed"),
    "StudentTimeout": ("host.errors", "StudentTimeout"),
    "StudentCrashed": ("host.errors", "StudentCrashed"),
    "StudentBadValue": ("host.errors", "StudentBadValue"),
    "KernelMemory": ("host.memory", "KernelMemory"),
    "SAFE_DTYPE": ("wire", "SAFE_DTYPE"),
    "MAX_DEPTH": ("wire", "MAX_DEPTH"),
    "LEAVES": ("wire", "LEAVES"),
}
__all__ = sorted(_PUBLIC)

if TYPE_CHECKING:  # the same names, for the type checker (at run time they load on first use)
    from .host.affinity import SINGLE_THREADED as SINGLE_THREADED
    from .host.callbacks import Siblings as Siblings
    from .host.errors import StudentBadValue as StudentBadValue
    from .host.errors import StudentCrashed as StudentCrashed
    from .host.errors import StudentError as StudentError
    from .host.errors import StudentImportFailed as StudentImportFailed
    from .host.errors import StudentNotImplemented as StudentNotImplemented
    from .host.errors import StudentRaised as StudentRaised
    from .host.errors import StudentTimeout as StudentTimeout
    from .host.inprocess import in_process as in_process
    from .host.inprocess import trusted_transport as trusted_transport
    from .host.kernel import kernel_implementation as kernel_implementation
    from .host.launch import Launched as Launched
    from .host.launch import launch as launch_early  # noqa: F401
    from .host.limits import MEMORY_MB as MEMORY_MB
    from .host.limits import STUDENT_SECONDS as STUDENT_SECONDS
    from .host.limits import TIMEOUT_SECONDS as TIMEOUT_SECONDS
    from .host.limits import Limits as Limits
    from .host.memory import KernelMemory as KernelMemory
    from .host.preflight import MachineNotReady as MachineNotReady
    from .host.preflight import StdlibUnreadable as StdlibUnreadable
    from .host.preflight import TempUnreachable as TempUnreachable
    from .host.preflight import prepare as prepare_machine  # noqa: F401
    from .host.proxy import Implementation as Implementation
    from .host.proxy import sibling_note as sibling_note
    from .host.session import GradingSession as GradingSession
    from .host.session import Sandbox as Sandbox
    from .host.session import SubmissionReport as SubmissionReport
    from .host.session import graded as graded
    from .inside.runtime import LENT_CLASSES as LENT_CLASSES
    from .inside.runtime import Responder as Responder
    from .inside.runtime import Unresolved as Unresolved
    from .wire import LEAVES as LEAVES
    from .wire import MAX_DEPTH as MAX_DEPTH
    from .wire import SAFE_DTYPE as SAFE_DTYPE


def __getattr__(name: str):
    """Load a public name on first use (PEP 562); it is an attribute of the package from then on."""
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _PUBLIC[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
