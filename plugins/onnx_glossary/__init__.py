"""onnx-glossary: glossary term pages, ONNX model pages and in-browser live examples.

The public face is :data:`__all__`; everything else is internal and may change. The core
(:class:`Site`, built from one :class:`Options`) imports nothing from MkDocs; the hosts are thin
adapters over it: the MkDocs plugin (entry point ``glossary``), the Python-Markdown extension
(entry point ``onnx_glossary``, for Zensical and other hosts) and ``onnx-glossary generate``.
The names are loaded when first used, so importing one sub-module stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_PUBLIC = {
    "Finding": "common.problems",
    "Problem": "common.problems",
    "SetupError": "common.problems",
    "Options": "options",
    "OptionsError": "options",
    "GeneratedFile": "site",
    "PageMeta": "site",
    "Site": "site",
    "SiteContent": "site",
}

__all__ = ["__version__", *sorted(_PUBLIC)]


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        return getattr(import_module(f".{_PUBLIC[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
