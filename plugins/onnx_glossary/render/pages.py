"""Generated pages and embeds: term pages, the glossary index, model pages, the operator index,
the models index, model cards and live examples.

Everything here turns parsed objects (a :class:`~.glossary.GlossaryIndex`, a
:class:`~.catalog.Catalog`) into markdown or HTML through the Jinja templates; nothing reads a
file. Every link goes through :class:`~.urls.SiteUrls`. Pure: no MkDocs imports.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, Template
from markupsafe import Markup

from ..common.urls import SiteUrls, relative_path
from ..glossary.backlinks import Mention
from ..glossary.index import GLOSSARY_URI, GlossaryIndex, Term
from ..models.catalog import MODEL_FILE, MODELS_URI, Catalog, ModelEntry
from ..render.environment import LinkResolver, environment, markdown_fields, unwrap_paragraph
from ..render.live_example import render_live_example, render_snippet_js
from ..render.termlinks import TermLinker

GLOSSARY_INDEX_URI = f"{GLOSSARY_URI}/index.md"
MODELS_INDEX_URI = f"{MODELS_URI}/index.md"
OPERATORS_URI = f"{MODELS_URI}/operators.md"


@dataclass(frozen=True)
class TermPage:
    """What the site needs of one term: the page's markdown and its structured data."""

    markdown: str
    json_ld: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class OperatorRow:
    domain: str
    op_type: str
    spec_url: str | None
    models: tuple[tuple[str, int], ...]  # (model name, node count)
    webgpu: bool | None


@dataclass
class Pages:
    """Renders the generated pages of one site."""

    urls: SiteUrls = field(default_factory=SiteUrls)
    set_name: str = "Glossary"
    live: bool = True  # live examples on model pages and term pages
    # Persistent cache on: the content hash of each backend's .wasm (runtime.wasm_digests).
    wasm_digests: dict[str, str] | None = None
    # The size of each backend's .wasm (runtime.wasm_sizes), shown before Run; None if unknown.
    wasm_sizes: dict[str, int] | None = None
    env: Environment = field(default_factory=environment)
    #: After :meth:`model_files`: the term slugs each model page links to, by page path.
    model_term_links: dict[str, set[str]] = field(default_factory=dict)
    # Looked up once per site build: Jinja checks a template's file on every get_template,
    # once per term page. A new build (mkdocs serve) has a new Pages and sees edited templates.
    _templates: dict[str, Template] = field(default_factory=dict, repr=False)

    def _render(self, template: str, **context: Any) -> str:
        found = self._templates.get(template)
        if found is None:
            found = self._templates[template] = self.env.get_template(template)
        return found.render(**context)

    # -- glossary ---------------------------------------------------------------------------

    def term_page(self, term: Term, index: GlossaryIndex,
                  model_names: frozenset[str] = frozenset(),
                  mentions: Sequence[Mention] = ()) -> TermPage:
        """A term page (everything but the page chrome) and its JSON-LD, in one pass."""
        resolver = LinkResolver(index, term.src_uri, self.urls)
        # One conversion for all of a term's markdown fields: mistakes first, then answers.
        fields = markdown_fields([*term.mistakes, *(q.answer for q in term.faq)], resolver)
        mistakes = [unwrap_paragraph(html) for html in fields[:len(term.mistakes)]]
        answers = fields[len(term.mistakes):]
        markdown = self._render(
            "term.md.jinja",
            term=term,
            answers=answers,
            mistakes=mistakes,
            models=[name for name in term.models if name in model_names],
            neighbours=index.neighbours(term),
            related=index.related(term),
            total=len(index),
            index_link=_md_link(term.src_uri, GLOSSARY_INDEX_URI),
            mentions=[(m.title, _md_link(term.src_uri, m.src_uri)) for m in mentions],
        )
        return TermPage(markdown, tuple(self.term_json_ld(term, answers)))

    def term_json_ld(self, term: Term, answers: Sequence[Markup]) -> list[dict[str, Any]]:
        """schema.org ``DefinedTerm`` for the term and ``FAQPage`` for its questions."""
        defined: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "DefinedTerm",
            "name": term.title,
            "description": term.summary,
            "termCode": term.slug,
            "inDefinedTermSet": {"@type": "DefinedTermSet", "name": self.set_name},
            "dateModified": term.updated.isoformat(),
        }
        if term.aka:
            defined["alternateName"] = list(term.aka)
        page_abs = self.urls.absolute(term.src_uri)
        index_abs = self.urls.absolute(GLOSSARY_INDEX_URI)
        if page_abs:
            defined["url"] = page_abs
        if index_abs:
            defined["inDefinedTermSet"]["url"] = index_abs
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

    def glossary_index(self, index: GlossaryIndex) -> str:
        return self._render("glossary_index.md.jinja", index=index, letters=index.letters(),
                            categories=index.categories(), total=len(index))

    # -- models -----------------------------------------------------------------------------

    def model_files(self, catalog: Catalog,
                    mentions: Mapping[str, Sequence[tuple[str, str]]] | None = None,
                    index: GlossaryIndex | None = None) -> Iterator[tuple[str, str | Path]]:
        """(docs-namespace path, content or source file) for every model page and file."""
        if not catalog.models:
            return
        mentions = mentions or {}
        yield MODELS_INDEX_URI, self._render(
            "models_index.md.jinja", models=list(catalog.models.values()),
            runtime=catalog.runtime, url=self.urls.linker(MODELS_INDEX_URI),
            md_link=lambda to: _md_link(MODELS_INDEX_URI, to))
        yield OPERATORS_URI, self._render(
            "operator_index.md.jinja", operators=operator_index(catalog),
            catalog=catalog, url=self.urls.linker(OPERATORS_URI))
        for entry in catalog.models.values():
            folder = f"{MODELS_URI}/{entry.name}/"
            live_here = self.live and entry.live
            term_link = TermLinker(index or GlossaryIndex.of(()), entry.page_uri, self.urls)
            self.model_term_links[entry.page_uri] = term_link.used
            yield entry.page_uri, self._render(
                "model_page.md.jinja", entry=entry, facts=entry.facts,
                catalog=catalog, url=self.urls.linker(entry.page_uri),
                md_link=lambda to, here=entry.page_uri: _md_link(here, to),
                widget=self._widget(entry, entry.page_uri) if live_here else None,
                original=_original(catalog, entry), term_link=term_link,
                mentions=[(title, _md_link(entry.page_uri, uri))
                          for title, uri in mentions.get(entry.name, ())])
            yield folder + MODEL_FILE, entry.folder / MODEL_FILE
            if entry.reference_json is not None:
                yield folder + "reference.json", entry.reference_json
            if live_here and entry.reference is not None:
                yield folder + "example.mjs", render_snippet_js(entry.facts, entry.reference)
            if entry.picture is not None:
                yield folder + entry.picture.name, entry.picture

    def embed(self, catalog: Catalog, kind: str, name: str, from_uri: str | None) -> str | None:
        """HTML for ``[[model-card: NAME]]`` or ``[[live-example: NAME]]`` on ``from_uri``."""
        entry = catalog.models.get(name)
        if entry is None:
            return None
        page = self.urls.between(from_uri, entry.page_uri)
        if kind == "live-example":
            if not (self.live and entry.live):
                return self._render("model_card.html.jinja", entry=entry, facts=entry.facts,
                                    page_url=page, note="This model has no live example.")
            return str(self._widget(entry, from_uri))
        widget = _compact(self._widget(entry, from_uri)) if self.live and entry.live else None
        return self._render("model_card.html.jinja", entry=entry, facts=entry.facts,
                            page_url=page, note=None, widget=widget)

    def _widget(self, entry: ModelEntry, from_uri: str | None) -> Markup:
        folder = self.urls.between(from_uri, f"{MODELS_URI}/{entry.name}/")
        cache = None
        if self.wasm_digests is not None and entry.reference_json is not None:
            # The keys of the persistent cache: the bytes the site serves, hashed at build time.
            cache = {"model": entry.facts.sha256, "wasm": self.wasm_digests,
                     "reference": hashlib.sha256(entry.reference_json.encode("utf-8")).hexdigest()}
        return render_live_example(entry.facts, entry.reference or {}, folder, self.env, cache,
                                   self.wasm_sizes)


_CODE_PANEL = '<div class="live-example__code">'


def _compact(widget: Markup) -> Markup:
    """The Run widget in its compact variant for cards: ``data-compact`` on the root (the CSS
    hides the timings and threads rows) and the code panel, the snippet and its tabs, inside a
    closed ``<details>``. The widget's contract (root, Run button, data-* results) is untouched.

    Relies on live_example.html ending with its code panel just before the root's closing tag.
    """
    html = str(widget).rstrip()
    at = html.find(_CODE_PANEL)
    if at < 0 or not html.endswith("</div>"):
        raise ValueError("live_example.html changed: no code panel at its end to fold away")
    root_end = len(html) - len("</div>")
    html = (html[:at] + '<details class="gl-compact-code"><summary>Show the code '
            "(JavaScript and Python)</summary>\n" + html[at:root_end].rstrip()
            + "\n</details>\n</div>")
    return Markup(html.replace(" data-live-example ", " data-live-example data-compact ", 1))


def _md_link(from_uri: str, to_uri: str) -> str:
    """A relative link to a page's ``.md`` source: MkDocs (and other hosts) resolve those."""
    return relative_path(to_uri, posixpath.dirname(from_uri))


def _original(catalog: Catalog, entry: ModelEntry) -> ModelEntry | None:
    """The float model a quantised one was made from (its metadata names it)."""
    name = entry.facts.metadata.get("quantized_from") or entry.facts.metadata.get("quantised_from")
    return catalog.models.get(name) if name else None


def operator_index(catalog: Catalog) -> list[OperatorRow]:
    """Every operator of every model, with the models that use it and one WebGPU verdict."""
    found: dict[tuple[str, str], list[Any]] = {}
    for entry in catalog.models.values():
        for op in entry.facts.operators:
            row = found.setdefault((op.domain, op.op_type), [op.spec_url, [], []])
            row[1].append((entry.name, op.count))
            row[2].append(op.webgpu)
    rows = []
    for (domain, op_type), (url, models, webgpu) in sorted(
            found.items(), key=lambda item: (item[0][0] != "ai.onnx", item[0][0], item[0][1].lower())):
        verdict = None if None in webgpu else all(webgpu)
        rows.append(OperatorRow(domain, op_type, url, tuple(models), verdict))
    return rows


def _plain_text(html: Markup) -> str:
    return re.sub(r"\s+", " ", html.striptags()).strip()
