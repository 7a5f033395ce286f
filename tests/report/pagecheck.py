"""Reading a generated page back: what it would fetch, and what it says with JavaScript off."""
from __future__ import annotations

import re
from html.parser import HTMLParser

ATTRIBUTE_URL = re.compile(r"^\s*//|https?:|url\(", re.I)
CODE_URL = re.compile(r"https?:|url\(|@import|\bfetch\(|XMLHttpRequest|\bimport\(|WebSocket|sendBeacon", re.I)


class _Scan(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.fetches: list[str] = []   # attribute values, script and style text that could reach the network
        self.text: list[str] = []      # what a reader sees without scripts
        self.inside: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.inside.append(tag)
        self.fetches += [f"<{tag} {name}={value!r}>" for name, value in attrs
                         if value and (ATTRIBUTE_URL.search(value) or (name in ("src", "href", "action")
                                                             and not value.startswith("#")))]
        if tag in ("link", "iframe", "img", "object", "embed"):
            self.fetches.append(f"<{tag}>")

    def handle_endtag(self, tag):
        while self.inside and self.inside.pop() != tag:
            pass

    def handle_data(self, data):
        if self.inside and self.inside[-1] in ("script", "style"):
            self.fetches += [f"in <{self.inside[-1]}>: {m.group(0)}" for m in CODE_URL.finditer(data)]
        else:
            self.text.append(data)


def scan(page: str) -> _Scan:
    parser = _Scan()
    parser.feed(page)
    parser.close()
    return parser


def fetches(page: str) -> list[str]:
    """Everything in ``page`` outside its text that names a URL (or any src/href not to a place in the page)."""
    return scan(page).fetches


def text_without_scripts(page: str) -> str:
    """The page's text as read: runs of whitespace as one space, none before punctuation that follows a tag."""
    return re.sub(r" ([,;)])", r"\1", " ".join(" ".join(scan(page).text).split()))
