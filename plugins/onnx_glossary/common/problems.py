"""Content problems and findings: values decided where the fact is found, never re-classified.

A :class:`Problem` is a mistake a contributor can fix; it names ``path:line`` first. A
:class:`Finding` is something a model page states about a model, with the severity that decides
both the page's verdict and what the build log says.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    # "warning" fails `mkdocs build --strict`; "info" is something a contributor may act on,
    # and breaks nothing; "debug" is a fact the page states, shown by `mkdocs build --verbose`.
    level: Literal["warning", "info", "debug"] = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


class SetupError(RuntimeError):
    """The environment lacks something the build needs (not a content problem): the message
    says what to do. Hosts show it as their own configuration error."""


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


@dataclass(frozen=True)
class Finding:
    """One thing a model page states about its model, with its severity and an optional fix."""

    severity: Severity
    message: str
    fix: str = ""  # what to do about it, in one sentence; empty when nothing needs doing

    @property
    def fails_build(self) -> bool:
        """Warnings and refusals fail ``mkdocs build --strict``; notes never do."""
        return self.severity != "note"

    def problem(self, path: str) -> Problem:
        """The build log's line: a note with a fix is info (something to act on); one without
        is a fact the model page states, logged at debug level so that a build that went well
        prints nothing that reads like a problem."""
        text = f"{self.message}: {self.fix}" if self.fix else self.message
        if self.fails_build:
            return Problem(path, None, text, level="warning")
        return Problem(path, None, text, level="info" if self.fix else "debug")
