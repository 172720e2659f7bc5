"""Term-link tooltips in real headless Chromium: keyboard focus shows the short answer, the
link's accessible description is the short answer, and on a touch screen the first tap shows
it while the second follows the link."""

from __future__ import annotations

import pytest
from onnx_glossary.glossary.index import parse_term

from .sitebuild import REPO
from .support.browser import PageProbe, StaticServer

pytestmark = pytest.mark.browser

TERM_LINK = "a.gl-term[aria-describedby]"


def open_page(browser, server: StaticServer, path: str, **context):
    page = browser.new_context(**context).new_page()
    probe = PageProbe(server.origin).attach(page)
    page.goto(server.url + path, wait_until="load")
    return page, probe


def short_answer(slug: str) -> str:
    """The term's short answer as its source file states it (independent of any build)."""
    path = REPO / "glossary" / f"{slug}.md"
    term, problems = parse_term(path.read_text(encoding="utf-8"), str(path), slug)
    assert term is not None and not problems, problems
    return term.summary


def accessible_description(page, name: str) -> str | None:
    """What Chromium's accessibility tree gives as the description of the link called ``name``."""
    client = page.context.new_cdp_session(page)
    nodes = client.send("Accessibility.getFullAXTree")["nodes"]
    for node in nodes:
        if node.get("role", {}).get("value") == "link" and node.get("name", {}).get("value") == name:
            return node.get("description", {}).get("value")
    raise AssertionError(f"no link named {name!r} in the accessibility tree")


@pytest.mark.parametrize("path", ["glossary/onnx/", "models/linear/"])
def test_tab_to_a_term_link_shows_and_describes_its_short_answer(browser, server: StaticServer,
                                                                 path: str) -> None:
    page, probe = open_page(browser, server, path)
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({TERM_LINK!r})"):
            break
    else:
        raise AssertionError("Tab never reached a term link")
    link = page.locator(":focus")
    slug = link.get_attribute("href").rstrip("/").rsplit("/", 1)[1]
    summary = short_answer(slug)
    target = link.get_attribute("aria-describedby")
    assert target == f"gl-tip-{slug}"
    assert page.evaluate(f"document.getElementById({target!r}).textContent") == summary
    # Material's tooltip, opened by focus alone, shows the short answer next to the link.
    tooltip = page.locator(".md-tooltip2--active")
    tooltip.wait_for(state="visible", timeout=5000)
    assert tooltip.inner_text().strip() == summary
    assert tooltip.bounding_box()["width"] > 100
    # Screen readers: the link's computed accessible description is the short answer.
    assert accessible_description(page, link.inner_text().strip()) == summary
    # The summaries are hidden from sight until asked for.
    assert not page.locator(f"#{target}").is_visible()
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()


def test_first_tap_shows_the_short_answer_second_tap_follows(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "glossary/onnx/", has_touch=True, is_mobile=True,
                            viewport={"width": 390, "height": 844})
    link = page.locator(f"article {TERM_LINK}[href$='/glossary/operator/']").first
    link.scroll_into_view_if_needed()
    summary = page.evaluate("id => document.getElementById(id).textContent",
                            link.get_attribute("aria-describedby"))
    link.tap()
    tooltip = page.locator(".md-tooltip2--active")
    tooltip.wait_for(state="visible", timeout=5000)
    assert tooltip.inner_text().strip() == summary
    assert page.url.endswith("/glossary/onnx/")  # not followed yet
    link.tap()
    page.wait_for_url("**/glossary/operator/", timeout=10000)
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()


@pytest.mark.parametrize(("path", "chips"), [("glossary/", "#by-category ~ ul.gl-chips"),
                                             ("glossary/webgpu/", ".gl-mentions ul.gl-chips")])
def test_a_term_chip_shows_its_short_answer_on_focus_and_on_hover(browser, server: StaticServer,
                                                                  path: str, chips: str) -> None:
    page, probe = open_page(browser, server, path)
    first, last = page.locator(f"{chips} {TERM_LINK}").first, page.locator(f"{chips} {TERM_LINK}").last
    tooltip = page.locator(".md-tooltip2--active")
    for chip, act in ((first, "focus"), (last, "hover")):
        chip.scroll_into_view_if_needed()
        getattr(chip, act)()
        slug = chip.get_attribute("href").rstrip("/").rsplit("/", 1)[1]
        tooltip.wait_for(state="visible", timeout=5000)
        assert tooltip.inner_text().strip() == short_answer(slug), act
        chip.blur()
        page.mouse.move(0, 0)
        tooltip.wait_for(state="hidden", timeout=5000)
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()


def test_the_tooltip_stays_in_a_phones_window_and_escape_closes_it(browser, server: StaticServer) -> None:
    page, probe = open_page(browser, server, "glossary/", viewport={"width": 360, "height": 740})
    # One tooltip serves every link: nothing is set up per link (no title for Material to mount).
    assert page.locator("a.gl-term[title]").count() == 0
    tooltip = page.locator(".md-tooltip2--active")
    links = page.locator(f"#by-category ~ ul.gl-chips {TERM_LINK}")
    for chip in (links.first, links.nth(5), links.last):
        chip.focus()
        tooltip.wait_for(state="visible", timeout=5000)
        page.wait_for_timeout(500)  # Material's transition moves it into place
        box = tooltip.locator(".md-tooltip2__inner").bounding_box()
        link = chip.bounding_box()
        assert box and link and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert link["y"] + link["height"] <= box["y"] <= link["y"] + link["height"] + 40, (box, link)
        page.keyboard.press("Escape")
        tooltip.wait_for(state="hidden", timeout=5000)
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()
