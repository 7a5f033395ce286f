def alibi_slopes(n_heads):
    raise NotImplementedError("alibi_slopes")


def alibi_bias(n_heads, n_q, n_k=None):
    raise NotImplementedError("alibi_bias")


def sliding_window_mask(n, window, causal=True):
    raise NotImplementedError("sliding_window_mask")


def biased_attention(Q, K, V, bias=None, mask=None):
    raise NotImplementedError("biased_attention")
