"""Fixtures shared across test modules."""

from __future__ import annotations

import pytest

from .sitebuild import REPO, Built, build_site


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The project's own site, built once with --strict (a warning fails the session)."""
    built = build_site(REPO / "mkdocs.yml", strict=True, site_dir=tmp_path_factory.mktemp("real") / "site")
    assert not built.aborted, "\n".join(built.warnings)
    return built
