"""Pictures of a graded class, beside ``grades.csv``: a score histogram and the most frequent mistakes.

Called by :func:`attnkit.grade.summary.write_all`. Drawn only when matplotlib is importable;
otherwise the summary gets one line saying how to get them. Both PNGs have a fixed size and
depend only on the results, so grading the same class twice gives the same bytes.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np

from .errors import PLOTS_ADVICE

SCORES_PNG = "summary-scores.png"
MISTAKES_PNG = "summary-mistakes.png"
SCORES_INCHES = (8.0, 4.5)
MISTAKES_INCHES = (10.0, 7.0)
BINS = 10                       # score bins of a tenth of the maximum each
MIN_SLOTS = 6                   # the mistakes chart has room for at least this many bars
LABEL_CHARS = 60                # wrap a mistake's description at this width, at most two lines

DRAWN = f"pictures: {SCORES_PNG} (score histogram) and {MISTAKES_PNG} (most frequent diagnosed mistakes)"
NO_MATPLOTLIB = (f"pictures: not drawn, matplotlib is not installed ({PLOTS_ADVICE}); run the same command "
                 f"again to get {SCORES_PNG} and {MISTAKES_PNG} (graded students are skipped).")
FAILED = "pictures: not drawn ({error}); the grades above are not affected."


def drop_pictures(out: Path) -> None:
    """Remove the pictures an earlier run drew into ``out``: they would no longer match the grades."""
    for name in (SCORES_PNG, MISTAKES_PNG):
        (Path(out) / name).unlink(missing_ok=True)


def write_pictures(out: Path, results, summary: dict, reuse: bool = False) -> str:
    """Draw both pictures into ``out`` when matplotlib is importable.

    Parameters
    ----------
    out : pathlib.Path
        The grading output folder (holds ``grades.csv``).
    results : list of grader.results.SubmissionResult
        The graded students.
    summary : dict
        :func:`attnkit.grade.summary.class_summary` of the same results (its ``mistakes`` ranking is reused).
    reuse : bool
        The grades and summary are byte for byte those of the run that drew the pictures in
        ``out``: keep them when both are there (drawing costs about a second).

    Returns
    -------
    str
        One line for ``summary.txt``: where the pictures are, or how to get them.
    """
    from . import render

    out = Path(out)
    if not render.matplotlib_available():
        drop_pictures(out)
        return NO_MATPLOTLIB
    if reuse and (out / SCORES_PNG).is_file() and (out / MISTAKES_PNG).is_file():
        return DRAWN
    try:
        render.save_png(scores_figure([r.score for r in results], summary["max_score"]), out / SCORES_PNG)
        render.save_png(mistakes_figure(summary["mistakes"], summary["graded"]), out / MISTAKES_PNG)
    except Exception as error:  # an optional picture must never cost the instructor the grades' summary
        return FAILED.format(error=f"{type(error).__name__}: {error}")
    return DRAWN


def scores_figure(scores: list[float], max_score: float):
    """Histogram of the students' total scores in :data:`BINS` bins from 0 to ``max_score``.

    Parameters
    ----------
    scores : list of float
        One total score per graded student.
    max_score : float

    Returns
    -------
    matplotlib.figure.Figure
        Of :data:`SCORES_INCHES`.
    """
    from matplotlib.ticker import MaxNLocator

    from .render import new_figure

    figure = new_figure(*SCORES_INCHES)
    ax = figure.subplots()
    if not scores:
        return _empty(figure, ax, "Scores", "no graded submissions")
    top = max_score if max_score > 0 else 1.0
    edges = np.linspace(0.0, top, BINS + 1)                                # (BINS + 1,)
    counts, _ = np.histogram(np.clip(scores, 0.0, top), bins=edges)        # (BINS,); the last bin includes top
    ax.bar(edges[:-1], counts, width=np.diff(edges), align="edge", color="#4c72b0", edgecolor="white")
    for left, width, count in zip(edges[:-1], np.diff(edges), counts):
        if count:
            ax.text(left + width / 2, count, str(count), ha="center", va="bottom", fontsize=9)
    ax.set_xlim(0, top)
    ax.set_xticks(edges)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, max(1, int(counts.max(initial=0))) * 1.15)
    ax.set_xlabel(f"total score (out of {_number(max_score)})")
    ax.set_ylabel("students")
    ax.grid(axis="y", alpha=0.3)
    mean = float(np.mean(scores))
    ax.axvline(mean, color="#c44e52", linestyle="--", linewidth=1.5, label=f"mean {mean:.1f}")
    ax.legend(loc="upper left")
    ax.set_title(f"Scores of {len(scores)} graded student{'s' if len(scores) != 1 else ''}")
    return figure


def mistakes_figure(mistakes: list[dict], graded: int):
    """Horizontal bars: how many students made each of the most frequent diagnosed mistakes.

    Parameters
    ----------
    mistakes : list of dict
        ``{"exercise", "mistake", "students"}``, most frequent first (``class_summary``'s ranking).
    graded : int
        Number of graded students (the bars' scale).

    Returns
    -------
    matplotlib.figure.Figure
        Of :data:`MISTAKES_INCHES`.
    """
    from matplotlib.ticker import MaxNLocator

    from grader.mistakes import all_mistakes

    from .render import new_figure

    known = all_mistakes()
    figure = new_figure(*MISTAKES_INCHES)
    ax = figure.subplots()
    if not mistakes:
        return _empty(figure, ax, "Most frequent diagnosed mistakes", "no diagnosed mistakes")
    labels = [_mistake_label(m["mistake"], known) for m in mistakes]
    counts = [m["students"] for m in mistakes]
    rows = np.arange(len(mistakes))
    ax.barh(rows, counts, color="#dd8452", height=0.6)
    ax.set_yticks(rows, labels, fontsize=8)
    ax.set_ylim(max(len(mistakes), MIN_SLOTS) - 0.5, -0.5)  # the most frequent on top; few bars stay slim
    ax.set_xlim(0, max(graded, max(counts)) * 1.08)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"students (of {graded} graded)")
    ax.grid(axis="x", alpha=0.3)
    for row, count in zip(rows, counts):
        ax.text(count, row, f" {count}", va="center", fontsize=9)
    ax.set_title("Most frequent diagnosed mistakes (a mistake counts once per student)")
    return figure


def _empty(figure, ax, title: str, message: str):
    ax.set_axis_off()
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=14, transform=ax.transAxes)
    ax.set_title(title)
    return figure


def _mistake_label(mistake_id: str, known: dict) -> str:
    mistake = known.get(mistake_id)
    if mistake is None:
        return mistake_id
    lines = textwrap.wrap(mistake.looks_like, LABEL_CHARS, max_lines=2, placeholder=" ...")
    return "\n".join([mistake_id, *lines])


def _number(value: float) -> str:
    return f"{value:g}"
