"""YAML loading that remembers line numbers: mappings come back as ``Located`` dicts, sequences as
``LocatedList``; whatever the text, :func:`load` returns or raises :class:`YamlSyntaxError` with a line."""
from __future__ import annotations

import yaml


class Located(dict):
    """A dict that knows where it was written: ``line`` (1-based), ``key_lines`` and duplicate keys."""

    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict = {}
        self.duplicates: list[tuple[str, int]] = []

    def line_of(self, key) -> int:
        return self.key_lines.get(key, self.line)


class LocatedList(list):
    """A list that knows where it was written: ``line`` (1-based) and ``item_lines``, one per item."""

    line: int = 0

    def __init__(self, *args):
        super().__init__(*args)
        self.item_lines: list[int] = []

    def line_at(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


MAX_DEPTH = 64  # nesting levels; deeper is refused with its line (recursion in PyYAML would crash first)


class _Loader(yaml.SafeLoader):
    def __init__(self, stream):
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocatedList:
    result = LocatedList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Located:
    loader.flatten_mapping(node)
    result = Located()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError("while constructing a mapping", node.start_mark,
                                                    "found a list or mapping used as a key",
                                                    key_node.start_mark) from None
        if key in result:
            result.duplicates.append((str(key), line))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = line
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


class YamlSyntaxError(ValueError):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def load(text: str):
    """Parse YAML text; raise ``YamlSyntaxError`` (with a 1-based line) when it is not valid YAML."""
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.reader.ReaderError as error:  # a control character: no mark, a position
        line = text.count("\n", 0, error.position) + 1
        column = error.position - (text.rfind("\n", 0, error.position) + 1) + 1
        code = error.character if isinstance(error.character, int) else ord(error.character)
        raise YamlSyntaxError(line, f"bad YAML: character U+{code:04X} at column {column} is not allowed in YAML "
                                    "(delete it or write it as an escape in a double-quoted string)") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        tabbed = _tab_indented(text, line)
        if tabbed:
            raise YamlSyntaxError(tabbed, "a tab in the indentation: indent with spaces, not tabs "
                                          "(YAML does not allow tabs there)") from None
        problem = getattr(error, "problem", None) or str(error)
        context = getattr(error, "context", None)
        message = " ".join((f"{context}: {problem}" if context else str(problem)).split())
        raise YamlSyntaxError(line, f"bad YAML: {message}") from None


def _tab_indented(text: str, error_line: int) -> int | None:
    """The first line up to ``error_line`` whose indentation holds a tab (the usual cause of such errors)."""
    for number, line in enumerate(text.splitlines()[:error_line], 1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent and line.strip():
            return number
    return None
