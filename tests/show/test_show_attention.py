"""``attnkit show attention``: the PNG heatmaps and the text heatmap."""
from __future__ import annotations

import re

import numpy as np
import pytest

from attnkit.show import DEFAULT_TEXT, MAX_TOKENS
from attnkit.show.errors import NO_MATPLOTLIB
from attnkit.show.model import attention_example
from attnkit.show.tokens import tokenize
from tests.show.showkit import assert_real_picture, read_png, show

TOKENS = ["The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired"]


def test_tokenizer_keeps_contractions_and_splits_punctuation():
    assert tokenize(DEFAULT_TEXT) == TOKENS
    assert tokenize("Hello, world!  It's 3 o'clock.") == ["Hello", ",", "world", "!", "It's", "3", "o'clock", "."]
    assert tokenize(" \t\n") == []


def test_example_is_seeded_and_every_row_is_a_distribution():
    first = attention_example(TOKENS, 4, 16, seed=0)
    again = attention_example(TOKENS, 4, 16, seed=0)
    other = attention_example(TOKENS, 4, 16, seed=1)
    assert first.weights.shape == (4, 11, 11)
    np.testing.assert_array_equal(first.weights, again.weights)
    assert not np.allclose(first.weights, other.weights)
    np.testing.assert_allclose(first.weights.sum(axis=-1), 1.0)
    assert not np.allclose(first.weights[0], first.weights[1]), "heads should differ"
    causal = attention_example(TOKENS, 2, 16, causal=True)
    assert np.all(np.triu(causal.weights, k=1) == 0)


def test_png_has_one_heatmap_per_head_and_the_expected_size(tmp_path):
    pytest.importorskip("matplotlib")
    from attnkit.show.figures import heatmap_grid_size
    from attnkit.show.render import DPI

    out = tmp_path / "attn.png"
    run = show("attention", "--text", DEFAULT_TEXT, "--heads", 4, "-o", out)
    assert run.status == 0, run.err
    assert run.out == f"wrote {out}\n" and run.err == ""
    width, height = heatmap_grid_size(11, 4)
    assert (round(width * DPI), round(height * DPI)) == (1060, 1040)  # 2 x 2 heatmaps of 11 tokens
    pixels = assert_real_picture(out, (1060, 1040))
    # four heatmaps in a 2 x 2 grid: the viridis colours fill both halves, left and right, top and bottom
    dark_purple = np.all(np.abs(pixels.astype(int) - [68, 1, 84]) < 40, axis=-1)   # viridis at 0
    for rows in (slice(0, 520), slice(520, 1040)):
        for columns in (slice(0, 500), slice(500, 960)):
            assert dark_purple[rows, columns].sum() > 1000


def test_png_is_deterministic_and_causal_mask_is_grey(tmp_path):
    pytest.importorskip("matplotlib")
    first, second = tmp_path / "a.png", tmp_path / "b.png"
    for out in (first, second):
        assert show("attention", "--heads", 2, "--causal", "-o", out).status == 0
    assert first.read_bytes() == second.read_bytes()
    assert b"Software" not in first.read_bytes() and b"matplotlib" not in first.read_bytes()
    pixels = read_png(first)
    assert (pixels.shape[1], pixels.shape[0]) == (1060, 560)  # 1 x 2 heatmaps
    grey = np.all(pixels == [0xD9, 0xD9, 0xD9], axis=-1)
    assert grey.sum() > 2 * 40 * 32 * 32, "the masked upper triangles should be grey"


@pytest.mark.slow
def test_one_head_and_a_long_text_fit(tmp_path):
    pytest.importorskip("matplotlib")
    from attnkit.show.figures import heatmap_grid_size
    from attnkit.show.render import DPI

    text = " ".join(f"w{i}" for i in range(MAX_TOKENS))
    out = tmp_path / "long.png"
    assert show("attention", "--text", text, "--heads", 2, "-o", out).status == 0
    width, height = heatmap_grid_size(MAX_TOKENS, 2)
    assert_real_picture(out, (round(width * DPI), round(height * DPI)))
    assert show("attention", "--text", "India is great", "--heads", 1, "-o", tmp_path / "one.png").status == 0
    assert_real_picture(tmp_path / "one.png", (440, 420), min_bytes=8_000)


def test_grid_sizes():
    from attnkit.show.figures import grid, heatmap_grid_size

    assert [grid(h) for h in (1, 2, 3, 4, 5, 6, 8, 9, 12, 16)] == [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (2, 3),
                                                                   (2, 4), (3, 3), (3, 4), (4, 4)]
    assert heatmap_grid_size(MAX_TOKENS, 16) == (4 * 7.7 + 1.0, 4 * 7.7 + 0.8)  # 0.16 inch per token
    assert heatmap_grid_size(3, 1) == (4.4, 4.2)                               # the smallest panel


def _tables(text: str) -> list[list[str]]:
    heads = re.split(r"\nHead \d+ of \d+:\n", text)[1:]
    return [block.strip("\n").split("\n") for block in heads]


def test_terminal_heatmap_shows_tokens_and_the_weights():
    run = show("attention", "--heads", 2, "--seed", 3)
    assert run.status == 0 and run.err == ""
    example = attention_example(TOKENS, 2, 16, seed=3)
    tables = _tables(run.out)
    assert len(tables) == 2
    for h, lines in enumerate(tables):
        assert len(lines) == 1 + len(TOKENS)                        # key tokens, then one row per query
        assert len({len(line) for line in lines}) == 1, "every line of a table is equally wide"
        assert lines[0].split() == TOKENS
        for i, line in enumerate(lines[1:]):
            assert line.split()[0] == TOKENS[i]
            values = [float(v) for v in re.findall(r"\d\.\d\d", line)]
            np.testing.assert_allclose(values, example.weights[h, i], atol=0.005)


def test_terminal_heatmap_causal_ascii_and_with_png(tmp_path):
    run = show("attention", "--causal", "--ascii", "--heads", 1, "--text", "a b c d")
    assert run.status == 0
    run.out.encode("ascii")
    lines = _tables(run.out)[0]
    for i, line in enumerate(lines[1:]):
        cells = line.split()[1:]
        assert len(cells) == 4
        assert all(cell == "-" for cell in cells[i + 1:]) and all(cell != "-" for cell in cells[: i + 1])
    assert "'-' masked" in run.out and "#1.00" in lines[1]


def test_terminal_heatmap_needs_no_matplotlib(no_matplotlib, tmp_path):
    run = show("attention", "--text", "India is great", "--heads", 2)
    assert run.status == 0 and "India" in run.out
    missing = show("attention", "-o", tmp_path / "attn.png")
    assert missing.status == 2 and not (tmp_path / "attn.png").exists()
    assert missing.err == f"attnkit show: {NO_MATPLOTLIB}\n"
    assert "pip install -e '.[plots]'" in missing.err  # the README's words


def test_png_and_terminal_together(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "attn.png"
    run = show("attention", "--text", "India is great", "--heads", 1, "-o", out, "--terminal")
    assert run.status == 0 and out.is_file()
    assert run.out.startswith(f"wrote {out}\n") and "Head 1 of 1:" in run.out


def test_block_characters_only_where_they_can_be_printed():
    from attnkit.show.terminal import UNICODE_SHADES, can_encode

    assert can_encode(UNICODE_SHADES, "utf-8")
    assert not can_encode(UNICODE_SHADES, "ascii") and not can_encode(UNICODE_SHADES, None)
    assert not can_encode(UNICODE_SHADES, "no-such-encoding")
