"""Links to glossary terms, with the term's short answer as an accessible tooltip.

Every link to a term, wherever it is made (a page's markdown, a term's mistakes and answers, a
model page's labels), has the same shape::

    <a class="gl-term" href="..." aria-describedby="gl-tip-SLUG">label</a>

- ``aria-describedby`` on the link names a hidden element holding the summary, so screen
  readers announce it with the link. :class:`TipPool` makes those elements, one per term, for
  each page (the Markdown extension appends them, or hands them to the plugin's theme).
- ``assets/term-tips.js`` shows that same element's words as a tooltip on hover and keyboard
  focus, and on a first tap on touch screens, with one listener for the whole page. The
  summary is not repeated in a ``title``: mkdocs-material's ``content.tooltips`` would set up
  each such element one by one at load, the largest part of its start-up on a page of many
  term links (the glossary index has 122).

Pure: no MkDocs imports.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ..common.urls import SiteUrls
from ..glossary.index import GlossaryIndex, Term

TIP_PREFIX = "gl-tip-"
# On the link itself: a wrapping <span> (the place mkdocs-material's tooltips wanted a title)
# was a sixth of a term page's elements, each parsed again by Material's search at build time.
LINK_CLASS = "gl-term"
_TIP_REF_RE = re.compile(r'aria-describedby="' + TIP_PREFIX + r'([a-z0-9-]+)"')


def wrap_links(root: etree.Element, resolve: Callable[[str], Term | None]) -> None:
    """Give every ``<a>`` under ``root`` that ``resolve`` maps to a term its tooltip markup,
    in place. A link that already has a ``title`` (the author wrote one) is left alone."""
    for link in root.iter("a"):
        if not link.get("href") or "title" in link.attrib:
            continue
        term = resolve(link.get("href", ""))
        if term is None:
            continue
        link.set("class", f"{link.get('class', '')} {LINK_CLASS}".strip())
        link.set("aria-describedby", TIP_PREFIX + term.slug)


def link_html(href: str, label: str, term: Term) -> Markup:
    """The same markup as :func:`wrap_links`, for templates (``label`` is text, escaped here).

    Each value is escaped as ``Markup.format`` would (markup stays as it is), without its
    formatter, which costs more than the rest of the call: a big glossary makes tens of
    thousands of these links."""
    return Markup(f'<a class="{LINK_CLASS}" href="{escape(href)}" '
                  f'aria-describedby="{escape(TIP_PREFIX + term.slug)}">{escape(label)}</a>')


class TipPool:
    """``pool(html, index)``: the hidden summaries that the term links in ``html`` point to
    ('' when there are none). One per site: each term's element is made once, not once per
    page that links to it.

    ``hidden`` keeps them out of sight and out of the reading order; a hidden element still
    serves as an accessible description. Search skips them (``data-search-exclude``).
    """

    def __init__(self) -> None:
        self._index: GlossaryIndex | None = None
        self._items: dict[str, str] = {}

    def __call__(self, html: str, index: GlossaryIndex) -> str:
        if TIP_PREFIX not in html:  # most calls: the toc extension's heading fragments
            return ""
        if index is not self._index:  # a rebuild (mkdocs serve) has a new index
            self._index, self._items = index, {}
        items = []
        for slug in dict.fromkeys(_TIP_REF_RE.findall(html)):
            item = self._items.get(slug)
            if item is None and slug in index.by_slug:
                item = self._items[slug] = str(Markup('<span id="{}">{}</span>').format(
                    TIP_PREFIX + slug, index.by_slug[slug].summary))
            if item is not None:
                items.append(item)
        if not items:
            return ""
        return f'\n<div class="gl-tip-pool" hidden data-search-exclude>{"".join(items)}</div>\n'


@dataclass
class TermLinker:
    """``term_link(label, *names)`` for templates: links ``label`` to the first term found by
    the label itself or one of ``names`` (a slug, title or alias); plain text when none is.

    It records the slugs it linked, so the linked terms can list the page under "Mentioned on".
    """

    index: GlossaryIndex
    from_uri: str
    urls: SiteUrls
    used: set[str] = field(default_factory=set)

    def __call__(self, label: str, *names: str) -> Markup:
        for name in (label, *names):
            term = self.index.find(name)
            if term is not None:
                self.used.add(term.slug)
                return link_html(self.urls.between(self.from_uri, term.src_uri), label, term)
        return escape(label)
