def _close(*args, **kwargs):
    raise GeneratorExit("closed")


sinusoidal_encoding = apply_rope = _close
