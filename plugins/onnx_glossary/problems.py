"""Content problems: one per mistake, each naming ``path:line`` first."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """A content problem a contributor can fix.

    ``path`` is shown as given (relative to the project root where possible) and ``line`` is
    1-based, or ``None`` when the problem concerns the whole file.
    """

    path: str
    line: int | None
    message: str
    # "warning" fails `mkdocs build --strict`; "info" is worth reading but breaks nothing
    # (the page itself says it, e.g. that a model takes one fixed input size).
    level: str = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


class ContentError(ValueError):
    """Raised by parsers for a problem that makes a whole file unusable."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
