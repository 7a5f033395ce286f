import os as _os


def _flood(*args, **kwargs):
    data = b"x" * (2 << 20)
    while data:  # the kernel writes up to the limit, then refuses (EFBIG)
        data = data[_os.write(1, data):]
    return _flood_reference(*args, **kwargs)


_flood_reference = sinusoidal_encoding
sinusoidal_encoding = apply_rope = _flood
