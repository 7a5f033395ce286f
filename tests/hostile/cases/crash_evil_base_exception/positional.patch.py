class Evil(BaseException):
    def __str__(self):
        raise Evil()

    def __repr__(self):
        raise Evil()


def _evil(*args, **kwargs):
    raise Evil()


sinusoidal_encoding = apply_rope = _evil
