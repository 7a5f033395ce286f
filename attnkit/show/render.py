"""matplotlib, imported only when a PNG is wanted, and deterministic PNG output.

Figures are built with :class:`matplotlib.figure.Figure` and saved through the Agg canvas: no
pyplot, no global state, no display needed. A PNG is fully determined by its figure size, its
DPI and the data (no timestamp, no software version in its metadata), and it is written to a
temporary file first, then moved into place.
"""
from __future__ import annotations

import io
from pathlib import Path

from grader import atomic

from .errors import NO_MATPLOTLIB, OUTPUT_IS_FOLDER, OUTPUT_NO_FOLDER, OUTPUT_NOT_PNG, OUTPUT_NOT_WRITABLE, ShowError

DPI = 100
PNG_METADATA = {"Software": None}  # matplotlib writes its version there by default


def matplotlib_available() -> bool:
    """Whether matplotlib can be imported (without raising)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def new_figure(width: float, height: float):
    """An Agg-backed figure of ``width`` x ``height`` inches at :data:`DPI` (constrained layout).

    Raises
    ------
    ShowError
        With :data:`NO_MATPLOTLIB` when matplotlib is missing.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ShowError(NO_MATPLOTLIB) from None
    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def png_bytes(figure) -> bytes:
    """The figure as PNG bytes, exactly ``figsize * DPI`` pixels, no timestamp."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata=PNG_METADATA)
    return buffer.getvalue()


def check_output(path: Path) -> Path:
    """Refuse an ``-o`` path that cannot become a PNG file, before any work is done.

    Raises
    ------
    ShowError
        When ``path`` does not end in ``.png``, is a folder, or its folder does not exist.
    """
    path = Path(path)
    if path.is_dir():
        raise ShowError(OUTPUT_IS_FOLDER.format(path=path, example=path / "picture.png"))
    if path.suffix.lower() != ".png":
        raise ShowError(OUTPUT_NOT_PNG.format(path=path))
    folder = path.parent
    if not folder.is_dir():
        raise ShowError(OUTPUT_NO_FOLDER.format(path=path, folder=folder))
    return path


def save_png(figure, path: Path) -> None:
    """Write ``figure`` to ``path`` atomically (a reader never sees half a PNG).

    Raises
    ------
    ShowError
        With :data:`OUTPUT_NOT_WRITABLE` when the file cannot be written.
    """
    data = png_bytes(figure)
    try:
        atomic.write_bytes(Path(path), data)
    except OSError as error:
        raise ShowError(OUTPUT_NOT_WRITABLE.format(path=path, reason=error.strerror or error)) from None
