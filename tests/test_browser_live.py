"""Live examples in real headless Chromium with the real onnxruntime-web, against the built site
served under /repo/ (like a GitHub Pages project site): every model page with and without
COOP/COEP headers and with and without a (software) WebGPU adapter, instant navigation, faults
(missing files, a model the runtime refuses, WebGPU failing) and the reader's own picture."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import onnx
import pytest
from PIL import Image

from .sitebuild import REPO, Built
from .support.browser import ISOLATION_HEADERS, PageProbe, StaticServer, launch

pytestmark = pytest.mark.browser

PREFIX = "/repo/"
WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
# Chromium itself logs this when requestAdapter() finds no adapter; nothing we can silence.
BROWSER_WARNINGS = {"No available adapters."}


def models_in(site: Path) -> list[str]:
    return sorted(p.parent.name for p in site.glob("models/*/example.mjs"))


@pytest.fixture(scope="module")
def plain(real_site: Built) -> Iterator[StaticServer]:
    """Plain headers, as GitHub Pages sends them: not cross-origin isolated."""
    with StaticServer(real_site.site, PREFIX) as server:
        yield server


@pytest.fixture(scope="module")
def isolated(real_site: Built) -> Iterator[StaticServer]:
    with StaticServer(real_site.site, PREFIX, headers=dict(ISOLATION_HEADERS)) as server:
        yield server


@pytest.fixture(scope="module")
def browsers() -> Iterator[dict[bool, object]]:
    """One Chromium without a WebGPU adapter and one with a software adapter (SwiftShader)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        running = {False: launch(playwright), True: launch(playwright, webgpu=True)}
        try:
            yield running
        finally:
            for browser in running.values():
                browser.close()


def open_page(browser, server: StaticServer, path: str, **context):
    page = browser.new_context(**context).new_page()
    probe = PageProbe(server.origin).attach(page)
    page.goto(server.url + path, wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")  # the script has initialised the widget
    return page, probe


def run(page, until: tuple[str, ...] = ("done",)) -> dict[str, str]:
    """Press Run and wait for the widget to settle; return its data attributes."""
    page.click(RUN)
    page.wait_for_function(
        "(states) => states.includes(document.querySelector('[data-live-example]').dataset.state)",
        arg=[*until, "error"] if "error" not in until else list(until), timeout=180_000)
    return page.eval_on_selector(WIDGET, "e => ({...e.dataset})")


def assert_clean(probe: PageProbe) -> None:
    assert probe.errors == []
    assert set(probe.warnings) <= BROWSER_WARNINGS, probe.warnings
    assert probe.other_origin == []


@pytest.mark.parametrize("webgpu", [False, True], ids=["no-adapter", "webgpu"])
@pytest.mark.parametrize("isolation", [False, True], ids=["plain", "coop-coep"])
def test_every_model_runs_and_matches_the_reference(
    real_site: Built, plain, isolated, browsers, isolation: bool, webgpu: bool
) -> None:
    server = isolated if isolation else plain
    models = models_in(real_site.site)
    assert {"linear", "edges"} <= set(models)
    context = browsers[webgpu].new_context()
    for name in models:
        page = context.new_page()
        probe = PageProbe(server.origin).attach(page)
        page.goto(server.url + f"models/{name}/", wait_until="load")
        page.wait_for_selector(RUN + ":not([disabled])")
        # Nothing of the runtime is fetched before Run.
        assert probe.fetched("/assets/ort/") == []
        state = run(page)
        error = page.inner_text(WIDGET + ' [data-le="error"]')
        assert state["state"] == "done", f"{name}: {error}"
        assert state["match"] == "true", f"{name}: {page.inner_text(WIDGET)}"
        tolerance = json.loads((real_site.site / "models" / name / "reference.json").read_text())["tolerance"]
        assert float(state["maxAbsDiff"]) <= tolerance["atol"] or tolerance["rtol"] > 0
        # The WebGPU build has no ai.onnx.ml operators: such models go straight to WASM.
        wasm_only = any(o.domain == "ai.onnx.ml" for o in
                        onnx.load(real_site.site / "models" / name / "model.onnx").opset_import)
        gpu = webgpu and not wasm_only
        assert state["backend"] == ("webgpu" if gpu else "wasm"), name
        assert "WebGPU failed" not in page.inner_text(WIDGET + ' [data-le="backend"]')
        threads = int(state["threads"])
        assert threads > 1 if isolation else threads == 1
        assert page.evaluate("crossOriginIsolated") is isolation
        assert page.inner_text(WIDGET + ' [data-le="isolated"]').startswith(
            "yes" if isolation else "no")
        # Without an adapter only the WASM-only build is fetched (about half the bytes).
        fetched = {url.rsplit("/", 1)[1] for url in probe.fetched("/assets/ort/")}
        expected = ({"ort.webgpu.bundle.min.mjs", "ort-wasm-simd-threaded.asyncify.wasm"}
                    if gpu else {"ort.wasm.bundle.min.mjs", "ort-wasm-simd-threaded.wasm"})
        assert fetched == expected, name
        assert_clean(probe)
        page.close()
    context.close()


def test_arriving_by_instant_navigation_then_run(instant, browsers) -> None:
    page = browsers[False].new_context().new_page()
    probe = PageProbe(instant.origin).attach(page)
    # Material intercepts links once it has read sitemap.xml: wait for the network to idle.
    page.goto(instant.url + "models/", wait_until="networkidle")
    page.evaluate("window.sameDocument = true")
    page.click("article a[href$='linear/']")
    page.wait_for_url("**/models/linear/")
    page.wait_for_selector(RUN + ":not([disabled])")
    # Material swapped the content in place: still the same document, scripts not re-run.
    assert page.evaluate("window.sameDocument") is True
    assert probe.fetched("/assets/ort/") == []
    state = run(page)
    assert state["state"] == "done" and state["match"] == "true"
    assert_clean(probe)


def test_pages_without_a_live_example_never_load_the_runtime(plain, browsers) -> None:
    page = browsers[False].new_context().new_page()
    probe = PageProbe(plain.origin).attach(page)
    for path in ("", "glossary/", "glossary/onnx/", "models/"):
        page.goto(plain.url + path, wait_until="load")
        page.wait_for_timeout(200)
    assert probe.fetched("/assets/ort/") == [] and probe.fetched("example.mjs") == []
    assert probe.fetched("live-example.js")  # the script is on every page, and idle
    assert_clean(probe)


def test_the_code_shown_is_the_code_that_runs(plain, browsers) -> None:
    page, probe = open_page(browsers[False], plain, "models/linear/")
    shown = page.text_content(WIDGET + ' [data-panel="js"] pre code')
    served = page.evaluate("fetch('example.mjs').then(r => r.text())")
    assert shown == served
    run(page)
    # ...and the module the Run button imported is that same URL.
    assert probe.fetched("/repo/models/linear/example.mjs")
    page.click(WIDGET + ' [data-tab="python"]')
    assert page.is_visible(WIDGET + ' [data-panel="python"]')
    assert "onnxruntime" in page.inner_text(WIDGET + ' [data-panel="python"]')


@pytest.mark.parametrize("missing", ["models/linear/model.onnx",
                                     "assets/ort/ort-wasm-simd-threaded.wasm"])
def test_missing_file_shows_an_error_then_run_again_works(plain, browsers, missing: str) -> None:
    page, probe = open_page(browsers[False], plain, "models/linear/")
    plain.missing.add(PREFIX + missing)
    try:
        state = run(page)
    finally:
        plain.missing.clear()
    assert state["state"] == "error"
    error = page.inner_text(WIDGET + ' [data-le="error"]')
    assert "HTTP 404" in error and missing.rsplit("/", 1)[1] in error
    assert page.is_enabled(RUN)  # the page stays usable
    state = run(page)
    assert state["state"] == "done" and state["match"] == "true"
    assert not page.is_visible(WIDGET + ' [data-le="error"]')
    # The only console error is the browser's own line about the 404 itself.
    assert [e for e in probe.errors if "404" not in e] == []


def test_webgpu_failing_at_start_falls_back_to_wasm(plain, browsers) -> None:
    context = browsers[True].new_context()
    # The adapter exists but the device never comes: the runtime's WebGPU start fails halfway.
    context.add_init_script("GPUAdapter.prototype.requestDevice = () => "
                            "Promise.reject(new Error('device lost (test)'));")
    page = context.new_page()
    probe = PageProbe(plain.origin).attach(page)
    page.goto(plain.url + "models/linear/", wait_until="load")
    state = run(page)
    assert state["state"] == "done" and state["match"] == "true"
    assert state["backend"] == "wasm"
    assert page.inner_text(WIDGET + ' [data-le="backend"]').startswith("wasm (WebGPU failed:")
    assert_clean(probe)


def test_reader_picture_runs_without_a_reference(plain, browsers) -> None:
    page, probe = open_page(browsers[False], plain, "models/edges/")
    picture = io.BytesIO()
    Image.new("RGBA", (50, 40), (200, 30, 30, 255)).save(picture, "PNG")  # not the model's size
    page.set_input_files(WIDGET + ' input[type="file"]', files=[
        {"name": "mine.png", "mimeType": "image/png", "buffer": picture.getvalue()}])
    assert page.is_checked(WIDGET + ' [data-le="use-file"]')
    state = run(page)
    assert state["state"] == "done"
    assert "match" not in state and "maxAbsDiff" not in state
    assert "No reference exists" in page.inner_text(WIDGET + ' [data-le="check"]')
    # The output is drawn: a flat red picture has no edges, so the canvas is one flat colour.
    colours = page.eval_on_selector(WIDGET + ' canvas[data-le="output-image"]', """c => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        return [c.width, c.height, new Set(Array.from({length: d.length / 4},
            (_, i) => d.slice(i * 4, i * 4 + 4).join())).size, d[3]]; }""")
    assert colours[:2] == [96, 64] and colours[2] == 1 and colours[3] == 255
    # Never uploaded: no request carried the picture anywhere.
    assert not [u for u in probe.requests if u.startswith(plain.origin) and "mine" in u]
    assert_clean(probe)


@pytest.fixture(scope="module")
def refused_site(real_site: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """The real site, with the published linear model replaced by an IR 14 copy: newer than
    onnxruntime-web 1.30 reads (the build itself would flag such a model and give it no widget,
    which is how a stale or hand-edited deployment would show the fault to a reader)."""
    site = tmp_path_factory.mktemp("refused") / "site"
    shutil.copytree(real_site.site, site)
    model = onnx.load(REPO / "models" / "linear" / "model.onnx")
    model.ir_version = 14
    onnx.save(model, site / "models" / "linear" / "model.onnx")
    with StaticServer(site, PREFIX) as server:
        yield server


def test_model_the_runtime_refuses_shows_why(refused_site, browsers) -> None:
    page, probe = open_page(browsers[False], refused_site, "models/linear/")
    state = run(page)
    assert state["state"] == "error"
    assert "IR version" in page.inner_text(WIDGET + ' [data-le="error"]')
    assert page.is_enabled(RUN)
    assert probe.other_origin == [] and probe.page_errors == []


CONTRAST = """(selector) => {
  // WCAG contrast between an element's text and the first opaque background behind it.
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const element = document.querySelector(selector);
  let back = element;
  while (back && rgb(getComputedStyle(back).backgroundColor)[3] === 0) back = back.parentElement;
  const fg = lum(rgb(getComputedStyle(element).color));
  const bg = lum(rgb(getComputedStyle(back || document.body).backgroundColor));
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_widget_is_readable_in_both_palettes(plain, browsers, scheme: str) -> None:
    page, probe = open_page(browsers[False], plain, "models/linear/", color_scheme=scheme)
    expected = "slate" if scheme == "dark" else "default"
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == expected
    state = run(page)
    assert state["match"] == "true"
    for part in ("state", "backend", "threads"):
        ratio = page.evaluate(CONTRAST, f'{WIDGET} [data-le="{part}"]')
        assert ratio >= 4.5, (scheme, part, ratio)
    assert page.evaluate(CONTRAST, f"{WIDGET} pre code") >= 4.5
    assert_clean(probe)
    page.context.close()


def test_a_term_page_runs_each_model_it_embeds(plain, browsers) -> None:
    page, probe = open_page(browsers[False], plain, "glossary/operator/")
    widgets = page.locator(WIDGET)
    assert widgets.count() == 2  # the term lists iris and edges
    for index in range(2):
        widgets.nth(index).locator('button[data-action="run"]').click()
        page.wait_for_function(
            "(i) => ['done', 'error'].includes(document.querySelectorAll('[data-live-example]')[i].dataset.state)",
            arg=index, timeout=120_000)
        state = widgets.nth(index).evaluate("e => ({...e.dataset})")
        assert (state["state"], state["match"], state["backend"]) == ("done", "true", "wasm")
        assert state["exampleUrl"].startswith("../../models/")
    assert_clean(probe)
    page.context.close()
