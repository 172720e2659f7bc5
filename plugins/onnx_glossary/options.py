"""Every option of the glossary, declared once.

:class:`Options` is the one declaration: the MkDocs plugin's config class, the Markdown
extension's config, ``onnx-glossary generate``'s arguments and the option reference page are
all made from its fields (:func:`option_fields`), so none of them can drift from the others.

Two scopes: a ``plugin`` option is written under ``plugins: - glossary:`` in mkdocs.yml (and,
for hosts without plugins, as an option of the ``onnx_glossary`` Markdown extension); a ``site``
option is one MkDocs already has at the top of mkdocs.yml (``site_url``...), which the plugin
takes from there and the extension takes as its own option. Pure: no MkDocs imports.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Scope = Literal["plugin", "site"]
#: What an option holds, for readers (the reference page) and for each host's type checks.
Kind = Literal["folder", "file", "text", "flag", "number"]


@dataclass(frozen=True)
class OptionField:
    """One option: its name, default, kind, scope and the sentence that documents it."""

    name: str
    default: Any
    kind: Kind
    scope: Scope
    doc: str
    must_exist: bool = False  # a folder that must exist when it is set

    @property
    def optional(self) -> bool:
        return self.default is None


def _option(default: Any, kind: Kind, doc: str, *, scope: Scope = "plugin",
            must_exist: bool = False) -> Any:
    return field(default=default, metadata={"kind": kind, "scope": scope, "doc": doc,
                                            "must_exist": must_exist})


class OptionsError(ValueError):
    """An option with a value of the wrong kind; the message names the option."""


@dataclass(frozen=True)
class Options:
    """The glossary's options, with folders resolved against the project's root."""

    glossary_dir: Path = _option(Path("glossary"), "folder", """
        Folder of term files, one ``<slug>.md`` per term.""", must_exist=True)
    models_dir: Path | None = _option(None, "folder", """
        Folder of example models, one ``<name>/model.onnx`` per model. Unset: no model
        pages.""", must_exist=True)
    node_modules: Path | None = _option(None, "folder", """
        A folder where ``npm ci`` put onnxruntime-web and coi-serviceworker, at the
        versions the plugin pins. Unset: ``node_modules`` next to mkdocs.yml when it holds
        them, else the plugin downloads the pinned tarballs once into a per-user cache and
        checks them on every build.""")
    set_name: str = _option("Glossary", "text", """
        Name of the term set, used in structured data (schema.org ``DefinedTermSet``).""")
    quality_checks: bool = _option(True, "flag", """
        Check the editorial rules of docs/contributing.md: two sources from two sites, four
        facts, two mistakes, two questions per term; at most twelve terms per category.""")
    model_size_budget_mb: float = _option(50.0, "number", """
        A model larger than this is too big to ship to a browser: its page warns.""")
    live_examples: bool = _option(True, "flag", """
        Add a Run widget to model pages (onnxruntime-web, loaded only when Run is
        pressed).""")
    persistent_cache: bool = _option(False, "flag", """
        Keep the runtime's ``.wasm``, the models and their reference outputs in the reader's
        browser across days (the Cache API), after the first Run. Each file is stored under
        its content hash, computed at build time, so a new build is never served stale; the
        widget shows how much is kept, with a button to clear it. Off: the browser's HTTP
        cache only.""")
    cross_origin_isolation: bool = _option(False, "flag", """
        Install coi-serviceworker at the site root so hosts without COOP/COEP headers
        (GitHub Pages) get a cross-origin isolated page, hence WASM threads. Costs one reload
        on the first visit.""")
    content_security_policy: bool = _option(False, "flag", """
        Put a Content-Security-Policy ``<meta>`` tag first in every page's head: scripts only
        from the site itself, plus the build's own inline scripts by hash; nothing from another
        origin. For hosts that send no headers (GitHub Pages). Left out under ``mkdocs
        serve``, whose live-reload script changes with every request.""")
    figures_file: Path | None = _option(None, "file", """
        The benchmarks' data file (JSON, one record per run): ``[[figure: KEY]]`` in a page
        prints the newest value of KEY from it, linked to the page that explains it. Unset:
        a figure in a page is an error.""", must_exist=True)
    diagrams_dir: Path = _option(Path("diagrams"), "folder", """
        The SVG drawings of the site's mermaid fences, made ahead of time by
        ``scripts/render_diagrams.py`` and committed, relative to mkdocs.yml: a fence is shown
        as its drawing, so the build needs no Node and no browser, and a reader never sees the
        diagram's source. A fence with no drawing of its current text is a warning.""")
    cache_dir: Path = _option(Path(".cache/onnx-glossary"), "folder", """
        Model analyses keyed by file content hash, relative to mkdocs.yml.""")

    site_url: str | None = _option(None, "text", """
        The published address (``site_url``); its path prefixes links where the page being
        converted is unknown, and it makes the absolute addresses of structured data.""",
                                   scope="site")
    use_directory_urls: bool = _option(True, "flag", """
        Pages live at ``a/b/`` (true) or ``a/b.html`` (false), as ``use_directory_urls``
        says.""", scope="site")
    custom_dir: Path | None = _option(None, "folder", """
        The theme's ``custom_dir``: templates in its ``onnx_glossary/`` folder replace the
        plugin's own.""", scope="site")
    site_name: str = _option("", "text", """
        The site's name (``site_name``), the title of ``llms.txt``.""", scope="site")
    site_description: str = _option("", "text", """
        The site's description (``site_description``), the summary of ``llms.txt``.""",
                                    scope="site")

    # -- made from other values ----------------------------------------------------------------

    @classmethod
    def from_values(cls, values: Mapping[str, Any], root: Path) -> Options:
        """Options from a host's plain values (strings, booleans, numbers), folders resolved
        against ``root``; an empty string means unset. Unknown names are an error."""
        fields = {f.name: f for f in option_fields()}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise OptionsError(f"unknown glossary option(s) {', '.join(unknown)}: the options are "
                               f"{', '.join(fields)}")
        given: dict[str, Any] = {}
        for name, value in values.items():
            given[name] = _convert(fields[name], value, root)
        for name in ("glossary_dir", "cache_dir", "diagrams_dir"):  # defaults are relative to the root too
            if name not in given:
                given[name] = root / fields[name].default
        return cls(**given)

    def replace(self, **changes: Any) -> Options:
        return dataclasses.replace(self, **changes)

    @property
    def size_budget_bytes(self) -> int:
        return int(self.model_size_budget_mb * 1_000_000)


def option_fields(scope: Scope | None = None) -> list[OptionField]:
    """The declared options in source order, all of them or those of one scope."""
    out = []
    for item in dataclasses.fields(Options):
        meta = item.metadata
        doc = " ".join(meta["doc"].split())
        default = item.default
        found = OptionField(item.name, default, meta["kind"], meta["scope"], doc, meta["must_exist"])
        if scope is None or found.scope == scope:
            out.append(found)
    return out


def plain_default(option: OptionField) -> Any:
    """The default as YAML and argparse write it: a path as text, unset as None."""
    return str(option.default) if isinstance(option.default, Path) else option.default


def _convert(option: OptionField, value: Any, root: Path) -> Any:
    if value is None or (value == "" and option.kind in ("folder", "file", "text") and option.optional):
        return None if option.optional else option.default
    if option.kind in ("folder", "file"):
        if not isinstance(value, str | Path):
            raise OptionsError(f"glossary option '{option.name}' must be a {option.kind} path, "
                               f"not {value!r}")
        path = Path(value)
        return path if path.is_absolute() else (root / path)
    if option.kind == "flag":
        if not isinstance(value, bool):
            raise OptionsError(f"glossary option '{option.name}' must be true or false, not {value!r}")
        return value
    if option.kind == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionsError(f"glossary option '{option.name}' must be a number, not {value!r}")
        return float(value)
    if not isinstance(value, str):
        raise OptionsError(f"glossary option '{option.name}' must be text, not {value!r}")
    return value
