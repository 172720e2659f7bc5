"""The MkDocs adapter: MkDocs' configuration becomes :class:`~onnx_glossary.options.Options`,
and each hook hands one step to :class:`~onnx_glossary.site.Site`.

Nothing here writes into ``glossary/``, ``docs/`` or ``models/``: generated pages are virtual
files. A term page's "Mentioned on" list is known only once every page is converted (the
Markdown extension records each page's term links), so it is filled in ``on_env``, before any
page is written or indexed for search.
"""

from __future__ import annotations

import mimetypes
import os
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from jinja2 import Environment
from mkdocs.config import base
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink

from ..browser import csp
from ..common.paths import PACKAGE_DIR, shown_path
from ..common.problems import Problem, SetupError
from ..models.catalog import AnalysisCache
from ..options import Options, option_fields
from ..site import GeneratedFile, Site, escaped_description
from .markdown_ext import GlossaryExtension, PageContext
from .mkdocs_config import GlossaryConfig

# Only for the annotation: the server module imports watchdog, wsgiref and http.server, which a
# build does not need (10 ms).
if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

log = get_plugin_logger(__name__)

THEME_DIR = PACKAGE_DIR / "theme"
# How mkdocs.yml can name the Markdown extension (entry point, module path).
EXTENSION_NAMES = ("onnx_glossary", "onnx_glossary.hosts.markdown_ext")


def options_of(plugin_config: base.Config, config: MkDocsConfig) -> Options:
    """The glossary's Options from mkdocs.yml: the plugin's own options, and the site's."""
    root = Path(config.config_file_path or ".").resolve().parent
    values: dict[str, Any] = {f.name: plugin_config[f.name] for f in option_fields("plugin")}
    values.update(site_url=config.site_url or "", use_directory_urls=config.use_directory_urls,
                  custom_dir=config.theme.custom_dir or "", site_name=config.site_name,
                  site_description=config.site_description or "")
    return Options.from_values(values, root)


class GlossaryPlugin(BasePlugin[GlossaryConfig]):  # type: ignore[valid-type]
    """Glossary term pages, an A-Z index, model pages and live examples."""

    def __init__(self) -> None:
        self.context = PageContext(report=self._report, tips_outside=True)
        self.site: Site | None = None
        self.analysis_cache = AnalysisCache(None)
        self.root = Path.cwd()
        self.existing: dict[str, File] = {}
        self.generated: set[str] = set()  # the files the plugin adds, by source path
        self.term_pages: dict[str, Page] = {}
        self.serving = False
        self._told_serve = False

    # -- set-up -----------------------------------------------------------------------------

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Model analyses survive `mkdocs serve` rebuilds: the plugin object is kept between
        # them when it is created at start-up, and the on-disk cache survives restarts.
        self.analysis_cache = AnalysisCache(None)
        self.serving = command == "serve"
        self._told_serve = False

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path or ".").resolve().parent
        try:
            self.site = Site.load(options_of(self.config, config), self.root, self._report,
                                  inform=log.info, analysis_cache=self.analysis_cache)
        except (SetupError, ValueError) as error:
            raise PluginError(str(error)) from None
        self.context.site = self.site
        self.context.links = {}
        self.term_pages = {}
        # A site may also list the extension (other hosts need it): the plugin's instance,
        # which shares the plugin's loaded site, replaces it, so nothing loads twice.
        for name in EXTENSION_NAMES:
            while name in config.markdown_extensions:
                config.markdown_extensions.remove(name)
            config.mdx_configs.pop(name, None)
        config.markdown_extensions.append(GlossaryExtension(self.context))  # type: ignore[arg-type]
        # Generated pages set ids and classes with attr_list; a minimal mkdocs.yml lacks it.
        if "attr_list" not in config.markdown_extensions:
            config.markdown_extensions.append("attr_list")
        config.theme.dirs.insert(1 if config.theme.custom_dir else 0, str(THEME_DIR))
        config.extra_css.extend(self.site.stylesheets())
        config.extra_javascript.extend(_deferred(path) for path in self.site.scripts())
        # `mkdocs serve` types .mjs itself but guesses .wasm from the OS tables, which may
        # lack it: a .wasm sent as anything else is fetched twice, with two console errors.
        mimetypes.add_type("application/wasm", ".wasm")
        return config

    # -- content ------------------------------------------------------------------------------

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        site = self._site()
        # Files.append invalidates its lookup table: index the sources once, not per page.
        self.existing = {file.src_uri: file for file in files}
        self.generated = set()
        hand_written = {f.src_uri: f.content_string for f in files.documentation_pages()
                        if not f.generated_by}
        try:
            content = site.content(hand_written)
        except (SetupError, ValueError) as error:
            raise PluginError(str(error)) from None
        for generated in (*content.pages, *content.files):
            self._add(files, config, generated)
        return files

    def on_page_markdown(self, markdown: str, /, *, page: Page, config: MkDocsConfig,
                         files: Files) -> str:
        site = self._site()
        uri = page.file.src_uri
        meta = site.page_meta(uri)
        if meta.description is not None:
            # Material writes page.meta.description into an attribute without escaping it.
            page.meta["description"] = escaped_description(meta)
        if meta.json_ld:
            page.meta["onnx_glossary_jsonld"] = meta.json_ld
        if site.term_page(uri) is not None:
            self.term_pages[uri] = page
        source = None if page.file.generated_by else page.file.abs_src_path
        self.context.begin_page(uri, markdown,
                                file_text=page.file.content_string if source else None,
                                shown=shown_path(source, self.root) if source else None,
                                generated=uri in self.generated)
        return markdown

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig,
                        files: Files) -> str:
        # The theme writes them after the content: search, which reads every page's content,
        # has no need to parse them (they are excluded from its index anyway).
        page.meta["onnx_glossary_tips"] = self.context.page_tips
        return html

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> Environment:
        site = self._site()
        # Every page is converted: each term page's "Mentioned on" can be made now.
        backlinks = site.backlinks(self.context.links)
        for uri, page in self.term_pages.items():
            slot, section = site.mentions(uri, backlinks)
            if page.content is not None:
                page.content = page.content.replace(slot, str(section))
                # The section's term chips point at hidden short answers too: the page's set
                # is made again from the whole content, or their aria-describedby dangles.
                page.meta["onnx_glossary_tips"] = self.context.tip_pool(page.content, site.index)
            if section and page.toc is not None:
                _append_to_toc(page, AnchorLink("Mentioned on", "mentioned-on", 2))
        for problem in site.orphans(backlinks):
            self._report(problem)
        env.globals["onnx_glossary"] = site.theme_context()
        return env

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self._site().options.content_security_policy:
            return
        if self.serving:  # livereload's inline script differs per request: no hash can match
            # Said once, not on every rebuild: what a contributor needs to know is that
            # `mkdocs build` (make build) is where the policy can be tried.
            (log.debug if self._told_serve else log.info)(
                "Content-Security-Policy left out under `mkdocs serve` (live reload); "
                "`make build` applies it")
            self._told_serve = True
            return
        applied = csp.apply_to_site(Path(config.site_dir))
        # A summary with nothing to do: shown with --verbose.
        log.debug(f"Content-Security-Policy in {applied.pages} pages, "
                  f"{applied.scripts} inline scripts allowed by hash")

    def on_serve(self, server: LiveReloadServer, /, *, config: MkDocsConfig,
                 builder: Any) -> LiveReloadServer:
        options = self._site().options
        server.watch(str(options.glossary_dir))
        if options.models_dir:
            server.watch(str(options.models_dir))
        return server

    # -- helpers -----------------------------------------------------------------------------

    def _site(self) -> Site:
        if self.site is None:
            raise PluginError("the glossary plugin was not configured (on_config did not run)")
        return self.site

    def _add(self, files: Files, config: MkDocsConfig, generated: GeneratedFile) -> None:
        src_uri = generated.src_uri
        existing = self.existing.get(src_uri)
        if existing is not None and not existing.generated_by:
            raise PluginError(f"{Path(config.docs_dir, src_uri)} clashes with a page the glossary "
                              f"plugin generates at {src_uri}: move or rename it")
        if existing is not None:
            files.remove(existing)
        if generated.source is not None:
            file = File.generated(config, src_uri, abs_src_path=str(generated.source))
        else:
            file = File.generated(config, src_uri, content=generated.content or "")
        if generated.edit is not None:
            file.edit_uri = posixpath.normpath(
                os.path.relpath(generated.edit, config.docs_dir)).replace(os.sep, "/")
        files.append(file)
        self.existing[src_uri] = file
        self.generated.add(src_uri)

    def _report(self, problem: Problem) -> None:
        if problem.level == "debug":
            log.debug(str(problem))
        elif problem.level == "info":
            log.info(str(problem))
        else:
            log.warning(str(problem))


def _append_to_toc(page: Page, entry: AnchorLink) -> None:
    """Add a last section to a page's table of contents, under its title when it has one."""
    items = page.toc.items
    if items and items[-1].level < entry.level:
        items[-1].children.append(entry)
    else:
        items.append(entry)


def _deferred(path: str) -> ExtraScriptValue:
    """One of the plugin's scripts as the page loads it: deferred, so that it waits for neither
    the download nor the run of any of them before it first paints (each runs after the
    document is parsed, in order, after Material's own bundle)."""
    script = ExtraScriptValue(path)
    script.defer = True
    return script
