def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


sinusoidal_encoding = apply_rope = _interrupt
