"""The opt-in coi-serviceworker on a host without COOP/COEP headers (like GitHub Pages): one
reload on the first visit, then an isolated page with WebAssembly threads, and never a loop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .sitebuild import Built, build_site, variant_config
from .support.browser import PageProbe, StaticServer, chromium, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def isolated_site(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("coi")
    config = variant_config(root, cross_origin_isolation=True)
    built = build_site(config, strict=True, site_dir=root / "site")
    assert not built.aborted, built.warnings
    return built


@pytest.fixture(scope="module")
def server(isolated_site: Built) -> Iterator[StaticServer]:
    with StaticServer(Path(isolated_site.site), prefix="/repo/") as running:
        yield running


def test_service_worker_sits_at_the_root_and_loads_in_head(isolated_site: Built) -> None:
    assert (isolated_site.site / "coi-serviceworker.js").is_file()
    html = isolated_site.page("models/linear")
    head = html.split("</head>")[0]
    assert '<script src="../../coi-serviceworker.js"></script>' in head


def test_one_reload_then_isolated_threads(server: StaticServer) -> None:
    with chromium() as browser:
        context = browser.new_context()
        page = context.new_page()
        probe = PageProbe(server.origin).attach(page)
        loads: list[str] = []  # documents requested for the tab (the reload may come before "load")
        page.on("request", lambda r: loads.append(r.url)
                if r.resource_type == "document" and r.frame == page.main_frame else None)
        page.goto(server.url + "models/linear/", wait_until="load")
        wait_until(page, "self.crossOriginIsolated === true", timeout=30000)
        page.wait_for_timeout(1500)  # a loop would reload again within this time
        assert len(loads) == 2, loads  # the first visit reloads exactly once
        # Later pages are isolated from the start: no reload.
        page.goto(server.url + "models/iris/", wait_until="load")
        page.wait_for_timeout(1500)
        assert len(loads) == 3, loads
        assert page.evaluate("self.crossOriginIsolated") is True
        page.locator('[data-live-example] button[data-action="run"]').first.click()
        wait_until(page,
            "document.querySelector('[data-live-example]').dataset.state === 'done'", timeout=120000)
        widget = page.locator("[data-live-example]").first
        assert widget.get_attribute("data-match") == "true"
        assert int(widget.get_attribute("data-threads") or 0) > 1
        assert probe.errors == [] and probe.other_origin == []
        context.close()
