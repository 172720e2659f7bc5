"""YAML that remembers where each value came from.

PyYAML forgets a value's line once it is constructed, so this loader keeps the line of every
mapping key and sequence item: each problem in front matter or ``example.yml`` can then name
``path:line``. One loader for every YAML file the plugin reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml


class LineDict(dict[Any, Any]):
    """A YAML mapping that remembers its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[Any, int]


class LineList(list[Any]):
    """A YAML sequence that remembers its own line and the line of each item (1-based)."""

    line: int = 0
    item_lines: list[int]


@dataclass(frozen=True)
class BadDate:
    """A value YAML took for a date but that is not one (``2026-13-40``)."""

    text: str


class YamlError(ValueError):
    """Text that is not valid YAML: ``line`` (1-based, in the text given) and what is wrong."""

    def __init__(self, line: int, what: str) -> None:
        super().__init__(f"line {line}: {what}")
        self.line = line
        self.what = what


# libyaml's parser is several times faster than the pure-Python one and keeps node marks too.
_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    duplicate_keys: list[tuple[str, int]]


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> Any:
    data = LineDict()
    data.line = node.start_mark.line + 1
    data.key_lines = {}
    yield data
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in data.key_lines:
            loader.duplicate_keys.append((str(key), line))
        data.key_lines[key] = line
        data[key] = loader.construct_object(value_node, deep=True)


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> Any:
    data = LineList()
    data.line = node.start_mark.line + 1
    data.item_lines = [item.start_mark.line + 1 for item in node.value]
    yield data
    data.extend(loader.construct_object(item, deep=True) for item in node.value)


def _construct_timestamp(loader: _LineLoader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:
        return BadDate(str(node.value))


_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_LineLoader.add_constructor("tag:yaml.org,2002:seq", _construct_sequence)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)


def load_yaml(text: str, first_line: int = 1) -> tuple[Any, list[tuple[str, int]]]:
    """Parse ``text``; lines are counted from ``first_line`` (the line of the file it starts on).

    Returns the data (LineDict/LineList where YAML had mappings/sequences) and the duplicate
    keys with their lines. Raises :class:`YamlError` for text that is not YAML.
    """
    loader = _LineLoader(text)
    loader.duplicate_keys = []
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + first_line if mark is not None else first_line
        what = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlError(line, str(what)) from None
    finally:
        loader.dispose()
    _shift_lines(data, first_line - 1)
    return data, [(key, line + first_line - 1) for key, line in loader.duplicate_keys]


def _shift_lines(value: Any, offset: int) -> None:
    if not offset:
        return
    if isinstance(value, LineDict):
        value.line += offset
        value.key_lines = {k: line + offset for k, line in value.key_lines.items()}
        for item in value.values():
            _shift_lines(item, offset)
    elif isinstance(value, LineList):
        value.line += offset
        value.item_lines = [line + offset for line in value.item_lines]
        for item in value:
            _shift_lines(item, offset)


def key_line(mapping: Any, key: str, default: int | None = None) -> int | None:
    """The line of ``key`` in a LineDict (``default`` for other mappings or absent keys)."""
    if isinstance(mapping, LineDict):
        return mapping.key_lines.get(key, default)
    return default


def type_name(value: Any) -> str:
    """What a YAML value is, in words for a message."""
    import datetime as dt

    if value is None:
        return "nothing (the value is empty)"
    if isinstance(value, BadDate):
        return f"the invalid date '{value.text}'"
    return {dict: "a mapping", LineDict: "a mapping", list: "a list", LineList: "a list",
            bool: "true/false", int: "a number", float: "a number", str: "text",
            dt.date: "a date", dt.datetime: "a date and time"}.get(type(value), type(value).__name__)
