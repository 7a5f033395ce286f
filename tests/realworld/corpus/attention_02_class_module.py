"""Correct attention written as an nn.Module-like class with forward(), wrapped by the exercise's functions.

Imitates: numpy "Attention" classes (forward(Q, K, V) returning output and weights) in from-scratch repos.
"""
import math

import numpy as np

from .masking import apply_mask
from .softmax import softmax

EXPECTED = {"exercise": "attention", "mistake": None}


class ScaledDotProductAttention:
    def __call__(self, Q, K, V, mask=None):
        return self.forward(Q, K, V, mask)

    def forward(self, Q, K, V, mask=None):
        Q, K, V = np.asarray(Q), np.asarray(K), np.asarray(V)
        dk = K.shape[-1]
        scores = np.matmul(Q, np.swapaxes(K, -2, -1)) * (1 / math.sqrt(dk))
        if mask is not None:
            scores = apply_mask(scores, mask)
        self.attention_weights = softmax(scores, axis=-1)
        return np.matmul(self.attention_weights, V), self.attention_weights


class SelfAttention:
    def __init__(self, W_Q, W_K, W_V):
        self.W_Q, self.W_K, self.W_V = np.asarray(W_Q), np.asarray(W_K), np.asarray(W_V)
        self.attention = ScaledDotProductAttention()

    def forward(self, X, mask=None):
        X = np.asarray(X)
        return self.attention(X @ self.W_Q, X @ self.W_K, X @ self.W_V, mask)


def scaled_dot_product_attention(Q, K, V, mask=None):
    return ScaledDotProductAttention()(Q, K, V, mask)


def self_attention(X, W_Q, W_K, W_V, mask=None):
    return SelfAttention(W_Q, W_K, W_V).forward(X, mask)
