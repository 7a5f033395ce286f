"""``attnkit demo``: a two-minute tour for a newcomer.

1. The "India is great" example of 003_63dbfe1d11fdc09a.txt computed by the reference
   solutions, next to the numbers the document prints.
2. The grader on the reference solutions (full marks) and on the untouched exercises (what a
   student sees on day one).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]


def india(out) -> bool:
    from grader import document_values as dv
    from solutions.attention import self_attention

    inputs = dv.india_inputs()
    expected = dv.india_expected()
    output, weights = self_attention(inputs["X"], inputs["W_Q"], inputs["W_K"], inputs["W_V"])
    tokens = dv.raw()["india_is_great"]["tokens"]
    print("1. Self-attention on the three tokens \"India is great\", a published worked example", file=out)
    print("   attention weights, softmax(Q K^T / sqrt(4)): row = query token, column = key token", file=out)
    print("          " + "".join(f"{t:>10}" for t in tokens), file=out)
    for token, row in zip(tokens, weights):
        print(f"   {token:>6} " + "".join(f"{w:10.6f}" for w in row), file=out)
    ok = all(np.allclose(value, expected[name].value, rtol=0, atol=expected[name].atol + 1e-12)
             for name, value in (("weights", weights), ("output", output)))
    print(f"   matches the example's published weights and output to 8 decimals: {'yes' if ok else 'NO'}", file=out)
    print("   (source: 003_63dbfe1d11fdc09a.txt, \"Step-by-Step Calculation\")", file=out)
    return ok


def add_arguments(parser) -> None:
    """``attnkit demo`` takes no options."""


def run(args) -> int:
    return main()


def main(out=None) -> int:
    out = out or sys.stdout
    from attnkit.check import main as check

    ok = india(out)
    print("\n2. The grader on the reference solutions (every check passes):", file=out)
    reference_status = check(impl=REPO / "solutions", out=out)
    print("\n3. The grader on the untouched student exercises (what you start from):", file=out)
    with tempfile.TemporaryDirectory() as scratch:  # a pristine copy, whatever you edited in exercises/
        from attnkit.release.stubs import write

        pristine = Path(scratch) / "exercises"
        write(REPO / "solutions", pristine)
        check(impl=pristine, out=out)
    print("\nNext: edit exercises/softmax.py, run `attnkit check softmax`, and `attnkit hint softmax` when stuck.",
          file=out)
    return 0 if ok and reference_status == 0 else 1
