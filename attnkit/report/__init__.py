"""``report.html``: the class report ``attnkit grade`` writes beside ``summary.txt`` (one self-contained page)."""
from .page import REPORT_HTML, render, write_report

__all__ = ["REPORT_HTML", "render", "write_report"]
