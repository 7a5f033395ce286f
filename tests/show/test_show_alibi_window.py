"""``attnkit show alibi`` and ``attnkit show window``: the ALiBi bias per head and a sliding-window mask."""
from __future__ import annotations

import re
import sys

import numpy as np
import pytest

from attnkit.show import MAX_HEADS, MAX_POSITIONS, errors
from attnkit.show.model import _reference_of, alibi_example, sliding_window_example
from solutions.position_bias import alibi_bias, alibi_slopes, sliding_window_mask
from tests.show.showkit import assert_real_picture, read_png, show

VIRIDIS_LOW, VIRIDIS_HIGH = [68, 1, 84], [253, 231, 37]
TEAL, GREY = [0x21, 0x91, 0x8C], [0xD9, 0xD9, 0xD9]


def _near(pixels: np.ndarray, colour, tolerance: int = 30) -> np.ndarray:
    return np.all(np.abs(pixels.astype(int) - colour) < tolerance, axis=-1)


def _refused(run, message: str) -> None:
    assert (run.status, run.out, run.err) == (2, "", f"attnkit show: {message}\n")


def test_the_reference_module_is_found_through_the_curriculum():
    import solutions.position_bias as reference

    assert _reference_of("alibi_bias") is reference and _reference_of("sliding_window_mask") is reference
    with pytest.raises(errors.ShowError, match="reference solutions"):
        _reference_of("no_such_task")


def test_examples_are_the_reference_values():
    example = alibi_example(12, 7)
    np.testing.assert_array_equal(example.slopes, alibi_slopes(12))
    np.testing.assert_array_equal(example.bias, alibi_bias(12, 7))
    window = sliding_window_example(9, 3)
    np.testing.assert_array_equal(window.causal, sliding_window_mask(9, 3, causal=True))
    np.testing.assert_array_equal(window.symmetric, sliding_window_mask(9, 3, causal=False))


def test_slope_labels():
    assert [alibi_example(8, 2).slope_label(h) for h in range(8)] == [f"1/{2 ** k}" for k in range(1, 9)]
    twelve = [alibi_example(12, 2).slope_label(h) for h in range(12)]
    assert twelve[8:] == ["2^-0.5 = 0.707", "2^-1.5 = 0.354", "2^-2.5 = 0.177", "2^-3.5 = 0.0884"]
    assert alibi_example(1, 1).slope_label(0) == "1/256"


def test_alibi_png_size_and_content(tmp_path):
    pytest.importorskip("matplotlib")
    from attnkit.show.figures import heatmap_grid_size
    from attnkit.show.render import DPI

    out = tmp_path / "alibi.png"
    run = show("alibi", "-o", out)
    assert (run.status, run.out, run.err) == (0, f"wrote {out}\n", "")
    width, height = heatmap_grid_size(12, 8, numbered=True)
    assert (round(width * DPI), round(height * DPI)) == (1540, 800)  # 2 x 4 heatmaps of 12 positions
    pixels = assert_real_picture(out, (1540, 800))
    # each head on its own scale: head 1 (slope 1/2, top left) and head 8 (1/256, bottom right) both reach its dark end
    assert _near(pixels[:400, :400], VIRIDIS_LOW, 40).sum() > 300
    assert _near(pixels[400:, 1080:1420], VIRIDIS_LOW, 40).sum() > 300
    again = tmp_path / "again.png"
    assert show("alibi", "-o", again).status == 0
    assert again.read_bytes() == out.read_bytes()
    small = tmp_path / "small.png"
    assert show("alibi", "--heads", 1, "--seq-len", 1, "-o", small).status == 0
    assert read_png(small).shape[:2] == (360, 380)


def test_window_png_size_and_content(tmp_path):
    pytest.importorskip("matplotlib")
    from attnkit.show.figures import window_size
    from attnkit.show.render import DPI

    out = tmp_path / "window.png"
    run = show("window", "--seq-len", 12, "--window", 4, "-o", out)
    assert (run.status, run.out, run.err) == (0, f"wrote {out}\n", "")
    assert tuple(round(v * DPI) for v in window_size(12)) == (760, 440)
    pixels = assert_real_picture(out, (760, 440), min_bytes=10_000, min_colours=20)
    left, right = pixels[:, :380], pixels[:, 380:]
    # the share of allowed cells among all cells: causal 42 of 144, not causal 78 of 144
    for half, allowed in ((left, sliding_window_mask(12, 4).sum()), (right, sliding_window_mask(12, 4, False).sum())):
        teal, grey = _near(half, TEAL, 8).sum(), _near(half, GREY, 8).sum()
        assert teal / (teal + grey) == pytest.approx(allowed / 144, abs=0.05)
    assert read_png(tmp_path / "window.png").shape == pixels.shape


def _alibi_tables(text: str) -> dict[str, list[str]]:
    blocks = re.split(r"\nHead \d+ of \d+, slope (.+):\n", text)[1:]
    return {label: block.strip("\n").split("\n") for label, block in zip(blocks[0::2], blocks[1::2])}


def test_alibi_text_prints_every_head_with_its_slope_and_bias():
    run = show("alibi", "--heads", 3, "--seq-len", 5, "--ascii")
    assert run.status == 0 and run.err == ""
    run.out.encode("ascii")
    assert run.out.startswith("ALiBi bias[h, i, j] = -slope[h] * |i - j|")
    tables = _alibi_tables(run.out)
    assert list(tables) == ["1/16", "1/256", "1/4"]   # 3 heads: the slopes of 2, then one of 4
    bias = alibi_bias(3, 5)
    for h, lines in enumerate(tables.values()):
        assert lines[0].split() == [str(j) for j in range(5)] and len(lines) == 6
        assert len({len(line) for line in lines}) == 1, "every line of a table is equally wide"
        for i, line in enumerate(lines[1:]):
            assert line.split()[0] == str(i)
            np.testing.assert_allclose([float(v) for v in re.findall(r"-?\d\.\d\d", line)], bias[h, i], atol=0.005)
    assert "#-0.25" in tables["1/4"][1] and "*-1.00" in tables["1/4"][1]   # exp(-0.25) = 0.78, exp(-1) = 0.37


def test_window_text_draws_both_masks():
    run = show("window", "--seq-len", 11, "--window", 3, "--ascii")
    assert run.status == 0 and run.err == ""
    lines = run.out.splitlines()
    assert "window 3, 11 positions" in lines[0] and "'#' = query i may attend" in lines[1]
    assert "causal: i - 3 < j <= i" in lines[2] and "not causal: |i - j| < 3" in lines[2]
    assert lines[3].split() == ["01234567890"] * 2
    rows = lines[4:]
    assert len(rows) == 11
    for i, row in enumerate(rows):
        number, causal, symmetric = row.split()
        assert int(number) == i
        assert causal == "".join(".#"[int(v)] for v in sliding_window_mask(11, 3)[i])
        assert symmetric == "".join(".#"[int(v)] for v in sliding_window_mask(11, 3, causal=False)[i])
    from attnkit.show.terminal import window_text

    unicode = window_text(sliding_window_example(3, 1)).splitlines()   # a terminal that prints block characters
    assert unicode[-1].split() == ["2", "··█", "··█"] and "'█' = query i may attend" in unicode[1]


def test_text_needs_no_matplotlib_and_png_says_how_to_get_it(no_matplotlib, tmp_path):
    assert show("alibi", "--heads", 2, "--seq-len", 3).status == 0
    assert show("window", "--seq-len", 3).status == 0
    for picture in ("alibi", "window"):
        _refused(show(picture, "-o", tmp_path / "p.png"), errors.NO_MATPLOTLIB)
    assert list(tmp_path.iterdir()) == []


def test_png_and_terminal_together(tmp_path):
    pytest.importorskip("matplotlib")
    run = show("window", "--seq-len", 5, "--window", 2, "-o", tmp_path / "w.png", "--terminal")
    assert run.status == 0 and (tmp_path / "w.png").is_file()
    assert run.out.startswith(f"wrote {tmp_path / 'w.png'}\nSliding-window mask, window 2, 5 positions.")


def test_bad_arguments_are_one_clear_line(tmp_path):
    too_long = MAX_POSITIONS + 1
    _refused(show("alibi", "--seq-len", too_long),
             errors.TOO_LARGE.format(option="--seq-len", value=too_long, limit=MAX_POSITIONS))
    _refused(show("alibi", "--heads", MAX_HEADS + 1),
             errors.TOO_LARGE.format(option="--heads", value=MAX_HEADS + 1, limit=MAX_HEADS))
    _refused(show("window", "--seq-len", too_long),
             errors.TOO_LARGE.format(option="--seq-len", value=too_long, limit=MAX_POSITIONS))
    _refused(show("window", "-o", tmp_path / "w.jpg"), errors.OUTPUT_NOT_PNG.format(path=tmp_path / "w.jpg"))
    for argv in (("window", "--window", 0), ("window", "--window", "wide"), ("alibi", "--heads", 0),
                 ("alibi", "--seq-len", -3), ("alibi", "--causal")):
        run = show(*argv)
        assert run.status == 2 and run.out == "" and run.err.startswith("attnkit show: "), argv
        assert "usage: attnkit show" in run.err and "Traceback" not in run.err
    assert "must be at least 1 (got 0)" in show("window", "--window", 0).err
    assert list(tmp_path.iterdir()) == []


def test_without_the_reference_solutions(monkeypatch):
    for name in [m for m in sys.modules if m == "solutions" or m.startswith("solutions.")]:
        monkeypatch.setitem(sys.modules, name, None)
    _refused(show("alibi"), errors.NO_SOLUTIONS)
    _refused(show("window"), errors.NO_SOLUTIONS)


def test_help_lists_the_pictures():
    top = show()
    assert top.status == 0 and "alibi" in top.out and "window" in top.out
    alibi = show("alibi", "--help")
    assert alibi.status == 0 and "-slope[h] * |i - j|" in alibi.out
