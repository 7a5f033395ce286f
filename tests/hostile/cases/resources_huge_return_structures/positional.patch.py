def _nest(depth):
    value = [1.0]
    for _ in range(depth):
        value = [value]
    return value


_RESULTS = ([0.5] * 10**6, _nest(60), "x" * 10**7, 10**100)
_calls = []


def _huge(*args, **kwargs):
    _calls.append(1)
    return _RESULTS[len(_calls) % len(_RESULTS)]


sinusoidal_encoding = apply_rope = _huge
