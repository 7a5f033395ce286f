"""``attnkit show``: pictures of attention, the sinusoidal positional encoding, ALiBi and sliding windows.

``attnkit show attention --text "..." [-o attn.png]``, ``attnkit show positional [-o pe.png]``,
``attnkit show alibi [-o alibi.png]`` and ``attnkit show window [-o window.png]`` draw a PNG with
matplotlib (the optional extra ``plots``) when ``-o`` is given, and print the picture as text otherwise
(no matplotlib needed). ``run(args) -> int`` never shows a traceback for a user error: one line on
stderr, exit status 2.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from attnkit.arguments import raise_usage_errors, whole_number

from .errors import (
    DIMS_OUT_OF_RANGE,
    EMPTY_TEXT,
    HEADS_DO_NOT_DIVIDE,
    NO_MATPLOTLIB,
    NOT_IN_RELEASE,
    PLOTS_ADVICE,
    TOO_LARGE,
    TOO_MANY_TOKENS,
    ShowError,
)
from .tokens import RULE, tokenize

DEFAULT_TEXT = "The animal didn't cross the street because it was too tired"
MAX_TOKENS = 40
MAX_HEADS = 16
MAX_D_MODEL = 1024
MAX_SEQ_LEN = 2000
MAX_POSITIONS = MAX_TOKENS  # the side of an ALiBi or sliding-window heatmap
USAGE = """attnkit show attention [--text TEXT] [--heads H] [--d-model D] [--seed S] [--causal]
                              [-o FILE.png] [--terminal] [--ascii]
       attnkit show positional [--seq-len N] [--d-model D] [--dims D ...] [--no-curves]
                               [-o FILE.png] [--terminal] [--ascii]
       attnkit show alibi [--heads H] [--seq-len N] [-o FILE.png] [--terminal] [--ascii]
       attnkit show window [--seq-len N] [--window W] [-o FILE.png] [--terminal] [--ascii]
       attnkit show gpt [--prompt TEXT] [--n-new N] [--temperature T] [--top-k K] [--top-p P] [--seed S]
                        [--impl DIR] [-o FILE.png] [--terminal] [--ascii]"""


_positive = whole_number(1)


_dimension = whole_number(0)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.usage = USAGE
    parser.description = ("Pictures: attention heatmaps, the sinusoidal positional encoding, the ALiBi bias per "
                          "head and a sliding-window mask. With -o a PNG "
                          f"(needs matplotlib: {PLOTS_ADVICE}); without -o, or with --terminal, the picture as text.")
    raise_usage_errors(parser, USAGE)
    parser.set_defaults(show_help=parser.print_help)
    verbs = parser.add_subparsers(dest="picture", metavar="PICTURE")
    attention = verbs.add_parser("attention", prog="attnkit show attention",
                                 help="attention weights of every head as heatmaps",
                                 description="Self-attention weights of a random, untrained multi-head layer "
                                 "(seeded random word embeddings + sinusoidal positions, random W_Q, W_K, W_V, "
                                 "W_O, the reference multi_head_self_attention): one heatmap per head, query "
                                 "tokens down, key tokens across. The pattern shows the mechanics, not meaning. "
                                 f"Tokens: {RULE}")
    attention.add_argument("--text", default=DEFAULT_TEXT, help=f"the sentence (default: {DEFAULT_TEXT!r}); "
                           f"at most {MAX_TOKENS} tokens")
    attention.add_argument("--heads", type=_positive, default=4, metavar="H", help="number of heads (default 4)")
    attention.add_argument("--d-model", type=_positive, default=16, metavar="D",
                           help="model width, divisible by --heads (default 16)")
    attention.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the random layer (default 0)")
    attention.add_argument("--causal", action="store_true", help="apply the causal mask (no looking ahead)")
    _output_options(attention)
    raise_usage_errors(attention, USAGE)
    positional = verbs.add_parser("positional", prog="attnkit show positional",
                                  help="the sinusoidal positional encoding",
                                  description="The sinusoidal positional encoding of the reference solution as "
                                  "an image (positions down, dimensions across) and, in the PNG, a few "
                                  "dimensions as curves against the position.")
    positional.add_argument("--seq-len", type=_positive, default=50, metavar="N", help="positions (default 50)")
    positional.add_argument("--d-model", type=_positive, default=64, metavar="D", help="dimensions (default 64)")
    positional.add_argument("--dims", type=_dimension, nargs="+", metavar="D",
                            help="dimensions to draw as curves (default: four from fast to slow)")
    positional.add_argument("--no-curves", action="store_true", help="only the image, no curves panel")
    _output_options(positional)
    raise_usage_errors(positional, USAGE)
    alibi = verbs.add_parser("alibi", prog="attnkit show alibi", help="the ALiBi bias of every head",
                             description="The ALiBi bias of the reference alibi_bias(heads, seq_len): "
                             "bias[h, i, j] = -slope[h] * |i - j| is added to the scaled score of query i and "
                             "key j; one heatmap (or table) per head, its slope in the title.")
    alibi.add_argument("--heads", type=_positive, default=8, metavar="H",
                       help=f"number of heads (default 8, at most {MAX_HEADS})")
    alibi.add_argument("--seq-len", type=_positive, default=12, metavar="N",
                       help=f"positions, queries and keys alike (default 12, at most {MAX_POSITIONS})")
    _output_options(alibi)
    raise_usage_errors(alibi, USAGE)
    window = verbs.add_parser("window", prog="attnkit show window", help="a sliding-window mask",
                              description="The reference sliding_window_mask(seq_len, window), causal "
                              "(i - window < j <= i) and not causal (|i - j| < window), side by side.")
    window.add_argument("--seq-len", type=_positive, default=12, metavar="N",
                        help=f"positions (default 12, at most {MAX_POSITIONS})")
    window.add_argument("--window", type=_positive, default=4, metavar="W",
                        help="keys a causal query sees, itself included (default 4)")
    _output_options(window)
    raise_usage_errors(window, USAGE)
    gpt = verbs.add_parser("gpt", prog="attnkit show gpt", help="text your own generate writes with a tiny GPT-2",
                           description="Your generate (with your model, cache and sampling, run in the sandbox) "
                           "continues the prompt with the tiny character-level GPT-2 the kit ships: greedy, then "
                           "sampled with the temperature, top-k and top-p given; then the distribution the last "
                           "sampled character was drawn from (your gpt_forward and sampling_probs).")
    gpt.add_argument("--prompt", default="attention ", help="the start of the text (default: 'attention ')")
    gpt.add_argument("--n-new", type=_positive, metavar="N", help="characters to write (default: up to the context)")
    gpt.add_argument("--temperature", type=float, default=0.8, metavar="T", help="sampling temperature (default 0.8)")
    gpt.add_argument("--top-k", type=_positive, metavar="K", help="keep the K most likely characters (default: all)")
    gpt.add_argument("--top-p", type=float, default=0.95, metavar="P", help="nucleus mass (default 0.95)")
    gpt.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the sampled text (default 0)")
    gpt.add_argument("--impl", type=Path, default=Path("exercises"), metavar="DIR",
                     help="the folder with your modules (default: exercises)")
    _output_options(gpt)
    raise_usage_errors(gpt, USAGE)


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=Path, metavar="FILE.png",
                        help="write a PNG (needs matplotlib); without -o the picture is printed as text")
    parser.add_argument("--terminal", action="store_true", help="print the picture as text (also with -o)")
    parser.add_argument("--ascii", action="store_true", help="text picture in ASCII only (automatic when the "
                        "terminal cannot print block characters)")


def run(args, *, stdout=None, stderr=None) -> int:
    """Run ``attnkit show``; returns the exit status (0 done, 2 a user error)."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    if args.picture is None:
        args.show_help(stdout)
        return 0
    try:
        pictures = {"attention": _attention, "positional": _positional, "alibi": _alibi, "window": _window,
                    "gpt": _gpt}
        if args.picture != "gpt" and importlib.util.find_spec("attnkit.show.model") is None:
            raise ShowError(NOT_IN_RELEASE.format(picture=args.picture))
        return pictures[args.picture](args, stdout)
    except ShowError as error:
        print(f"attnkit show: {error}", file=stderr)
        return 2


def _gpt(args, stdout) -> int:
    from . import gpt

    if not args.impl.is_dir():
        raise ShowError(f"--impl {args.impl}: no such folder; give the folder with your modules.")
    if not (args.temperature >= 0 and args.temperature < float("inf")):
        raise ShowError(f"--temperature {args.temperature:g}: use a finite number >= 0 (0 is greedy).")
    if args.top_p is not None and not 0 < args.top_p <= 1:
        raise ShowError(f"--top-p {args.top_p:g}: use a mass in (0, 1].")
    output = _output(args.output)
    try:
        run = gpt.write_text(args.impl, args.prompt, args.n_new, args.temperature, args.top_k, args.top_p, args.seed)
    except gpt.Blocked as blocked:
        print(f"attnkit show gpt: {blocked}", file=stdout)
        return 1
    return _draw(args, stdout, output, lambda: gpt.gpt_figure(run), lambda ascii_only: gpt.gpt_text(run, ascii_only),
                 ascii_only=args.ascii or not gpt.can_print_bars(stdout))


def _ascii(args, stdout) -> bool:
    from .terminal import UNICODE_RAMP, UNICODE_SHADES, can_encode

    return args.ascii or not can_encode(UNICODE_SHADES + UNICODE_RAMP, getattr(stdout, "encoding", None))


def _attention(args, stdout) -> int:
    tokens = tokenize(args.text)
    if not tokens:
        raise ShowError(EMPTY_TEXT.format(text=args.text))
    if len(tokens) > MAX_TOKENS:
        raise ShowError(TOO_MANY_TOKENS.format(count=len(tokens), limit=MAX_TOKENS))
    _at_most("--heads", args.heads, MAX_HEADS)
    _at_most("--d-model", args.d_model, MAX_D_MODEL)
    if args.d_model % args.heads:
        choices = ", ".join(str(h) for h in range(1, min(args.d_model, MAX_HEADS) + 1) if args.d_model % h == 0)
        raise ShowError(HEADS_DO_NOT_DIVIDE.format(heads=args.heads, d_model=args.d_model, choices=choices))
    from . import figures, model, terminal

    output = _output(args.output)
    example = model.attention_example(tokens, args.heads, args.d_model, args.seed, args.causal)
    return _draw(args, stdout, output, lambda: figures.attention_figure(example),
                 lambda ascii_only: terminal.attention_text(example, ascii_only))


def _positional(args, stdout) -> int:
    _at_most("--seq-len", args.seq_len, MAX_SEQ_LEN)
    _at_most("--d-model", args.d_model, MAX_D_MODEL)
    for d in args.dims or ():
        if d >= args.d_model:
            raise ShowError(DIMS_OUT_OF_RANGE.format(dim=d, d_model=args.d_model, last=args.d_model - 1))
    from . import figures, model, terminal

    output = _output(args.output)
    encoding = model.positional_encoding(args.seq_len, args.d_model)  # (seq_len, d_model)
    dims = None if args.no_curves else (args.dims or figures.default_dims(args.d_model))
    return _draw(args, stdout, output, lambda: figures.positional_figure(encoding, dims),
                 lambda ascii_only: terminal.positional_text(encoding, ascii_only))


def _alibi(args, stdout) -> int:
    _at_most("--heads", args.heads, MAX_HEADS)
    _at_most("--seq-len", args.seq_len, MAX_POSITIONS)
    from . import figures, model, terminal

    output = _output(args.output)
    example = model.alibi_example(args.heads, args.seq_len)   # bias (heads, n, n)
    return _draw(args, stdout, output, lambda: figures.alibi_figure(example),
                 lambda ascii_only: terminal.alibi_text(example, ascii_only))


def _window(args, stdout) -> int:
    _at_most("--seq-len", args.seq_len, MAX_POSITIONS)
    from . import figures, model, terminal

    output = _output(args.output)
    example = model.sliding_window_example(args.seq_len, args.window)  # two (n, n) masks
    return _draw(args, stdout, output, lambda: figures.window_figure(example),
                 lambda ascii_only: terminal.window_text(example, ascii_only))


def _draw(args, stdout, output: Path | None, figure, text, ascii_only: bool | None = None) -> int:
    """Write ``figure()`` to ``output`` when -o was given; print ``text(ascii_only)`` without -o or with --terminal
    (``ascii_only`` decided by the picture itself when given)."""
    if output is not None:
        from . import render

        render.save_png(figure(), output)
        print(f"wrote {output}", file=stdout)
    if output is None or args.terminal:
        stdout.write(text(_ascii(args, stdout) if ascii_only is None else ascii_only))
    return 0


def _output(path: Path | None) -> Path | None:
    """The checked ``-o`` path (None without -o); refuses before any work is done."""
    if path is None:
        return None
    from . import render

    path = render.check_output(path)
    if not render.matplotlib_available():
        raise ShowError(NO_MATPLOTLIB)
    return path


def _at_most(option: str, value: int, limit: int) -> None:
    if value > limit:
        raise ShowError(TOO_LARGE.format(option=option, value=value, limit=limit))
