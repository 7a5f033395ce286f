"""Held-out: padding mask as ``arange(max(lengths)) < lengths[:, None]``: its width follows the longest sequence,
not ``max_len``. Style: collate functions that pad to the batch's longest sequence."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "shape_size_from_argument"}


def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool), k=1) == False  # noqa: E712


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths)
    return np.arange(lengths.max())[None, :] < lengths[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores, dtype=np.result_type(np.asarray(scores), 1.0))
    return np.where(mask, scores, -np.inf)
