"""Term pages and the index in real headless Chromium, served under a sub-path like GitHub
Pages: rendered, no console errors, nothing from another origin, tooltips, search, diagrams,
narrow screens and the dark palette."""

from __future__ import annotations

import pytest

from .sitebuild import REPO
from .support.browser import PageProbe, StaticServer, wait_until

pytestmark = pytest.mark.browser


def open_page(browser, server: StaticServer, path: str, **context):
    context = browser.new_context(**context)
    page = context.new_page()
    probe = PageProbe(server.origin).attach(page)
    page.goto(server.url + path, wait_until="load")
    return page, probe


def test_term_page_renders_completely(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "glossary/onnx/")
    assert page.locator("article h1").inner_text().rstrip("¶") == "ONNX"
    assert page.locator(".gl-short-answer").is_visible()
    assert page.locator(".gl-facts table tbody tr").count() >= 4
    assert page.locator(".gl-mistakes ol > li").count() >= 3
    assert page.locator("#questions").is_visible()
    assert page.locator(".gl-sources a").count() >= 2
    assert page.locator("#same-cluster").is_visible()
    # The mermaid fence is its drawing, made ahead of time (tests/test_diagrams.py).
    assert page.locator("article figure.gl-diagram svg >> visible=true").first.bounding_box()["height"] > 50
    page.wait_for_timeout(300)
    assert probe.errors == []
    assert probe.other_origin == []
    assert not probe.fetched("/assets/ort/")  # no live example here: no runtime fetched
    page.context.close()


def test_term_link_shows_its_short_answer_as_a_tooltip(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "glossary/onnx/")
    link = page.locator("article a[href$='/glossary/operator/']").first
    link.scroll_into_view_if_needed()
    link.hover()
    tooltip = page.locator(".md-tooltip2--active")
    tooltip.wait_for(timeout=5000)
    assert tooltip.inner_text().startswith("An operator is")
    assert probe.errors == []
    page.context.close()


def test_index_counts_terms_and_jumps_to_a_letter(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "glossary/")
    terms = len(list((REPO / "glossary").glob("*.md")))
    assert f"All {terms} terms" in page.locator(".gl-total").inner_text()
    page.locator(".gl-letters a", has_text="W").click()
    wait_until(page, "location.hash === '#letter-w'")
    assert page.locator("#letter-w").is_visible()
    assert page.locator("a[href$='/glossary/webgpu/']").first.is_visible()
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()


@pytest.mark.parametrize(("query", "slug"), [("SharedArrayBuffer", "sharedarraybuffer"),
                                             ("Open Neural Network Exchange", "onnx")])
def test_search_finds_a_term_by_title_and_alias(browser, server: StaticServer, query: str,
                                                slug: str) -> None:
    page, probe = open_page(browser, server, "")
    page.locator("input.md-search__input").click()
    page.keyboard.type(query)
    result = page.locator(f".md-search-result__item a[href*='glossary/{slug}/']").first
    result.wait_for(timeout=20000)
    assert probe.other_origin == []
    page.context.close()


def test_narrow_screen_fits_the_fact_table_and_scrolls_wide_ones_in_their_box(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "glossary/onnx/", viewport={"width": 360, "height": 740})
    facts = page.locator(".gl-facts .gl-table-scroll").first
    # Two columns wrap to fit a phone: nothing to slide, so no hint saying so.
    wait_until(page, "() => document.querySelector('.gl-facts .gl-scroll-frame')?.dataset.more === ''")
    assert facts.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert not page.locator(".gl-scroll-hint").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page, probe = open_page(browser, server, "models/operators/", viewport={"width": 360, "height": 740})
    box = page.locator(".gl-table-scroll").first
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")  # the table slides sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert probe.errors == []
    page.context.close()


def test_dark_palette_follows_the_system(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "glossary/onnx/", color_scheme="dark")
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    assert scheme == "slate"
    background = page.locator(".gl-short-answer").evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    assert probe.errors == []
    page.context.close()


def test_instant_navigation_from_index_to_term(browser, instant: StaticServer) -> None:
    page, probe = open_page(browser, instant, "glossary/")
    page.wait_for_load_state("networkidle")  # Material intercepts links once it read the sitemap
    page.evaluate("window.sameDocument = true")
    page.locator("article a[href$='/glossary/webgpu/']").first.click()
    page.wait_for_url("**/glossary/webgpu/")
    wait_until(page, "document.querySelector('article h1').textContent.startsWith('WebGPU')")
    assert page.evaluate("window.sameDocument") is True  # swapped in place, not reloaded
    # The tooltips of the new page work too (they are set up per page by Material).
    link = page.locator("article a[href$='/glossary/webassembly/']").first
    link.scroll_into_view_if_needed()
    link.hover()
    page.locator(".md-tooltip2--active").wait_for(timeout=5000)
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()
