"""One way to read a YAML file against a schema: a term's front matter and a model's
``example.yml`` both go through :class:`Reader`.

A reader never raises on a bad value: it records a :class:`~.problems.Problem` naming
``path:line`` (the line of the key or item, kept by :mod:`.yaml_lines`) and returns ``None``
(or an empty value), so one pass reports every mistake of a file, each once.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping
from typing import Any

from .problems import Problem
from .suggestions import did_you_mean
from .yaml_lines import LineDict, LineList, key_line, type_name


def known_keys_hint(key: str, known: Any) -> str:
    """``: did you mean 'x'?`` for a misspelt key, else the list of known keys."""
    return did_you_mean(key, list(known), f" (known keys: {', '.join(known)})")


class Reader:
    """Reads the values of one file; ``problems`` collects what is wrong with them."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []

    def fail(self, line: int | None, message: str) -> None:
        self.problems.append(Problem(self.path, line, message))

    def text(self, value: Any, line: int | None, what: str, *, scalars: bool = False) -> str | None:
        """A non-empty string; numbers are read as text where ``scalars`` (a detail of 17)."""
        if scalars and isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            # YAML reads yes/no/on/off as true/false: the fix is quoting.
            hint = ": put it in quotes" if isinstance(value, bool) else ""
            self.fail(line, f"{what} must be text, not {type_name(value)}{hint}")
            return None
        if not value.strip():
            self.fail(line, f"{what} is empty: write it or remove the key")
            return None
        return value.strip()

    def number(self, value: Any, line: int | None, what: str, *, integer: bool = False,
               minimum: float | None = None) -> float | None:
        """A finite number (an integer where ``integer``), at least ``minimum`` when given."""
        # YAML reads "1e-4" (no dot) as a string; accept it as the number people mean.
        if isinstance(value, str) and not integer:
            with contextlib.suppress(ValueError):
                value = float(value)
        kind = "an integer" if integer else "a number"
        ok = isinstance(value, int) if integer else isinstance(value, int | float)
        if isinstance(value, bool) or not ok or not math.isfinite(value):
            self.fail(line, f"{what} must be {kind}, not {type_name(value)}")
            return None
        if minimum is not None and value < minimum:
            self.fail(line, f"{what} must be at least {minimum:g}")
            return None
        return float(value)

    def boolean(self, value: Any, line: int | None, what: str) -> bool | None:
        if not isinstance(value, bool):
            self.fail(line, f"{what} must be true or false, not {type_name(value)}")
            return None
        return value

    def choice(self, value: Any, line: int | None, what: str, choices: tuple[str, ...]) -> str | None:
        if value not in choices:
            hint = did_you_mean(str(value), choices, "") if isinstance(value, str) else ""
            self.fail(line, f"{what} must be one of {', '.join(choices)}{hint}")
            return None
        return str(value)

    def items(self, value: Any, line: int | None, what: str) -> list[tuple[Any, int | None]]:
        """The items of a list with their lines; a problem (and no items) for anything else."""
        if not isinstance(value, list):
            self.fail(line, f"{what} must be a list (one '- item' per line), not {type_name(value)}")
            return []
        lines = value.item_lines if isinstance(value, LineList) else [line] * len(value)
        return list(zip(value, lines, strict=True))

    def texts(self, value: Any, line: int | None, what: str) -> tuple[str, ...]:
        out = []
        for item, at in self.items(value, line, what):
            text = self.text(item, at, f"each item of {what}")
            if text is not None:
                out.append(text)
        return tuple(out)

    def mapping(self, value: Any, line: int | None, what: str,
                keys: Mapping[str, bool] | None = None) -> LineDict | None:
        """A mapping; with ``keys`` (name -> required), only those keys and every required one.

        An unknown key is a problem of its own line and is left out of the result; a missing
        required key makes the whole mapping unusable (``None``).
        """
        if not isinstance(value, dict):
            expected = f" with {', '.join(repr(k) for k in keys)}" if keys else ""
            self.fail(line, f"{what} must be a mapping{expected}, not {type_name(value)}")
            return None
        found = value if isinstance(value, LineDict) else _with_lines(value, line)
        if keys is None:
            return found
        kept = LineDict()
        kept.line, kept.key_lines = found.line, {}
        for key, item in found.items():
            at = key_line(found, key, line)
            if key not in keys:
                self.fail(at, f"unknown key '{key}' in {what}{known_keys_hint(str(key), keys)}")
                continue
            kept[key], kept.key_lines[key] = item, at if at is not None else line or 0
        missing = [k for k, required in keys.items() if required and k not in found]
        if missing:
            self.fail(line, f"{what} is missing {', '.join(repr(k) for k in missing)}")
            return None
        return kept

    def line_of(self, mapping: Any, key: str, default: int | None) -> int | None:
        return key_line(mapping, key, default)


def _with_lines(value: dict[Any, Any], line: int | None) -> LineDict:
    out = LineDict(value)
    out.line = line or 0
    out.key_lines = {key: line or 0 for key in value}
    return out
