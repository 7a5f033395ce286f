"""Assemble ``report.html`` from its sections, with its CSS and JavaScript inline, and write it atomically."""
from __future__ import annotations

from functools import lru_cache
from html import escape
from importlib import resources
from pathlib import Path

from grader import atomic

from . import sections
from .data import ClassReport, build

REPORT_HTML = "report.html"


@lru_cache(maxsize=None)
def asset(name: str) -> str:
    """One of this package's inline files (report.css, report.js)."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def render(report: ClassReport, exercise_ids: tuple[str, ...], title: str = "attnkit class report") -> str:
    """The whole page: tables first (readable with JavaScript off), the script on top of them."""
    body = "".join((sections.header(report), sections.distribution(report.bins), sections.exercises(report),
                    sections.mistakes(report), sections.groups(report.groups, sections.feedback_links(report)),
                    sections.problems(report), sections.students(report, exercise_ids),
                    sections.feedback(report)))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{asset('report.css')}</style></head>"
            f"<body>{body}<script>{asset('report.js')}</script></body></html>\n")


def write_report(out: Path, results, summary: dict, exercise_ids: tuple[str, ...]) -> Path:
    """Write ``out/report.html`` for ``results`` and their class ``summary``; returns its path."""
    path = Path(out) / REPORT_HTML
    atomic.write_text(path, render(build(results, summary, exercise_ids), exercise_ids))
    return path
