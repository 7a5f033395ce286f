"""In a locked-down child: answer the trusted side's requests until its socket closes.

Loaded by path by the zygote (``attnkit_sandbox_answer``). Each request is one wire frame (an op of
:class:`runtime.Runtime` with its arguments, arrays possibly views of the shared region); each answer is one
frame: the value (arrays of whitelisted dtypes, objects as handles) or the student's error as data. Nothing
here judges: the trusted side decides what an answer is worth.
"""
import os

try:  # inside the grader package
    from .. import wire
    from . import runtime as runtime_module
    from . import standin
except ImportError:  # loaded by path in the zygote, where the grader package is not importable
    import attnkit_sandbox_runtime as runtime_module  # type: ignore[no-redef]
    import attnkit_sandbox_standin as standin  # type: ignore[no-redef]
    import attnkit_sandbox_wire as wire  # type: ignore[no-redef]


NO_ARGS = {"t": "tuple", "items": []}  # what a request without arguments stands for (read, never changed)
NO_KWARGS = {"t": "list", "items": []}


def answer(sock, request, region=None):
    """Load the submission (with the stand-ins the spawn ``request`` names) and answer requests on ``sock``.
    ``region``: the memory the trusted side writes the arguments of a call into (its arrays are views of it)."""
    frames = wire.Receiver(sock.recv_into)  # a small request is one read
    runtime = runtime_module.Runtime(request["submission"])
    runtime.watch_bytes = False  # the trusted side compares the bytes in the shared region (shared.py)
    if request.get("stand_ins"):  # attnkit grade: sibling exercises answered by the reference (standin.py)
        standin.install(request["stand_ins"], standin.Caller(sock, frames), runtime.root, runtime.package,
                        runtime_module.LENT_CLASSES)
    if request.get("own_stand_ins"):  # and the exercise's own other functions, while one of them runs
        runtime.own_stand_ins = standin.own_functions(request["own_stand_ins"], standin.Caller(sock, frames))
        runtime.trust_own(request["own_stand_ins"].get("trusted"))  # but those its checks have proven
    exercise = request.get("exercise", "")
    if request.get("populate"):  # the trusted side reads its baseline once this is in (memory.py)
        reply(sock, {"ready": True})
    while True:
        try:
            header, arrays = frames.recv()
        except (wire.WireError, OSError):
            return
        op = header.get("op")
        if op == "trust_own":  # the trusted side's word, answered by nothing
            runtime.trust_own(header.get("names"))
            continue
        shared = header.get("shared")
        try:
            if shared is not None and region is not None:
                arrays = wire.shared_arrays(region, shared)
            args = wire.decode(header.get("args", NO_ARGS), arrays)
            kwargs = dict(wire.decode(header.get("kwargs", NO_KWARGS), arrays))
            result = runtime.run(header["op"], header["target"], args, kwargs, header.get("name", ""))
        except (KeyboardInterrupt, SystemExit, Exception) as error:  # the student's code failed or left
            info = runtime.describe_error(error, exercise)
            info["import"] = op == "import" or isinstance(error, (ImportError, SyntaxError))
            if isinstance(error, SystemExit):
                code = runtime_module.safe_text(error.code, repr)[:200]
                info["type"], info["message"] = "SystemExit", f"your code called sys.exit({code})"
            reply(sock, {"ok": False, "error": info})
            continue
        except BaseException as error:  # noqa: B902 - student-defined BaseException subclasses
            reply(sock, {"ok": False, "error": runtime.describe_error(error, exercise)})
            continue
        finally:  # (the arguments' pages stay mapped: a measured call's arrays come over the socket, in a child
            #         that has answered nothing but its import, so no call's pages in the region count in a measure)
            arrays = args = kwargs = None
        out = []
        try:
            tree = wire.encode(result, out, handles=runtime.keep)
        except Exception as error:  # TypeError, ValueError; MemoryError, RecursionError from a value's methods
            reply(sock, {"ok": False, "error": {"type": "BadValue", "message": runtime_module.safe_text(error)[:500],
                                                "bad_value": True}})
            continue
        try:
            wire.send(sock, {"ok": True, "value": tree, "mutated": runtime.last_mutated}, out)
        except Exception as error:  # e.g. MemoryError making a zero-stride view contiguous (before sending anything)
            reply(sock, {"ok": False, "error": {"type": "BadValue", "message": runtime_module.safe_text(error)[:500],
                                                "bad_value": True}})


def reply(sock, header):
    try:
        wire.send(sock, header)
    except OSError:
        os._exit(3)
