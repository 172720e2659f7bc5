"""Diagrams drawn ahead of time: a page's ```` ```mermaid ```` fence becomes the SVG drawn from it.

A reader never waits for a diagram library, never sees the diagram's source, and downloads a
few kilobytes instead of mermaid's megabytes. The drawing is made once, in a browser, by the
repository's ``scripts/render_diagrams.py`` (the pinned mermaid in Chromium), and committed in
the ``diagrams_dir`` folder: ``<page path without .md>[-N].svg`` for the diagram as its author
wrote it, plus ``<...>.narrow.svg`` when that one is too wide for a phone (drawn top-down, its
labels wrapped shorter). A build reads
those files and needs neither Node nor a browser.

Each SVG records the SHA-256 of the fence's text it was drawn from (``data-source-sha256``), so
a fence edited since it was drawn has no drawing: the build says so on the fence's line.
Colours come from the page (CSS variables and ``currentColor``), so a drawing follows both
palettes. Pure: no MkDocs imports.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from ..common.paths import shown_path
from ..common.problems import Problem

#: The label size a drawing must keep: the smallest size it may be scaled down to.
MIN_LABEL_PX = 12.0
#: The label size the drawings are made with (mermaid's default).
LABEL_PX = 16.0
#: The narrowest column the site has: a 360 px phone less the page's margins (2 x 16 px).
PHONE_COLUMN_PX = 328.0
#: Where a diagram is shown as written: a column at least this share of its width, so labels
#: stay at 14 px or more; below that the narrow drawing is shown.
WRITTEN_SCALE = 14.0 / LABEL_PX

LAYOUTS = ("written", "narrow")
_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*?)[ \t]*$")
_ROOT = re.compile(r"<svg\b[^>]*>")
_ATTRIBUTE = re.compile(r'\s(?P<name>[\w:-]+)="(?P<value>[^"]*)"')


@dataclass(frozen=True)
class Fence:
    """One ```` ```mermaid ```` fence of a page: where it is (0-based lines, ``end`` is the
    closing line), its indentation and its text."""

    start: int
    end: int
    indent: str
    source: str

    @property
    def sha256(self) -> str:
        return source_hash(self.source)


def source_hash(source: str) -> str:
    """The hash a drawing records: of the fence's text, each line's trailing spaces removed."""
    text = "\n".join(line.rstrip() for line in source.strip("\n").splitlines())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fences(lines: list[str]) -> Iterator[Fence]:
    """Every mermaid fence of a page's lines. A mermaid fence shown inside another code block
    (a page that teaches how to write one) is code, not a diagram."""
    at = 0
    while at < len(lines):
        opened = _OPEN.match(lines[at])
        if not opened:
            at += 1
            continue
        indent, mark = opened["indent"], opened["fence"]
        close = re.compile(rf"^{re.escape(indent)}{re.escape(mark[0])}{{{len(mark)},}}[ \t]*$")
        end = next((i for i in range(at + 1, len(lines)) if close.match(lines[i])), len(lines))
        if opened["info"].split(" ")[0].lstrip(".{") == "mermaid" and end < len(lines):
            body = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                    for line in lines[at + 1:end]]
            yield Fence(at, end, indent, "\n".join(body))
        at = end + 1


def drawing_name(page_uri: str, number: int, layout: str = "written") -> str:
    """The file a page's ``number``-th diagram (from 1) is drawn into, inside diagrams_dir."""
    stem = page_uri.removesuffix(".md") + (f"-{number}" if number > 1 else "")
    return f"{stem}.svg" if layout == "written" else f"{stem}.{layout}.svg"


@dataclass(frozen=True)
class Drawing:
    """One committed SVG: the hash of the source it was drawn from, its layout, its natural
    size in CSS pixels, and its text."""

    path: Path
    sha256: str
    layout: str
    width: float
    height: float
    svg: str


def read_drawing(path: Path) -> Drawing | None:
    """The drawing in ``path``, or None when it is no drawing of this kind."""
    text = path.read_text(encoding="utf-8")
    root = _ROOT.search(text)
    if root is None:
        return None
    attributes = {m["name"]: m["value"] for m in _ATTRIBUTE.finditer(root.group(0))}
    sha, layout = attributes.get("data-source-sha256"), attributes.get("data-layout", "written")
    try:
        width, height = float(attributes["width"]), float(attributes["height"])
    except (KeyError, ValueError):
        return None
    if not sha or layout not in LAYOUTS:
        return None
    return Drawing(path, sha, layout, width, height, text[root.start():].strip())


@dataclass
class Diagrams:
    """The committed drawings of a site, by the hash of their source."""

    folder: Path | None = None
    by_hash: Mapping[str, Mapping[str, Drawing]] | None = None

    @classmethod
    def load(cls, folder: Path | None, root: Path) -> tuple[Diagrams, list[Problem]]:
        found: dict[str, dict[str, Drawing]] = {}
        problems: list[Problem] = []
        if folder is None or not folder.is_dir():
            return cls(folder, found), problems
        for path in sorted(folder.rglob("*.svg")):
            drawing = read_drawing(path)
            if drawing is None:
                problems.append(Problem(shown_path(path, root), None, "is no drawing of a diagram "
                                        "(no data-source-sha256, data-layout, width and height on "
                                        "its <svg>): draw it with scripts/render_diagrams.py"))
                continue
            found.setdefault(drawing.sha256, {})[drawing.layout] = drawing
        return cls(folder, found), problems

    def figure(self, source: str) -> Markup | None:
        """The figure for a fence's text, or None when no drawing was made from this text."""
        drawings = (self.by_hash or {}).get(source_hash(source))
        if not drawings or "written" not in drawings:
            return None
        return figure_html(drawings["written"], drawings.get("narrow"))

    def missing_message(self, root: Path) -> str:
        """What a fence without a drawing of its text says, and what to do."""
        folder = shown_path(self.folder, root) if self.folder else "diagrams"
        return (f"this mermaid diagram has no drawing in {folder}/ (or only one of an earlier "
                "version of its text): run 'python scripts/render_diagrams.py' (it needs npm ci "
                "and Chromium) and commit what it writes")


def figure_html(written: Drawing, narrow: Drawing | None) -> Markup:
    """The diagram as the author wrote it and, where that is too wide for the column, its
    narrow drawing instead. Which one shows is the figure's width's business (a container
    query), so it needs no script and is right at first paint."""
    uid = "gl-diagram-" + written.sha256[:12]
    parts = [f'<figure class="gl-diagram" id="{uid}">']
    if narrow is not None:
        # The written layout while the column holds it at 14 px labels, else the narrow one.
        breakpoint_px = math.ceil(written.width * WRITTEN_SCALE)
        parts.append(f"<style>@container (max-width: {breakpoint_px - 0.02:.2f}px) {{ "
                     f"#{uid} > .gl-diagram__written {{ display: none }} "
                     f"#{uid} > .gl-diagram__narrow {{ display: block }} }}</style>")
    parts.append(f'<div class="gl-diagram__written">{written.svg}</div>')
    if narrow is not None:
        # The same words twice would be found twice by search.
        parts.append(f'<div class="gl-diagram__narrow" data-search-exclude>{narrow.svg}</div>')
    parts.append("</figure>")
    return Markup("".join(parts))


#: The widest drawing a phone's column shows with labels of at least MIN_LABEL_PX.
PHONE_MAX_WIDTH = PHONE_COLUMN_PX * LABEL_PX / MIN_LABEL_PX


@dataclass(frozen=True)
class Wanted:
    """A diagram of a page, and the file its written drawing goes to (in diagrams_dir)."""

    page_uri: str
    number: int
    fence: Fence

    @property
    def name(self) -> str:
        return drawing_name(self.page_uri, self.number)

    def file(self, layout: str) -> str:
        return drawing_name(self.page_uri, self.number, layout)


def wanted(pages: Mapping[str, str]) -> list[Wanted]:
    """Every diagram of the pages (docs-namespace path -> markdown), in page order."""
    out = []
    for uri in sorted(pages):
        for number, fence in enumerate(fences(pages[uri].splitlines()), start=1):
            out.append(Wanted(uri, number, fence))
    return out


def stale(diagrams: list[Wanted], folder: Path) -> list[str]:
    """What is wrong with the committed drawings of these diagrams, one line each (empty when
    every diagram has a drawing of its current text that a phone can show, and no drawing is
    left over)."""
    out = []
    names: set[str] = set()
    for diagram in diagrams:
        where = f"{diagram.page_uri} (diagram {diagram.number})"
        path = folder / diagram.name
        drawing = read_drawing(path) if path.is_file() else None
        names.add(diagram.name)
        if drawing is None or drawing.sha256 != diagram.fence.sha256:
            out.append(f"{where}: {diagram.name} is {'stale' if drawing else 'missing'}")
            continue
        if drawing.width <= PHONE_MAX_WIDTH:
            continue
        names.add(diagram.file("narrow"))
        path = folder / diagram.file("narrow")
        narrow = read_drawing(path) if path.is_file() else None
        if narrow is None or narrow.sha256 != diagram.fence.sha256:
            out.append(f"{where}: {diagram.file('narrow')} is {'stale' if narrow else 'missing'}")
        elif narrow.width > PHONE_MAX_WIDTH:
            out.append(f"{where}: even drawn narrow it is {narrow.width:.0f} px wide, more than "
                       f"the {PHONE_MAX_WIDTH:.0f} px a phone shows at {MIN_LABEL_PX:.0f} px "
                       "labels: shorten its labels or split it")
    if folder.is_dir():
        for path in sorted(folder.rglob("*.svg")):
            name = path.relative_to(folder).as_posix()
            if name not in names:
                out.append(f"{name} is the drawing of no diagram: delete it")
    return out
