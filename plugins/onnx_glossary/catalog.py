"""Example models: analysis (cached by content hash), reference data, pages and embeds."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .problems import Problem


@dataclass
class ModelEntry:
    name: str


@dataclass
class Catalog:
    models: dict[str, ModelEntry] = field(default_factory=dict)

    @classmethod
    def empty(cls) -> Catalog:
        return cls()


class AnalysisCache:
    def __init__(self, directory: Path | None) -> None:
        self.directory = directory


def load_catalog(models_dir: Path | None, root: Path, cache: AnalysisCache, *,
                 size_budget_bytes: int, node_modules: Path) -> tuple[Catalog, list[Problem]]:
    return Catalog.empty(), []


def generated_files(catalog: Catalog, *, use_directory_urls: bool,
                    live: bool) -> Iterator[tuple[str, Any]]:
    return iter(())


def render_embed(catalog: Catalog, kind: str, name: str, from_uri: str, *,
                 use_directory_urls: bool, live: bool) -> str | None:
    return None
