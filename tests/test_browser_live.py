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
from .support.browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    GITHUB_PAGES_CACHE,
    ISOLATION_HEADERS,
    SHORT_TIMING,
    PageProbe,
    StaticServer,
    choose_backend,
    launch,
    wait_until,
)

pytestmark = pytest.mark.browser

PREFIX = "/repo/"
WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
# Chromium itself logs this when requestAdapter() finds no adapter; nothing we can silence.
BROWSER_WARNINGS = {"No available adapters."}

#: Models too slow on the software WebGPU adapter (SwiftShader) to run within the suite's
#: limits: those Runs hide the adapter and go to WASM, and the test says so. Measured here:
#: text-detection (PP-OCRv4, ~60 convolutions on 320x160) takes ~20 s per run on SwiftShader,
#: over 2 minutes per widget Run (first run plus the timed ones), against ~0.1 s on WASM.
#: The MediaPipe models run and match there too, but one widget Run took 30 s
#: (face-detection) and 54 s (background-removal) against 3-4 s on WASM.
SLOW_ON_SOFTWARE_WEBGPU = {
    "text-detection": "~20 s per run on software WebGPU (SwiftShader)",
    "background-removal": "54 s per widget Run on software WebGPU (SwiftShader)",
    "face-detection": "30 s per widget Run on software WebGPU (SwiftShader)",
    "face-landmarks": "a 2.4 MB network on a 192x192 crop; as slow on SwiftShader",
}
HIDE_WEBGPU = "Object.defineProperty(Navigator.prototype, 'gpu', {get: () => undefined});"


#: Every example model of the repository: each must have a live example, so a model that
#: loses its widget fails here instead of dropping out of the test.
MODELS = sorted(p.parent.name for p in (REPO / "models").glob("*/model.onnx"))


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
def driver() -> Iterator[object]:
    """The module's playwright driver (one sync driver may run at a time)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browsers(driver) -> Iterator[dict[bool, object]]:
    """One Chromium without a WebGPU adapter and one with a software adapter (SwiftShader)."""
    running = {False: launch(driver), True: launch(driver, webgpu=True)}
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
    wait_until(page,
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
    models = MODELS
    assert {"linear", "edges"} <= set(models)
    context = browsers[webgpu].new_context()
    slow = browsers[webgpu].new_context()
    slow.add_init_script(HIDE_WEBGPU)
    for name in models:
        gpu_too_slow = webgpu and name in SLOW_ON_SOFTWARE_WEBGPU
        if gpu_too_slow:
            print(f"{name}: WASM only on this browser: {SLOW_ON_SOFTWARE_WEBGPU[name]}")
        page = (slow if gpu_too_slow else context).new_page()
        probe = PageProbe(server.origin).attach(page)
        page.goto(server.url + f"models/{name}/", wait_until="load")
        assert page.locator(RUN).count() == 1, f"{name}: its page has no live example"
        page.wait_for_selector(RUN + ":not([disabled])")
        # Nothing of the runtime is fetched before Run.
        assert probe.fetched("/assets/ort/") == []
        # What is checked here is the answer: the timing runs after it get no budget beyond
        # their fewest groups (the timings line is still filled, and checked below).
        page.evaluate(SHORT_TIMING)
        # "auto" never picks a software adapter: the WebGPU path is the reader's choice.
        wasm_only = any(o.domain == "ai.onnx.ml" for o in
                        onnx.load(real_site.site / "models" / name / "model.onnx").opset_import)
        gpu = webgpu and not wasm_only and not gpu_too_slow
        if gpu:
            choose_backend(page, "webgpu")
        state = run(page)
        error = page.inner_text(WIDGET + ' [data-le="error"]')
        assert state["state"] == "done", f"{name}: {error}"
        assert state["match"] == "true", f"{name}: {page.inner_text(WIDGET)}"
        assert state["sample"] == "0"
        reference = json.loads((real_site.site / "models" / name / "reference.json").read_text())
        # A classifier answers its default sample right, and the page says so.
        if (reference.get("reading") or {}).get("kind") == "classes" and reference["samples"][0]["label"]:
            assert state["answerClass"] == reference["samples"][0]["label"], name
            assert "✓ right" in page.inner_text(WIDGET + ' [data-le="reading"]')
        # A float picture of a model without a picture input is drawn in grey, with its scale.
        if ((reference.get("reading") or {}).get("kind") == "picture"
                and page.get_attribute(WIDGET, "data-image-input") is None):
            drawn = page.eval_on_selector(WIDGET + ' [data-le="reading"] canvas',
                                          "c => [c.width, c.height]")
            shown = next(o for o in reference["outputs"] if o["name"] == reference["reading"]["tensor"])
            assert drawn == [int(d) for d in shown["dims"][-2:][::-1]], name
            assert "the output in grey: black is" in page.inner_text(WIDGET + ' [data-le="reading"]'), name
        # The widget's own verdict is checked against the bound it implies: no element may
        # differ by more than atol + rtol * the largest reference value.
        tolerance = reference["tolerance"]
        largest = max((abs(float(v)) for o in reference["outputs"] for v in o["data"]
                       if isinstance(v, int | float) and not isinstance(v, bool)), default=0.0)
        assert float(state["maxAbsDiff"]) <= tolerance["atol"] + tolerance["rtol"] * largest, name
        assert state["backend"] == ("webgpu" if gpu else "wasm"), name
        assert "WebGPU failed" not in page.text_content(WIDGET + ' [data-le="backend"]')
        assert float(state["medianMs"]) > 0, name
        threads = int(state["threads"])
        assert threads > 1 if isolation else threads == 1
        assert page.evaluate("crossOriginIsolated") is isolation
        assert page.text_content(WIDGET + ' [data-le="isolated"]').startswith(
            "yes" if isolation else "no")
        # Without an adapter only the WASM-only build is fetched (about half the bytes).
        fetched = {url.rsplit("/", 1)[1] for url in probe.fetched("/assets/ort/")}
        expected = ({"ort.webgpu.bundle.min.mjs", "ort-wasm-simd-threaded.asyncify.wasm"}
                    if gpu else {"ort.wasm.bundle.min.mjs", "ort-wasm-simd-threaded.wasm"})
        assert fetched == expected, name
        assert_clean(probe)
        page.close()
    context.close()
    slow.close()


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


def test_no_page_loads_the_runtime_before_run(plain, browsers) -> None:
    page = browsers[False].new_context().new_page()
    probe = PageProbe(plain.origin).attach(page)
    for path in ("glossary/", "models/"):
        page.goto(plain.url + path, wait_until="load")
        page.wait_for_timeout(200)
    assert probe.fetched("/assets/ort/") == [] and probe.fetched("example.mjs") == []
    assert probe.fetched("live-example.js")  # the script is on every page, and idle
    # The home page's demo is a widget: it imports its own example.mjs and nothing else.
    page.goto(plain.url, wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    page.wait_for_timeout(200)
    assert [u.rsplit("/repo/", 1)[1] for u in probe.fetched("example.mjs")] == ["models/background-removal/example.mjs"]
    assert probe.fetched("/assets/ort/") == []
    # A page with a widget (the ONNX term embeds one) readies it: it imports its example.mjs,
    # the code it shows, which imports no runtime until Run.
    page.goto(plain.url + "glossary/onnx/", wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    page.wait_for_timeout(200)
    assert probe.fetched("/models/linear/example.mjs") and probe.fetched("/assets/ort/") == []
    assert_clean(probe)


def test_the_code_shown_is_the_code_that_runs(plain, browsers) -> None:
    page, probe = open_page(browsers[False], plain, "models/linear/",
                            permissions=["clipboard-read", "clipboard-write"])
    # Folded, the code is not in the page at all: its highlighting waits in a <template>.
    assert page.eval_on_selector_all(WIDGET + " pre", "pres => pres.length") == 0
    page.click(WIDGET + " .live-example__code-box > summary")
    shown = page.text_content(WIDGET + ' [data-panel="js"] pre > code')
    served = page.evaluate("fetch('example.mjs').then(r => r.text())")
    assert shown == served
    # Unfolded, it has Material's copy button, which copies that same file.
    page.click(WIDGET + ' [data-panel="js"] .md-code__button')
    page.locator(".md-dialog", has_text="Copied to clipboard").wait_for(timeout=5000)
    assert page.evaluate("navigator.clipboard.readText()") == served.rstrip()
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


def test_the_runtime_is_downloaded_once_and_then_taken_from_the_cache(
        real_site: Built, driver, tmp_path: Path) -> None:
    """A cold Run: one request for the .wasm, which the progress line reports whole once it is
    in (a fast download is not counted chunk by chunk). A reload within the HTTP cache's
    lifetime: no request for it at all, and the line says where its bytes came from."""
    wasm = "ort-wasm-simd-threaded.wasm"
    size = (real_site.site / "assets" / "ort" / wasm).stat().st_size
    # A profile on disk, as a reader's browser has: an in-memory cache (a fresh context's)
    # does not keep a 14 MB file.
    context = driver.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS),
        headless=True)
    with context, StaticServer(real_site.site, PREFIX, cache_control=GITHUB_PAGES_CACHE) as server:
        page = context.pages[0]
        probe = PageProbe(server.origin).attach(page)
        page.goto(server.url + "models/linear/", wait_until="load")
        page.wait_for_selector(RUN + ":not([disabled])")
        state = run(page)
        assert state["state"] == "done" and state["match"] == "true"
        assert [m for m, path in server.log if path.endswith("/" + wasm)] == ["GET"], server.log
        text = page.text_content(WIDGET + ' [data-le="progress-text"]') or ""
        megabytes = f"{size / 1e6:.1f} MB"
        assert f"runtime {megabytes}" in text and " of " not in text, text  # finished: its size
        server.log.clear()
        page.reload(wait_until="load")
        page.wait_for_selector(RUN + ":not([disabled])")
        state = run(page)
        assert state["state"] == "done" and state["match"] == "true"
        text = page.text_content(WIDGET + ' [data-le="progress-text"]') or ""
        assert "runtime from the browser's cache" in text, text  # the bytes came, uncounted
        assert not [entry for entry in server.log if entry[1].endswith("/" + wasm)], server.log
        assert_clean(probe)


def test_a_slow_download_shows_its_progress_and_run_moves_nothing(
        real_site: Built, plain, browsers) -> None:
    """On a phone-sized screen and a slow connection (8 MB/s): before Run the line says what a
    Run downloads; during the Run it counts the runtime's bytes as they come, over one request;
    and pressing Run moves nothing below the line."""
    site = real_site.site
    wasm = site / "assets" / "ort" / "ort-wasm-simd-threaded.wasm"
    runtime = f"{wasm.stat().st_size / 1e6:.1f} MB"
    model = f"{(site / 'models' / 'linear' / 'model.onnx').stat().st_size / 1e3:.1f} kB"
    page, probe = open_page(browsers[False], plain, "models/linear/",
                            viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    line = WIDGET + ' [data-le="progress-text"]'
    wait_until(page, "(line) => document.querySelector(line).textContent !== ''", arg=line)
    assert page.text_content(line) == f"Downloaded only when you press Run: model {model} · runtime {runtime}"
    # The answer's line sits under the progress line; it moves only when the answer comes.
    below = "() => document.querySelector('[data-live-example] [data-le=\"answer\"]').getBoundingClientRect().top + scrollY"
    before = page.evaluate(below)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 20, "downloadThroughput": 8_000_000, "uploadThroughput": 1_000_000})
    plain.log.clear()
    page.click(RUN)
    # Part of the runtime counted, while the rest is still on its way.
    partial = wait_until(page, """([line, total]) => {
        const text = document.querySelector(line).textContent;
        const counted = text.match(/runtime ([0-9.]+) MB of ([0-9.]+) MB/);
        return counted && counted[2] === total && counted[1] !== total ? text : null;
    }""", arg=[line, runtime.split()[0]], timeout=60_000)
    assert page.evaluate(below) == before, "pressing Run moved the page"
    page.wait_for_selector(WIDGET + '[data-state="done"]', state="attached", timeout=120_000)
    assert page.get_attribute(WIDGET, "data-match") == "true"
    done = page.text_content(line) or ""
    assert f"runtime {runtime}" in done and " of " not in done, partial  # finished: its size alone
    assert [m for m, path in plain.log if path.endswith("/" + wasm.name)] == ["GET"], plain.log
    assert_clean(probe)
    page.context.close()


def test_webgpu_failing_at_start_falls_back_to_wasm(plain, browsers) -> None:
    context = browsers[True].new_context()
    # The adapter exists but the device never comes: the runtime's WebGPU start fails halfway.
    context.add_init_script("GPUAdapter.prototype.requestDevice = () => "
                            "Promise.reject(new Error('device lost (test)'));")
    page = context.new_page()
    probe = PageProbe(plain.origin).attach(page)
    page.goto(plain.url + "models/linear/", wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    choose_backend(page, "webgpu")
    state = run(page)
    assert state["state"] == "done" and state["match"] == "true"
    assert state["backend"] == "wasm"
    assert page.text_content(WIDGET + ' [data-le="backend"]').startswith("wasm (WebGPU failed:")
    assert_clean(probe)


def test_reader_picture_runs_without_a_reference(plain, browsers) -> None:
    page, probe = open_page(browsers[False], plain, "models/edges/")
    picture = io.BytesIO()
    Image.new("RGBA", (50, 40), (200, 30, 30, 255)).save(picture, "PNG")  # not the model's size
    page.set_input_files(WIDGET + ' input[type="file"]', files=[
        {"name": "mine.png", "mimeType": "image/png", "buffer": picture.getvalue()}])
    assert page.is_checked(WIDGET + ' [data-le="use-own"]')
    state = run(page)
    assert state["state"] == "done"
    assert "match" not in state and "maxAbsDiff" not in state
    assert "No reference exists" in page.text_content(WIDGET + ' [data-le="check"]')
    # The output is drawn: a flat red picture has no edges, so the canvas is one flat colour.
    colours = page.eval_on_selector(WIDGET + ' canvas[data-le="output-image"]', """c => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        return [c.width, c.height, new Set(Array.from({length: d.length / 4},
            (_, i) => d.slice(i * 4, i * 4 + 4).join())).size, d[3]]; }""")
    # The model takes any height and width: the picture is fed at its own size (it is under
    # max_side), not cropped to the sample's.
    assert colours[:2] == [50, 40] and colours[2] == 1 and colours[3] == 255
    assert state["sample"] == "own"
    # Never uploaded: no request carried the picture anywhere.
    assert not [u for u in probe.requests if u.startswith(plain.origin) and "mine" in u]
    assert_clean(probe)


@pytest.fixture(scope="module")
def refused_site(real_site: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """The real site, with the published linear model replaced by an IR 14 copy: newer than
    onnxruntime-web 1.31 reads (the build itself would flag such a model and give it no widget,
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
    page.click(f"{WIDGET} .live-example__code-box > summary")  # the code, unfolded
    page.wait_for_selector(f"{WIDGET} pre code")  # on the toggle event, a task after the click
    assert page.evaluate(CONTRAST, f"{WIDGET} pre code") >= 4.5
    assert_clean(probe)
    page.context.close()


def test_a_term_page_runs_each_model_it_embeds(plain, browsers) -> None:
    page, probe = open_page(browsers[False], plain, "glossary/operator/")
    widgets = page.locator(WIDGET)
    assert widgets.count() == 2  # the term lists iris and edges
    for index in range(2):
        widgets.nth(index).locator('button[data-action="run"]').click()
        wait_until(page,
            "(i) => ['done', 'error'].includes(document.querySelectorAll('[data-live-example]')[i].dataset.state)",
            arg=index, timeout=120_000)
        state = widgets.nth(index).evaluate("e => ({...e.dataset})")
        assert (state["state"], state["match"], state["backend"]) == ("done", "true", "wasm")
        assert state["exampleUrl"].startswith("../../models/")
    assert_clean(probe)
    page.context.close()


# -- readable answers -------------------------------------------------------------------------

PAD = WIDGET + ' canvas[data-le="pad"]'

#: Stroke scripts on the 256 px pad: each a list of strokes, each a list of points. Three per
#: digit, of different sizes and in different places.
STROKES = {
    "1": [
        [[(128, 30), (128, 226)]],  # tall, centred
        [[(60, 60), (75, 40), (75, 140)]],  # small, top left, with a flag
        [[(190, 120), (200, 200), (202, 240)]],  # short, bottom right, slanted
    ],
    "7": [
        [[(50, 40), (200, 40), (110, 220)]],  # large
        [[(30, 30), (100, 30), (70, 110)]],  # small, top left
        [[(150, 150), (240, 150), (200, 250)]],  # small, bottom right
    ],
}


def draw(page, strokes) -> None:
    page.check(WIDGET + ' [data-le="use-own"]')  # the pad shows for your own drawing only
    page.click(WIDGET + ' button[data-action="clear"]')
    box = page.locator(PAD).bounding_box()
    scale = box["width"] / 256
    for stroke in strokes:
        x, y = stroke[0]
        page.mouse.move(box["x"] + x * scale, box["y"] + y * scale)
        page.mouse.down()
        for x, y in stroke[1:]:
            page.mouse.move(box["x"] + x * scale, box["y"] + y * scale, steps=12)
        page.mouse.up()


@pytest.mark.parametrize("name", ["digits", "digits-keras"])
def test_drawn_digits_are_read_right(real_site: Built, plain, browsers, name: str) -> None:
    if not (real_site.site / "models" / name / "example.mjs").is_file():
        pytest.skip(f"models/{name} is not in this site yet")
    page, probe = open_page(browsers[False], plain, f"models/{name}/")
    for digit, scripts in STROKES.items():
        for number, strokes in enumerate(scripts):
            draw(page, strokes)
            assert page.is_checked(WIDGET + ' [data-le="use-own"]')
            state = run(page)
            assert state["state"] == "done", page.inner_text(WIDGET + ' [data-le="error"]')
            assert (state["sample"], state["answerClass"]) == ("own", digit), (digit, number)
            # Own input has no reference: said so, and no verdict claimed.
            assert "match" not in state and "maxAbsDiff" not in state
            assert page.text_content(WIDGET + ' [data-le="check"]') == (
                "No reference exists for your drawing: nothing to compare.")
    # Clear empties the pad and keeps your own drawing as the input: Run then says to draw.
    page.click(WIDGET + ' button[data-action="clear"]')
    state = run(page)
    assert state["state"] == "error"
    assert page.inner_text(WIDGET + ' [data-le="error"]').startswith("The drawing pad is empty")
    # A sample, picked again, has a reference again; the pad goes away.
    page.check(WIDGET + ' [data-le-sample="0"]')
    assert not page.is_visible(WIDGET + ' [data-le="pad-area"]')
    state = run(page)
    assert (state["sample"], state["match"]) == ("0", "true")
    assert_clean(probe)
    page.context.close()


def test_a_named_iris_sample_shows_its_true_species(plain, browsers) -> None:
    page, probe = open_page(browsers[False], plain, "models/iris/")
    label = page.inner_text(WIDGET + ' label:has([data-le-sample="2"])')
    assert "virginica" not in label  # the label does not give the answer away
    page.check(WIDGET + ' [data-le-sample="2"]')
    # Picking a sample shows its numbers in the form.
    assert page.input_value(WIDGET + ' [data-le-field="2"]') == "4.9"
    state = run(page)
    assert (state["sample"], state["answerClass"], state["match"]) == ("2", "virginica", "true")
    reading = page.inner_text(WIDGET + ' [data-le="reading"]')
    assert "✓ right: the true answer is virginica" in reading
    # The reader's own numbers: a short-petalled flower reads as setosa, with no reference.
    page.fill(WIDGET + ' [data-le-field="2"]', "1.4")
    page.fill(WIDGET + ' [data-le-field="3"]', "0.2")
    assert page.is_checked(WIDGET + ' [data-le="use-own"]')
    state = run(page)
    assert (state["sample"], state["answerClass"]) == ("own", "setosa") and "match" not in state
    assert_clean(probe)
    page.context.close()


def test_text_detection_map_is_high_on_the_text_only(plain, browsers) -> None:
    """On WASM: software WebGPU takes minutes for this model (SLOW_ON_SOFTWARE_WEBGPU)."""
    boxes = json.loads((REPO / "models" / "text-detection" / "sample.boxes.json").read_text())
    page, probe = open_page(browsers[False], plain, "models/text-detection/")
    state = run(page)
    assert (state["state"], state["match"]) == ("done", "true")
    output = page.eval_on_selector(WIDGET, "e => e.liveExampleOutputs.probability")
    height, width = output["dims"][-2:]
    import numpy as np

    prob = np.asarray(output["data"], dtype=np.float64).reshape(height, width)
    inside = np.zeros((height, width), dtype=bool)
    for x0, y0, x1, y1 in boxes["boxes"]:
        inside[y0:y1, x0:x1] = True
    assert prob[inside].mean() >= boxes["expect"]["mean_inside_at_least"]
    assert prob[~inside].mean() <= boxes["expect"]["mean_outside_at_most"]
    # Drawn as a heatmap over the picture: the canvas has the map's size and is not blank.
    drawn = page.eval_on_selector(WIDGET + ' canvas[data-le="heatmap"]', """c => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        return [c.width, c.height, new Set(Array.from({length: d.length / 4},
            (_, i) => d.slice(i * 4, i * 4 + 3).join())).size]; }""")
    assert drawn[:2] == [width, height] and drawn[2] > 50
    assert_clean(probe)
    page.context.close()


def _zoo_project(root: Path, *, swap_input: bool) -> Path:
    """A tiny model with a model-zoo folder; with ``swap_input`` its input_0.pb is another's."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    from .model_builders import model
    from .sitebuild import project

    graph = helper.make_graph(
        [helper.make_node("Mul", ["x", "two"], ["doubled"]),
         helper.make_node("Add", ["doubled", "one"], ["y"])],
        "zoo",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
        [numpy_helper.from_array(np.array(2, np.float32), "two"),
         numpy_helper.from_array(np.array(1, np.float32), "one")],
    )
    config = project(root, {"zoo": model(graph)})
    folder = root / "models" / "zoo" / "test_data_set_0"
    folder.mkdir()
    x = np.array([[0.5, -1.0, 3.0, 0.25]], np.float32)
    (folder / "output_0.pb").write_bytes(
        numpy_helper.from_array(x * 2 + 1, "y").SerializeToString())
    fed = np.array([[9.0, 9.0, 9.0, 9.0]], np.float32) if swap_input else x
    (folder / "input_0.pb").write_bytes(numpy_helper.from_array(fed, "x").SerializeToString())
    return config


@pytest.mark.parametrize("swap_input", [False, True], ids=["shipped", "input-swapped"])
def test_model_zoo_outputs_are_checked_in_the_browser(tmp_path: Path, browsers, swap_input: bool) -> None:
    from onnx_glossary.models.analysis import analyse_model
    from onnx_glossary.render.live_example import render_snippet_js

    from .sitebuild import build_site

    built = build_site(_zoo_project(tmp_path / "project", swap_input=False), site_dir=tmp_path / "site")
    assert not built.aborted and built.ours() == [], built.warnings
    site = built.site / "models" / "zoo"
    if swap_input:
        # The build itself flags a data set whose outputs onnxruntime does not reproduce and
        # gives its page no widget. Serve what the page would run if it had not: the snippet
        # and reference.json made from the swapped input_0.pb, with the shipped outputs.
        swapped = build_site(_zoo_project(tmp_path / "swapped", swap_input=True),
                             site_dir=tmp_path / "swapped-site")
        assert any("test_data_set_0" in w for w in swapped.ours()), swapped.warnings
        reference_text = (swapped.site / "models" / "zoo" / "reference.json").read_text()
        (site / "reference.json").write_text(reference_text)
        facts = analyse_model(site / "model.onnx", name="zoo")
        (site / "example.mjs").write_text(render_snippet_js(facts, json.loads(reference_text)))
    with StaticServer(built.site, PREFIX) as server:
        page, probe = open_page(browsers[False], server, "models/zoo/")
        state = run(page)
        assert state["state"] == "done", page.inner_text(WIDGET + ' [data-le="error"]')
        # The build's own reference is computed from whatever input ships, so it matches...
        assert state["match"] == "true"
        # ...but the outputs the data set ships only match the inputs they were made from.
        assert state["shippedMatch"] == ("false" if swap_input else "true")
        shipped = page.text_content(WIDGET + ' [data-le="shipped"]')
        assert "test_data_set_0" in shipped
        assert ("MISMATCH" in shipped) is swap_input
        assert probe.other_origin == [] and probe.page_errors == []
        page.context.close()


@pytest.mark.parametrize("name", ["digits", "iris", "text-detection", "linear", "squeezenet",
                                  "background-removal", "face-detection", "face-landmarks"])
def test_a_phone_never_scrolls_sideways(plain, browsers, name: str) -> None:
    page, probe = open_page(browsers[False], plain, f"models/{name}/",
                            viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    state = run(page)
    assert state["state"] == "done"
    widths = page.evaluate("""() => {
        const root = document.querySelector('[data-live-example]');
        const table = root.querySelector('[data-le="outputs"] table');
        // Every box of the widget ends inside the viewport (code blocks scroll on their own).
        let right = 0;
        for (const e of root.querySelectorAll('*')) {
            if (e.closest('pre')) continue;
            right = Math.max(right, e.getBoundingClientRect().right);
        }
        return {page: document.documentElement.scrollWidth, inner: innerWidth, right,
                table: table.scrollWidth, box: table.clientWidth};
    }""")
    assert widths["page"] <= widths["inner"], widths
    assert widths["right"] <= widths["inner"], widths
    assert widths["table"] <= widths["box"], widths
    assert_clean(probe)
    page.context.close()
