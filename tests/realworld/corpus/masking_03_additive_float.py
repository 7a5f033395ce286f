"""Causal mask as PyTorch's float "square subsequent mask": 0.0 where allowed, -inf where forbidden.

Bug: the kit's masks are boolean (True = may attend); this returns an additive float table.
apply_mask accepts either kind, so only causal_mask is wrong.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "causal_mask_additive_float"}


def causal_mask(n):
    msk = np.triu(np.ones((n, n))) == 1
    msk = msk.T.astype(float)
    msk[msk == 0] = -np.inf
    msk[msk == 1] = 0.0
    return msk


def padding_mask(lengths, max_len):
    return (np.arange(max_len)[None, :] - np.asarray(lengths)[:, None]) < 0


def apply_mask(scores, mask):
    s = np.asarray(scores, dtype=np.result_type(np.asarray(scores), 1.0))
    m = np.asarray(mask)
    if m.dtype.kind == "f":          # an additive mask is simply added
        return (s + m).astype(s.dtype)
    return np.where(m, s, -np.inf)
