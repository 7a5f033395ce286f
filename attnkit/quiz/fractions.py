"""Moodle's allowed answer grades (question_bank fraction options) and how multiple-answer grades snap to them."""
from __future__ import annotations

MOODLE_FRACTIONS = (1.0, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2,
                    0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05)
ALLOWED = frozenset(MOODLE_FRACTIONS) | {0.0} | {-f for f in MOODLE_FRACTIONS}


def nearest(value: float) -> float:
    """The allowed fraction closest to ``value`` (sign kept)."""
    return min(ALLOWED, key=lambda allowed: (abs(allowed - value), -abs(allowed)))


def multiple_fractions(n_right: int, n_choices: int) -> tuple[float, float]:
    """Grades for a multiple-answer question: each right choice 1/k, each wrong choice -1/(n-k)."""
    right = nearest(1.0 / n_right)
    wrong = nearest(-1.0 / (n_choices - n_right)) if n_choices > n_right else 0.0
    return right, wrong


def percent(fraction: float) -> str:
    """Moodle's percent spelling: 0.3333333 -> '33.33333', -0.5 -> '-50'."""
    value = round(fraction * 100, 5)
    return str(int(value)) if value == int(value) else f"{value:.5f}".rstrip("0")
