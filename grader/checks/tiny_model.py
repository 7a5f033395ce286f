"""The shipped tiny GPT-2 (``grader/tiny_gpt.npz``) as a check input: the student's gpt_forward must give its logits
to float64 precision (the stored float32 weights cast once: float32 results are judged on the small random models,
so the 106k weights cross to the student's process once). Not a check itself (no ``test_`` names here); the release
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
    """gpt_forward on the shipped model in float64."""
    model = shipped("float64")
    tokens = model.encode(TEXT)
    call = call_text("gpt_forward", arg("tokens", tokens), "params of the shipped tiny GPT-2 (float64)",
                     f"n_head={model.n_head}")
    expected = ref.gpt.gpt_forward(tokens, model.params, model.n_head)   # first: an error is diagnosed on it
    expect_close(impl.gpt.gpt_forward(tokens, model.params, model.n_head), expected, call=call)
