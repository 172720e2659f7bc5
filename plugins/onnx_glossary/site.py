"""The one core every host drives: a :class:`Site`, built from one :class:`~.options.Options`.

A site loads the glossary, the example models and the browser packages once, and gives a host
everything the glossary adds to a build: generated pages and static files
(:meth:`Site.content`), each page's metadata (:meth:`Site.page_meta`), the embeds of the Markdown
extension (:meth:`Site.embed`), the term a link points at (:meth:`Site.term_of`), the "Mentioned
on" lists once every page is converted (:meth:`Site.mentions`), and what the theme needs
(:meth:`Site.theme_context`). The MkDocs plugin, the Markdown extension and ``onnx-glossary
generate`` only translate their host's configuration into Options and call these. Pure: no
MkDocs imports.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from .browser import assets
from .browser.packages import resolve
from .browser.runtime import import_map, wasm_digests, wasm_sizes
from .browser.support import load_browser_support
from .common.figures import load_figures
from .common.paths import shown_path
from .common.problems import Problem
from .common.urls import SiteUrls
from .glossary import backlinks as backlink_lists
from .glossary import quality
from .glossary.backlinks import Backlinks, Mention
from .glossary.index import GlossaryIndex, Term, load_glossary
from .glossary.links import link_target, term_slug_of
from .models.catalog import AnalysisCache, Catalog, load_catalog
from .options import Options
from .render import machine_readable
from .render.diagrams import Diagrams
from .render.environment import environment
from .render.options_page import OPTIONS_URI, options_page
from .render.pages import (
    GLOSSARY_INDEX_URI,
    Pages,
    mentions_slot,
    render_figure,
    unknown_figure_message,
    unknown_term_message,
)

#: Where a host sends each problem (a logger, a list); ``info`` problems break nothing.
Report = Callable[[Problem], None]


@dataclass(frozen=True)
class GeneratedFile:
    """One file the glossary adds to the site, in the docs namespace.

    Exactly one of ``content`` (text or bytes made by the build) and ``source`` (a file copied
    as it is) is set. ``edit`` is the file a reader's edit link opens (a term's own file).
    """

    src_uri: str
    content: str | bytes | None = None
    source: Path | None = None
    edit: Path | None = None


@dataclass(frozen=True)
class SiteContent:
    """Everything the glossary adds to a build: markdown pages, then static files."""

    pages: tuple[GeneratedFile, ...]
    files: tuple[GeneratedFile, ...]


@dataclass(frozen=True)
class PageMeta:
    """What a page's ``<head>`` says of it: the meta description (plain text, unescaped: each
    host escapes it as its theme needs) and schema.org JSON-LD."""

    description: str | None = None
    json_ld: tuple[dict[str, Any], ...] = ()


@dataclass
class Site:
    """One glossary site. Make it with :meth:`load`."""

    options: Options
    root: Path
    report: Report
    index: GlossaryIndex
    catalog: Catalog
    packages: dict[str, Path]
    pages: Pages
    diagrams: Diagrams = field(default_factory=Diagrams)
    # Made by content(): the terms each generated page links to (model pages, term fields).
    _static_links: dict[str, frozenset[str]] = field(default_factory=dict)
    _json_ld: dict[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    _titles: dict[str, str] = field(default_factory=dict)  # hand-written page -> its title

    @classmethod
    def load(cls, options: Options, root: Path, report: Report, *,
             inform: Callable[[str], None] = lambda message: None,
             analysis_cache: AnalysisCache | None = None) -> Site:
        """Resolve the browser packages, analyse the models, read the glossary; every content
        problem goes to ``report``. Raises :class:`~.common.problems.SetupError` when the
        environment lacks something (the message says what to do)."""
        node_modules = options.node_modules or root / "node_modules"
        resolved = resolve(assets.needed_packages(options), node_modules=node_modules,
                           explicit=options.node_modules is not None, root=root, inform=inform)
        for warning in resolved.warnings:
            report(warning)
        packages = resolved.roots
        ort = packages.get("onnxruntime-web")
        cache = analysis_cache or AnalysisCache(None)
        cache.directory = options.cache_dir
        catalog, problems = load_catalog(options.models_dir, root, cache,
                                         size_budget_bytes=options.size_budget_bytes,
                                         node_modules=ort.parent if ort else node_modules)
        index, found = load_glossary(options.glossary_dir, root, model_names=sorted(catalog.models))
        problems += found
        problems += quality.check_dates(index, quality.latest_today())
        if options.quality_checks:
            problems += quality.check_completeness(index)
        figures, found = load_figures(options.figures_file, shown_path(options.figures_file, root)
                                      if options.figures_file else "")
        problems += found
        diagrams, found = Diagrams.load(options.diagrams_dir, root)
        problems += found
        live = options.live_examples and ort is not None
        pages = Pages(urls=SiteUrls(options.use_directory_urls, options.site_url),
                      set_name=options.set_name, live=options.live_examples,
                      env=environment(str(options.custom_dir) if options.custom_dir else None),
                      wasm_digests=(wasm_digests(ort / "dist") if live and ort and
                                    options.persistent_cache else None),
                      wasm_sizes=wasm_sizes(ort / "dist") if live and ort else None,
                      figures=figures, browser_support=load_browser_support())
        for problem in problems:
            report(problem)
        return cls(options, root, report, index, catalog, packages, pages, diagrams)

    @property
    def urls(self) -> SiteUrls:
        return self.pages.urls

    # -- what a build adds -------------------------------------------------------------------

    def content(self, hand_written: Mapping[str, str] | None = None) -> SiteContent:
        """The generated pages and every static file. ``hand_written`` maps the site's own
        pages (docs-namespace path -> markdown) to their text: their titles name them in
        "Mentioned on", and a generated page must not take a path one of them has."""
        hand_written = hand_written or {}
        self._titles = {uri: backlink_lists.page_title(text, _fallback_title(uri))[0]
                        for uri, text in hand_written.items()}
        models = self.pages.model_pages(self.catalog, self.index.model_mentions(), self.index)
        pages = [GeneratedFile(uri, content=text) for uri, text in models.pages]
        self._static_links = dict(models.term_links)
        model_names = frozenset(self.catalog.models)
        for term in self.index.terms:
            page = self.pages.term_page(term, self.index, model_names)
            self._json_ld[term.src_uri] = page.json_ld
            # Fields and `related` are known now; the body's links come from its conversion.
            self._static_links[term.src_uri] = page.linked | {
                slug for slug in term.related if slug in self.index.by_slug}
            for problem in page.problems:
                self.report(problem)
            pages.append(GeneratedFile(term.src_uri, content=page.markdown,
                                       edit=self.root / term.path))
        # The index is made from all terms: there is no one file to edit, so no edit link.
        pages.append(GeneratedFile(GLOSSARY_INDEX_URI, content=self.pages.glossary_index(self.index)))
        entries = [machine_readable.Entry(e.name, e.page_uri, e.description)
                   for e in self.catalog.models.values()]
        pages.append(GeneratedFile(machine_readable.LLMS_TXT, content=machine_readable.llms_txt(
            self.options.site_name, self.options.site_description, self.index, entries, self.urls)))
        pages.append(GeneratedFile(OPTIONS_URI, content=options_page()))
        files = [GeneratedFile(uri, source=body) if isinstance(body, Path)
                 else GeneratedFile(uri, content=body) for uri, body in models.files]
        files += [GeneratedFile(uri, source=path)
                  for uri, path in assets.files(bool(self.catalog.models), self.packages, self.options)]
        return SiteContent(tuple(pages), tuple(files))

    def stylesheets(self) -> list[str]:
        return assets.stylesheets(self.options)

    def scripts(self) -> list[str]:
        """The plugin's scripts, every one a classic script, in the order pages load them."""
        return assets.javascript(self.options)

    def page_meta(self, src_uri: str) -> PageMeta:
        """The description and JSON-LD of a generated page (none for other pages)."""
        term = self.term_page(src_uri)
        if term is not None:
            return PageMeta(term.summary, self._json_ld.get(src_uri, ()))
        model = self.catalog.by_page(src_uri)
        if model is not None:
            return PageMeta(model.description)
        if src_uri == GLOSSARY_INDEX_URI:
            return PageMeta(None, (machine_readable.term_set_json_ld(
                self.index, self.options.set_name, GLOSSARY_INDEX_URI, self.urls),))
        return PageMeta()

    def theme_context(self) -> dict[str, Any]:
        """What the theme's template needs, as plain data (a host may serialise it)."""
        live = self.options.live_examples and bool(self.catalog.models)
        return {
            "live_examples": live,
            "isolation": self.options.cross_origin_isolation,
            # (specifier, site-relative path) pairs: the template puts the page's base_url in
            # front. Pairs, not a mapping, since every host's template engine can loop them.
            "imports": [list(pair) for pair in import_map(assets.ORT_URI)["imports"].items()]
            if live else [],
        }

    def term_page(self, src_uri: str) -> Term | None:
        """The term whose page has this path."""
        slug = term_slug_of(src_uri)
        return self.index.by_slug.get(slug) if slug else None

    # -- what the Markdown extension asks ---------------------------------------------------

    def embed(self, kind: str, name: str, from_uri: str | None) -> str | None:
        """HTML for ``[[model-card: NAME]]``, ``[[live-example: NAME]]``, ``[[figure-table: all]]``,
        ``[[browser-support: all]]`` or ``[[backend-rule: all]]``; None if no such model (or
        another name than ``all``)."""
        return self.pages.embed(self.catalog, kind, name, from_uri)

    def diagram(self, source: str) -> Markup | None:
        """A mermaid fence's drawing (its figure), or None when its text was never drawn."""
        return self.diagrams.figure(source)

    def undrawn_diagram(self, path: str, line: int | None) -> Problem:
        return Problem(path, line, self.diagrams.missing_message(self.root))

    def figure(self, key: str, from_uri: str | None) -> Markup | None:
        """``[[figure: KEY]]`` on a page: the newest measured value, linked; None if unknown."""
        return render_figure(self.pages.figures, key, from_uri, self.urls)

    def unknown_figure(self, path: str, line: int | None, key: str) -> Problem:
        return Problem(path, line, unknown_figure_message(key, self.pages.figures))

    def term_of(self, href: str, from_uri: str) -> tuple[Term | None, str | None]:
        """The term a link on ``from_uri`` points at, and the slug it names when that is no term
        (a link to ``glossary/<slug>.md`` that does not exist); (None, None) for other links."""
        target = link_target(href, from_uri)
        slug = term_slug_of(target) if target else None
        if slug is None:
            return None, None
        term = self.index.by_slug.get(slug)
        return term, None if term else slug

    def unknown_term(self, path: str, line: int | None, slug: str, href: str,
                     from_uri: str) -> Problem:
        return Problem(path, line, unknown_term_message(slug, href, from_uri, self.index))

    # -- after every page is converted --------------------------------------------------------

    def backlinks(self, converted: Mapping[str, Iterable[str]]) -> Backlinks:
        """Which pages link to each term: the links each converted page had (the Markdown
        extension records them), plus those of the generated pages and term fields."""
        found = Backlinks()
        pages: dict[str, set[str]] = {}
        for uri, fixed in self._static_links.items():
            pages.setdefault(uri, set()).update(fixed)
        for uri, slugs in converted.items():
            # Only what a person wrote counts: hand-written pages and term bodies, not the
            # glossary index or other generated lists, which link every term whatever it says.
            if uri in self._titles or self.term_page(uri) is not None:
                pages.setdefault(uri, set()).update(slugs)
        for uri, linked in pages.items():
            found.add(Mention(self._title(uri), uri), sorted(linked))
        return found

    def mentions(self, src_uri: str, backlinks: Backlinks) -> tuple[str, Markup]:
        """For a term page: its placeholder and the "Mentioned on" section that replaces it."""
        term = self.term_page(src_uri)
        if term is None:
            return "", Markup("")
        return mentions_slot(term.slug), self.pages.mentions(term, backlinks.of(term.slug), self.index)

    def orphans(self, backlinks: Backlinks) -> list[Problem]:
        return quality.check_orphans(self.index, backlinks)

    def _title(self, uri: str) -> str:
        term = self.term_page(uri)
        if term is not None:
            return term.title
        model = self.catalog.by_page(uri)
        if model is not None:
            return model.name
        return self._titles.get(uri) or _fallback_title(uri)

    def shown(self, path: Path | str) -> str:
        return shown_path(path, self.root)


def _fallback_title(src_uri: str) -> str:
    return src_uri.rsplit("/", 1)[-1].removesuffix(".md").replace("-", " ").capitalize()


def escaped_description(meta: PageMeta) -> str | None:
    """The description as Material's template needs it: it writes the value unescaped."""
    return html.escape(meta.description, quote=True) if meta.description is not None else None
