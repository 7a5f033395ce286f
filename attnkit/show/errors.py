"""What ``attnkit show`` tells a user who called it wrongly (constants, so tests can import them)."""
from __future__ import annotations

from attnkit.arguments import UsageError


class ShowError(UsageError):
    """A user error: printed as one line after ``attnkit show:``, exit status 2, no traceback."""


PLOTS_ADVICE = "pip install -e '.[plots]' in your attnkit folder, or pip install matplotlib"  # README's words
NO_MATPLOTLIB = (f"drawing a PNG needs matplotlib, which is not installed: {PLOTS_ADVICE}. Without it, leave out "
                 "-o to see the picture as text in the terminal.")
NOT_IN_RELEASE = ("attnkit show {picture} computes its picture with the reference solutions, which the student release "
                  "does not include; here `attnkit show gpt` shows the text your own GPT writes.")
NO_SOLUTIONS = ("attnkit show computes the pictures with the reference solutions (the `solutions` package), "
                "which this installation does not include. Run it from a clone of the attnkit repository.")
EMPTY_TEXT = ("--text {text!r} has no words to attend over. Give a sentence, e.g. "
              "--text \"The cat sat on the mat\".")
TOO_MANY_TOKENS = ("--text has {count} tokens; at most {limit} fit in a readable picture. Shorten the text.")
HEADS_DO_NOT_DIVIDE = ("--heads {heads} does not divide --d-model {d_model}: every head gets d_model / heads "
                       "dimensions. Choose --heads from {choices}, or another --d-model.")
DIMS_OUT_OF_RANGE = "--dims {dim} is not a dimension of --d-model {d_model}; choose from 0 to {last}."
TOO_LARGE = "{option} {value} is too large for a picture; use at most {limit}."
OUTPUT_NOT_PNG = "-o {path}: only PNG pictures are written; give a file name ending in .png."
OUTPUT_IS_FOLDER = "-o {path} is a folder; give a file name in it, e.g. -o {example}."
OUTPUT_NO_FOLDER = "-o {path}: the folder {folder} does not exist. Create it or choose another path."
OUTPUT_NOT_WRITABLE = "cannot write {path} ({reason}). Choose a file in a folder you can write to."
