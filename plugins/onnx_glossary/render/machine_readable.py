"""The glossary for programs: ``llms.txt`` at the site root and the index page's JSON-LD.

Each entry's text is the one its page gives as ``<meta name="description">``: a term's summary,
a model page's description. URLs are absolute with a ``site_url`` (so they carry its sub-path),
relative to the site root without one. Pure: no MkDocs imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..common.urls import SiteUrls
from ..glossary.index import GlossaryIndex

LLMS_TXT = "llms.txt"


@dataclass(frozen=True)
class Entry:
    """One page as programs see it."""

    name: str
    src_uri: str
    description: str


def one_line(text: str) -> str:
    # Line breaks only: a no-break space in a summary is meant, and the page keeps it too.
    return re.sub(r"[ \t\r\n]+", " ", text).strip(" ")


def _link_text(text: str) -> str:
    return re.sub(r"([\\\[\]])", r"\\\1", one_line(text))


def llms_txt(title: str, summary: str, index: GlossaryIndex, models: Iterable[Entry],
             urls: SiteUrls) -> str:
    """The llms.txt convention: ``# Title``, ``> summary``, then sections of
    ``- [Name](URL): description`` lines."""

    def url(src_uri: str) -> str:
        return urls.absolute(src_uri) or urls.page(src_uri)

    def section(heading: str, entries: Sequence[Entry]) -> list[str]:
        if not entries:
            return []
        return ["", f"## {heading}", "",
                *(f"- [{_link_text(e.name)}]({url(e.src_uri)}): {one_line(e.description)}"
                  for e in entries)]

    terms = [Entry(t.title, t.src_uri, t.summary) for t in index.terms]
    summary = summary.strip() or f"A glossary of {len(index)} terms, each with its short answer."
    lines = [f"# {one_line(title)}", "", f"> {one_line(summary)}"]
    lines += section("Glossary", terms)
    lines += section("Models", sorted(models, key=lambda e: e.name.casefold()))
    return "\n".join(lines) + "\n"


def term_set_json_ld(index: GlossaryIndex, set_name: str, index_uri: str,
                     urls: SiteUrls) -> dict[str, Any]:
    """schema.org ``DefinedTermSet`` of every term, for the glossary index page."""
    out: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "DefinedTermSet",
        "name": set_name,
    }
    absolute = urls.absolute(index_uri)
    if absolute:
        out["url"] = absolute
    out["hasDefinedTerm"] = [{
        "@type": "DefinedTerm",
        "name": term.title,
        "description": term.summary,
        "termCode": term.slug,
        "url": urls.absolute(term.src_uri) or urls.between(index_uri, term.src_uri),
    } for term in index.terms]
    return out
