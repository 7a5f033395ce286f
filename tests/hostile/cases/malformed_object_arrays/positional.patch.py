def _objects(reference):
    def wrapper(*args, **kwargs):
        try:
            return np.array(reference(*args, **kwargs), dtype=object)
        except ValueError:
            return np.array([None, object()], dtype=object)
    return wrapper


sinusoidal_encoding, apply_rope = _objects(sinusoidal_encoding), _objects(apply_rope)
