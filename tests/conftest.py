"""Fixtures shared across test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .sitebuild import REPO, Built, build_site
from .support.browser import BROWSER_ALLOWED, StaticServer, chromium


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A browser may be opened only by a test marked ``browser`` and its fixtures (set before
    any fixture of the test is made, whatever its scope)."""
    BROWSER_ALLOWED["now"] = item.get_closest_marker("browser") is not None


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The project's own site, built once with --strict (a warning fails the session)."""
    built = build_site(REPO / "mkdocs.yml", strict=True, site_dir=tmp_path_factory.mktemp("real") / "site")
    assert not built.aborted, "\n".join(built.warnings)
    return built


@pytest.fixture(scope="session")
def instant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """The site built for the very URL it is served at.

    Material only intercepts links whose URL is in sitemap.xml, after swapping in the page's
    protocol and host but not its port: on a random localhost port instant navigation is off
    unless site_url names that port. (`mkdocs serve` sets site_url to its address likewise.)
    """
    site = tmp_path_factory.mktemp("instant")
    with StaticServer(site, "/repo/") as server:
        built = build_site(REPO / "mkdocs.yml", strict=True, site_dir=site, site_url=server.url)
        assert not built.aborted, built.warnings
        yield server


@pytest.fixture(scope="module")
def server(real_site: Built) -> Iterator[StaticServer]:
    """The project's site served under the sub-path it has on GitHub Pages."""
    with StaticServer(real_site.site, prefix="/onnx-glossary/") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless system Chromium for a test module."""
    with chromium() as running:
        yield running
