from .position_bias import biased_attention


def scaled_dot_product_attention(Q, K, V, mask=None):
    return biased_attention(Q, K, V, mask=mask)


def self_attention(X, W_Q, W_K, W_V, mask=None):
    return biased_attention(X @ W_Q, X @ W_K, X @ W_V, mask=mask)
