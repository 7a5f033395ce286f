def _ask(*args, **kwargs):
    answer = input("what is the answer? ")
    return _ask_reference(int(answer), int(answer))


_ask_reference = sinusoidal_encoding
sinusoidal_encoding = apply_rope = _ask
