"""What can go wrong on the student's side of the sandbox, as trusted-side exceptions.

They subclass ``AssertionError`` so pytest reports a student's failure as a failed check,
never as an error of the grader. Every message is written for the student.
"""
from __future__ import annotations


class StudentError(AssertionError):
    """The student's code did not produce a value for a call."""

    kind = "error"

    def __init__(self, message: str, *, call: object = "", exercise: str = "", sibling: str = "", error_type: str = "",
                 error_message: str = "", function: str = "", where: str = "", line: str = "", names: tuple = ()):
        super().__init__(message)
        self.message = message
        self.error_type = error_type        # the student's exception class name, e.g. "ValueError"
        self.error_message = error_message  # what that exception said (its str, bounded)
        self.call = str(call)  # the call as text (a request's label is made when first shown: compare.Restated)
        self.function = function            # the name called: "softmax", or a method's "append"
        self.exercise = exercise
        self.sibling = sibling  # the other exercise whose module raised, if any
        self.where = where      # "attention.py, line 18": the innermost place in the student's files
        self.line = line        # that line's text, and what its names held ({"name", "shape", "dtype"} or
        self.names = names      # {"name", "value"}): the child's word, for wording a message only


class StudentNotImplemented(StudentError):
    """The student's function still raises NotImplementedError."""

    kind = "not_implemented"


class StudentRaised(StudentError):
    """The student's function raised an exception."""

    kind = "raised"


class StudentImportFailed(StudentError):
    """The student's module could not be imported (missing, syntax error, exit at import...)."""

    kind = "import_failed"


class StudentTimeout(StudentError):
    """The student's code was still running when its time ran out; it was killed."""

    kind = "timeout"


class StudentCrashed(StudentError):
    """The student's process died (exit, signal, out of memory) during a call."""

    kind = "crashed"


class StudentBadValue(StudentError):
    """The student's code returned something that cannot be sent back (object array, too large...)."""

    kind = "bad_value"
