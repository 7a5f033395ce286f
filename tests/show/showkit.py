"""Helpers for the ``attnkit show`` tests: run the verb in-process, read PNGs."""
from __future__ import annotations

import io
import sys

import numpy as np


class Run:
    def __init__(self, status: int, out: str, err: str):
        self.status, self.out, self.err = status, out, err


def show(*argv) -> Run:
    """``attnkit show ARGV`` through the real CLI dispatch, capturing stdout and stderr."""
    from attnkit import cli

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        status = cli.main(["show", *map(str, argv)])
    finally:
        sys.stdout, sys.stderr = saved
    return Run(status, out.getvalue(), err.getvalue())


def read_png(path) -> np.ndarray:
    """The PNG's pixels, shape (height, width, channels), read with Pillow."""
    from PIL import Image

    with Image.open(path) as image:
        assert image.format == "PNG"
        return np.asarray(image.convert("RGB"))


def assert_real_picture(path, size: tuple[int, int], min_bytes: int = 20_000, min_colours: int = 50) -> np.ndarray:
    """``path`` is a PNG of exactly ``size`` = (width, height) pixels with real content (not blank)."""
    assert path.is_file(), f"{path} was not written"
    assert path.stat().st_size >= min_bytes, f"{path} is only {path.stat().st_size} bytes"
    pixels = read_png(path)
    assert (pixels.shape[1], pixels.shape[0]) == size
    colours = np.unique(pixels.reshape(-1, 3), axis=0)
    assert len(colours) >= min_colours, f"{path} has only {len(colours)} colours"
    return pixels
