"""Which pages link to each term: the "Mentioned on" list of a term page, and the orphan check.

Counted (the site collects them, see :meth:`onnx_glossary.site.Site.backlinks`): links in
other terms (body, mistakes, answers, ``related``), term links on model pages, and links to
term files in hand-written pages. Not counted: the glossary index and the "Same cluster"
lists, which link every term whatever it says. Pure: no MkDocs imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import yaml

from .links import GLOSSARY_URI


@dataclass(frozen=True)
class Mention:
    """A page that links to a term: its title and its path in the docs namespace."""

    title: str
    src_uri: str

    @property
    def sort_key(self) -> tuple[str, str]:
        return self.title.casefold(), self.src_uri


class Backlinks:
    """Mentions per term slug; each page counts once per term, and never for itself."""

    def __init__(self) -> None:
        self._by_slug: dict[str, dict[str, Mention]] = {}

    def add(self, page: Mention, slugs: Iterable[str]) -> None:
        for slug in slugs:
            if page.src_uri != f"{GLOSSARY_URI}/{slug}.md":
                self._by_slug.setdefault(slug, {}).setdefault(page.src_uri, page)

    def of(self, slug: str) -> tuple[Mention, ...]:
        """Sorted by title: the order of the "Mentioned on" list."""
        return tuple(sorted(self._by_slug.get(slug, {}).values(), key=lambda m: m.sort_key))

    def __contains__(self, slug: object) -> bool:
        return bool(self._by_slug.get(str(slug)))


_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*\n", re.S)
_H1_RE = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.M)


def split_page(text: str) -> tuple[str | None, str]:
    """A hand-written page's front-matter ``title`` (if any) and its markdown."""
    match = _FRONT_MATTER_RE.match(text)
    if not match:
        return None, text
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        meta = None
    title = meta.get("title") if isinstance(meta, dict) else None
    return (str(title) if title else None), text[match.end():]


def page_title(text: str, fallback: str) -> tuple[str, str]:
    """(title, markdown) of a hand-written page: front-matter title, else its first ``#``
    heading (the heading readers see on it), else ``fallback``."""
    title, markdown = split_page(text)
    if title:
        return title, markdown
    for line in find_h1(markdown):
        return line, markdown
    return fallback, markdown


def find_h1(markdown: str) -> Iterable[str]:
    # Skip headings inside code fences by looking only outside ``` blocks.
    in_fence = False
    for line in markdown.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence:
            match = _H1_RE.match(line)
            if match:
                yield re.sub(r"\s*\{[^}]*\}\s*$", "", match.group(1))  # attr_list { #id }
