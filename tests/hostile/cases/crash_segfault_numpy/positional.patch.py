def _segfault(*args, **kwargs):
    view = np.lib.stride_tricks.as_strided(np.zeros(1), shape=(2,), strides=(1 << 46,))
    return float(view[1])


sinusoidal_encoding = apply_rope = _segfault
