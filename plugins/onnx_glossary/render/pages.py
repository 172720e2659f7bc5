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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, Template
from markupsafe import Markup

from ..browser.runtime import (
    ASSUMED_MBIT_S,
    ASSUMED_RUNS_A_VISIT,
    BUNDLES,
    EXTRA_WEBGPU_GZIP_MB,
    EXTRA_WEBGPU_MB,
    WEBGPU_MIN_MULTIPLY_ADDS,
    auto_backend,
)
from ..browser.support import SupportTable
from ..browser.webgpu_kernels import WASM_EP, WEBGPU_EP
from ..common.figures import Figures
from ..common.problems import Problem
from ..common.suggestions import did_you_mean
from ..common.urls import SiteUrls, relative_path
from ..glossary.backlinks import Mention
from ..glossary.index import GLOSSARY_URI, GlossaryIndex, Term
from ..glossary.links import link_target, term_slug_of
from ..models.catalog import MODEL_FILE, MODELS_URI, Catalog, ModelEntry
from ..models.example_spec import DEFAULT_MAX_SIDE
from ..models.facts import MeasuredPlacement, OperatorUse
from ..models.pipeline import PIPELINE_FILE
from ..render.environment import (
    LinkResolver,
    environment,
    identifier_breaks,
    markdown_fields,
    unwrap_paragraph,
)
from ..render.live_example import render_live_example, render_snippet_js, wasm_only
from ..render.termlinks import TermLinker, link_html
from .figures import figure_html, text_with_figures
from .thumbnails import Thumbnail, answer_thumbnail, picture_preview, preview_name

GLOSSARY_INDEX_URI = f"{GLOSSARY_URI}/index.md"
MODELS_INDEX_URI = f"{MODELS_URI}/index.md"
OPERATORS_URI = f"{MODELS_URI}/operators.md"


@dataclass(frozen=True)
class TermPage:
    """What the site needs of one term: the page's markdown, its structured data, the terms its
    mistakes and answers link to, and the problems of those links (unknown terms)."""

    markdown: str
    json_ld: tuple[dict[str, Any], ...]
    linked: frozenset[str] = frozenset()
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class ModelPages:
    """Every model page and file, and the terms each model page links to (for "Mentioned on")."""

    pages: tuple[tuple[str, str], ...]  # (docs-namespace path, markdown)
    files: tuple[tuple[str, str | bytes | Path], ...]  # (docs-namespace path, content or source)
    term_links: Mapping[str, frozenset[str]]  # page path -> slugs

    @classmethod
    def empty(cls) -> ModelPages:
        return cls((), (), {})


#: Where a term page's "Mentioned on" goes, until every page is converted.
def mentions_slot(slug: str) -> str:
    return f'<div data-gl-mentions="{slug}"></div>'


@dataclass(frozen=True)
class OperatorRow:
    domain: str
    op_type: str
    spec_url: str | None
    models: tuple[tuple[str, int], ...]  # (model name, node count)
    webgpu: bool | None
    webgpu_status: str = "not applicable"  # over every model's uses, as OperatorUse's
    webgpu_on_wasm: tuple[str, ...] = ()


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
    figures: Figures = field(default_factory=Figures)
    # The browser-support data (browser.support), which [[browser-support: all]] prints.
    browser_support: SupportTable | None = None
    # Looked up once per site build: Jinja checks a template's file on every get_template,
    # once per term page. A new build (mkdocs serve) has a new Pages and sees edited templates.
    _templates: dict[str, Template] = field(default_factory=dict, repr=False)
    _thumbnails: tuple[Catalog, dict[str, Thumbnail]] | None = field(default=None, repr=False)

    def _render(self, template: str, **context: Any) -> str:
        found = self._templates.get(template)
        if found is None:
            found = self._templates[template] = self.env.get_template(template)
        return found.render(**context)

    # -- glossary ---------------------------------------------------------------------------

    def term_page(self, term: Term, index: GlossaryIndex,
                  model_names: frozenset[str] = frozenset()) -> TermPage:
        """A term page (everything but the page chrome) and its JSON-LD, in one pass."""
        resolver = _Recording(index, term.src_uri, self.urls, self.figures)
        # One conversion for all of a term's markdown fields: mistakes first, then answers.
        fields = markdown_fields([*term.mistakes, *(q.answer for q in term.faq)], resolver)
        mistakes = [unwrap_paragraph(html) for html in fields[:len(term.mistakes)]]
        answers = fields[len(term.mistakes):]
        in_fields = len(resolver.missing_figures)
        details = [identifier_breaks(text_with_figures(row.detail, resolver.figure, resolver.unknown_figure))
                   for row in (term.facts.rows if term.facts else ())]
        markdown = self._render(
            "term.md.jinja",
            term=term,
            details=details,
            answers=answers,
            mistakes=mistakes,
            models=[name for name in term.models if name in model_names],
            neighbours=index.neighbours(term),
            related=index.related(term),
            total=len(index),
            index_link=_md_link(term.src_uri, GLOSSARY_INDEX_URI),
            term_link=lambda other: link_html(self.urls.between(term.src_uri, other.src_uri),
                                              other.title, other),
            mentions_slot=Markup(mentions_slot(term.slug)),
        )
        problems = _field_problems(term, fields, resolver, in_fields)
        return TermPage(markdown, tuple(self.term_json_ld(term, answers)),
                        frozenset(resolver.linked), tuple(problems))

    def mentions(self, term: Term, mentions: Sequence[Mention], index: GlossaryIndex) -> Markup:
        """The "Mentioned on" section of a term page (empty when no page links to it)."""
        if not mentions:
            return Markup("")
        items = []
        for mention in mentions:
            slug = term_slug_of(mention.src_uri)
            other = index.by_slug.get(slug) if slug else None
            model = (mention.src_uri.startswith(f"{MODELS_URI}/")
                     and mention.src_uri not in (OPERATORS_URI, MODELS_INDEX_URI))
            kind = "term" if other else ("model" if model else "page")
            items.append((mention.title, self.urls.between(term.src_uri, mention.src_uri), other, kind))
        return Markup(self._render("mentions.html.jinja", mentions=items, term_link_html=link_html))

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
                            categories=index.categories(), total=len(index),
                            term_link=lambda term: link_html(
                                self.urls.between(GLOSSARY_INDEX_URI, term.src_uri), term.title, term))

    # -- models -----------------------------------------------------------------------------

    def model_pages(self, catalog: Catalog,
                    mentions: Mapping[str, Sequence[tuple[str, str]]] | None = None,
                    index: GlossaryIndex | None = None) -> ModelPages:
        """Every model page and file, and the terms each page links to."""
        if not catalog.models:
            return ModelPages.empty()
        mentions = mentions or {}
        files: list[tuple[str, str | bytes | Path]] = []
        thumbnails = self.thumbnails(catalog)
        for entry in catalog.models.values():
            made = thumbnails.get(entry.name)
            if made is not None:
                files.append((f"{MODELS_URI}/{entry.name}/{made.name}", made.content))
        pages = [(MODELS_INDEX_URI, self._render(
            "models_index.md.jinja", models=list(catalog.models.values()),
            runtime=catalog.runtime, url=self.urls.linker(MODELS_INDEX_URI),
            md_link=lambda to: _md_link(MODELS_INDEX_URI, to), thumbnails=thumbnails)),
            (OPERATORS_URI, self._render(
                "operator_index.md.jinja", operators=operator_index(catalog),
                catalog=catalog, url=self.urls.linker(OPERATORS_URI)))]
        term_links: dict[str, frozenset[str]] = {}
        for entry in catalog.models.values():
            folder = f"{MODELS_URI}/{entry.name}/"
            live_here = self.live and entry.live
            term_link = TermLinker(index or GlossaryIndex.of(()), entry.page_uri, self.urls)
            pages.append((entry.page_uri, self._render(
                "model_page.md.jinja", entry=entry, facts=entry.facts,
                catalog=catalog, url=self.urls.linker(entry.page_uri),
                md_link=lambda to, here=entry.page_uri: _md_link(here, to),
                widget=self._widget(entry, entry.page_uri) if live_here else None,
                original=_original(catalog, entry), term_link=term_link,
                placement=placement_sentence(entry.facts.webgpu_placement),
                wasm_here=wasm_here(entry.facts.webgpu_placement),
                mentions=[(title, _md_link(entry.page_uri, uri))
                          for title, uri in mentions.get(entry.name, ())])))
            term_links[entry.page_uri] = frozenset(term_link.used)
            files.append((folder + MODEL_FILE, entry.folder / MODEL_FILE))
            if entry.reference_json is not None:
                files.append((folder + "reference.json", entry.reference_json))
            if live_here and entry.reference is not None:
                files.append((folder + "example.mjs", render_snippet_js(entry.facts, entry.reference)))
            if entry.picture is not None:
                files.append((folder + entry.picture.name, entry.picture))
                files.append((folder + preview_name(entry.picture.name),
                              picture_preview(entry.picture.read_bytes())))
            if entry.pipeline_json is not None:
                files.append((folder + PIPELINE_FILE, entry.pipeline_json))
        return ModelPages(tuple(pages), tuple(files), term_links)

    def thumbnails(self, catalog: Catalog) -> dict[str, Thumbnail]:
        """The picture of each model's answer on its sample, made once per build."""
        if self._thumbnails is None or self._thumbnails[0] is not catalog:
            made = {entry.name: _thumbnail(entry) for entry in catalog.models.values()}
            self._thumbnails = (catalog, {name: t for name, t in made.items() if t is not None})
        return self._thumbnails[1]

    def embed(self, catalog: Catalog, kind: str, name: str, from_uri: str | None) -> str | None:
        """HTML for ``[[model-card: NAME]]``, ``[[live-example: NAME]]``, ``[[demo: NAME]]``,
        ``[[model-list: examples]]`` and the tables' embeds, on ``from_uri``."""
        if kind == "model-list":
            if name != "examples":
                return None
            examples = [entry for entry in catalog.models.values() if entry.role == "example"]
            return self._render("model_list.html.jinja", rows=examples, thumbnails=self.thumbnails(catalog),
                                url=lambda to: self.urls.between(from_uri, to), runtime=catalog.runtime)
        if kind == "figure-table":
            rows = [(self.figures.by_key[key], figure_anchor(key)) for key in sorted(self.figures.by_key)]
            return self._render("figures_table.html.jinja", figures=rows) if name == "all" else None
        if kind == "browser-support":
            return self.browser_support_table() if name == "all" else None
        if kind == "backend-rule":
            return self.backend_rule_table(catalog, from_uri) if name == "all" else None
        entry = catalog.models.get(name)
        if entry is None:
            return None
        page = self.urls.between(from_uri, entry.page_uri)
        if kind == "demo":
            return self._demo(catalog, entry, from_uri, page)
        if kind == "pipeline":
            return self._pipeline(catalog, entry, from_uri)
        if kind == "live-example":
            if not (self.live and entry.live):
                return self._render("model_card.html.jinja", entry=entry, facts=entry.facts,
                                    page_url=page, note="This model has no live example.")
            return str(self._widget(entry, from_uri))
        widget = self._widget(entry, from_uri, compact=True) if self.live and entry.live else None
        return self._render("model_card.html.jinja", entry=entry, facts=entry.facts,
                            page_url=page, note=None, widget=widget)

    def _demo(self, catalog: Catalog, entry: ModelEntry, from_uri: str | None, page: str) -> str:
        """``[[demo: NAME]]``: the model's sample and its answer side by side (the answer the
        build computed, so nothing runs before a click), then its compact Run widget, where
        the reader can run it here or on an input of their own."""
        answer = self.thumbnails(catalog).get(entry.name)
        folder = f"{MODELS_URI}/{entry.name}/"
        sample = (self.urls.between(from_uri, folder + preview_name(entry.picture.name))
                  if entry.picture is not None else None)
        widget = self._widget(entry, from_uri, compact=True) if self.live and entry.live else None
        return self._render("demo.html.jinja", entry=entry, page_url=page, widget=widget,
                            sample=sample, answer=answer,
                            answer_url=self.urls.between(from_uri, folder + answer.name) if answer else None)

    def backend_rule_table(self, catalog: Catalog, from_uri: str | None) -> str:
        """``[[backend-rule: all]]``: the rule's threshold and extra download, and each model's
        multiply-adds a run (from its reference, counted at build time) with what ``auto``
        runs it on."""
        rule = {"threshold": WEBGPU_MIN_MULTIPLY_ADDS, "extra_mb": EXTRA_WEBGPU_MB,
                "extra_gzip_mb": EXTRA_WEBGPU_GZIP_MB, "mbit_s": ASSUMED_MBIT_S,
                "runs": ASSUMED_RUNS_A_VISIT}
        rows = []
        for entry in sorted(catalog.models.values(), key=lambda e: (e.role != "example", e.name)):
            if entry.reference is None:
                continue
            count = int((entry.reference.get("cost") or {}).get("multiply_adds", 0))
            only = wasm_only(entry.facts)
            rows.append({"name": entry.name, "url": self.urls.between(from_uri, entry.page_uri),
                         "role": entry.role, "multiply_adds": count, "wasm_only": only,
                         "backend": auto_backend(count, only)})
        return self._render("backend_rule.html.jinja", rule=rule, rows=rows)

    def _pipeline(self, catalog: Catalog, entry: ModelEntry, from_uri: str | None) -> str | None:
        """``[[pipeline: NAME]]``: the models NAME's example.yml chains, run on one picture;
        None when NAME declares no pipeline that the build could check and run."""
        reference = entry.pipeline_reference
        if reference is None or not self.live:
            return None
        models = [catalog.models[step["model"]] for step in reference["steps"]]
        if not all(model.live for model in models):
            return None
        between = self.urls.between
        picture = reference["picture"]
        first = catalog.models[picture["model"]]
        folder = f"{MODELS_URI}/{first.name}"
        max_side = int(((first.reference or {}).get("input") or {}).get("max_side", DEFAULT_MAX_SIDE))
        return self._render(
            "pipeline.html.jinja", dom_id="pipeline-" + entry.name, summary=entry.pipeline.summary
            if entry.pipeline else None,
            steps=[{"model": m.name, "example": between(from_uri, f"{MODELS_URI}/{m.name}/example.mjs"),
                    "url": between(from_uri, f"{MODELS_URI}/{m.name}/{MODEL_FILE}"),
                    "page": between(from_uri, m.page_uri)} for m in models],
            pipeline_url=between(from_uri, f"{MODELS_URI}/{entry.name}/{PIPELINE_FILE}"),
            picture={"url": between(from_uri, f"{folder}/{picture['src']}"),
                     "preview": between(from_uri, f"{folder}/{preview_name(picture['src'])}"),
                     "width": picture["width"], "height": picture["height"]},
            runtime_files={backend: bundle.wasm for backend, bundle in BUNDLES.items()},
            download_sizes={"model": sum(m.facts.file_size for m in models),
                            "runtime": dict(self.wasm_sizes or {})},
            max_side=max_side)

    def browser_support_table(self) -> str | None:
        """``[[browser-support: all]]``: the table, its notes numbered once each per feature
        (Chrome and Edge often share one), MDN's pages linked; None without the data."""
        table = self.browser_support
        if table is None:
            return None
        numbers: dict[tuple[str, str], int] = {}
        footnotes: list[tuple[int, str, list[str], str]] = []
        rows = []
        for feature in table.features:
            cells = []
            for browser, cell in zip(table.browsers, feature.cells, strict=True):
                marks = []
                for note in cell.notes:
                    key = (feature.id, note)
                    if key not in numbers:
                        numbers[key] = len(footnotes) + 1
                        footnotes.append((numbers[key], feature.title, [], note))
                    footnotes[numbers[key] - 1][2].append(browser)
                    marks.append(numbers[key])
                cells.append((browser, cell, marks))
            mdn = feature.mdn_url or ""
            rows.append((feature, mdn if mdn.startswith("https://developer.mozilla.org/") else None, cells))
        return self._render("browser_support.html.jinja", table=table, rows=rows, footnotes=footnotes)

    def _widget(self, entry: ModelEntry, from_uri: str | None, compact: bool = False) -> Markup:
        folder = self.urls.between(from_uri, f"{MODELS_URI}/{entry.name}/")
        cache = None
        if self.wasm_digests is not None and entry.reference_json is not None:
            # The keys of the persistent cache: the bytes the site serves, hashed at build time.
            cache = {"model": entry.facts.sha256, "wasm": self.wasm_digests,
                     "reference": hashlib.sha256(entry.reference_json.encode("utf-8")).hexdigest()}
        return render_live_example(entry.facts, entry.reference or {}, folder, self.env, cache,
                                   self.wasm_sizes, compact=compact)


def _thumbnail(entry: ModelEntry) -> Thumbnail | None:
    """The picture of a model's answer on its default sample, from the build's reference."""
    if entry.reference is None:
        return None
    picture = entry.picture.read_bytes() if entry.picture is not None else None
    return answer_thumbnail(entry.reference, picture)


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
            row[2].append(op)
    rows = []
    for (domain, op_type), (url, models, uses) in sorted(
            found.items(), key=lambda item: (item[0][0] != "ai.onnx", item[0][0], item[0][1].lower())):
        status, on_wasm = _webgpu_over(uses)
        rows.append(OperatorRow(domain, op_type, url, tuple(models), {"yes": True, "no": False}.get(status),
                                status, on_wasm))
    return rows


def placement_sentence(placement: MeasuredPlacement | None) -> str:
    """What the WebGPU build did with this very file when it was measured, in one sentence."""
    if placement is None:
        return ""
    if placement.error:
        return (f"Measured for this file: the WebGPU build cannot create a session for it "
                f"({placement.error.rsplit('ERROR_MESSAGE: ', 1)[-1]}), so its live example loads "
                "the WebAssembly build.")
    on_webgpu = placement.providers.get(WEBGPU_EP, 0)
    on_wasm = placement.providers.get(WASM_EP, 0)
    total = sum(placement.providers.values())
    where = (f"all {total} nodes on WebGPU" if on_webgpu == total else
             f"{on_webgpu} of {total} nodes on WebGPU, {on_wasm} on WebAssembly")
    if placement.on_wasm:
        where += " (" + ", ".join(op if n == 1 else f"{op} \u00d7{n}" for op, n in
                                  sorted(placement.on_wasm.items())) + ")"
    return (f"Measured for this file in the same way: {where}, counted after onnxruntime's graph "
            "optimisation, which fuses or removes some nodes and may keep shape computations on "
            "the CPU.")


def wasm_here(placement: MeasuredPlacement | None) -> dict[str, int] | None:
    """Per op type, how many of this file's nodes the WebGPU build put on WebAssembly, where
    the measurement tells (None where it does not: not measured, or every node on WebAssembly
    without a list)."""
    if placement is None or placement.error:
        return None
    if placement.listed:
        return dict(placement.on_wasm)
    return {} if set(placement.providers) == {WEBGPU_EP} else None


def _webgpu_over(uses: list[OperatorUse]) -> tuple[str, tuple[str, ...]]:
    """One WebGPU verdict for an operator over every model that uses it."""
    statuses = {op.webgpu_status for op in uses}
    if "not measured" in statuses:
        return "not measured", ()
    statuses.discard("not applicable")
    if not statuses:
        return "not applicable", ()
    on_wasm = tuple(sorted({t for op in uses for t in op.webgpu_on_wasm}))
    if statuses == {"yes"}:
        return "yes", ()
    return ("no" if statuses == {"no"} else "partly"), on_wasm


def _plain_text(html: Markup) -> str:
    return re.sub(r"\s+", " ", html.striptags()).strip()


class _Recording(LinkResolver):
    """A link resolver that remembers the terms it linked and the term files it could not find,
    and prints the figures the fields name."""

    def __init__(self, index: GlossaryIndex, from_uri: str, urls: SiteUrls,
                 figures: Figures | None = None) -> None:
        super().__init__(index, from_uri, urls)
        self.linked: set[str] = set()
        self.unknown: list[tuple[str, str, str]] = []  # (href, the URL it became, slug)
        self.figures = figures or Figures()
        self.missing_figures: list[str] = []

    def figure(self, key: str) -> Markup | None:
        return render_figure(self.figures, key, self.from_uri, self.urls)

    def unknown_figure(self, key: str) -> None:
        self.missing_figures.append(key)

    def __call__(self, href: str) -> tuple[str, Term | None]:
        url, term = super().__call__(href)
        if term is not None:
            self.linked.add(term.slug)
        else:
            target = link_target(href, self.from_uri)
            slug = term_slug_of(target) if target else None
            if slug:
                self.unknown.append((href, url, slug))
        return url, term


def render_figure(figures: Figures, key: str, from_uri: str | None, urls: SiteUrls) -> Markup | None:
    """``[[figure: KEY]]`` on the page ``from_uri``; None when the data file has no KEY."""
    figure = figures.get(key)
    if figure is None:
        return None
    href = urls.between(from_uri, figures.page) + "#" + figure_anchor(key) if figures.page else None
    return figure_html(figure, href)


def figure_anchor(key: str) -> str:
    """The id of a figure's row in the figures table of the page that explains them."""
    return "figure-" + key.replace(".", "-")


def _field_problems(term: Term, fields: Sequence[Markup], resolver: _Recording,
                    in_fields: int) -> list[Problem]:
    """A problem per link to an unknown term, and per unknown figure, in a mistake or an
    answer, on that item's line; an unknown figure in a fact's detail on the facts' line (the
    figures after the first ``in_fields`` are the facts')."""
    lines = [*(term.item_lines.get("mistakes") or []), *(q.line for q in term.faq)]
    problems = [Problem(term.path, term.lines.get("facts", term.body_line),
                        unknown_figure_message(key, resolver.figures))
                for key in resolver.missing_figures[in_fields:]]
    for key in resolver.missing_figures[:in_fields]:
        at = next((i for i, html in enumerate(fields) if f"figure {key}<" in html), None)
        line = lines[at] if at is not None and at < len(lines) else term.body_line
        problems.append(Problem(term.path, line, unknown_figure_message(key, resolver.figures)))
    for href, url, slug in resolver.unknown:
        at = next((i for i, html in enumerate(fields) if f'href="{url}"' in html), None)
        line = lines[at] if at is not None and at < len(lines) else term.body_line
        problems.append(Problem(term.path, line, unknown_term_message(slug, href, term.src_uri,
                                                                      resolver.index)))
    return problems


def unknown_figure_message(key: str, figures: Figures) -> str:
    known = sorted(figures.by_key)
    if not known:
        return (f"[[figure: {key}]] names a figure, but the site has no figures: set the "
                "glossary option figures_file to the benchmarks' data file")
    return f"[[figure: {key}]] is no figure of the benchmarks' data file" + did_you_mean(
        key, known, f" (it has {', '.join(known[:8])}{', ...' if len(known) > 8 else ''})")


def unknown_term_message(slug: str, href: str, from_uri: str, index: GlossaryIndex) -> str:
    """What a link to a term file that does not exist says, with the nearest slug."""
    close = index.suggestions.closest(slug)
    hint = f": did you mean '{close}.md'?" if close else f": create {GLOSSARY_URI}/{slug}.md or fix the link"
    return f"link to the unknown term '{slug}' ({href}){hint}"
