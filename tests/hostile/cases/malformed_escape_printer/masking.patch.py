import os as _os

_reference_causal_mask = causal_mask


def causal_mask(n):
    if n == 5:
        print("\x1b]0;retitled\x07\x1b[31mred text\x1b[0m", flush=True)
        _os._exit(1)
    return _reference_causal_mask(n)
