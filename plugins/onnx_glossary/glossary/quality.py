"""The glossary's editorial rules, checked on the whole index at build time.

Every shortfall is a :class:`Problem` naming ``path:line`` and what to add: a warning fails
``mkdocs build --strict``. A term no other page links to is an info line: allowed, but visible.
Pure: no MkDocs imports.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Container
from urllib.parse import urlsplit

from ..common.problems import Problem
from ..glossary.index import GlossaryIndex, Term

MIN_SOURCES = 2
MIN_DOMAINS = 2
MIN_FACTS = 4
MIN_MISTAKES = 2
MIN_FAQ = 2
MAX_CATEGORY = 12

# A date written on the far side of the date line is already "today" somewhere: allow the
# widest time-zone offset before calling it the future.
_WIDEST_OFFSET = dt.timedelta(hours=14)


def latest_today(now: dt.datetime | None = None) -> dt.date:
    """The latest calendar date anywhere on Earth at ``now`` (default: this moment)."""
    return ((now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC) + _WIDEST_OFFSET).date()


def domain(url: str) -> str:
    """The source's site: its hostname without ``www.``."""
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def check_dates(index: GlossaryIndex, today: dt.date) -> list[Problem]:
    """A term reviewed "in the future" has a typo in its date."""
    return [Problem(term.path, term.lines.get("updated"),
                    f"'updated' is {term.updated.isoformat()}, a date in the future: write the "
                    "date of the last factual review (today at the latest)")
            for term in index.terms if term.updated > today]


def check_completeness(index: GlossaryIndex) -> list[Problem]:
    """Sources, facts, mistakes and questions every term needs; categories of a useful size."""
    problems: list[Problem] = []
    for term in index.terms:
        problems.extend(_term_shortfalls(term))
    for name, terms in index.categories().items():
        if len(terms) > MAX_CATEGORY:
            last = max(terms, key=lambda t: t.path)
            problems.append(Problem(
                last.path, last.lines.get("category"),
                f"the category '{name}' has {len(terms)} terms, more than {MAX_CATEGORY}: split "
                f"it into smaller clusters (its terms: {', '.join(t.slug for t in terms)})"))
    return problems


def _term_shortfalls(term: Term) -> list[Problem]:
    out: list[Problem] = []

    def short(key: str, message: str) -> None:
        out.append(Problem(term.path, term.lines.get(key, 1), message))

    domains = sorted({domain(source.url) for source in term.sources})
    if len(term.sources) < MIN_SOURCES:
        short("sources", f"only {len(term.sources)} source: add at least {MIN_SOURCES}, from at "
              f"least {MIN_DOMAINS} different sites (a specification and the runtime's docs, say)")
    elif len(domains) < MIN_DOMAINS:
        short("sources", f"all {len(term.sources)} sources are from {domains[0]}: add one from "
              "another site, so no fact rests on a single publisher")
    rows = len(term.facts.rows) if term.facts else 0
    _count(short, "facts", rows, MIN_FACTS, "fact/detail rows in 'facts'")
    _count(short, "mistakes", len(term.mistakes), MIN_MISTAKES, "'mistakes' (what people get wrong)")
    _count(short, "faq", len(term.faq), MIN_FAQ, "'faq' entries (q and a: questions people ask)")
    return out


def _count(short: Callable[[str, str], None], key: str, have: int, need: int, what: str) -> None:
    if have < need:
        short(key, f"{have} {what}: add {need - have} more (at least {need})")


def check_orphans(index: GlossaryIndex, linked: Container[str]) -> list[Problem]:
    """Info lines for terms that no other page links to (the index and clusters do not count)."""
    return [Problem(term.path, None, "no other page links to this term: link it from a related "
                    "term's body, mistakes or answers, or from a page in docs/", level="info")
            for term in index.terms if term.slug not in linked]
