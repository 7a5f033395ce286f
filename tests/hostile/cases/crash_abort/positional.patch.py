import os


def _abort(*args, **kwargs):
    os.abort()


sinusoidal_encoding = apply_rope = _abort
