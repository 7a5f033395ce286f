def _huge(*args, **kwargs):
    # np.empty, not np.ones: the answer's size is the attack, and filling 600 MiB can take longer than the 2 s a
    # call may run on a loaded machine (the case then read as a timeout instead of the answer cap)
    return np.empty(600 << 20, dtype=np.uint8)


tiled_attention = _huge
