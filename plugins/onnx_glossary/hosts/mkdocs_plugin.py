"""The MkDocs adapter: thin hooks that call the core modules.

Data flows one way: files (``glossary/``, ``models/``) -> parsed objects (``glossary``,
``catalog``) -> rendered markdown (``render``) -> MkDocs pages -> site assets. Nothing here
writes into ``glossary/``, ``docs/`` or ``models/``: generated pages are virtual files.
"""

from __future__ import annotations

import html
import mimetypes
import os
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from ..browser import assets, csp
from ..browser import packages as runtime_packages
from ..browser.runtime import import_map, wasm_digests, wasm_sizes
from ..common.paths import shown_path
from ..common.problems import Problem
from ..common.urls import SiteUrls
from ..glossary import backlinks, quality
from ..glossary.backlinks import Backlinks, Mention
from ..glossary.index import GlossaryIndex, Term, check_term_links, load_glossary
from ..hosts.markdown_ext import GlossaryExtension, SiteContext
from ..hosts.mkdocs_config import GlossaryConfig
from ..models import catalog
from ..render import machine_readable, options_page
from ..render.environment import environment
from ..render.pages import GLOSSARY_INDEX_URI, Pages

# Only for the annotation: the server module imports watchdog, wsgiref and http.server, which a
# build does not need (10 ms).
if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

log = get_plugin_logger(__name__)

THEME_DIR = Path(__file__).resolve().parent.parent / "theme"
# How mkdocs.yml can name the Markdown extension (entry point, module path).
EXTENSION_NAMES = ("onnx_glossary", "onnx_glossary.hosts.markdown_ext")


class GlossaryPlugin(BasePlugin[GlossaryConfig]):
    """Glossary term pages, an A-Z index, model pages and live examples."""

    def __init__(self) -> None:
        self.context = SiteContext(report=self._warn, tips_outside=True)
        self.index = GlossaryIndex.of(())
        self.catalog = catalog.Catalog.empty()
        self.analysis_cache = catalog.AnalysisCache(None)
        self.terms_by_uri: dict[str, Term] = {}
        self.json_ld: dict[str, tuple[dict[str, Any], ...]] = {}
        self.root = Path.cwd()
        self.node_modules = Path("node_modules")
        self.packages: dict[str, Path] = {}
        self.pages = Pages()
        self.existing: dict[str, File] = {}
        self.serving = False

    # -- set-up -----------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Model analyses survive `mkdocs serve` rebuilds: the plugin object is kept between
        # them when it is created at start-up, and the on-disk cache survives restarts.
        self.analysis_cache = catalog.AnalysisCache(None)
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path or ".").resolve().parent
        self.node_modules = Path(self.config.node_modules or self.root / "node_modules")
        self._resolve_packages()
        self.analysis_cache.directory = self.root / self.config.cache_dir
        self.pages = Pages(urls=SiteUrls(config.use_directory_urls, config.site_url),
                           set_name=self.config.set_name, live=self.config.live_examples,
                           env=environment(config.theme.custom_dir),
                           wasm_digests=self._wasm_digests(), wasm_sizes=self._wasm_sizes())
        # A site may also list the extension (other hosts need it): the plugin's instance,
        # which shares the plugin's loaded glossary, replaces it, so nothing loads twice.
        for name in EXTENSION_NAMES:
            while name in config.markdown_extensions:
                config.markdown_extensions.remove(name)
            config.mdx_configs.pop(name, None)
        config.markdown_extensions.append(GlossaryExtension(self.context))  # type: ignore[arg-type]
        # Generated pages set ids and classes with attr_list; a minimal mkdocs.yml lacks it.
        if "attr_list" not in config.markdown_extensions:
            config.markdown_extensions.append("attr_list")
        config.theme.dirs.insert(1 if config.theme.custom_dir else 0, str(THEME_DIR))
        config.extra_css.extend(assets.stylesheets(self.config))
        config.extra_javascript.extend(assets.javascript(self.config))
        # `mkdocs serve` types .mjs itself but guesses .wasm from the OS tables, which may
        # lack it: a .wasm sent as anything else is fetched twice, with two console errors.
        mimetypes.add_type("application/wasm", ".wasm")
        return config

    # -- content ------------------------------------------------------------------------------

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        # Files.append invalidates its lookup table: index the sources once, not per page.
        self.existing = {file.src_uri: file for file in files}
        self._load_models()
        self._load_glossary()
        # Model pages first: they record which terms their labels link to, for "Mentioned on".
        self._add_model_pages(files, config)
        self._add_term_pages(files, config, self._backlinks(files))
        models = [machine_readable.Entry(e.name, e.page_uri, e.description)
                  for e in self.catalog.models.values()]
        self._add(files, config, machine_readable.LLMS_TXT, machine_readable.llms_txt(
            config.site_name, config.site_description or "", self.index, models, self.pages.urls))
        try:  # the option reference, made from the config class so it cannot drift
            self._add(files, config, options_page.OPTIONS_URI, options_page.options_page(
                GlossaryConfig, GlossaryExtension().config))
        except ValueError as error:
            raise PluginError(str(error)) from None
        for src_uri, source in assets.files(self.catalog, self.packages, self.config):
            self._add(files, config, src_uri, source)
        return files

    def on_page_markdown(self, markdown: str, /, *, page: Page, config: MkDocsConfig,
                         files: Files) -> str:
        self.context.current_uri = page.file.src_uri
        self.context.page_tips = ""
        term = self.terms_by_uri.get(page.file.src_uri)
        if term is not None:
            self.context.current_path = term.path
            # The body sits inside the generated page; map its lines back to the term file.
            self.context.line_offset = term.body_line - 1 - _lines_before(term.body, markdown)
            # Material writes page.meta.description into an attribute without escaping it.
            page.meta["description"] = html.escape(term.summary, quote=True)
            page.meta["onnx_glossary_jsonld"] = self.json_ld.get(term.src_uri, ())
            return markdown
        self.context.current_path = (shown_path(page.file.abs_src_path, self.root)
                                     if page.file.abs_src_path else page.file.src_uri)
        self.context.line_offset = 0
        if page.file.src_uri == GLOSSARY_INDEX_URI:
            page.meta["onnx_glossary_jsonld"] = (machine_readable.term_set_json_ld(
                self.index, self.config.set_name, GLOSSARY_INDEX_URI, self.pages.urls),)
        model = self.catalog.by_page(page.file.src_uri)
        if model is not None:
            page.meta["description"] = html.escape(model.description, quote=True)
        if not page.file.generated_by:
            # MkDocs hands over the markdown without its front matter: find where it starts.
            self.context.line_offset = _lines_before(markdown, page.file.content_string)
            self._warn_all(check_term_links(markdown, page.file.src_uri, self.index,
                                            self.context.current_path,
                                            self.context.line_offset + 1))
        return markdown

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig,
                        files: Files) -> str:
        # The theme writes them after the content: search, which reads every page's content,
        # has no need to parse them (they are excluded from its index anyway).
        page.meta["onnx_glossary_tips"] = self.context.page_tips
        return html

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> Environment:
        env.globals["onnx_glossary"] = {
            "live_examples": self.config.live_examples and bool(self.catalog.models),
            "isolation": self.config.cross_origin_isolation,
            # The theme calls it with the page's base_url: one map, serialised with tojson.
            "import_map": lambda base_url: import_map(f"{base_url}/{assets.ORT_URI}"),
        }
        return env

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.content_security_policy:
            return
        if self.serving:  # livereload's inline script differs per request: no hash can match
            log.info("Content-Security-Policy left out under `mkdocs serve` (live reload)")
            return
        applied = csp.apply_to_site(Path(config.site_dir))
        log.info(f"Content-Security-Policy in {applied.pages} pages, "
                 f"{applied.scripts} inline scripts allowed by hash")

    def on_serve(self, server: LiveReloadServer, /, *, config: MkDocsConfig,
                 builder: Any) -> LiveReloadServer:
        server.watch(str(self.config.glossary_dir))
        if self.config.models_dir:
            server.watch(str(self.config.models_dir))
        return server

    # -- steps of on_files ------------------------------------------------------------------

    def _resolve_packages(self) -> None:
        """The browser packages from node_modules, else the checked per-user cache."""
        try:
            resolved = runtime_packages.resolve(
                assets.needed_packages(self.config), node_modules=self.node_modules,
                explicit=bool(self.config.node_modules), root=self.root, inform=log.info)
        except runtime_packages.RuntimeSetupError as error:
            raise PluginError(str(error)) from None
        for warning in resolved.warnings:
            log.warning(warning)
        self.packages = resolved.roots
        if "onnxruntime-web" in self.packages:  # its parent holds it, like a node_modules
            self.node_modules = self.packages["onnxruntime-web"].parent

    def _wasm_digests(self) -> dict[str, str] | None:
        """With persistent_cache on, the content hashes of the runtime's .wasm files."""
        ort = self.packages.get("onnxruntime-web")
        if not (self.config.persistent_cache and self.config.live_examples and ort):
            return None
        return wasm_digests(ort / "dist")

    def _wasm_sizes(self) -> dict[str, int] | None:
        """The sizes of the runtime's .wasm files, when the site publishes them."""
        ort = self.packages.get("onnxruntime-web")
        return wasm_sizes(ort / "dist") if self.config.live_examples and ort else None

    def _load_models(self) -> None:
        models_dir = Path(self.config.models_dir) if self.config.models_dir else None
        try:
            self.catalog, problems = catalog.load_catalog(
                models_dir, self.root, self.analysis_cache,
                size_budget_bytes=int(self.config.model_size_budget_mb * 1_000_000),
                node_modules=self.node_modules)
        except catalog.SetupError as error:
            raise PluginError(str(error)) from None
        self._warn_all(problems)

    def _load_glossary(self) -> None:
        self.index, problems = load_glossary(Path(self.config.glossary_dir), self.root,
                                             model_names=sorted(self.catalog.models))
        problems.extend(quality.check_dates(self.index, quality.latest_today()))
        if self.config.quality_checks:
            problems.extend(quality.check_completeness(self.index))
        self._warn_all(problems)
        self.context.index = self.index
        self.context.embed = self._embed
        self.terms_by_uri = {term.src_uri: term for term in self.index.terms}

    def _backlinks(self, files: Files) -> Backlinks:
        links = Backlinks()
        backlinks.add_terms(links, self.index)
        for src_uri, slugs in self.pages.model_term_links.items():
            entry = self.catalog.by_page(src_uri)
            links.add(Mention(entry.name if entry else src_uri, src_uri), slugs)
        for file in files.documentation_pages():
            if not file.generated_by:
                backlinks.add_page(links, file.src_uri, file.content_string, self.index)
        self._warn_all(quality.check_orphans(self.index, links))
        return links

    def _add_term_pages(self, files: Files, config: MkDocsConfig, links: Backlinks) -> None:
        model_names = frozenset(self.catalog.models)
        self.json_ld = {}
        for term in self.index.terms:
            page = self.pages.term_page(term, self.index, model_names, links.of(term.slug))
            self.json_ld[term.src_uri] = page.json_ld
            self._add(files, config, term.src_uri, page.markdown, edit=self.root / term.path)
        # The index is made from all terms: there is no one file to edit, so no edit link.
        self._add(files, config, GLOSSARY_INDEX_URI, self.pages.glossary_index(self.index))

    def _add_model_pages(self, files: Files, config: MkDocsConfig) -> None:
        for src_uri, content in self.pages.model_files(self.catalog, self.index.model_mentions(),
                                                       self.index):
            self._add(files, config, src_uri, content)

    # -- helpers -----------------------------------------------------------------------------

    def _embed(self, kind: str, name: str, from_uri: str) -> str | None:
        return self.pages.embed(self.catalog, kind, name, from_uri)

    def _add(self, files: Files, config: MkDocsConfig, src_uri: str, content: str | bytes | Path,
             edit: Path | None = None) -> None:
        existing = self.existing.get(src_uri)
        if existing is not None and not existing.generated_by:
            raise PluginError(f"{Path(config.docs_dir, src_uri)} clashes with a page the glossary "
                              f"plugin generates at {src_uri}: move or rename it")
        if existing is not None:
            files.remove(existing)
        if isinstance(content, Path):
            file = File.generated(config, src_uri, abs_src_path=str(content))
        else:
            file = File.generated(config, src_uri, content=content)
        if edit is not None:
            file.edit_uri = posixpath.normpath(os.path.relpath(edit, config.docs_dir)).replace(os.sep, "/")
        files.append(file)
        self.existing[src_uri] = file

    def _warn(self, problem: Problem) -> None:
        if problem.level == "info":
            log.info(str(problem))
        else:
            log.warning(str(problem))

    def _warn_all(self, problems: list[Problem]) -> None:
        for problem in problems:
            self._warn(problem)


def _lines_before(text: str, within: str) -> int:
    """How many lines of ``within`` precede ``text`` (0 when it cannot be found).

    Warnings then name lines of the file a contributor edits, not of the text MkDocs converts
    (which lacks the front matter, or holds a term body inside a generated page).
    """
    at = within.find(text[:200]) if text.strip() else -1
    return within.count("\n", 0, at) if at > 0 else 0
