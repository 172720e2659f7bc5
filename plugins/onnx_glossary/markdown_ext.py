"""Python-Markdown extension: term tooltips and model embeds.

It is what a page's markdown needs from the glossary, independent of MkDocs, so another site
generator that runs Python-Markdown extensions (Zensical) keeps it; the MkDocs plugin only
fills in :class:`SiteContext` before each page is converted.

- A relative link to a term's file (``[ONNX Runtime](onnx-runtime.md)``) gets the term's short
  answer as an accessible tooltip (see :mod:`.termlinks`); the page gets the hidden summaries
  its term links point to.
- A paragraph that is exactly ``[[model-card: NAME]]`` becomes a compact card of that example
  model; ``[[live-example: NAME]]`` becomes its Run widget.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import markdown
from markdown.blockprocessors import BlockProcessor

from .glossary import GlossaryIndex
from .problems import Problem
from .termlinks import tip_pool, wrap_links

EMBED_RE = re.compile(r"^\[\[(model-card|live-example):\s*([^\]\s]+)\s*\]\]$")

# (kind, model name, page src_uri) -> HTML, or None when no such model exists.
Embedder = Callable[[str, str, str], str | None]


@dataclass
class SiteContext:
    """What the extension knows of the site; the host fills it in before each page."""

    index: GlossaryIndex = field(default_factory=lambda: GlossaryIndex.of(()))
    embed: Embedder | None = None
    current_uri: str = ""
    current_path: str = ""  # shown in messages
    line_offset: int = 0  # source line of the markdown's first line, minus one
    source: str = ""  # the markdown being converted, before any preprocessor changed it
    report: Callable[[Problem], None] | None = None

    def problem(self, line: int | None, message: str) -> None:
        if self.report is not None:
            self.report(Problem(self.current_path or self.current_uri,
                                line + self.line_offset if line else None, message))


class _TermTooltips(markdown.treeprocessors.Treeprocessor):
    def __init__(self, md: markdown.Markdown, context: SiteContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, root: etree.Element) -> None:
        wrap_links(root, lambda href: self.context.index.resolve(href, self.context.current_uri))


class _TipPool(markdown.postprocessors.Postprocessor):
    """Appends the hidden short answers that the page's term links point to."""

    def __init__(self, md: markdown.Markdown, context: SiteContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, text: str) -> str:
        return text + tip_pool(text, self.context.index)


class _Embeds(BlockProcessor):
    def __init__(self, md: markdown.Markdown, context: SiteContext) -> None:
        super().__init__(md.parser)
        self.md = md
        self.context = context

    def test(self, parent: etree.Element, block: str) -> bool:
        return bool(EMBED_RE.match(block.strip()))

    def run(self, parent: etree.Element, blocks: list[str]) -> bool:
        block = blocks.pop(0).strip()
        match = EMBED_RE.match(block)
        assert match is not None
        kind, name = match.groups()
        html = None
        if self.context.embed is not None:
            html = self.context.embed(kind, name, self.context.current_uri)
        if html is None:
            self.context.problem(self._line_of(block), f"{block} names the unknown model "
                                 f"'{name}': add models/{name}/model.onnx or fix the name")
            box = etree.SubElement(parent, "p", {"class": "gl-missing-model"})
            box.text = f"Missing example model: {name}"
            return True
        placeholder = etree.SubElement(parent, "p")
        placeholder.text = self.md.htmlStash.store(html)
        return True

    def _line_of(self, block: str) -> int | None:
        # Blocks carry no line numbers, and other preprocessors fold raw HTML into one line
        # each, so look the embed up in the text as it arrived.
        source = self.context.source
        at = source.find(block)
        return source.count("\n", 0, at) + 1 if at >= 0 else None


class _KeepSource(markdown.preprocessors.Preprocessor):
    def __init__(self, md: markdown.Markdown, context: SiteContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, lines: list[str]) -> list[str]:
        self.context.source = "\n".join(lines)
        return lines


class GlossaryExtension(markdown.Extension):
    """Register with ``markdown.Markdown(extensions=[GlossaryExtension(context)])``."""

    def __init__(self, context: SiteContext | None = None, **kwargs: object) -> None:
        self.context = context or SiteContext()
        super().__init__(**kwargs)

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # After inline patterns (20) made the links, before MkDocs rewrites .md hrefs (0).
        md.treeprocessors.register(_TermTooltips(md, self.context), "onnx_glossary_tooltips", 4)
        md.parser.blockprocessors.register(_Embeds(md, self.context), "onnx_glossary_embeds", 95)
        md.preprocessors.register(_KeepSource(md, self.context), "onnx_glossary_source", 1000)
        # After raw HTML (30) is back in place: template-made links count too.
        md.postprocessors.register(_TipPool(md, self.context), "onnx_glossary_tip_pool", 5)


def makeExtension(**kwargs: Any) -> GlossaryExtension:
    return GlossaryExtension(**kwargs)
