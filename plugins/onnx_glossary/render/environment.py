"""Jinja rendering of generated pages (term, glossary index, model, operator index, cards).

Pages are rendered to *markdown* that MkDocs then converts like any hand-written page, so
headings reach the table of contents, ``.md`` links are resolved and checked by MkDocs, and
search indexes the text. Untrusted text is made inert on the way in:

- plain strings go through Jinja autoescape (HTML) and :func:`md_escape` where they land in
  markdown syntax (headings, link text);
- markdown strings from front matter (mistakes, answers) are converted here by a Markdown
  instance that has raw HTML switched off and drops links that are not http(s), relative or
  anchors; their relative ``.md`` links are resolved with :class:`LinkResolver`.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import markdown
from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PackageLoader,
    StrictUndefined,
    select_autoescape,
)
from markdown.blockprocessors import HRProcessor
from markupsafe import Markup

from ..common.urls import SiteUrls
from ..glossary.index import GlossaryIndex, Term
from ..glossary.links import link_target
from ..render.termlinks import wrap_links
from .figures import FigureInline

if TYPE_CHECKING:
    from ..models.facts import ModelFacts

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|>~])")


def md_escape(text: str) -> Markup:
    """Text that Python-Markdown shows literally: HTML-escaped, markdown syntax backslashed.

    Quotes stay as they are: they are harmless in text, and escaped they would end up in
    heading anchors ("model39s")."""
    return Markup(_MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False)))


class LinkResolver:
    """Resolves ``.md`` links inside converted front-matter markdown for one page."""

    def __init__(self, index: GlossaryIndex, from_uri: str, urls: SiteUrls) -> None:
        self.index = index
        self.from_uri = from_uri
        self.urls = urls

    def __call__(self, href: str) -> tuple[str, Term | None]:
        target = link_target(href, self.from_uri)
        if target is None:
            return href, None
        fragment = "#" + href.split("#", 1)[1] if "#" in href else ""
        term = self.index.resolve(href, self.from_uri)
        return self.urls.between(self.from_uri, target) + fragment, term


class _SafeLinks(markdown.treeprocessors.Treeprocessor):
    """Drops dangerous URLs and resolves ``.md`` links in front-matter markdown."""

    resolver: Callable[[str], tuple[str, Term | None]] | None = None

    def run(self, root: etree.Element) -> None:
        terms: dict[str, Term] = {}  # resolved href -> the term it links to
        for element in root.iter():
            for attr in ("href", "src"):
                value = element.get(attr)
                if value is None:
                    continue
                scheme = urlsplit(value.strip()).scheme.lower()
                if scheme not in ("", "http", "https", "mailto"):
                    del element.attrib[attr]
                elif attr == "href" and not scheme and self.resolver is not None:
                    url, term = self.resolver(value)
                    element.set("href", url)
                    if term is not None:
                        terms[url] = term
        wrap_links(root, terms.get)


class _FieldFigures:
    """Where a field's ``[[figure: KEY]]`` goes: the resolver of the page being made, when it
    knows figures (a :class:`LinkResolver` given ``figure`` and ``unknown_figure``)."""

    resolver: object = None

    def render(self, key: str) -> Markup | None:
        figure = getattr(self.resolver, "figure", None)
        return figure(key) if figure else None

    def unknown(self, key: str) -> None:
        report = getattr(self.resolver, "unknown_figure", None)
        if report:
            report(key)


class _NoRawHtml(markdown.Extension):
    def __init__(self) -> None:
        super().__init__()
        self.figures = _FieldFigures()

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeLinks(md), "onnx_glossary_safe_links", 1)
        md.inlinePatterns.register(FigureInline(md, self.figures.render, self.figures.unknown),
                                   "onnx_glossary_figure", 175)


_FIELDS = _NoRawHtml()


@lru_cache(maxsize=1)
def _field_markdown() -> markdown.Markdown:
    # The same code fences and highlighting as the site's own pages.
    return markdown.Markdown(extensions=[_FIELDS, "sane_lists", "pymdownx.highlight",
                                         "pymdownx.superfences"])


def markdown_field(text: str, resolver: Callable[[str], tuple[str, Term | None]] | None = None) -> Markup:
    """Convert a front-matter markdown string (untrusted) to safe HTML."""
    md = _field_markdown()
    md.reset()
    processor = md.treeprocessors["onnx_glossary_safe_links"]
    assert isinstance(processor, _SafeLinks)
    processor.resolver = resolver
    _FIELDS.figures.resolver = resolver
    return Markup(md.convert(text))


# Fields are joined with a thematic break between them and the HTML is cut at each <hr />: a
# break has no text, so it costs the inline patterns nothing (a marker paragraph cost a fifth of
# the conversion). Raw HTML is off, so a field's own text never makes a literal "<hr />".
_BOUNDARY = "\n\n* * *\n\n"
_BREAK = "<hr />"
_THEMATIC_BREAK = HRProcessor.SEARCH_RE  # Python-Markdown's own test


def markdown_fields(texts: Sequence[str],
                    resolver: Callable[[str], tuple[str, Term | None]] | None = None) -> list[Markup]:
    """:func:`markdown_field` for many strings in one conversion (a term has a dozen; one
    Markdown run each would cost more than the rest of its page). A field with a break of its
    own is converted alone, since the cut would split it."""
    if len(texts) < 2 or any(_THEMATIC_BREAK.search(text) for text in texts):
        return [markdown_field(text, resolver) for text in texts]
    parts = markdown_field(_BOUNDARY.join(texts), resolver).split(_BREAK)
    if len(parts) != len(texts):  # a fence opened in one field and closed in a later one
        return [markdown_field(text, resolver) for text in texts]
    return [Markup(part.strip()) for part in parts]


def unwrap_paragraph(html: Markup) -> Markup:
    """A single paragraph's content, for use inside a list item."""
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        return Markup(html[3:-4])
    return html


#: Where a site puts its own versions of the plugin's templates: ``<custom_dir>/onnx_glossary/``.
OVERRIDE_FOLDER = "onnx_glossary"


@lru_cache(maxsize=8)
def environment(custom_dir: str | None = None) -> Environment:
    """The Jinja environment of the pages (autoescape on); a site's overrides come first."""
    loaders: list[BaseLoader] = []
    if custom_dir and (Path(custom_dir) / OVERRIDE_FOLDER).is_dir():
        loaders.append(FileSystemLoader(str(Path(custom_dir) / OVERRIDE_FOLDER)))
    loaders.append(PackageLoader("onnx_glossary", "templates"))
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_escape
    env.filters["human_date"] = lambda d: f"{d.day} {d:%B %Y}"
    env.filters["human_bytes"] = human_bytes
    env.filters["thousands"] = lambda n: f"{n:,}"
    env.filters["shape"] = shape_text
    env.filters["wbr"] = camel_breaks
    env.filters["breaks"] = identifier_breaks
    env.globals["describe_axes"] = describe_axes
    return env


def shape_text(shape: Sequence[int | str | None] | None) -> str:
    """``[batch, 3]``; ``?`` for an unnamed free axis."""
    if shape is None:
        return "unknown rank"
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def describe_axes(facts: ModelFacts) -> list[str]:
    """Free axes in words, one line per dimension name, naming every place it occurs."""
    by_dim: dict[str, list[str]] = {}
    for axis in facts.dynamic_axes:
        label = axis.dim or f"an unnamed axis ({axis.role} '{axis.tensor}')"
        by_dim.setdefault(label, []).append(f"axis {axis.axis} of {axis.role} '{axis.tensor}'")
    return [f"{dim} is free: {', '.join(places)}" for dim, places in by_dim.items()]


_CAMEL_JOINT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def camel_breaks(name: str) -> Markup:
    """An identifier with ``<wbr>`` at its camel-case joints, so a narrow column breaks
    ``DynamicQuantizeLinear`` as Dynamic|Quantize|Linear and never inside a word."""
    return Markup("<wbr>").join(Markup.escape(part)
                                for part in _CAMEL_JOINT.split(str(name)))


#: A long identifier in running text: a dotted path, a snake_case or camelCase name, a URL path.
_IDENTIFIER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:/-]{15,}")
_JOINT = re.compile(r"(?<=[.:/])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9]_)(?=[A-Za-z0-9])"
                    r"|(?<=[a-z0-9])(?=[A-Z][a-z])")
_TAG = re.compile(r"(<[^>]*>)")


def identifier_breaks(html: Markup | str) -> Markup:
    """HTML with ``<wbr>`` inside its long identifiers, after a dot, slash or underscore and at
    camel-case joints, so ``SessionOptions.add_free_dimension_override_by_name`` breaks as
    ``SessionOptions.|add_|free_|dimension_...`` in a narrow cell instead of widening it. Text
    only: tags and their attributes are left alone. Plain text is escaped first."""
    text = str(html if isinstance(html, Markup) else Markup.escape(html))
    parts = _TAG.split(text)
    for i in range(0, len(parts), 2):  # the even parts are text between tags
        parts[i] = _IDENTIFIER.sub(lambda m: _JOINT.sub("<wbr>", m.group(0)), parts[i])
    return Markup("".join(parts))


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{size:,} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")
