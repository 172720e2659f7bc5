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
import json
import posixpath
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import markdown
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from .glossary import GlossaryIndex, Term, link_target

if TYPE_CHECKING:
    from .model_facts import ModelFacts

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|>~])")


def md_escape(text: str) -> Markup:
    """Text that Python-Markdown shows literally: HTML-escaped, markdown syntax backslashed.

    Quotes stay as they are: they are harmless in text, and escaped they would end up in
    heading anchors ("model39s")."""
    return Markup(_MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False)))


def page_url(src_uri: str, use_directory_urls: bool) -> str:
    """The URL (relative to the site root) MkDocs gives a page with this source path."""
    stem, _ = posixpath.splitext(src_uri)
    if posixpath.basename(stem) in ("index", "README"):
        folder = posixpath.dirname(stem)
        return f"{folder}/" if folder else ""
    return f"{stem}/" if use_directory_urls else f"{stem}.html"


def relative_url(from_src_uri: str, to_src_uri: str, use_directory_urls: bool) -> str:
    """A URL that leads from one page to another page or file, as MkDocs would write it."""
    source = page_url(from_src_uri, use_directory_urls)
    target = to_src_uri if not to_src_uri.endswith(".md") else page_url(to_src_uri, use_directory_urls)
    base = posixpath.dirname(source.rstrip("/")) if not source.endswith("/") else source.rstrip("/")
    rel = posixpath.relpath(target or ".", base or ".")
    if target.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return rel


def relative_folder(from_uri: str, folder: str, use_directory_urls: bool) -> str:
    """A URL that leads from a page to a folder of the site (ends with '/')."""
    source = page_url(from_uri, use_directory_urls)
    base = source.rstrip("/") if source.endswith("/") or not source else posixpath.dirname(source)
    return posixpath.relpath(folder, base or ".") + "/"


@dataclass(frozen=True)
class LinkResolver:
    """Resolves ``.md`` links inside converted front-matter markdown for one page."""

    index: GlossaryIndex
    from_uri: str
    use_directory_urls: bool

    def __call__(self, href: str) -> tuple[str, str | None]:
        target = link_target(href, self.from_uri)
        if target is None:
            return href, None
        fragment = "#" + href.split("#", 1)[1] if "#" in href else ""
        term = self.index.resolve(href, self.from_uri)
        url = relative_url(self.from_uri, target, self.use_directory_urls) + fragment
        return url, term.summary if term else None


class _SafeLinks(markdown.treeprocessors.Treeprocessor):
    """Drops dangerous URLs and resolves ``.md`` links in front-matter markdown."""

    resolver: Callable[[str], tuple[str, str | None]] | None = None

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            for attr in ("href", "src"):
                value = element.get(attr)
                if value is None:
                    continue
                scheme = urlsplit(value.strip()).scheme.lower()
                if scheme not in ("", "http", "https", "mailto"):
                    del element.attrib[attr]
                elif attr == "href" and not scheme and self.resolver is not None:
                    url, title = self.resolver(value)
                    element.set("href", url)
                    if title and "title" not in element.attrib:
                        element.set("title", title)


class _NoRawHtml(markdown.Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeLinks(md), "onnx_glossary_safe_links", 1)


@lru_cache(maxsize=1)
def _field_markdown() -> markdown.Markdown:
    # The same code fences and highlighting as the site's own pages.
    return markdown.Markdown(extensions=[_NoRawHtml(), "sane_lists", "pymdownx.highlight",
                                         "pymdownx.superfences"])


def markdown_field(text: str, resolver: Callable[[str], tuple[str, str | None]] | None = None) -> Markup:
    """Convert a front-matter markdown string (untrusted) to safe HTML."""
    md = _field_markdown()
    md.reset()
    processor = md.treeprocessors["onnx_glossary_safe_links"]
    assert isinstance(processor, _SafeLinks)
    processor.resolver = resolver
    return Markup(md.convert(text))


_SPLIT = "onnx-glossary-field-boundary-5c1f"


def markdown_fields(texts: Sequence[str],
                    resolver: Callable[[str], tuple[str, str | None]] | None = None) -> list[Markup]:
    """:func:`markdown_field` for many strings in one conversion (a term has a dozen; one
    Markdown run each would cost more than the rest of its page)."""
    if len(texts) < 2:
        return [markdown_field(text, resolver) for text in texts]
    joined = markdown_field(f"\n\n{_SPLIT}\n\n".join(texts), resolver)
    parts = joined.split(f"<p>{_SPLIT}</p>")
    if len(parts) != len(texts):  # a field swallowed the boundary: convert one by one
        return [markdown_field(text, resolver) for text in texts]
    return [Markup(part.strip()) for part in parts]


def _unwrap_paragraph(html: Markup) -> Markup:
    """A single paragraph's content, for use inside a list item."""
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        return Markup(html[3:-4])
    return html


def json_ld(data: Mapping[str, Any]) -> str:
    """JSON for a ``<script type="application/ld+json">``: nothing in it can close the tag."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("onnx_glossary", "templates"),
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


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{size:,} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


# ---------------------------------------------------------------------------------------------
# Glossary pages


@dataclass(frozen=True)
class TermPage:
    """What the site needs of one term: the page's markdown and its structured data."""

    markdown: str
    json_ld: tuple[str, ...]


def render_term_page(term: Term, index: GlossaryIndex, *, use_directory_urls: bool,
                     index_uri: str, site_url: str | None, set_name: str,
                     model_names: frozenset[str] = frozenset()) -> TermPage:
    """Render a term page (everything but the page chrome) and its JSON-LD in one pass."""
    resolver = LinkResolver(index, term.src_uri, use_directory_urls)
    # One conversion for all of a term's markdown fields: mistakes first, then answers.
    fields = markdown_fields([*term.mistakes, *(q.answer for q in term.faq)], resolver)
    mistakes = [_unwrap_paragraph(html) for html in fields[:len(term.mistakes)]]
    answers = fields[len(term.mistakes):]
    markdown = render(
        "term.md.jinja",
        term=term,
        answers=answers,
        mistakes=mistakes,
        models=[name for name in term.models if name in model_names],
        neighbours=index.neighbours(term),
        related=index.related(term),
        total=len(index),
        index_link=posixpath.relpath(index_uri, posixpath.dirname(term.src_uri)),
    )
    page_abs = index_abs = None
    if site_url:
        base = site_url if site_url.endswith("/") else site_url + "/"
        page_abs = base + page_url(term.src_uri, use_directory_urls)
        index_abs = base + page_url(index_uri, use_directory_urls)
    data = term_json_ld(term, answers, index_abs, page_abs, set_name)
    return TermPage(markdown, tuple(json_ld(item) for item in data))


def term_json_ld(term: Term, answers: list[Markup], index_url: str | None,
                 page_url_abs: str | None, set_name: str) -> list[dict[str, Any]]:
    """schema.org ``DefinedTerm`` for the term and ``FAQPage`` for its questions."""
    defined: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "DefinedTerm",
        "name": term.title,
        "description": term.summary,
        "termCode": term.slug,
        "inDefinedTermSet": {"@type": "DefinedTermSet", "name": set_name},
        "dateModified": term.updated.isoformat(),
    }
    if term.aka:
        defined["alternateName"] = list(term.aka)
    if page_url_abs:
        defined["url"] = page_url_abs
    if index_url:
        defined["inDefinedTermSet"]["url"] = index_url
    out = [defined]
    if term.faq:
        out.append({
            "@context": "https://schema.org",
            "@type": "FAQPage",
            "mainEntity": [{
                "@type": "Question",
                "name": q.question,
                "acceptedAnswer": {"@type": "Answer", "text": _plain_text(answer)},
            } for q, answer in zip(term.faq, answers, strict=True)],
        })
    return out


def _plain_text(html: Markup) -> str:
    return re.sub(r"\s+", " ", html.striptags()).strip()


def render_glossary_index(index: GlossaryIndex) -> str:
    return render("glossary_index.md.jinja", index=index, letters=index.letters(),
                  categories=index.categories(), total=len(index))
