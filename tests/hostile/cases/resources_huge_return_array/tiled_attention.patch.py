def _huge(*args, **kwargs):
    return np.ones(600 << 20, dtype=np.uint8)


tiled_attention = _huge
