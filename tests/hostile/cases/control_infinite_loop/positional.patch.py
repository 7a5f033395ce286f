def _spin(*args, **kwargs):
    while True:
        pass


sinusoidal_encoding = apply_rope = _spin
