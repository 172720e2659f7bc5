"""``[[figure: KEY]]``: the newest measured value of a figure, printed where a page names it,
linked to the page that explains it. One inline processor for every place markdown is
converted (pages through the Markdown extension, term fields through :mod:`.environment`).
Pure: Markdown and markupsafe, no MkDocs.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable

import markdown
from markdown.inlinepatterns import InlineProcessor
from markupsafe import Markup, escape

from ..common.figures import Figure

#: Written in a page: ``[[figure: build.p1]]``.
FIGURE_PATTERN = r"\[\[figure:\s*([a-z0-9._-]+)\s*\]\]"


def figure_html(figure: Figure, href: str | None) -> Markup:
    """The figure as a page prints it: its text, labelled as measured here, with a link."""
    title = f"{figure.label}: measured on this site's machines on {figure.date}"
    if href is None:
        return Markup('<span class="gl-figure" title="{}">{}</span>').format(title, figure.text)
    return Markup('<a class="gl-figure" href="{}" title="{}">{}</a>').format(href, title, figure.text)


def text_with_figures(text: str, render: Callable[[str], Markup | None],
                      unknown: Callable[[str], None]) -> Markup:
    """Plain text (a fact's detail, which is no markdown) as HTML, escaped, with each
    ``[[figure: KEY]]`` printed as the inline processor prints it."""
    parts: list[Markup] = []
    last = 0
    for match in re.finditer(FIGURE_PATTERN, text):
        parts.append(escape(text[last:match.start()]))
        key = match.group(1)
        html = render(key)
        if html is None:
            unknown(key)
            html = Markup('<del class="gl-figure-missing">figure {}</del>').format(key)
        parts.append(html)
        last = match.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)


class FigureInline(InlineProcessor):
    """Replaces ``[[figure: KEY]]`` by the HTML ``render(key)`` gives (None: unknown key,
    which ``unknown(key)`` reports, and the page shows the key crossed out)."""

    def __init__(self, md: markdown.Markdown, render: Callable[[str], Markup | None],
                 unknown: Callable[[str], None]) -> None:
        super().__init__(FIGURE_PATTERN, md)
        self.render = render
        self.unknown = unknown

    def handleMatch(self, m, data):  # type: ignore[no-untyped-def, override]
        key = m.group(1)
        html = self.render(key)
        if html is None:
            self.unknown(key)
            missing = etree.Element("del", {"class": "gl-figure-missing"})
            missing.text = f"figure {key}"
            return missing, m.start(0), m.end(0)
        return self.md.htmlStash.store(str(html)), m.start(0), m.end(0)
