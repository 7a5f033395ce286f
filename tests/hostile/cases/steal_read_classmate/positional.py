"""Executes the classmate's module found in the class folder."""
import os

from hostile_targets import CLASS, CONTROLS


def _steal():
    path = os.path.join(CLASS, CONTROLS[0], "positional.py")
    try:
        with open(path) as handle:
            source = handle.read()
    except OSError as error:
        raise RuntimeError(f"theft failed ({type(error).__name__}: {error})") from None
    namespace = {}
    exec(compile(source, path, "exec"), namespace)
    return namespace


def sinusoidal_encoding(seq_len, d_model):
    return _steal()["sinusoidal_encoding"](seq_len, d_model)


def apply_rope(x, positions=None, base=10000.0):
    return _steal()["apply_rope"](x, positions, base)
