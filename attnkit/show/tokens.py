"""Splitting a sentence into word tokens for the pictures (no subword tokeniser, on purpose)."""
from __future__ import annotations

import re

# a word: letters/digits, with inner apostrophes kept (didn't, O'Brien); any other visible character alone
_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*|[^\w\s]|_")

RULE = ("words are runs of letters and digits (an apostrophe inside a word is kept, as in didn't); every "
        "punctuation mark is a token of its own; whitespace only separates. No subword tokeniser.")


def tokenize(text: str) -> list[str]:
    """Split ``text`` into word and punctuation tokens (see :data:`RULE`).

    Parameters
    ----------
    text : str

    Returns
    -------
    list of str
        The tokens in order; empty when ``text`` holds only whitespace.

    Examples
    --------
    >>> tokenize("The animal didn't cross the street, because it was too tired.")
    ['The', 'animal', "didn't", 'cross', 'the', 'street', ',', 'because', 'it', 'was', 'too', 'tired', '.']
    """
    return _TOKEN.findall(text)
