"""Pictures as plain text, for a terminal without a display (no matplotlib needed).

The attention view follows the seed's ``visualize_attention`` (002_5d842bf762d216d9.txt,
"Interpreting Self-Attention"): one table per head, key tokens across, query tokens down, every
weight printed with two decimals. A shade character in front of each number makes the pattern
visible at a glance (diagonals, vertical stripes, the causal triangle). The ALiBi bias is
printed the same way, one table per head, and a sliding-window mask as two character grids.
"""
from __future__ import annotations

import numpy as np

from .model import AlibiExample, AttentionExample, WindowExample

UNICODE_SHADES = " ░▒▓█"
ASCII_SHADES = " .:*#"
# a weight below THRESHOLDS[0] gets shades[0], below THRESHOLDS[1] shades[1], ...; the rest the last shade
THRESHOLDS = (0.05, 0.15, 0.30, 0.50)
UNICODE_RAMP = " ·-=+*#%@"  # the positional encoding, from -1 (blank) to +1 (@)
ASCII_RAMP = " .-=+*#%@"
MASKED = "-"                 # a key the causal mask hides from the query
UNICODE_WINDOW = "·█"        # a sliding-window cell: masked, may attend
ASCII_WINDOW = ".#"
LABEL_WIDTH = 10             # longer tokens are cut, ending in "~"


def can_encode(text: str, encoding: str | None) -> bool:
    """Whether a stream with ``encoding`` can print ``text`` (unknown encodings: no)."""
    try:
        text.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _label(token: str, width: int) -> str:
    return token if len(token) <= width else token[: width - 1] + "~"


def _shade(weight: float, shades: str) -> str:
    return shades[int(np.searchsorted(THRESHOLDS, weight, side="right"))]


def _cell(weight: float, allowed: bool, shades: str) -> str:
    return MASKED if not allowed else _shade(weight, shades) + f"{weight:.2f}"


def _shade_legend(shades: str) -> str:
    return ", ".join(f"'{s}' < {t:.2f}" for s, t in zip(shades, THRESHOLDS)) + f", '{shades[-1]}' above"


def attention_text(example: AttentionExample, ascii_only: bool = False) -> str:
    """Every head's weights as a table of shaded numbers.

    Parameters
    ----------
    example : AttentionExample
        With ``weights`` of shape (heads, n, n).
    ascii_only : bool
        Shade with ``" .:*#"`` instead of block characters.

    Returns
    -------
    str
        Two header lines, then per head a title, a line of key tokens and ``n`` rows of
        ``n`` cells; every table line of a head is equally wide.
    """
    shades = ASCII_SHADES if ascii_only else UNICODE_SHADES
    n_all = len(example.tokens)
    visible = np.tril(np.ones((n_all, n_all), dtype=bool)) if example.causal else np.ones((n_all, n_all), dtype=bool)
    tokens = [_label(t, LABEL_WIDTH) for t in example.tokens]
    n = len(tokens)
    cell = max(6, max(len(t) for t in tokens) + 1)   # "▓0.42" is 5 wide, plus one space
    label = max(len(t) for t in tokens)
    d_head = example.d_model // example.heads
    mask_note = ", causal mask" if example.causal else ""
    legend = _shade_legend(shades)
    if example.causal:
        legend += f"; '{MASKED}' masked"
    lines = [f"Attention weights of a random, untrained layer (seed {example.seed}, d_model {example.d_model}, "
             f"{example.heads} head{'s' if example.heads > 1 else ''} of {d_head}{mask_note}).",
             f"Row = query token, column = key token; each row sums to 1. Shade: {legend}."]
    for h in range(example.heads):
        lines += ["", f"Head {h + 1} of {example.heads}:",
                  " " * label + "".join(f"{t:>{cell}}" for t in tokens)]
        for i in range(n):
            row = example.weights[h, i]
            cells = "".join(f"{_cell(w, allowed, shades):>{cell}}" for w, allowed in zip(row, visible[i]))
            lines.append(f"{tokens[i]:>{label}}" + cells)
    return "\n".join(lines) + "\n"


def positional_text(encoding: np.ndarray, ascii_only: bool = False) -> str:
    """The positional encoding as a character image: one line per position, one character per dimension.

    The sin columns (even dimensions) and the cos columns (odd dimensions) are shown as two blocks
    side by side, each in order of falling frequency, so that every block shows smooth waves.

    Parameters
    ----------
    encoding : numpy.ndarray, shape (seq_len, d_model)
        Values in [-1, 1].
    ascii_only : bool
        Use only ASCII characters.

    Returns
    -------
    str
        Three header lines, then ``seq_len`` lines: the position, the ``ceil(d_model/2)`` sin
        columns, ``" | "``, the ``d_model // 2`` cos columns.
    """
    ramp = ASCII_RAMP if ascii_only else UNICODE_RAMP
    seq_len, d_model = encoding.shape
    levels = np.clip(np.rint((encoding + 1.0) / 2.0 * (len(ramp) - 1)), 0, len(ramp) - 1).astype(int)
    sin_cols, cos_cols = levels[:, 0::2], levels[:, 1::2]   # (seq_len, ceil(d/2)), (seq_len, d//2)
    width = len(str(seq_len - 1))
    sin_title, cos_title = "sin: dims 0, 2, 4, ...", "cos: dims 1, 3, 5, ..."
    if len(sin_title) > sin_cols.shape[1]:  # a narrow encoding: short titles
        sin_title, cos_title = "sin", "cos"
    lines = [f"Sinusoidal positional encoding: {seq_len} positions (rows), {d_model} dimensions (columns).",
             f"'{ramp[0]}' = -1 ... '{ramp[len(ramp) // 2]}' = 0 ... '{ramp[-1]}' = +1; within each block the "
             "frequency falls from left to right.",
             " " * (width + 1) + f"{sin_title:<{sin_cols.shape[1]}} | {cos_title}"]
    for p in range(seq_len):
        sin_part = "".join(ramp[k] for k in sin_cols[p])
        cos_part = "".join(ramp[k] for k in cos_cols[p])
        lines.append(f"{p:>{width}} {sin_part} | {cos_part}")
    return "\n".join(lines) + "\n"


def alibi_text(example: AlibiExample, ascii_only: bool = False) -> str:
    """Every head's ALiBi bias as a table of shaded numbers, the slope in each head's title.

    The shade of a cell is ``exp(bias)``, the factor by which the bias multiplies that key's
    weight before the softmax normalises the row: full near the diagonal, blank far from it.

    Parameters
    ----------
    example : AlibiExample
        With ``bias`` of shape (heads, n, n).
    ascii_only : bool
        Shade with ``" .:*#"`` instead of block characters.

    Returns
    -------
    str
        Two header lines, then per head a title, a line of key positions and ``n`` rows of ``n`` cells.
    """
    shades = ASCII_SHADES if ascii_only else UNICODE_SHADES
    heads, n = example.heads, example.bias.shape[-1]
    cell = max(7, len(f"{example.bias.min():.2f}") + 2)   # shade + "-5.50" + a space
    label = len(str(n - 1))
    legend = _shade_legend(shades)
    lines = [f"ALiBi bias[h, i, j] = -slope[h] * |i - j|, added to the scaled scores ({heads} "
             f"head{'s' if heads > 1 else ''}, {n} positions). Row = query i, column = key j.",
             f"Shade: exp(bias), the factor the bias multiplies a weight by before normalising: {legend}."]
    for h in range(heads):
        lines += ["", f"Head {h + 1} of {heads}, slope {example.slope_label(h)}:",
                  " " * label + "".join(f"{j:>{cell}}" for j in range(n))]
        for i in range(n):
            cells = "".join(f"{_shade(np.exp(b), shades) + f'{b + 0.0:.2f}':>{cell}}" for b in example.bias[h, i])
            lines.append(f"{i:>{label}}" + cells)
    return "\n".join(lines) + "\n"


def window_text(example: WindowExample, ascii_only: bool = False) -> str:
    """The causal and the non-causal sliding-window mask side by side, one character per cell.

    Parameters
    ----------
    example : WindowExample
        Two boolean masks of shape (n, n).
    ascii_only : bool
        Draw with ``".#"`` instead of ``"·█"``.

    Returns
    -------
    str
        Two header lines, a line of titles, a line of key positions (last digit), then ``n`` lines:
        the query position, the causal row, the non-causal row.
    """
    marks = ASCII_WINDOW if ascii_only else UNICODE_WINDOW
    n, w = example.causal.shape[0], example.window
    label = len(str(n - 1))
    titles = (f"causal: i - {w} < j <= i", f"not causal: |i - j| < {w}")
    width = max(n, *(len(t) for t in titles))
    digits = "".join(str(j % 10) for j in range(n))
    lines = [f"Sliding-window mask, window {w}, {n} positions. Row = query i, column = key j (last digit).",
             f"'{marks[1]}' = query i may attend to key j, '{marks[0]}' = masked.",
             " " * (label + 1) + f"{titles[0]:<{width}}   {titles[1]}",
             " " * (label + 1) + f"{digits:<{width}}   {digits}"]
    for i in range(n):
        causal = "".join(marks[int(v)] for v in example.causal[i])
        symmetric = "".join(marks[int(v)] for v in example.symmetric[i])
        lines.append(f"{i:>{label}} {causal:<{width}}   {symmetric}")
    return "\n".join(lines) + "\n"
