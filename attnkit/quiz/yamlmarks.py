"""YAML loading that remembers line numbers: mappings come back as ``Located`` dicts."""
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


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Located:
    loader.flatten_mapping(node)
    result = Located()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in result:
            result.duplicates.append((str(key), line))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = line
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class YamlSyntaxError(ValueError):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def load(text: str):
    """Parse YAML text; raise ``YamlSyntaxError`` (with a 1-based line) when it is not valid YAML."""
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error)
        context = getattr(error, "context", None)
        message = f"{context}: {problem}" if context else str(problem)
        raise YamlSyntaxError(line, f"bad YAML: {message}") from None
