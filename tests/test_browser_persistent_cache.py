"""The opt-in persistent cache (``persistent_cache: true``) in real Chromium: the runtime's
.wasm, the model and the reference kept in the Cache API under the build's content hashes,
served from there on the next visit without a request, stale entries deleted, and the
widget's "cached N MB · clear" line."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .sitebuild import Built, build_site, variant_config, widget_attributes
from .support.browser import PageProbe, StaticServer, wait_until

pytestmark = pytest.mark.browser

WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
CACHE = "onnx-glossary-live-examples"
KEYS = f"() => caches.open({CACHE!r}).then((c) => c.keys()).then((k) => k.map((r) => r.url))"


@pytest.fixture(scope="module")
def kept_site(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("kept")
    built = build_site(variant_config(root, persistent_cache=True), strict=True,
                       site_dir=root / "site")
    assert not built.aborted, built.warnings
    return built


@pytest.fixture(scope="module")
def kept(kept_site: Built) -> Iterator[StaticServer]:
    with StaticServer(kept_site.site, "/repo/") as server:
        yield server


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_keys_are_the_hashes_of_the_files_served(kept_site: Built, real_site: Built) -> None:
    keys = json.loads(widget_attributes(kept_site.page("models/linear"))["data-cache"] or "")
    folder = kept_site.site / "models" / "linear"
    ort = kept_site.site / "assets" / "ort"
    assert keys == {"model": sha256(folder / "model.onnx"),
                    "reference": sha256(folder / "reference.json"),
                    "wasm": {"wasm": sha256(ort / "ort-wasm-simd-threaded.wasm"),
                             "webgpu": sha256(ort / "ort-wasm-simd-threaded.asyncify.wasm")}}
    # Off by default: no keys, no cache line.
    assert "data-cache" not in real_site.page("models/linear")
    assert 'data-le="cache"' not in real_site.page("models/linear")


def test_kept_files_serve_the_next_visit_and_clear_empties_the_cache(kept, browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    probe = PageProbe(kept.origin).attach(page)
    page.goto(kept.url + "models/linear/", wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    # A model from an older build, kept under its own hash: the new one replaces it.
    model_url = kept.url + "models/linear/model.onnx"
    page.evaluate("""([name, url]) => caches.open(name).then((c) =>
        c.put(url + "?sha256=0ld", new Response("old model")))""", [CACHE, model_url])
    page.click(RUN)
    page.wait_for_selector(WIDGET + '[data-state="done"]', timeout=120_000)
    assert page.get_attribute(WIDGET, "data-match") == "true"
    keys = page.evaluate(KEYS)
    names = sorted(re.sub(r"\?sha256=[0-9a-f]{64}$", "", key).rsplit("/", 1)[1] for key in keys)
    assert names == ["model.onnx", "ort-wasm-simd-threaded.wasm", "reference.json"], keys
    wait_until(page, """() => /^cached 14\\.\\d MB$/.test(
        document.querySelector('[data-le="cache-size"]').textContent)""")
    # The cache line sits in the run's record, folded under the answer.
    assert not page.is_visible(WIDGET + ' [data-le="cache"]')
    page.click(WIDGET + ' [data-le="record"] > summary')
    assert page.is_visible(WIDGET + ' [data-le="cache"]')

    # The next visit: nothing of the runtime or the model is asked of the server.
    kept.log.clear()
    second = context.new_page()
    second.goto(kept.url + "models/linear/", wait_until="load")
    second.click(RUN)
    second.wait_for_selector(WIDGET + '[data-state="done"]', timeout=120_000)
    assert second.get_attribute(WIDGET, "data-match") == "true"
    asked = [path.rsplit("/", 1)[1] for path in kept.requests]
    assert not {"model.onnx", "reference.json", "ort-wasm-simd-threaded.wasm"} & set(asked), asked
    assert "this site's cache" in (second.text_content(WIDGET + ' [data-le="progress-text"]') or "")

    second.click(WIDGET + ' [data-le="record"] > summary')
    second.click(WIDGET + ' button[data-action="clear-cache"]')
    wait_until(second, """() => document.querySelector('[data-le="cache-size"]')
        .textContent === "nothing cached" """)
    assert second.evaluate(KEYS) == []
    assert probe.errors == [] and probe.other_origin == []
    context.close()
