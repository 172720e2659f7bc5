"""Python-Markdown extension: term links with tooltips, and model embeds.

What a page's markdown needs from the glossary, for any host that runs Python-Markdown
extensions: MkDocs (the plugin hands the extension its :class:`~onnx_glossary.site.Site`),
Zensical, or plain Python-Markdown (the extension builds a Site from its own options, which are
those of :class:`~onnx_glossary.options.Options`).

- The page's element tree decides what a link is. A link to a term's file
  (``[ONNX Runtime](onnx-runtime.md)``) gets the term's short answer as an accessible tooltip
  (:mod:`onnx_glossary.render.termlinks`) and is recorded for the term's "Mentioned on" list; a
  link to a term file that does not exist is a problem naming its line. A link inside a code
  block or an HTML comment is no link, since Markdown never makes it one.
- A ```` ```mermaid ```` fence becomes the drawing committed for its text (render/diagrams.py).
- A paragraph that is exactly ``[[model-card: NAME]]`` becomes a compact card of that example
  model; ``[[live-example: NAME]]`` becomes its Run widget; ``[[demo: NAME]]`` its sample and
  answer side by side above a compact widget (a home page's first screen); ``[[pipeline: NAME]]``
  the models NAME's example.yml chains, run on one picture; ``[[model-list:
  examples]]`` every example model as a card with the picture of its answer.
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

from ..common.problems import Problem, SetupError
from ..glossary.links import line_of
from ..options import Options, OptionsError, option_fields, plain_default
from ..render.diagrams import fences
from ..render.figures import FigureInline
from ..render.termlinks import TipPool, wrap_links
from ..site import Site

EMBED_RE = re.compile(r"^\[\[(model-card|live-example|demo|pipeline|model-list|figure-table"
                      r"|browser-support|backend-rule):\s*([^\]\s]+)\s*\]\]$")
#: The embeds that print a table of the whole site, and take the one name ``all``.
#: The embeds that take a fixed word instead of a model's name, and that word.
TABLE_EMBEDS = {"figure-table": "all", "browser-support": "all", "backend-rule": "all",
                "model-list": "examples"}

log = logging.getLogger("onnx_glossary")


@dataclass
class PageContext:
    """What the extension knows of the page being converted; the host fills it in."""

    site: Site | None = None
    current_uri: str = ""
    current_path: str = ""  # shown in messages
    line_offset: int = 0  # source line of the markdown's first line, minus one
    source: str = ""  # the markdown being converted, before any preprocessor changed it
    report: Callable[[Problem], None] | None = None
    # The term slugs each converted page links to (for "Mentioned on"), by page path.
    links: dict[str, set[str]] = field(default_factory=dict)
    # Kept here, across pages: MkDocs makes new processors for every page it converts.
    tip_pool: TipPool = field(default_factory=TipPool)
    # Whether the host puts the page's hidden short answers in the page itself (then they are
    # kept in ``page_tips``, outside the content search reads) or they end the content.
    tips_outside: bool = False
    page_tips: str = ""
    # Whether the page is one the glossary generated: its top-level HTML blocks are final.
    generated: bool = False

    def begin_page(self, src_uri: str, markdown: str, *, file_text: str | None = None,
                   shown: str | None = None, generated: bool = False) -> None:
        """Set the page about to be converted. ``file_text`` is the text of the file a
        contributor edits (with its front matter), ``shown`` its path in messages; line
        numbers of problems then point into that file. ``generated``: the glossary made the
        page's markdown (:class:`_FinalHtml`)."""
        self.current_uri = src_uri
        self.page_tips = ""
        self.generated = generated
        term = self.site.term_page(src_uri) if self.site else None
        if term is not None:
            self.current_path = term.path
            # The body sits inside the generated page; map its lines back to the term file.
            self.line_offset = term.body_line - 1 - lines_before(term.body, markdown)
        elif file_text is not None:
            self.current_path = shown or src_uri
            # Hosts hand over the markdown without its front matter: find where it starts.
            self.line_offset = lines_before(markdown, file_text)
        else:
            self.current_path, self.line_offset = src_uri, 0

    def problem(self, line: int | None, message: str) -> None:
        if self.report is not None:
            self.report(Problem(self.current_path or self.current_uri or "<markdown>",
                                line + self.line_offset if line else None, message))


class _TermLinks(markdown.treeprocessors.Treeprocessor):
    """Every ``<a href>`` Markdown made on the page: term links get their tooltip and are
    recorded, links to missing terms are reported on their line."""

    def __init__(self, md: markdown.Markdown, context: PageContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, root: etree.Element) -> None:
        context = self.context
        site = context.site
        if site is None:
            return
        linked = context.links.setdefault(context.current_uri, set())
        searched = 0

        def resolve(href: str) -> Any:
            nonlocal searched
            term, missing = site.term_of(href, context.current_uri)
            if term is not None:
                linked.add(term.slug)
            elif missing is not None:
                line, searched = line_of(context.source, href, searched)
                if context.report is not None:
                    context.report(site.unknown_term(
                        context.current_path or context.current_uri,
                        line + context.line_offset if line else None, missing, href,
                        context.current_uri))
            return term

        wrap_links(root, resolve)


class _TipPool(markdown.postprocessors.Postprocessor):
    """Appends the hidden short answers that the page's term links point to."""

    def __init__(self, md: markdown.Markdown, context: PageContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, text: str) -> str:
        if self.context.site is None:
            return text
        pool = self.context.tip_pool(text, self.context.site.index)
        if not self.context.tips_outside:
            return text + pool
        if pool:  # the page's own conversion comes last, after its heading fragments
            self.context.page_tips = pool
        return text


class _Embeds(BlockProcessor):
    def __init__(self, md: markdown.Markdown, context: PageContext) -> None:
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
        site = self.context.site
        html = site.embed(kind, name, self.context.current_uri or None) if site else None
        if html is None and kind in TABLE_EMBEDS:
            self.context.problem(self._line_of(block), f"{block}: write [[{kind}: {TABLE_EMBEDS[kind]}]]")
            return True
        if html is None and kind == "pipeline" and site and name in site.catalog.models:
            self.context.problem(self._line_of(block), f"{block}: models/{name}/example.yml "
                                 "declares no pipeline this build could check and run")
            return True
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
        line, _ = line_of(self.context.source, block)
        return line


class _Figures:
    """``[[figure: KEY]]`` in a page, through the site's figures."""

    def __init__(self, context: PageContext) -> None:
        self.context = context

    def render(self, key: str) -> Any:
        site = self.context.site
        return site.figure(key, self.context.current_uri or None) if site else None

    def unknown(self, key: str) -> None:
        context = self.context
        if context.site is not None and context.report is not None:
            line, _ = line_of(context.source, f"[[figure: {key}]]")
            context.report(context.site.unknown_figure(
                context.current_path or context.current_uri,
                line + context.line_offset if line else None, key))


class _Diagrams(markdown.preprocessors.Preprocessor):
    """A ```mermaid fence becomes its drawing, made ahead of time (render/diagrams.py); one
    without a drawing of its text is a problem on its line, and its source is never shown."""

    def __init__(self, md: markdown.Markdown, context: PageContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, lines: list[str]) -> list[str]:
        site = self.context.site
        if site is None or not any("mermaid" in line for line in lines):
            return lines
        out: list[str] = []
        done = 0
        for fence in fences(lines):
            out += lines[done:fence.start]
            figure: str | None = site.diagram(fence.source)
            if figure is None:
                context = self.context
                if context.report is not None:
                    context.report(site.undrawn_diagram(context.current_path or context.current_uri,
                                                        fence.start + 1 + context.line_offset))
                figure = '<p class="gl-missing-model">This diagram is not drawn yet.</p>'
            out += ["", fence.indent + self.md.htmlStash.store(str(figure)), ""]
            done = fence.end + 1
        return out + lines[done:]


#: A tag that starts a line, and the parts of an HTML block that Markdown reads otherwise than
#: a tag count does (comments, raw text, markdown inside) or that a link may point to (ids).
_LINE_TAG = re.compile(r"<([a-z][a-z0-9]*)[\s>]")
_NOT_PLAIN = re.compile(r"<!--|<!\[CDATA\[|<(?:script|style|pre|textarea)[\s>]|\s(?:markdown|id|name)=")


def _final_block(lines: list[str], start: int, md: markdown.Markdown) -> int | None:
    """The last line of the HTML block that starts at ``lines[start]`` when Markdown would keep
    it as one raw block, unchanged: a block-level element opened at the start of the line
    after a blank one, closed at the very end of a line before a blank one, with no comment, raw
    text element, markdown attribute or id inside. None for anything else."""
    found = _LINE_TAG.match(lines[start])
    if found is None or (start and lines[start - 1].strip()) or not md.is_block_level(found[1]):
        return None
    tag = found[1]
    tokens = re.compile(rf"<(/?){tag}[\s>]")
    depth = 0
    for end in range(start, len(lines)):
        line = lines[end]
        if _NOT_PLAIN.search(line):
            return None
        for token in tokens.finditer(line):
            depth += -1 if token[1] else 1
            if depth == 0:
                closed = token.end() == len(line) and line.endswith(">")
                blank_after = end + 1 < len(lines) and not lines[end + 1].strip(" ")
                return end if closed and blank_after else None
    return None


class _FinalHtml(markdown.preprocessors.Preprocessor):
    """A generated page's top-level HTML blocks go into Markdown's store as they are.

    The glossary rendered them itself, and Markdown would store each unchanged: reading them
    with its HTML parser (and MkDocs again, for anchors, which no such block holds) only costs
    time, much of a big glossary's build. Blocks Markdown could read otherwise are left to
    it."""

    def __init__(self, md: markdown.Markdown, context: PageContext) -> None:
        super().__init__(md)
        self.context = context

    def run(self, lines: list[str]) -> list[str]:
        if not self.context.generated:
            return lines
        out: list[str] = []
        at = 0
        while at < len(lines):
            end = _final_block(lines, at, self.md) if lines[at].startswith("<") else None
            if end is None:
                out.append(lines[at])
                at += 1
                continue
            # With the line break Markdown keeps after a block that a blank line follows.
            out.append(self.md.htmlStash.store("\n".join(lines[at:end + 1]) + "\n"))
            at = end + 1
        return out


class _KeepSource(markdown.preprocessors.Preprocessor):
    def __init__(self, md: markdown.Markdown, context: PageContext) -> None:
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
        self.context.site = self.extension.site()
        host = None
        if "rendering_context" in self.md.preprocessors:  # duck-typed: no Zensical import
            page = getattr(self.md.preprocessors["rendering_context"], "page", None)
            host = getattr(page, "path", None)
        self.context.current_uri = str(host).replace("\\", "/") if host else ""
        self.context.current_path = self.context.current_uri
        return lines


def extension_config() -> dict[str, list[Any]]:
    """The extension's options: every glossary option, as Python-Markdown declares them
    (``[default, doc]``; an unset default is written as an empty string, since Python-Markdown
    reads a ``None`` default as a yes/no flag)."""
    out: dict[str, list[Any]] = {}
    for option in option_fields():
        default = plain_default(option)
        out[option.name] = ["" if default is None else default, option.doc]
    return out


class GlossaryExtension(markdown.Extension):
    """Term tooltips and model embeds for any host that runs Python-Markdown extensions.

    A host with a :class:`~onnx_glossary.site.Site` passes a :class:`PageContext` holding it
    (and fills in the page before each conversion). Any other host lists the extension with
    the glossary's options, and the extension loads the site itself::

        markdown_extensions:
          - onnx_glossary:
              glossary_dir: glossary
              models_dir: models
              site_url: https://docs.team.example/onnx-glossary/
    """

    def __init__(self, context: PageContext | None = None, **kwargs: object) -> None:
        self.config = extension_config()
        self.hosted = context is not None  # the host fills the context; nothing to load
        self.context = context or PageContext(report=_log_problem)
        super().__init__(**kwargs)

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        if not self.hosted:
            md.preprocessors.register(_HostPage(md, self), "onnx_glossary_page", 1001)
        # After inline patterns (20) made the links, before MkDocs rewrites .md hrefs (0).
        md.treeprocessors.register(_TermLinks(md, self.context), "onnx_glossary_tooltips", 4)
        md.parser.blockprocessors.register(_Embeds(md, self.context), "onnx_glossary_embeds", 95)
        figures = _Figures(self.context)
        md.inlinePatterns.register(FigureInline(md, figures.render, figures.unknown),
                                   "onnx_glossary_figure", 175)
        md.preprocessors.register(_KeepSource(md, self.context), "onnx_glossary_source", 1000)
        # After whitespace is normalised (30), before any fenced-code extension (25) sees it.
        md.preprocessors.register(_Diagrams(md, self.context), "onnx_glossary_diagrams", 29)
        # After fenced code (25), before MkDocs reads raw HTML for anchors (21) and Markdown
        # stores raw HTML blocks (20).
        md.preprocessors.register(_FinalHtml(md, self.context), "onnx_glossary_final_html", 22)
        # After raw HTML (30) is back in place: template-made links count too.
        md.postprocessors.register(_TipPool(md, self.context), "onnx_glossary_tip_pool", 5)

    def options(self) -> Options:
        """The extension's options, folders resolved against the folder the host runs in."""
        values = {name: self.getConfig(name) for name in self.config}
        return Options.from_values(values, Path.cwd())

    def site(self) -> Site | None:
        """The site of the extension's options (loaded once per process and options, and again
        when a file under the glossary or models folder changes)."""
        if self.context.site is not None and self.hosted:
            return self.context.site
        try:
            return load_site(self.options())
        except (OptionsError, SetupError) as error:
            log.error("%s", error)
            return None


_LOADED: dict[Options, tuple[float, Site]] = {}


def _fingerprint(options: Options) -> float:
    """The newest modification time under the folders: a change means load again."""
    newest = 0.0
    for folder in (options.glossary_dir, options.models_dir):
        if folder is not None and folder.is_dir():
            for path in folder.rglob("*"):
                newest = max(newest, path.stat().st_mtime)
    return newest


def load_site(options: Options) -> Site:
    """The site for these options, loaded once per process until its files change."""
    stamp = _fingerprint(options)
    cached = _LOADED.get(options)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    site = Site.load(options, Path.cwd(), _log_problem)
    _LOADED[options] = (stamp, site)
    return site


def lines_before(text: str, within: str) -> int:
    """How many lines of ``within`` precede ``text`` (0 when it cannot be found).

    Warnings then name lines of the file a contributor edits, not of the text the host
    converts (which lacks the front matter, or holds a term body inside a generated page).
    """
    at = within.find(text[:200]) if text.strip() else -1
    return within.count("\n", 0, at) if at > 0 else 0


def _log_problem(problem: Problem) -> None:
    {"debug": log.debug, "info": log.info}.get(problem.level, log.warning)("%s", problem)


def makeExtension(**kwargs: Any) -> GlossaryExtension:
    return GlossaryExtension(**kwargs)
