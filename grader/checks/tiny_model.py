"""The shipped tiny GPT-2 (``grader/tiny_gpt.npz``) as a check input: the student's gpt_forward must give its logits
to float precision, in float32 as stored and in float64. Not a check itself (no ``test_`` names here); the release
carries the weights beside the checks, and records the reference's logits like any other call."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from grader import tiny_gpt

from ..compare import arg, call_text, expect_close

TEXT = "attention is all you need."


@lru_cache(maxsize=2)
def shipped(dtype: str) -> tiny_gpt.TinyGPT:
    """The shipped model in ``dtype``, read once per process (checks never change their inputs)."""
    return tiny_gpt.load(np.dtype(dtype))


def expect_tiny_gpt_logits(impl, ref) -> None:
    """gpt_forward on the shipped model, float32 (its stored weights) and float64."""
    for dtype in ("float32", "float64"):
        model = shipped(dtype)
        tokens = model.encode(TEXT)
        call = call_text("gpt_forward", arg("tokens", tokens), f"params of the shipped tiny GPT-2 ({dtype})",
                         f"n_head={model.n_head}")
        expect_close(impl.gpt.gpt_forward(tokens, model.params, model.n_head),
                     ref.gpt.gpt_forward(tokens, model.params, model.n_head), call=call)
