"""Which static files the site needs, and where they come from (package or node_modules).

Everything is self-hosted: the built site loads nothing from another origin.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Protocol

from ..common.paths import PACKAGE_DIR
from ..common.problems import SetupError
from .runtime import runtime_files


class Wanted(Protocol):
    """What decides the files a site needs (:class:`onnx_glossary.options.Options` has it)."""

    @property
    def live_examples(self) -> bool: ...
    @property
    def cross_origin_isolation(self) -> bool: ...
    @property
    def models_dir(self) -> Path | None: ...

PACKAGE_ASSETS = PACKAGE_DIR / "assets"
ASSET_URI = "assets/onnx_glossary/"
CSS_URI = ASSET_URI + "glossary.css"
LIVE_CSS_URI = ASSET_URI + "live-example.css"
ORT_URI = "assets/ort/"


def stylesheets(config: Wanted) -> list[str]:
    return [CSS_URI, LIVE_CSS_URI] if config.live_examples else [CSS_URI]


def javascript(config: Wanted) -> list[str]:
    """Scripts for every page: each is a few KB, and fetches its runtime only when used."""
    scripts = [ASSET_URI + "term-tips.js", ASSET_URI + "scroll-boxes.js"]
    if config.live_examples:
        # The capability check (ES2017) adds live-example.js itself, only where it can run.
        scripts.append(ASSET_URI + "live-example-check.js")
        # Unfolds the widget's code, kept out of the page until a reader asks (ES2017 too).
        scripts.append(ASSET_URI + "unfold.js")
    return scripts


def needed_packages(config: Wanted) -> list[str]:
    """The browser packages this site's options need (see runtime_packages)."""
    names = []
    if config.models_dir:  # model analysis reads onnxruntime-web's operator table
        names.append("onnxruntime-web")
    if config.cross_origin_isolation:
        names.append("coi-serviceworker")
    return names


def files(has_models: bool, packages: Path | Mapping[str, Path],
          config: Wanted) -> Iterator[tuple[str, Path]]:
    """(site path, source file) for every static file the plugin adds to the site.

    ``packages`` maps a package name to its folder, or is a node_modules folder holding them.
    """
    for path in sorted(PACKAGE_ASSETS.iterdir()):
        if path.is_file():
            yield ASSET_URI + path.name, path
    if isinstance(packages, Path):
        packages = {name: packages / name for name in ("onnxruntime-web", "coi-serviceworker")}
    if config.live_examples and has_models:
        ort = _require(packages, "onnxruntime-web", "dist", "live examples")
        for name in runtime_files():
            yield ORT_URI + name, ort / name
    if config.cross_origin_isolation:
        coi = _require(packages, "coi-serviceworker", "", "cross_origin_isolation")
        # It must sit at the site root: from a sub-folder its scope misses the pages and the
        # page reloads forever.
        yield "coi-serviceworker.js", coi / "coi-serviceworker.js"


def _require(packages: Mapping[str, Path], name: str, sub: str, needed_for: str) -> Path:
    path = packages.get(name, Path("node_modules", name)) / sub
    if not path.is_dir():
        raise SetupError(f"{path} is missing, and {needed_for} need it: run 'npm ci' in the "
                          "project folder (the README's set-up does)")
    return path
