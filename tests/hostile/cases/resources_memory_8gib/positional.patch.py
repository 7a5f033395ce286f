def _hog(*args, **kwargs):
    hog = np.ones(1 << 30)  # 8 GiB of float64
    return hog[:1]


sinusoidal_encoding = apply_rope = _hog
