import os


def _leave(*args, **kwargs):
    os._exit(7)


sinusoidal_encoding = apply_rope = _leave
