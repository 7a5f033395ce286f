def _down(*args, **kwargs):
    return _down(*args, **kwargs)


sinusoidal_encoding = apply_rope = _down
