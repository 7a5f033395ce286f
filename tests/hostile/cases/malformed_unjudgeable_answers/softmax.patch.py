_reference_softmax = softmax


def softmax(x, axis=-1):
    return np.asarray(_reference_softmax(x, axis=axis)).astype(str)  # the right numbers, as text
