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

import logging
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markdown
from markdown.blockprocessors import BlockProcessor

from ..common.problems import Problem
from ..glossary.index import GlossaryIndex
from ..render.termlinks import TipPool, wrap_links

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
    # Kept here, across pages: MkDocs makes new processors for every page it converts.
    tip_pool: TipPool = field(default_factory=TipPool)
    # Whether the host puts the page's hidden short answers in the page itself (then they are
    # kept in ``page_tips``, outside the content search reads) or they end the content.
    tips_outside: bool = False
    page_tips: str = ""

    def problem(self, line: int | None, message: str) -> None:
        if self.report is not None:
            self.report(Problem(self.current_path or self.current_uri or "<markdown>",
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
        pool = self.context.tip_pool(text, self.context.index)
        if not self.context.tips_outside:
            return text + pool
        if pool:  # the page's own conversion comes last, after its heading fragments
            self.context.page_tips = pool
        return text


class _Embeds(BlockProcessor):
    def __init__(self, md: markdown.Markdown, context: SiteContext) -> None:
        super().__init__(md.parser)
        self.md = md
        self.context = context

    def test(self, parent: etree.Element, block: str) -> bool:
        # Asked of every block of every page: rule most out without copying the block.
        return "[[" in block and bool(EMBED_RE.match(block.strip()))

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


class _HostPage(markdown.preprocessors.Preprocessor):
    """Learns which page is converted from a host that says so (Zensical's rendering context);
    without it, generated links are root-relative under the site's sub-path."""

    def __init__(self, md: markdown.Markdown, extension: GlossaryExtension) -> None:
        super().__init__(md)
        self.extension = extension
        self.context = extension.context

    def run(self, lines: list[str]) -> list[str]:
        # Loaded on the first page, not when the extension is made: hosts (MkDocs among them)
        # make extensions just to validate their configuration.
        self.extension.load()
        host = None
        if "rendering_context" in self.md.preprocessors:  # duck-typed: no Zensical import
            page = getattr(self.md.preprocessors["rendering_context"], "page", None)
            host = getattr(page, "path", None)
        self.context.current_uri = str(host).replace("\\", "/") if host else ""
        self.context.current_path = self.context.current_uri
        return lines


class GlossaryExtension(markdown.Extension):
    """Term tooltips and model embeds for any host that runs Python-Markdown extensions.

    The MkDocs plugin passes its own :class:`SiteContext` (and fills it before each page). Any
    other host lists the extension with options, and it loads the glossary and models itself::

        markdown_extensions:
          - onnx_glossary:
              glossary_dir: glossary
              models_dir: models
              site_url: https://example.github.io/onnx-glossary/
    """

    def __init__(self, context: SiteContext | None = None, **kwargs: object) -> None:
        self.config = {
            "glossary_dir": ["glossary", "Folder of term files, one <slug>.md per term."],
            "models_dir": ["", "Folder of example models, <name>/model.onnx; empty: none."],
            "site_url": ["", "Published address; its path prefixes links when the page is unknown."],
            "use_directory_urls": [True, "Pages live at a/b/ (true) or a/b.html (false)."],
            "node_modules": ["node_modules", "Where npm put onnxruntime-web (its operator table)."],
            "cache_dir": [".cache/onnx-glossary", "Model analyses keyed by content hash."],
            "live_examples": [True, "Render [[live-example: x]] as the Run widget."],
        }
        self.hosted = context is not None  # the plugin fills the context; nothing to load
        self.context = context or SiteContext(report=_log_problem)
        super().__init__(**kwargs)

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        if not self.hosted:
            md.preprocessors.register(_HostPage(md, self), "onnx_glossary_page", 1001)
        # After inline patterns (20) made the links, before MkDocs rewrites .md hrefs (0).
        md.treeprocessors.register(_TermTooltips(md, self.context), "onnx_glossary_tooltips", 4)
        md.parser.blockprocessors.register(_Embeds(md, self.context), "onnx_glossary_embeds", 95)
        md.preprocessors.register(_KeepSource(md, self.context), "onnx_glossary_source", 1000)
        # After raw HTML (30) is back in place: template-made links count too.
        md.postprocessors.register(_TipPool(md, self.context), "onnx_glossary_tip_pool", 5)


    def load(self) -> None:
        """Fill the context from the extension's own options (cached across pages)."""
        from ..hosts.standalone import Options, load

        models = str(self.getConfig("models_dir") or "")
        options = Options(
            glossary_dir=Path(self.getConfig("glossary_dir")).resolve(),
            models_dir=Path(models).resolve() if models else None,
            site_url=str(self.getConfig("site_url") or "") or None,
            use_directory_urls=bool(self.getConfig("use_directory_urls")),
            node_modules=Path(self.getConfig("node_modules")).resolve(),
            cache_dir=Path(self.getConfig("cache_dir")).resolve(),
            live_examples=bool(self.getConfig("live_examples")),
        )
        loaded = load(options)
        self.context.index = loaded.index
        self.context.embed = lambda kind, name, uri: loaded.pages.embed(
            loaded.catalog, kind, name, uri or None)


def _log_problem(problem: Problem) -> None:
    logging.getLogger("onnx_glossary").warning("%s", problem)


def makeExtension(**kwargs: Any) -> GlossaryExtension:
    return GlossaryExtension(**kwargs)
