def _nan(reference):
    def wrapper(*args, **kwargs):
        try:
            return np.full_like(reference(*args, **kwargs), np.nan)
        except ValueError:
            return np.full(np.shape(args[0]), np.nan)
    return wrapper


sinusoidal_encoding, apply_rope = _nan(sinusoidal_encoding), _nan(apply_rope)
