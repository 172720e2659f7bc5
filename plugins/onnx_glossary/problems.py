"""Content problems and findings: values decided where the fact is found, never re-classified.

A :class:`Problem` is a mistake a contributor can fix; it names ``path:line`` first. A
:class:`Finding` is something a model page states about a model, with the severity that decides
both the page's verdict and what the build log says.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class Problem:
    """A content problem a contributor can fix.

    ``path`` is shown as given (relative to the project root where possible) and ``line`` is
    1-based, or ``None`` when the problem concerns the whole file.
    """

    path: str
    line: int | None
    message: str
    # "warning" fails `mkdocs build --strict`; "info" is worth reading but breaks nothing.
    level: Literal["warning", "info"] = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


class ContentError(ValueError):
    """Raised by parsers for a problem that makes a whole file unusable."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


#: How bad a finding about a model is. The page's verdict is the worst one present:
#: - "note": the model runs; the page says something worth knowing (a fixed input size);
#: - "warning": the model runs, but the site cannot show all of it (no live example);
#: - "refusal": the shipped browser runtime cannot run the model at all.
Severity = Literal["note", "warning", "refusal"]
SEVERITIES: tuple[Severity, ...] = ("note", "warning", "refusal")


@dataclass(frozen=True)
class Finding:
    """One thing a model page states about its model, with its severity and an optional fix."""

    severity: Severity
    message: str
    fix: str = ""  # what to do about it, in one sentence; empty when nothing needs doing

    @property
    def fails_build(self) -> bool:
        """Notes are logged as info; warnings and refusals fail ``mkdocs build --strict``."""
        return self.severity != "note"

    def problem(self, path: str) -> Problem:
        text = f"{self.message}: {self.fix}" if self.fix else self.message
        return Problem(path, None, text, level="warning" if self.fails_build else "info")


def shown_path(path: Path | str, root: Path) -> str:
    """``path`` relative to the project root for messages; as given when it lies elsewhere."""
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def did_you_mean(name: str, known: Iterable[str], otherwise: str = "") -> str:
    """``: did you mean 'x'?`` for the closest known name, else ``otherwise``.

    ``known`` may be large (every term of a big glossary): difflib's quick ratio bounds discard
    most candidates cheaply, and the caller caches per name.
    """
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f": did you mean '{close[0]}'?" if close else otherwise
