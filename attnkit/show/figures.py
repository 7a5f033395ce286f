"""The PNG pictures of ``attnkit show``: attention heatmaps per head, the positional encoding,
the ALiBi bias per head and a sliding-window mask.

Every size is fixed in inches (``render.DPI`` pixels per inch), so a picture's pixel size is a
function of its arguments only: :func:`heatmap_grid_size`, :func:`positional_size` and
:func:`window_size`.
"""
from __future__ import annotations

import math

import numpy as np

from .model import AlibiExample, AttentionExample, WindowExample
from .render import new_figure

ATTENTION_CMAP = "viridis"      # sequential, readable in grey and by colour-blind readers
MASKED_COLOUR = "#d9d9d9"       # cells the causal mask hides
ALLOWED_COLOUR = "#21918c"      # cells a sliding window lets through (viridis' middle)
POSITIONAL_CMAP = "RdBu_r"      # diverging: -1 blue, 0 white, +1 red
LABEL_INCHES = 1.3              # tick labels and axis titles of one heatmap
MIN_PANEL_INCHES = 3.4          # one heatmap, however short the text
NUMBER_LABEL_INCHES = 0.7       # the same, for a heatmap labelled with positions (ALiBi, sliding window)
MIN_NUMBERED_PANEL_INCHES = 2.8
NUMBERED_CELL_SHRINK = 0.75     # unannotated cells of a numbered heatmap can be smaller than a token's
COLOURBAR_INCHES = 1.0
TITLE_INCHES = 0.8              # the two-line title
ANNOTATE_UP_TO = 12             # print the weight in each cell when there are at most this many tokens


def grid(heads: int) -> tuple[int, int]:
    """(rows, columns) of the heatmaps: at most 4 columns, few empty panels."""
    columns = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 3, 9: 3}.get(heads, 4)
    return math.ceil(heads / columns), columns


def cell_inches(n_tokens: int) -> float:
    """The side of one heatmap cell: smaller for long texts, never below a readable tick label."""
    return 0.32 if n_tokens <= 12 else 0.22 if n_tokens <= 24 else 0.16


def panel_inches(n: int, numbered: bool = False) -> float:
    """The side of one n x n heatmap with its labels (tokens, or position numbers), a multiple of 0.1 inch."""
    if numbered:
        return round(max(MIN_NUMBERED_PANEL_INCHES, NUMBERED_CELL_SHRINK * cell_inches(n) * n + NUMBER_LABEL_INCHES),
                     1)
    return round(max(MIN_PANEL_INCHES, cell_inches(n) * n + LABEL_INCHES), 1)


def heatmap_grid_size(n: int, heads: int, numbered: bool = False) -> tuple[float, float]:
    """(width, height) in inches of one n x n heatmap per head: tokens (attention) or positions (ALiBi)."""
    rows, columns = grid(heads)
    panel = panel_inches(n, numbered)
    return round(columns * panel + COLOURBAR_INCHES, 1), round(rows * panel + TITLE_INCHES, 1)


def attention_figure(example: AttentionExample):
    """One heatmap per head: query tokens down, key tokens across, a shared colour bar.

    Parameters
    ----------
    example : AttentionExample
        ``weights`` of shape (heads, n, n).

    Returns
    -------
    matplotlib.figure.Figure
        Of :func:`heatmap_grid_size` inches.
    """
    heads, n = example.heads, len(example.tokens)
    rows, columns = grid(heads)
    figure = new_figure(*heatmap_grid_size(n, heads))  # first: a clear message when matplotlib is missing
    import matplotlib

    axes = figure.subplots(rows, columns, squeeze=False)
    visible = np.tril(np.ones((n, n), dtype=bool)) if example.causal else np.ones((n, n), dtype=bool)
    cmap = matplotlib.colormaps[ATTENTION_CMAP].with_extremes(bad=MASKED_COLOUR)
    top = float(example.weights.max())
    d_head = example.d_model // heads
    font = 8 if n <= 24 else 7
    for h, ax in enumerate(axes.flat):
        if h >= heads:
            ax.set_axis_off()
            continue
        shown = np.ma.masked_array(example.weights[h], mask=~visible)   # (n, n)
        image = ax.imshow(shown, cmap=cmap, vmin=0.0, vmax=top, interpolation="nearest")
        ax.set_title(f"head {h + 1} of {heads} (d_head {d_head})", fontsize=10)
        ax.set_xticks(range(n), example.tokens, rotation=60, ha="right", rotation_mode="anchor", fontsize=font)
        ax.set_yticks(range(n), example.tokens, fontsize=font)
        ax.tick_params(length=0)
        _label_outer(ax, h, heads, "query (attending)", "key (attended to)")
        if n <= ANNOTATE_UP_TO:
            _annotate(ax, example.weights[h], visible, top)
    colourbar = figure.colorbar(image, ax=axes.ravel().tolist(), shrink=0.8, aspect=40)
    colourbar.set_label("attention weight (each row sums to 1)", fontsize=9)
    mask_note = ", causal mask (grey: masked)" if example.causal else ""
    figure.suptitle(f"Self-attention weights of a random, untrained layer\nd_model {example.d_model}, "
                    f"{heads} head{'s' if heads > 1 else ''}, seed {example.seed}{mask_note}", fontsize=10)
    return figure


def _label_outer(ax, h: int, heads: int, ylabel: str, xlabel: str) -> None:
    """Axis titles on the heatmaps of the first column (queries) and on the lowest one of each column (keys)."""
    rows, columns = grid(heads)
    if h % columns == 0:
        ax.set_ylabel(ylabel, fontsize=9)
    if h // columns == rows - 1 or h + columns >= heads:
        ax.set_xlabel(xlabel, fontsize=9)


def _annotate(ax, weights: np.ndarray, visible: np.ndarray, top: float) -> None:
    n = weights.shape[0]
    fontsize = 7 if n <= 8 else 6
    for i in range(n):
        for j in range(n):
            if visible[i, j]:
                dark_cell = weights[i, j] < 0.6 * top  # viridis is dark at the low end
                ax.text(j, i, f"{weights[i, j]:.2f}"[1:] if weights[i, j] < 0.995 else "1", ha="center",
                        va="center", fontsize=fontsize, color="white" if dark_cell else "black")


def default_dims(d_model: int) -> list[int]:
    """Four dimensions from fast to slow: a sin/cos pair near d/16, then the sin dimensions near d/8 and d/4.

    Dimension 0 is left out: its period (2 pi positions) is too short to read at whole positions.
    """
    pair = max(2, 2 * round(d_model / 32))
    chosen = {pair, pair + 1, 2 * round(d_model / 16), 2 * round(d_model / 8)}
    return sorted(d for d in chosen if 0 <= d < d_model) or [0]


def positional_size(curves: bool) -> tuple[float, float]:
    """(width, height) in inches of the positional-encoding picture."""
    return (11.0 if curves else 6.0), 4.5


def positional_figure(encoding: np.ndarray, dims: list[int] | None):
    """The encoding as an image (positions down, dimensions across), and optionally a few dimensions as curves.

    Parameters
    ----------
    encoding : numpy.ndarray, shape (seq_len, d_model)
    dims : list of int or None
        Dimensions to draw as curves against the position in a second panel; None: no second panel.

    Returns
    -------
    matplotlib.figure.Figure
        Of :func:`positional_size` inches.
    """
    seq_len, d_model = encoding.shape
    figure = new_figure(*positional_size(dims is not None))
    if dims is None:
        image_ax = figure.subplots()
    else:
        image_ax, curve_ax = figure.subplots(1, 2, width_ratios=[1.15, 1])
    image = image_ax.imshow(encoding, cmap=POSITIONAL_CMAP, vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
    image_ax.set_xlabel("dimension (even: sin, odd: cos)")
    image_ax.set_ylabel("position")
    image_ax.set_title(f"PE[position, dimension], {seq_len} x {d_model}", fontsize=10)
    figure.colorbar(image, ax=image_ax, shrink=0.9)
    if dims is not None:
        positions = np.arange(seq_len)
        for d in dims:
            kind = "sin" if d % 2 == 0 else "cos"
            curve_ax.plot(positions, encoding[:, d], label=f"dimension {d} ({kind})", linewidth=1.5,
                          marker="o", markersize=2.5)
        curve_ax.set_xlabel("position")
        curve_ax.set_ylabel("value")
        curve_ax.set_ylim(-1.1, 1.7)  # headroom for the legend
        curve_ax.set_yticks([-1, -0.5, 0, 0.5, 1])
        curve_ax.set_xlim(0, max(seq_len - 1, 1))
        curve_ax.grid(alpha=0.3)
        curve_ax.legend(fontsize=8, loc="upper center", ncol=2, framealpha=1.0)
        curve_ax.set_title("higher dimensions oscillate more slowly", fontsize=10)
    figure.suptitle("Sinusoidal positional encoding: PE[p, 2i] = sin(p / 10000^(2i/d)), "
                    "PE[p, 2i+1] = cos(same angle)", fontsize=11)
    return figure


def _position_ticks(ax, n: int) -> None:
    """Positions 0..n-1 on both axes: every one up to 16, then every fifth; fine white lines between cells."""
    step = 1 if n <= 16 else 5
    ax.set_xticks(range(0, n, step))
    ax.set_yticks(range(0, n, step))
    ax.tick_params(length=0, labelsize=8)
    if n <= 24:
        ax.set_xticks(np.arange(-0.5, n), minor=True)
        ax.set_yticks(np.arange(-0.5, n), minor=True)
        ax.grid(which="minor", color="white", linewidth=0.6)
        ax.tick_params(which="minor", length=0)


def alibi_figure(example: AlibiExample):
    """One heatmap of ``bias[h]`` per head, the slope in each title, each head on its own colour scale (on a
    shared scale, the shallow heads' small penalties would all look like zero).

    Parameters
    ----------
    example : AlibiExample
        ``bias`` of shape (heads, n, n).

    Returns
    -------
    matplotlib.figure.Figure
        Of :func:`heatmap_grid_size` inches (numbered).
    """
    heads, n = example.heads, example.bias.shape[-1]
    rows, columns = grid(heads)
    figure = new_figure(*heatmap_grid_size(n, heads, numbered=True))
    axes = figure.subplots(rows, columns, squeeze=False)
    for h, ax in enumerate(axes.flat):
        if h >= heads:
            ax.set_axis_off()
            continue
        bottom = float(example.bias[h].min()) if n > 1 else -1.0  # one position: all zeros, still a valid scale
        image = ax.imshow(example.bias[h], cmap=ATTENTION_CMAP, vmin=bottom, vmax=0.0, interpolation="nearest")
        ax.set_title(f"head {h + 1}: slope {example.slope_label(h)}", fontsize=10)
        _position_ticks(ax, n)
        _label_outer(ax, h, heads, "query position i", "key position j")
        figure.colorbar(image, ax=ax, shrink=0.8).ax.tick_params(labelsize=7)
    figure.suptitle(f"ALiBi bias[h, i, j] = -slope[h] * |i - j| added to the scaled scores (0: no penalty), "
                    f"{heads} head{'s' if heads > 1 else ''}, {n} position{'s' if n > 1 else ''}\n"
                    "each head on its own colour scale: steep heads look near, shallow heads look far", fontsize=10)
    return figure


def window_size(n: int) -> tuple[float, float]:
    """(width, height) in inches of the sliding-window picture: two n x n panels side by side."""
    panel = panel_inches(n, numbered=True)
    return round(2 * panel + 0.4, 1), round(panel + TITLE_INCHES, 1)


def window_figure(example: WindowExample):
    """The causal and the non-causal sliding-window mask side by side (coloured: may attend, grey: masked).

    Parameters
    ----------
    example : WindowExample
        Two boolean masks of shape (n, n).

    Returns
    -------
    matplotlib.figure.Figure
        Of :func:`window_size` inches.
    """
    n, w = example.causal.shape[0], example.window
    figure = new_figure(*window_size(n))
    from matplotlib.colors import ListedColormap

    cmap = ListedColormap([MASKED_COLOUR, ALLOWED_COLOUR])
    panels = ((example.causal, f"causal: i - {w} < j <= i"), (example.symmetric, f"not causal: |i - j| < {w}"))
    for ax, (mask, title) in zip(figure.subplots(1, 2), panels):
        ax.imshow(mask, cmap=cmap, vmin=0, vmax=1, interpolation="nearest")
        ax.set_title(title, fontsize=10)
        _position_ticks(ax, n)
        ax.set_xlabel("key position j", fontsize=9)
        ax.set_ylabel("query position i", fontsize=9)
    figure.suptitle(f"Sliding-window mask, window {w}, {n} position{'s' if n > 1 else ''}\n"
                    "coloured: query i may attend to key j; grey: masked", fontsize=10)
    return figure
