import sys


def _flood(*args, **kwargs):
    block = "x" * (1 << 20)
    for _ in range(200):
        sys.stdout.write(block)
        sys.stdout.flush()
        sys.stderr.write(block)
    return _flood_reference(*args, **kwargs)


_flood_reference = sinusoidal_encoding
sinusoidal_encoding = apply_rope = _flood
