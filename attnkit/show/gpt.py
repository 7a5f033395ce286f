"""``attnkit show gpt``: text written by the student's own ``generate`` with the tiny GPT-2 the kit ships.

The student's modules run in the sandbox, as under ``attnkit check``: ``generate`` (and through it their model,
their cache and their sampling) writes a greedy continuation of the prompt, then a sampled one with the chosen
temperature, top-k and top-p, its randomness from a seeded generator made in the sandbox. The last picture is the
distribution the last sampled character was drawn from, computed by their ``gpt_forward`` and ``sampling_probs``:
text bars, or a bar chart with ``-o``. A stub or a broken exercise on the way gives one "blocked by" line.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import ShowError

BARS = 12          # characters shown in the distribution
BLOCK = "█"        # a bar's character ("#" in ASCII)
BAR_WIDTH = 40
PNG_SIZE = (8.0, 5.0)
BLOCKED = ("blocked by exercise {exercise}: {reason} Run `attnkit check {exercise}`; "
           "`attnkit show gpt` prints your model's text once your exercises get that far.")


class Blocked(Exception):
    """The student's code could not write the text (a stub, an exception, a timeout): one line, no traceback."""


@dataclass(frozen=True)
class GptRun:
    """What the student's code wrote: the two texts and the last sampled step's distribution ``probs`` (V,)."""

    prompt: str
    greedy: str
    sampled: str
    probs: np.ndarray
    chosen: int
    vocabulary: str
    settings: str


def settings_text(temperature: float, top_k: int | None, top_p: float | None, seed: int) -> str:
    parts = [f"temperature {temperature:g}"] + ([f"top-k {top_k}"] if top_k else []) + \
        ([f"top-p {top_p:g}"] if top_p is not None else []) + [f"seed {seed}"]
    return ", ".join(parts)


def write_text(impl_dir: Path, prompt: str, n_new: int | None, temperature: float, top_k: int | None,
               top_p: float | None, seed: int, timeout: float = 20.0) -> GptRun:
    """Run the student's ``generate`` (greedy, then sampled) and their last-step distribution in the sandbox.

    Raises ShowError for a prompt the model cannot read, Blocked when the student's code cannot answer."""
    from grader import tiny_gpt

    model = tiny_gpt.load()
    try:
        prompt_ids = model.encode(prompt)
    except ValueError as error:
        raise ShowError(f"--prompt: {error}.") from None
    n_ctx = model.params["wpe"]["weight"].shape[0]
    if not 1 <= len(prompt_ids) < n_ctx:
        raise ShowError(f"--prompt has {len(prompt_ids)} characters; the tiny model reads 1 to {n_ctx - 1} (its "
                        f"context is {n_ctx}).")
    room = n_ctx - len(prompt_ids)
    n_new = room if n_new is None else n_new
    if not 1 <= n_new <= room:
        raise ShowError(f"--n-new {n_new}: after a prompt of {len(prompt_ids)} characters the model has room for 1 "
                        f"to {room} new ones.")
    from grader.runner import modules_dir_of
    from grader.sandbox import Limits, StudentError, StudentNotImplemented, graded

    try:
        with graded(modules_dir_of(impl_dir), Limits(timeout=timeout)) as session:
            impl = session.implementation("sampling")
            options = {"temperature": temperature, "top_k": top_k, "top_p": top_p}
            greedy = impl.sampling.generate(prompt_ids, model.params, model.n_head, n_new)
            sampled = impl.sampling.generate(prompt_ids, model.params, model.n_head, n_new, impl.generator(seed),
                                             **options)
            length, vocab = len(prompt_ids) + n_new, len(model.vocabulary)
            greedy, sampled = (_tokens(ids, length, vocab) for ids in (greedy, sampled))
            logits = impl.gpt.gpt_forward(sampled[:-1], model.params, model.n_head)
            logits = np.asarray(logits)[-1] if isinstance(logits, np.ndarray) and logits.ndim == 2 else None
            probs = impl.sampling.sampling_probs(logits, **options) if logits is not None else None
    except StudentNotImplemented as error:
        todo = (error.error_message or error.message.rpartition("NotImplementedError: ")[2]).strip() or "a function"
        todo = todo.splitlines()[0]
        todo = todo[:-1] if todo.endswith(")") and todo.count(")") > todo.count("(") else todo   # the message's own
        raise Blocked(BLOCKED.format(exercise=error.sibling or error.exercise,
                                     reason=f"not implemented yet ({todo}).")) from None
    except StudentError as error:
        reason = error.message.splitlines()[0].rstrip(".") + "."
        raise Blocked(BLOCKED.format(exercise=error.sibling or error.exercise, reason=reason)) from None
    if not (isinstance(probs, np.ndarray) and probs.shape == (len(model.vocabulary),)):
        raise Blocked(BLOCKED.format(exercise="gpt", reason="gpt_forward or sampling_probs returned no distribution "
                                     "over the vocabulary."))
    return GptRun(prompt.lower(), model.decode(greedy), model.decode(sampled), probs, int(sampled[-1]),
                  model.vocabulary, settings_text(temperature, top_k, top_p, seed))


def _tokens(ids, length: int, vocab: int) -> np.ndarray:
    """The student's generate result, as ``length`` ids in range; Blocked otherwise."""
    ids = np.asarray(ids) if isinstance(ids, np.ndarray) else None
    if ids is None or ids.shape != (length,) or ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= vocab:
        raise Blocked(BLOCKED.format(exercise="sampling", reason=f"generate returned something other than {length} "
                                     f"token ids in [0, {vocab})."))
    return ids


def can_print_bars(stream) -> bool:
    """Whether ``stream``'s encoding can print :data:`BLOCK` (unknown encodings: no)."""
    try:
        BLOCK.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _shown(char: str) -> str:
    return "' '" if char == " " else char


def top(run: GptRun) -> list[tuple[str, float, bool]]:
    """(character, probability, drawn) of the most likely characters, most likely first."""
    order = np.argsort(-run.probs, kind="stable")[:BARS]
    return [(run.vocabulary[i], float(run.probs[i]), int(i) == run.chosen) for i in order if run.probs[i] > 0]


def gpt_text(run: GptRun, ascii_only: bool = False) -> str:
    block = "#" if ascii_only else BLOCK
    lines = [f"prompt:  {run.prompt!r}", f"greedy:  {run.greedy!r}", f"sampled: {run.sampled!r} ({run.settings})", "",
             f"the last sampled character, {run.vocabulary[run.chosen]!r}, was drawn from:"]
    for char, p, drawn in top(run):
        lines.append(f"  {_shown(char):>3} {p:6.3f} {block * max(1, round(p * BAR_WIDTH)) if p else ''}"
                     f"{'  <- drawn' if drawn else ''}")
    kept = int(np.count_nonzero(run.probs))
    lines.append(f"  ({kept} of {len(run.probs)} characters kept by the filters)")
    lines.append("your code wrote this.")
    return "\n".join(lines) + "\n"


def gpt_figure(run: GptRun):
    from .render import new_figure

    figure = new_figure(*PNG_SIZE)
    ax = figure.subplots()
    bars = top(run)
    labels = [_shown(char) for char, _, _ in bars]
    colours = ["tab:orange" if drawn else "tab:blue" for _, _, drawn in bars]
    ax.bar(range(len(bars)), [p for _, p, _ in bars], color=colours)
    ax.set_xticks(range(len(bars)), labels)
    ax.set_ylabel("probability", fontsize=9)
    ax.set_xlabel("next character (orange: the one drawn)", fontsize=9)
    ax.set_ylim(0, 1)
    figure.suptitle(f"greedy: {run.greedy!r}\nsampled: {run.sampled!r}\n({run.settings}); your code wrote this",
                    fontsize=9)
    return figure
