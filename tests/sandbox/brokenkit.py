"""A broken KVCache (keys and values swapped) for the tests that check part three is graded on its own code."""

BROKEN_CACHE = '''

class KVCache:
    def __init__(self):
        self.k, self.v = [], []

    def append(self, k, v):
        self.k.append(v)  # keys and values swapped
        self.v.append(k)

    @property
    def keys(self):
        import numpy as np
        return np.array(self.k)

    @property
    def values(self):
        import numpy as np
        return np.array(self.v)

    def __len__(self):
        return len(self.k)
'''
