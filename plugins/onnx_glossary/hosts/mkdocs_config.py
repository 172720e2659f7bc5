"""The plugin's typed configuration (``plugins: - glossary: ...`` in mkdocs.yml)."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


class GlossaryConfig(base.Config):
    """Options of the ``glossary`` plugin. Paths resolve against the folder of mkdocs.yml."""

    glossary_dir = c.Dir(exists=True, default="glossary")
    """Folder of term files, one ``<slug>.md`` per term."""

    models_dir = c.Optional(c.Dir(exists=True))
    """Folder of example models, one ``<name>/model.onnx`` per model. Unset: no model pages."""

    node_modules = c.Optional(c.Dir(exists=False))
    """A folder where ``npm ci`` put onnxruntime-web, mermaid and coi-serviceworker, at the
    versions the plugin pins. Unset: ``node_modules`` next to mkdocs.yml when it holds them,
    else the plugin downloads the pinned tarballs once into a per-user cache and checks them
    on every build."""

    set_name = c.Type(str, default="Glossary")
    """Name of the term set, used in structured data (schema.org ``DefinedTermSet``)."""

    quality_checks = c.Type(bool, default=True)
    """Check the editorial rules of docs/contributing.md: two sources from two sites, four
    facts, two mistakes, two questions per term; at most twelve terms per category."""

    model_size_budget_mb = c.Type(float, default=50.0)
    """A model larger than this is too big to ship to a browser: its page warns."""

    live_examples = c.Type(bool, default=True)
    """Add a Run widget to model pages (onnxruntime-web, loaded only when Run is pressed)."""

    persistent_cache = c.Type(bool, default=False)
    """Keep the runtime's ``.wasm``, the models and their reference outputs in the reader's
    browser across days (the Cache API), after the first Run. Each file is stored under its
    content hash, computed at build time, so a new build is never served stale; the widget
    shows how much is kept, with a button to clear it. Off: the browser's HTTP cache only."""

    cross_origin_isolation = c.Type(bool, default=False)
    """Install coi-serviceworker at the site root so hosts without COOP/COEP headers (GitHub
    Pages) get a cross-origin isolated page, hence WASM threads. Costs one reload on the first
    visit."""

    content_security_policy = c.Type(bool, default=False)
    """Put a Content-Security-Policy ``<meta>`` tag first in every page's head: scripts only from
    the site itself, plus the build's own inline scripts by hash; nothing from another origin.
    For hosts that send no headers (GitHub Pages). Left out under ``mkdocs serve``, whose
    live-reload script changes with every request."""

    cache_dir = c.Type(str, default=".cache/onnx-glossary")
    """Model analyses keyed by file content hash, relative to mkdocs.yml."""
