import numpy as np


def sinusoidal_encoding(seq_len, d_model:
    return np.zeros((seq_len, d_model))
