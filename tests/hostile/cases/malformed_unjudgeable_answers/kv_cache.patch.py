import sys as _sys

_runtime = _sys.modules.get("attnkit_sandbox_runtime")
if _runtime is not None:  # the student's side answers every len() request with 2**63, whatever len() says
    _run = _runtime.Responder.run

    def _forged_run(self, op, target, args=(), kwargs=None, name=""):
        return 2**63 if op == "len" else _run(self, op, target, args, kwargs, name)

    _runtime.Responder.run = _forged_run
