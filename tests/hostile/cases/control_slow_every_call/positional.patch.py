import time as _time

import numpy as _np


def _slow(*args, **kwargs):
    _time.sleep(1.5)
    return _np.zeros(1)


sinusoidal_encoding = apply_rope = _slow
