_sinusoidal, _rope = sinusoidal_encoding, apply_rope


def sinusoidal_encoding(seq_len):
    return _sinusoidal(seq_len, 8)


def apply_rope(x, base):
    return _rope(x, None, base)
