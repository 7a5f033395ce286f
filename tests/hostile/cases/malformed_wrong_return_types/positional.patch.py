_ANSWERS = (None, "array([[0., 1.]])", {"values": [0.0, 1.0]}, (x for x in range(3)))
_calls = []


def _wrong(*args, **kwargs):
    _calls.append(1)
    return _ANSWERS[len(_calls) % len(_ANSWERS)]


sinusoidal_encoding = apply_rope = _wrong
