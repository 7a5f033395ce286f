"""Robustness tests: fault injection on ``attnkit grade``, fuzzed inputs (hypothesis), determinism.

Hypothesis profiles (fuzz tests decorate with ``robustkit.fuzz()``, the selected profile; nothing is
loaded globally, so the other folders' hypothesis tests keep their own settings):

- ``attnkit-robustness`` (default): a bounded number of examples, no deadline (the machine is shared),
  ``derandomize=True`` (the same examples on every run: a failure reproduces, CI never flakes) and no
  example database (no failing example is saved and replayed from ``.hypothesis/``; hypothesis still
  keeps its caches of constants and Unicode data there; the folder is gitignored).
- ``attnkit-robustness-deep``: 20x the examples, random, for hunting locally:
  ``ATTNKIT_FUZZ_PROFILE=attnkit-robustness-deep pytest tests/robustness --hypothesis-show-statistics``.
"""
from __future__ import annotations

from hypothesis import HealthCheck, settings

from tests.robustness.robustkit import FUZZ_PROFILE

MAX_EXAMPLES = 150

settings.register_profile(FUZZ_PROFILE, max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
                          database=None, print_blob=False,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(f"{FUZZ_PROFILE}-deep", parent=settings.get_profile(FUZZ_PROFILE),
                          max_examples=20 * MAX_EXAMPLES, derandomize=False)
