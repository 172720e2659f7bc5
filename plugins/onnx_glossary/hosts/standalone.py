"""The glossary and models loaded for a host that runs the Markdown extension without the MkDocs
plugin (Zensical, plain Python-Markdown): the extension's own options say where they are.

Loaded once per process and options, and again only when a file under the folders changes, so
a host that builds many pages (or serves and rebuilds) pays for it once. Pure: no MkDocs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from ..browser.packages import RuntimeSetupError, resolve
from ..common.problems import Problem
from ..common.urls import SiteUrls
from ..glossary.index import GlossaryIndex, load_glossary
from ..models.catalog import AnalysisCache, Catalog, SetupError, load_catalog
from ..render.pages import Pages

log = logging.getLogger("onnx_glossary")


@dataclass(frozen=True)
class Options:
    """The Markdown extension's options, resolved against the folder the host runs in."""

    glossary_dir: Path
    models_dir: Path | None
    site_url: str | None
    use_directory_urls: bool
    node_modules: Path
    cache_dir: Path
    live_examples: bool


@dataclass(frozen=True)
class Loaded:
    index: GlossaryIndex
    catalog: Catalog
    pages: Pages


_LOADED: dict[Options, tuple[float, Loaded]] = {}


def _fingerprint(options: Options) -> float:
    """The newest modification time under the folders: a change means load again."""
    newest = 0.0
    for folder in (options.glossary_dir, options.models_dir):
        if folder is not None and folder.is_dir():
            for path in folder.rglob("*"):
                newest = max(newest, path.stat().st_mtime)
    return newest


def load(options: Options) -> Loaded:
    """The glossary, the models and the page renderer for these options (cached)."""
    stamp = _fingerprint(options)
    cached = _LOADED.get(options)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    root = Path.cwd()
    problems: list[Problem] = []
    catalog = Catalog.empty()
    if options.models_dir is not None:
        try:
            # onnxruntime-web's operator table: from node_modules, else the checked cache.
            ort = resolve(["onnxruntime-web"], node_modules=options.node_modules, explicit=False,
                          root=root)
            for warning in ort.warnings:
                log.warning("%s", warning)
            catalog, found = load_catalog(options.models_dir, root, AnalysisCache(options.cache_dir),
                                          size_budget_bytes=50_000_000,
                                          node_modules=ort.roots["onnxruntime-web"].parent)
            problems.extend(found)
        except (SetupError, RuntimeSetupError) as error:
            log.error("%s", error)
    index, found = load_glossary(options.glossary_dir, root, model_names=sorted(catalog.models))
    problems.extend(found)
    for problem in problems:
        (log.info if problem.level == "info" else log.warning)("%s", problem)
    pages = Pages(urls=SiteUrls(options.use_directory_urls, options.site_url),
                  live=options.live_examples)
    loaded = Loaded(index, catalog, pages)
    _LOADED[options] = (stamp, loaded)
    return loaded
