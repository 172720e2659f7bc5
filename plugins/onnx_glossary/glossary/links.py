"""Links to glossary terms, written the MkDocs way: a relative markdown link to the term's file.

What is a link is decided by Markdown itself, never by a pattern over the source: the
Markdown extension sees every link of a converted page in its element tree (so a link inside
a code block or an HTML comment is no link), and the source only gives a link its line
(:func:`line_of`). Pure: no MkDocs imports.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

GLOSSARY_URI = "glossary"  # where term pages live in the site's docs namespace


def link_target(href: str, from_uri: str) -> str | None:
    """The docs-namespace path a relative ``.md`` link points at, or ``None`` for other links."""
    # Cached by folder, not by page: every term page links from glossary/, so a link to a
    # term is worked out once, not once per page that has it.
    return _link_target(href, posixpath.dirname(from_uri))


@lru_cache(maxsize=65536)
def _link_target(href: str, folder: str) -> str | None:
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href) or href.startswith(("/", "#")):
        return None
    path = href.split("#", 1)[0].split("?", 1)[0]
    if not path.endswith(".md"):
        return None
    return posixpath.normpath(posixpath.join(folder, path))


def term_slug_of(target: str) -> str | None:
    """The slug if ``target`` is a term page's path (``glossary/<slug>.md``)."""
    folder, name = posixpath.split(target)
    if folder != GLOSSARY_URI or name == "index.md":
        return None
    return name[:-3]


def line_of(source: str, href: str, start: int = 0) -> tuple[int | None, int]:
    """The 1-based line of ``source`` where ``href`` is written, searching from ``start``, and
    where to search from for the next link (links come in source order). ``None`` when the
    text as written cannot be found (Markdown changed it, e.g. by unescaping)."""
    at = source.find(href, start)
    if at < 0:
        at = source.find(href)
    if at < 0:
        return None, start
    return source.count("\n", 0, at) + 1, at + len(href)
