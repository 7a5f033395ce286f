"""The few JSON Schema keywords ``grader/curriculum.schema.json`` uses, checked without importing ``jsonschema``
(seconds of start-up that ``attnkit check`` would pay at every run): ``type``, ``const``, ``required``,
``properties``, ``additionalProperties: false``, ``items``, ``minItems``, ``minLength``, ``minimum``,
``exclusiveMinimum``, ``pattern`` and local ``$ref``. ``tests/curriculum/test_curriculum_schema.py`` checks that it
judges like ``jsonschema`` on the kit's curriculum and on broken ones.
"""
from __future__ import annotations

import re
from typing import Any

TYPES: dict[str, type | tuple[type, ...]] = {"object": dict, "array": list, "string": str, "integer": int,
                                            "number": (int, float), "boolean": bool}
SUPPORTED = {"$schema", "$id", "$defs", "$ref", "title", "description", "type", "const", "required", "properties",
             "additionalProperties", "items", "minItems", "minLength", "minimum", "exclusiveMinimum", "pattern"}


def first_error(value: Any, schema: dict, root: dict | None = None, path: tuple = ()) -> tuple[tuple, str] | None:
    """(where, what is wrong) for the first place ``value`` breaks ``schema``, or None."""
    root = schema if root is None else root
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise ValueError(f"schema keywords {sorted(unknown)} are not supported by grader.schema_subset")
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    wanted: type | tuple[type, ...] = TYPES.get(schema.get("type", ""), object)
    if not isinstance(value, wanted) or isinstance(value, bool) and schema.get("type") in ("integer", "number"):
        return path, f"must be {_a(schema['type'])}, not {type(value).__name__}"
    if "const" in schema and value != schema["const"]:
        return path, f"must be {schema['const']!r}, not {value!r}"
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            return path, "must not be empty"
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return path, f"{value!r} does not match {schema['pattern']}"
    if isinstance(value, (int, float)):
        if "minimum" in schema and value < schema["minimum"]:
            return path, f"must be at least {schema['minimum']}"
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return path, f"must be more than {schema['exclusiveMinimum']}"
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            return path, f"needs at least {schema['minItems']} item(s)"
        for index, item in enumerate(value):
            found = first_error(item, schema.get("items", {}), root, (*path, index))
            if found:
                return found
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                return path, f"'{key}' is missing"
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key not in properties:
                if schema.get("additionalProperties", True) is False:
                    return path, f"unknown key {key!r} (known: {', '.join(properties)})"
                continue
            found = first_error(item, properties[key], root, (*path, key))
            if found:
                return found
    return None


def _a(kind: str) -> str:
    return {"object": "a mapping", "array": "a list", "integer": "an integer"}.get(kind, f"a {kind}")
