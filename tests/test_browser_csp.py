"""The site's Content-Security-Policy in real headless Chromium: an injected inline script is
blocked, and what the site does itself (live examples on WASM, WebGPU and threads, the reader's
own picture and drawing, search, tooltips, diagrams, instant navigation) breaks no rule of it.

Every page's load is checked under the policy by the 360 px loop of test_browser_screens.py;
every other browser test fails on a violation too, through PageProbe.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from onnx_glossary.browser import csp
from PIL import Image

from .sitebuild import Built
from .support.browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    ISOLATION_HEADERS,
    WEBGPU_FLAG,
    PageProbe,
    StaticServer,
    wait_until,
)
from .test_browser_live import draw, run
from .test_browser_site import open_page

pytestmark = pytest.mark.browser

WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
INJECTED = "<script>window.glInjected = 'ran'</script>"
POLICY_META = '<meta http-equiv="Content-Security-Policy"'


@pytest.fixture(scope="module")
def gpu_browser(browser) -> Iterator[object]:
    """A second Chromium, with a software WebGPU adapter, from the same playwright driver."""
    running = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                          args=[*CHROMIUM_FLAGS, WEBGPU_FLAG])
    yield running
    running.close()


def assert_clean(probe: PageProbe) -> None:
    assert probe.csp_violations == []
    assert probe.errors == []
    assert probe.other_origin == []


@pytest.fixture(scope="module")
def injected(real_site: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """The built site (linked, not copied) plus two copies of a term page, at the same depth,
    with an inline script inserted right after the policy tag: one keeps the tag, one has none."""
    root = tmp_path_factory.mktemp("injected")
    for entry in real_site.site.iterdir():
        (root / entry.name).symlink_to(entry)
    page = real_site.page("glossary/onnx")
    start = page.index(POLICY_META)
    end = page.index(">", start) + 1
    for name, kept in (("kept", True), ("removed", False)):
        folder = root / "probe" / name
        folder.mkdir(parents=True)
        tag = page[start:end] if kept else ""
        (folder / "index.html").write_text(page[:start] + tag + INJECTED + page[end:], encoding="utf-8")
    with StaticServer(root, "/onnx-glossary/") as server:
        yield server


def test_an_inline_script_inserted_after_the_policy_is_blocked(browser, injected: StaticServer) -> None:
    page, probe = open_page(browser, injected, "probe/kept/")
    assert page.evaluate("window.glInjected") is None  # its side effect never happened
    assert len(probe.csp_violations) == 1, probe.csp_violations
    assert probe.csp_violations[0].startswith("script-src-elem blocked inline")
    assert any("Content Security Policy" in text for text in probe.errors)
    # The page's own inline and site scripts ran: Material's head script and its bundle.
    assert page.evaluate("typeof __md_scope === 'object' && typeof document$ === 'object'")
    page.context.close()
    # The same page without the tag runs the script: the tag is what blocked it.
    page, probe = open_page(browser, injected, "probe/removed/")
    assert page.evaluate("window.glInjected") == "ran"
    assert probe.csp_violations == []
    page.context.close()


def test_every_page_carries_the_same_policy_first_in_its_head(real_site: Built) -> None:
    pages = sorted(real_site.site.rglob("*.html"))
    policies = set()
    for path in pages:
        text = path.read_text(encoding="utf-8")
        head = text[:text.index("</head>")]
        at = head.find(POLICY_META)
        assert at > 0, path
        assert head.count(POLICY_META) == 1
        assert "<script" not in head[:at] and head.rfind("<meta charset", 0, at) >= 0, path
        policies.add(head[at:head.index(">", at)])
    assert len(policies) == 1
    # It allows the inline scripts of every page (instant navigation keeps the first page's).
    scripts = {s for path in pages for s in csp.inline_scripts(path.read_text(encoding="utf-8"))}
    assert policies == {csp.meta_tag(csp.policy(scripts))[:-1]}


@pytest.mark.parametrize("gpu", [False, True], ids=["wasm", "webgpu"])
def test_a_live_example_runs_under_the_policy(browser, gpu_browser, server: StaticServer,
                                              gpu: bool) -> None:
    page, probe = open_page(gpu_browser if gpu else browser, server, "models/linear/")
    if gpu:  # a software adapter is the reader's choice only: "auto" never picks it
        page.click(WIDGET + ' [data-le="record"] > summary')
        page.check(WIDGET + ' input[data-le-backend][value="webgpu"]')
    state = run(page)
    assert (state["state"], state["match"]) == ("done", "true"), page.inner_text(WIDGET)
    assert state["backend"] == ("webgpu" if gpu else "wasm")
    assert_clean(probe)
    page.context.close()


def test_threads_run_under_the_policy(browser, real_site: Built) -> None:
    with StaticServer(real_site.site, "/onnx-glossary/", headers=dict(ISOLATION_HEADERS)) as server:
        page, probe = open_page(browser, server, "models/linear/")
        state = run(page)
        assert (state["state"], state["match"]) == ("done", "true")
        assert int(state["threads"]) > 1
        assert_clean(probe)
        page.context.close()


def test_own_picture_and_drawing_run_under_the_policy(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "models/edges/")
    picture = io.BytesIO()
    Image.new("RGB", (40, 30), (20, 200, 20)).save(picture, "PNG")
    page.set_input_files(WIDGET + ' input[type="file"]', files=[
        {"name": "mine.png", "mimeType": "image/png", "buffer": picture.getvalue()}])
    state = run(page)
    assert (state["state"], state["sample"]) == ("done", "own")
    page.goto(server.url + "models/digits/", wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    draw(page, [[(128, 30), (128, 226)]])
    state = run(page)
    assert (state["state"], state["sample"]) == ("done", "own")
    assert_clean(probe)
    page.context.close()


def test_search_and_tooltips_work_under_the_policy(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "")
    page.locator("input.md-search__input").click()
    page.keyboard.type("SharedArrayBuffer")
    page.locator(".md-search-result__item a[href*='glossary/sharedarraybuffer/']").first.wait_for(timeout=20000)
    page.goto(server.url + "glossary/onnx/", wait_until="load")
    link = page.locator("article a[href$='/glossary/operator/']").first
    link.scroll_into_view_if_needed()
    link.hover()
    page.locator(".md-tooltip2--active").wait_for(timeout=5000)
    assert_clean(probe)
    page.context.close()


def test_instant_navigation_keeps_one_policy_and_breaks_none(browser, instant: StaticServer) -> None:
    """A term page, then a model page (Run), then a page with a diagram, then a term page with
    a diagram and a card, all in the first page's document, under the first page's policy."""
    page, probe = open_page(browser, instant, "glossary/webgpu/", viewport={"width": 1280, "height": 900})
    page.wait_for_load_state("networkidle")  # Material intercepts links once it read the sitemap
    page.evaluate("window.sameDocument = true")
    page.locator("article a[href$='/models/linear/']").first.click()
    page.wait_for_url("**/models/linear/")
    page.wait_for_selector(RUN + ":not([disabled])")
    state = run(page)
    assert (state["state"], state["match"]) == ("done", "true")
    for path, diagram in (("architecture/", True), ("glossary/", False), ("glossary/onnx/", True)):
        page.locator(f"a[href$='/{path}']").first.click()
        page.wait_for_url(f"**/{path}")
        wait_until(page, "(path) => location.pathname.endsWith(path) && document.querySelector("
                   "'article h1')", arg=path)
        if diagram:  # drawn ahead of time: in the page that instant navigation swapped in
            assert page.locator("article figure.gl-diagram svg >> visible=true").count() >= 1
    assert page.evaluate("window.sameDocument") is True  # swapped in place, never reloaded
    assert page.locator('head meta[http-equiv="Content-Security-Policy"]').count() == 1
    assert_clean(probe)
    page.context.close()
