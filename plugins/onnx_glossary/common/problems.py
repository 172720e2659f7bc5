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
from typing import Any, Literal


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
    """``: did you mean 'x'?`` for the closest known name, else ``otherwise``."""
    return Suggestions(known).hint(name, otherwise)


#: How alike a name must be to be suggested (difflib's ratio); difflib's own default.
CUTOFF = 0.6
# Below this many names, difflib alone is quicker than building the index.
_SMALL = 64


class Suggestions:
    """"Did you mean" over a large, fixed set of names (every slug of a big glossary).

    Gives exactly what :func:`did_you_mean` gives, but a glossary with thousands of broken
    links would make difflib compare each of them with every name: quadratic. Instead, the
    character counts of all names sit in one array, so the bound difflib uses to skip a name
    (``quick_ratio``: shared characters, ignoring order) is computed for all names at once;
    the real ratio is then computed best bound first, only until no remaining name can beat
    (or tie) the best one found. Answers are cached per name.
    """

    def __init__(self, known: Iterable[str]) -> None:
        self.names = list(dict.fromkeys(known))
        self._cache: dict[str, str | None] = {}
        self._counts: Any = None  # numpy arrays, made on the first miss of a large set

    def closest(self, name: str) -> str | None:
        if name not in self._cache:
            if len(self.names) < _SMALL:
                close = difflib.get_close_matches(name, self.names, n=1, cutoff=CUTOFF)
                self._cache[name] = close[0] if close else None
            else:
                self._cache[name] = self._search(name)
        return self._cache[name]

    def hint(self, name: str, otherwise: str = "") -> str:
        close = self.closest(name)
        return f": did you mean '{close}'?" if close else otherwise

    def _search(self, name: str) -> str | None:
        import numpy as np  # only a build with many broken links gets here

        if self._counts is None:
            alphabet = sorted({char for known in self.names for char in known})
            column = {char: at for at, char in enumerate(alphabet)}
            counts = np.zeros((len(alphabet), len(self.names)), dtype=np.int32)
            for row, known in enumerate(self.names):
                for char in known:
                    counts[column[char], row] += 1
            # One row per character, so each character of a name reads one contiguous row.
            self._counts = {char: counts[at] for char, at in column.items()}
            self._lengths = np.array([len(known) for known in self.names], dtype=np.float64)
        shared = np.zeros(len(self.names), dtype=np.int32)
        for char in set(name):
            if char in self._counts:
                shared += np.minimum(self._counts[char], name.count(char))
        # The same float operations as difflib's quick_ratio, so the same names pass.
        bounds = 2.0 * shared / (self._lengths + len(name))
        passing = np.flatnonzero(bounds >= CUTOFF)
        order = passing[np.argsort(-bounds[passing], kind="stable")]
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(name)  # as get_close_matches does: the ratio is not symmetric
        best: tuple[float, str] | None = None
        for row in order:
            bound = float(bounds[row])
            if best is not None and bound < best[0]:
                break
            matcher.set_seq1(self.names[row])
            score = matcher.ratio()
            if score >= CUTOFF and (best is None or (score, self.names[row]) > best):
                best = (score, self.names[row])
        return best[1] if best else None
