"""What a built page carries from the glossary, as comparable data: every widget's attributes,
the page metadata, the plugin's scripts and the page's outline. Used to compare hosts."""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

#: Scripts the glossary adds to a page, recognised by where they are served from.
PLUGIN_SCRIPT_PATHS = ("assets/onnx_glossary/", "coi-serviceworker.js")


@dataclass
class PageFacts:
    widgets: list[dict[str, str | None]] = field(default_factory=list)
    description: str | None = None
    json_ld: list[Any] = field(default_factory=list)
    scripts: list[tuple[str, str | None, bool]] = field(default_factory=list)  # src, type, defer
    import_map: dict[str, str] | None = None
    outline: list[str] = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__()
        self.page = page  # the page's path in the site, for resolving relative URLs
        self.facts = PageFacts()
        self._script: str | None = None
        self._text: list[str] = []
        self._heading: str | None = None

    def _site_path(self, url: str) -> str:
        if url.startswith(("http:", "https:", "/")):
            return url
        return posixpath.normpath(posixpath.join(posixpath.dirname(self.page), url))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "data-live-example" in found:
            self.facts.widgets.append(found)
        if tag == "meta" and found.get("name") == "description":
            self.facts.description = found.get("content")
        if tag == "script":
            src = found.get("src")
            if src and any(part in src for part in PLUGIN_SCRIPT_PATHS):
                self.facts.scripts.append((self._site_path(src.split("?")[0]), found.get("type"),
                                           "defer" in found))
            elif found.get("type") in ("application/ld+json", "importmap"):
                self._script, self._text = found["type"], []
        if tag in ("h1", "h2", "h3"):
            self._heading, self._text = tag, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script:
            text = "".join(self._text)
            if self._script == "importmap":
                imports = json.loads(text)["imports"]
                self.facts.import_map = {k: self._site_path(v) for k, v in imports.items()}
            else:
                self.facts.json_ld.append(json.loads(text))
            self._script = None
        if tag == self._heading:
            self.facts.outline.append(f"{tag}: {' '.join(''.join(self._text).replace('¶', '').split())}")
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._script or self._heading:
            self._text.append(data)


def facts_of(html: str, page: str) -> PageFacts:
    """What the glossary put in one page's HTML (``page``: its path in the site)."""
    parser = _Parser(page)
    parser.feed(html)
    return parser.facts


def page_facts(site: Path) -> dict[str, PageFacts]:
    """Every HTML page of a built site -> what the glossary put in it."""
    return {path.relative_to(site).as_posix(): facts_of(path.read_text(encoding="utf-8"),
                                                        path.relative_to(site).as_posix())
            for path in sorted(site.rglob("*.html"))}
