"""``attnkit show positional``: the sinusoidal encoding as a PNG and as text."""
from __future__ import annotations

import numpy as np
import pytest

from attnkit.show.figures import default_dims
from attnkit.show.model import positional_encoding
from solutions.positional import sinusoidal_encoding
from tests.show.showkit import assert_real_picture, read_png, show


def test_png_with_and_without_curves(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "pe.png"
    run = show("positional", "-o", out)
    assert run.status == 0 and run.out == f"wrote {out}\n"
    pixels = assert_real_picture(out, (1100, 450))
    # the image panel uses the whole diverging map: deep red (+1) and deep blue (-1) both present
    red = np.all(np.abs(pixels.astype(int) - [103, 0, 31]) < 30, axis=-1)
    blue = np.all(np.abs(pixels.astype(int) - [5, 48, 97]) < 30, axis=-1)
    assert red.sum() > 2000 and blue.sum() > 2000
    image_only = tmp_path / "pe_image.png"
    assert show("positional", "--seq-len", 20, "--d-model", 16, "--no-curves", "-o", image_only).status == 0
    assert_real_picture(image_only, (600, 450), min_bytes=10_000)
    again = tmp_path / "again.png"
    assert show("positional", "-o", again).status == 0
    assert again.read_bytes() == out.read_bytes()


def test_chosen_dims(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "dims.png"
    assert show("positional", "--dims", 0, 1, 63, "-o", out).status == 0
    assert read_png(out).shape[:2] == (450, 1100)


def test_default_dims_are_valid_and_slow_enough_to_read():
    for d_model in (1, 2, 3, 8, 16, 64, 128, 1024):
        dims = default_dims(d_model)
        assert dims and all(0 <= d < d_model for d in dims) and dims == sorted(set(dims))
    assert default_dims(64) == [4, 5, 8, 16]


def test_text_picture_follows_the_encoding():
    run = show("positional", "--seq-len", 12, "--d-model", 10, "--ascii")
    assert run.status == 0 and run.err == ""
    lines = run.out.splitlines()
    assert len(lines) == 3 + 12
    encoding = sinusoidal_encoding(12, 10)
    np.testing.assert_array_equal(positional_encoding(12, 10), encoding)
    from attnkit.show.terminal import ASCII_RAMP

    for p, line in enumerate(lines[3:]):
        number, sin_part, bar, cos_part = line[:2], line[3:8], line[8:11], line[11:]
        assert int(number) == p and bar == " | "
        expected = np.rint((encoding[p] + 1) / 2 * (len(ASCII_RAMP) - 1)).astype(int)
        assert sin_part == "".join(ASCII_RAMP[k] for k in expected[0::2])
        assert cos_part == "".join(ASCII_RAMP[k] for k in expected[1::2])
    assert lines[3].endswith("+++++ | @@@@@")  # position 0: sin 0, cos 1


def test_text_picture_unicode_and_without_matplotlib(no_matplotlib):
    run = show("positional", "--seq-len", 4, "--d-model", 64)
    assert run.status == 0 and "sin: dims 0, 2, 4" in run.out and len(run.out.splitlines()) == 7
