"""Which browsers have the features an in-browser ONNX page needs: the package's
``data/browser-support.json`` as a table, one row per feature, one cell per browser.

The data file is written by ``scripts/browser_support.py`` from the pinned npm package
``@mdn/browser-compat-data`` (MDN's compatibility data, CC0-1.0); the build reads only this small
file, so no site built with the plugin downloads the package. ``[[browser-support: all]]`` in a
page prints the table (``templates/browser_support.html.jinja``).

A cell says, for one feature in one browser, from its support statements:

- ``No``: no release supports it, or only behind a flag that was removed;
- ``flag``: only behind a flag (a preference or a command-line switch);
- otherwise the earliest version that supports it without a flag, marked ``(partial)`` when that
  support is partial; when full support came later, that version follows (``113 (partial), 144``).

The statements' notes go with the cell. Pure: the standard library only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common.paths import PACKAGE_DIR
from ..common.problems import SetupError

DATA_FILE = PACKAGE_DIR / "data" / "browser-support.json"


@dataclass(frozen=True)
class Cell:
    """One feature in one browser."""

    text: str  # "No", "flag", "16.4", "141 (partial)", "113 (partial), 144"
    kind: str  # "no", "flag", "partial" or "yes"
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Feature:
    id: str
    title: str
    bcd_path: str
    mdn_url: str | None
    experimental: bool
    cells: tuple[Cell, ...]  # in the order of the table's browsers


@dataclass(frozen=True)
class SupportTable:
    """The whole table and where its data comes from."""

    package: str
    version: str
    browsers: tuple[str, ...]  # the browsers' names, in column order
    features: tuple[Feature, ...]


def _version_key(version: str) -> tuple[float, ...]:
    """Versions in release order: "16.4" after "15.2", "≤79" as 79, "preview" last."""
    numbers = re.findall(r"\d+", version)
    return tuple(float(n) for n in numbers) if numbers else (float("inf"),)


def _version(value: Any) -> str | None:
    """A statement's version as printed: None when it never shipped."""
    if value is True:
        return "Yes"
    if isinstance(value, str) and value:
        return value
    return None


def cell(statements: list[dict[str, Any]]) -> Cell:
    """The cell for one browser's support statements (browser-compat-data's order)."""
    notes: list[str] = []
    for statement in statements:
        for note in statement.get("notes") or ():
            if note not in notes:
                notes.append(note)
    plain = [s for s in statements if _version(s.get("version_added"))
             and not s.get("flags") and not s.get("prefix") and not s.get("alternative_name")]
    for statement in statements:  # support under another name is a note, not the cell
        other = statement.get("prefix") or statement.get("alternative_name")
        added = _version(statement.get("version_added"))
        if other and added and not statement.get("flags"):
            notes.append(f"As {other} from {added}.")
    if not plain:
        flagged = any(s.get("flags") and _version(s.get("version_added"))
                      and not s.get("version_removed") for s in statements)
        return Cell("flag" if flagged else "No", "flag" if flagged else "no", tuple(notes))
    full = [_version(s["version_added"]) for s in plain if not s.get("partial_implementation")
            and not s.get("version_removed")]
    partial = [_version(s["version_added"]) for s in plain if s.get("partial_implementation")]
    first_full = min((v for v in full if v), key=_version_key, default=None)
    first_partial = min((v for v in partial if v), key=_version_key, default=None)
    if first_full is None and first_partial is None:  # every release that had it removed it
        return Cell("No", "no", tuple(notes))
    if first_partial is not None and (first_full is None
                                      or _version_key(first_partial) < _version_key(first_full)):
        text = f"{first_partial} (partial)" + (f", {first_full}" if first_full else "")
        return Cell(text, "yes" if first_full else "partial", tuple(notes))
    assert first_full is not None
    return Cell(first_full, "yes", tuple(notes))


def load_browser_support(path: Path = DATA_FILE) -> SupportTable:
    """The table of the data file; a broken file is a broken install, said in one line."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        browsers = [(b["id"], b["name"]) for b in data["browsers"]]
        features = tuple(
            Feature(str(f["id"]), str(f["title"]), str(f["bcd_path"]), f.get("mdn_url"),
                    bool(f.get("experimental")),
                    tuple(cell(f["support"].get(browser, [{"version_added": False}]))
                          for browser, _ in browsers))
            for f in data["features"])
        return SupportTable(str(data["source"]["package"]), str(data["source"]["version"]),
                            tuple(name for _, name in browsers), features)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SetupError(f"{path}: the plugin's browser-support data cannot be read ({error}); "
                         "reinstall the package, or run python scripts/browser_support.py in "
                         "its repository") from None
