"""Figures measured on the site's own machines, read from one data file, so that a page never
quotes a stale number: ``[[figure: KEY]]`` in a page prints the newest value of KEY.

The file (option ``figures_file``) holds one record per benchmark run, appended by the
benchmark scripts; its format is declared in ``figures.schema.json`` next to this module::

    {"page": "benchmarks.md",                 # where the figures are explained
     "runs": [{"date": "2026-12-03", "machine": "...", "versions": {...},
               "figures": {"build.p1": {"value": 1.21, "text": "1.21", "label": "..."}}}]}

Pure: the standard library only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .problems import Problem

SCHEMA_PATH = Path(__file__).with_name("figures.schema.json")
KEY_RE = re.compile(r"^[a-z0-9]+(?:[._-][a-z0-9]+)*$")


@dataclass(frozen=True)
class Figure:
    """One measured figure as a page prints it."""

    key: str
    text: str  # as printed: "1.21", "0.46 s", "14.2 MB"
    label: str  # what was measured, in words (the link's title)
    date: str  # the run it comes from (ISO date)
    machine: str
    # The rest of that run's record: what ran and with which versions, for the figures' table.
    command: str = ""
    versions: str = ""  # "python 3.11.7, onnxruntime-web 1.30.0, ..."


@dataclass(frozen=True)
class Figures:
    """The newest value of every figure, and the page that explains them."""

    by_key: dict[str, Figure] = field(default_factory=dict)
    page: str | None = None  # docs-namespace path of the page that explains them

    def get(self, key: str) -> Figure | None:
        return self.by_key.get(key)


def load_figures(path: Path | None, shown: str) -> tuple[Figures, list[Problem]]:
    """The figures of the data file (the newest run that has each key wins)."""
    if path is None:
        return Figures(), []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        return Figures(), [Problem(shown, None, f"cannot be read ({error})")]
    except ValueError as error:
        return Figures(), [Problem(shown, getattr(error, "lineno", None),
                                   f"is not valid JSON ({error}): the benchmark scripts write it")]
    problems: list[Problem] = []
    runs = data.get("runs") if isinstance(data, dict) else None
    if not isinstance(runs, list):
        return Figures(), [Problem(shown, None, "must be an object with a list 'runs' (see "
                                   "onnx_glossary/common/figures.schema.json)")]
    found: dict[str, Figure] = {}
    for number, run in enumerate(runs, 1):
        if not isinstance(run, dict) or not isinstance(run.get("figures"), dict):
            problems.append(Problem(shown, None, f"run {number} has no 'figures' object"))
            continue
        date, machine = str(run.get("date", "")), str(run.get("machine", ""))
        versions = run.get("versions")
        versions = versions if isinstance(versions, dict) else {}
        about = (str(run.get("command", "")), ", ".join(f"{k} {v}" for k, v in versions.items()))
        for key, value in run["figures"].items():
            figure = _figure(key, value, date, machine, about)
            if figure is None:
                problems.append(Problem(shown, None, f"run {number}: figure '{key}' needs a key of "
                                        "lowercase words joined by . - or _, and a 'text' and a "
                                        "'label'"))
            elif key not in found or found[key].date <= date:
                found[key] = figure
    page = data.get("page") if isinstance(data.get("page"), str) else None
    return Figures(found, page), problems


def _figure(key: Any, value: Any, date: str, machine: str,
            about: tuple[str, str] = ("", "")) -> Figure | None:
    if not isinstance(key, str) or not KEY_RE.match(key) or not isinstance(value, dict):
        return None
    text, label = value.get("text"), value.get("label")
    if not isinstance(text, str) or not text or not isinstance(label, str) or not label:
        return None
    return Figure(key, text, label, date, machine, *about)
