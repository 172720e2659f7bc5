"""YAML that remembers where each value came from.

PyYAML forgets a value's line once it is constructed, so this loader keeps the line of every
mapping key and sequence item: each problem in front matter or ``example.yml`` can then name
``path:line``. One loader for every YAML file the plugin reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

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


def _construct_timestamp(loader: Any, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:
        return BadDate(str(node.value))


class _LineLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    pass


_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
N = TypeVar("N", yaml.MappingNode, yaml.SequenceNode)


class _Builder:
    """Turns the composed nodes into LineDict/LineList/scalars.

    PyYAML's own constructor runs a generator per collection and a lookup per node; walking
    the nodes here takes about a third of its time (40 ms against 107 ms for 1,000 term
    files), which a big glossary notices. Everything but plain mappings, sequences and
    strings still goes through PyYAML (ints, bools, dates, ``null``, explicit tags), and merge
    keys through its ``flatten_mapping``. Like PyYAML, a node met twice (an alias) gives the
    same object, so ``&a`` used a million times costs one construction, and an alias inside
    its own anchor is an error, not an endless walk.
    """

    def __init__(self, loader: Any, offset: int) -> None:
        self.loader = loader
        self.offset = offset  # added to libyaml's 0-based line: first_line of the text
        self.duplicate_keys: list[tuple[str, int]] = []
        self._built: dict[int, Any] = {}
        self._open: set[int] = set()

    def build(self, node: yaml.Node) -> Any:
        if node.tag == _STR and isinstance(node, yaml.ScalarNode):
            return node.value
        if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
            return self._once(node, self._mapping)
        if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
            return self._once(node, self._sequence)
        # Other scalars, explicit tags (!!set, !thing) and mismatches (!!map on a scalar).
        return self.loader.construct_object(node, deep=True)

    def _once(self, node: N, make: Callable[[N], Any]) -> Any:
        key = id(node)
        if key in self._built:
            return self._built[key]
        if key in self._open:
            raise yaml.constructor.ConstructorError(None, None, "an alias refers to the value "
                                                    "it is part of", node.start_mark)
        self._open.add(key)
        data = self._built[key] = make(node)
        self._open.discard(key)
        return data

    def _mapping(self, node: yaml.MappingNode) -> LineDict:
        self.loader.flatten_mapping(node)
        data = LineDict()
        data.line = node.start_mark.line + self.offset
        data.key_lines = {}
        for key_node, value_node in node.value:
            key = self.build(key_node)
            line = key_node.start_mark.line + self.offset
            try:
                if key in data.key_lines:
                    self.duplicate_keys.append((str(key), line))
                data.key_lines[key] = line
            except TypeError:  # a list or mapping as a key
                raise yaml.constructor.ConstructorError(None, None, "a key must be text or a "
                                                        "number", key_node.start_mark) from None
            data[key] = self.build(value_node)
        return data

    def _sequence(self, node: yaml.SequenceNode) -> LineList:
        data = LineList()
        data.line = node.start_mark.line + self.offset
        data.item_lines = [item.start_mark.line + self.offset for item in node.value]
        data.extend(self.build(item) for item in node.value)
        return data


def load_yaml(text: str, first_line: int = 1) -> tuple[Any, list[tuple[str, int]]]:
    """Parse ``text``; lines are counted from ``first_line`` (the line of the file it starts on).

    Returns the data (LineDict/LineList where YAML had mappings/sequences) and the duplicate
    keys with their lines. Raises :class:`YamlError` for text that is not YAML.
    """
    loader = _LineLoader(text)
    builder = _Builder(loader, first_line)
    try:
        node = loader.get_single_node()
        data = None if node is None else builder.build(node)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + first_line if mark is not None else first_line
        what = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise YamlError(line, str(what)) from None
    finally:
        loader.dispose()
    return data, builder.duplicate_keys


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
