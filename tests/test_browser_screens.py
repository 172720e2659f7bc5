"""Every built page on a 360 px phone, and an accessibility audit of every page in both
palettes, in real headless Chromium against the project's own site (one build, one browser).

Model pages are checked before Run; the widget's layout after Run is tested with the widget.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .sitebuild import REPO, Built
from .support.browser import PageProbe, StaticServer, wait_until

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"

#: Containers whose clipping would hide a too-wide page instead of fixing it.
MAIN_CONTAINERS = "html, body, .md-container, .md-main, .md-main__inner, .md-content, article"

#: What sticks out of the viewport: the page's own width, clipped main containers, and every
#: piece of text whose right edge passes the viewport outside a box that scrolls sideways.
OVERFLOW_JS = """(containers) => {
  const width = window.innerWidth;
  const clipped = [...document.querySelectorAll(containers)]
    .filter((e) => ['hidden', 'clip'].includes(getComputedStyle(e).overflowX))
    .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : ''));
  const scrollsInItsBox = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (['auto', 'scroll'].includes(s.overflowX) && e.getBoundingClientRect().right <= width + 0.5)
        return true;
      if (['hidden', 'clip'].includes(s.overflowX) && e.getBoundingClientRect().right <= width + 0.5)
        return true;  // a small clipped widget (Material's ellipsis title), not the page
    }
    return false;
  };
  const sticking = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    const el = node.parentElement;
    if (getComputedStyle(el).visibility === 'hidden' || scrollsInItsBox(el)) continue;
    sticking.push(`${el.tagName.toLowerCase()}.${el.className} "${node.textContent.trim().slice(0, 40)}" ends at ${Math.round(box.right)}px`);
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, clipped, sticking: sticking.slice(0, 5)};
}"""


#: What is wrong with the page's tables: a table (or the box it scrolls in) wider than the
#: content column, a cell whose content overflows it, and a two-column fact table (a label per
#: row) that scrolls at all. Cells a narrow layout hides on purpose (the stacked tables' header
#: rows, kept for screen readers) are not looked at.
TABLES_JS = """() => {
  const column = document.querySelector('.md-content').getBoundingClientRect();
  const wrong = [];
  for (const table of document.querySelectorAll('article table')) {
    // A table not drawn (a widget's, until its button fills it) has no box to measure.
    if (!table.getClientRects().length) continue;
    const name = (table.caption?.textContent || table.querySelector('th, td')?.textContent || '').trim().slice(0, 30);
    const box = table.closest('.md-typeset__scrollwrap, .gl-table-scroll') || table;
    const rect = box.getBoundingClientRect();
    if (rect.left < column.left - 0.5 || rect.right > column.right + 0.5)
      wrong.push(`${name}: ${Math.round(rect.left)} to ${Math.round(rect.right)} px, the column ${Math.round(column.left)} to ${Math.round(column.right)}`);
    const pairs = table.querySelector('tbody > tr > th[scope=row]') && !table.querySelector('tr > :nth-child(3)');
    const scroller = table.closest('.gl-table-scroll, .md-typeset__scrollwrap');
    if (pairs && scroller && scroller.scrollWidth > scroller.clientWidth + 1)
      wrong.push(`${name}: a fact table that scrolls (${scroller.scrollWidth} px in ${scroller.clientWidth})`);
    for (const cell of table.querySelectorAll('th, td')) {
      const head = cell.closest('thead');
      if (head && getComputedStyle(head).position === 'absolute') continue;
      if (cell.scrollWidth > cell.clientWidth + 1)
        wrong.push(`${name}: cell "${cell.textContent.trim().slice(0, 30)}" is ${cell.scrollWidth} px in ${cell.clientWidth}`);
    }
  }
  return wrong;
}"""


def built_pages(site: Path) -> list[str]:
    """Every page of the built site, as URL paths below the site root ('' is the home page)."""
    pages = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.rglob("index.html"))
    return ["" if p == "./" else p for p in pages] + ["404.html"]


#: Transitions stopped for an audit (the site's policy allows inline styles).
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; }"


def settle(page) -> None:
    """Wait for what changes the page after load: tables wrapped and framed."""
    wait_until(page, "document.documentElement.dataset.glScrollBoxes === 'ready'")
    # Every stylesheet applied (a loaded sheet has its CSSOM; a pending one has none yet).
    wait_until(page, """[...document.querySelectorAll('link[rel=stylesheet]')]
        .every((link) => link.sheet !== null)""")


@pytest.fixture(scope="module")
def pages(real_site: Built) -> list[str]:
    found = built_pages(real_site.site)
    # Every kind of page is there: a failure to find them must not pass silently.
    terms = {p.stem for p in (REPO / "glossary").glob("*.md")}
    models = {p.parent.name for p in (REPO / "models").glob("*/model.onnx")}
    assert {f"glossary/{slug}/" for slug in terms} <= set(found)
    assert {f"models/{name}/" for name in models} <= set(found)
    assert {"", "glossary/", "models/", "models/operators/", "contributing/", "your-photo/"} <= set(found)
    return found


def test_no_page_is_wider_than_a_360px_phone(browser, server: StaticServer, pages: list[str]) -> None:
    """...and none breaks the site's Content-Security-Policy or logs an error, diagrams drawn."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    probe = PageProbe(server.origin).attach(page)
    wrong = {}
    for path in pages:
        seen = len(probe.errors)
        page.goto(server.url + path, wait_until="load")
        assert page.locator('head meta[http-equiv="Content-Security-Policy"]').count() == 1, path
        settle(page)
        found = page.evaluate(OVERFLOW_JS, MAIN_CONTAINERS)
        found["tables"] = page.evaluate(TABLES_JS)
        if found["scrollWidth"] > found["innerWidth"] or found["clipped"] or found["sticking"] or found["tables"]:
            wrong[path] = found
        if probe.errors[seen:]:
            wrong[path] = {"errors": probe.errors[seen:]}
    context.close()
    assert wrong == {}
    assert probe.other_origin == []


def test_no_table_is_wider_than_its_column_at_1280px(laptop_pass: dict[str, dict]) -> None:
    """The same look at the tables of every page on a laptop's screen (the 360 px test above
    looks at them on a phone), read in the light palette's audit pass (one load per page)."""
    assert {path: found["tables"] for path, found in laptop_pass["light"].items() if found["tables"]} == {}


@pytest.mark.parametrize(("path", "column"), [("models/operators/", "WebGPU kernel")])
def test_last_column_of_a_wide_table_is_reachable(browser, server: StaticServer, path: str,
                                                  column: str) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + path, wait_until="load")
    box = page.locator("article .gl-table-scroll").first
    frame = page.locator("article .gl-scroll-frame").first
    header = box.locator("th", has_text=column)
    # The cue: a shadow on the edge that hides columns (the frame names that edge).
    wait_until(page, "() => document.querySelector('article .gl-scroll-frame')?.dataset.more !== undefined")
    if box.evaluate("e => e.scrollWidth > e.clientWidth"):
        assert frame.get_attribute("data-more") == "right"
        wait_until(page, "getComputedStyle(document.querySelector('article .gl-scroll-frame'), '::after')"
                               ".opacity === '1'", timeout=2000)
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    wait_until(page, "() => document.querySelector('article .gl-scroll-frame').dataset.more === 'left'"
                           " || document.querySelector('article .gl-scroll-frame').dataset.more === ''")
    right = header.evaluate("e => e.getBoundingClientRect().right")
    assert right <= PHONE["width"]
    assert box.get_attribute("tabindex") == "0"  # keyboard users scroll it too
    page.context.close()


def test_a_box_added_later_is_framed_and_text_changes_measure_nothing(
        browser, server: StaticServer) -> None:
    """Boxes that appear after load (a diagram drawn, a result table) get their frame; a
    change of text (a live example reports its progress many times a Run) does not make the
    script look at every box again, which would force a layout each time."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "models/linear/", wait_until="load")
    settle(page)
    page.evaluate("delete document.documentElement.dataset.glScrollBoxes")  # set on each look
    page.evaluate("document.querySelector('article p').textContent = 'changed'")
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.dataset.glScrollBoxes") is None
    page.evaluate("""() => {
        const box = document.createElement('div');
        box.className = 'gl-table-scroll';
        box.id = 'late';
        box.innerHTML = '<div style="width: 2000px">wide</div>';
        document.querySelector('article').append(box); }""")
    wait_until(page, "document.documentElement.dataset.glScrollBoxes === 'ready'")
    assert page.evaluate("document.getElementById('late').parentElement.className") == "gl-scroll-frame"
    assert page.get_attribute("#late", "tabindex") == "0"
    page.context.close()


def test_operator_names_break_only_at_their_joints(browser, server: StaticServer) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "models/operators/", wait_until="load")
    pieces = page.evaluate("""() => [...document.querySelectorAll('article tbody td:nth-child(2) a')].flatMap((a) =>
      [...a.childNodes].filter((n) => n.nodeType === 3).map((n) => {
        const r = document.createRange(); r.selectNodeContents(n);
        return [a.textContent, n.textContent, r.getClientRects().length];
      }))""")
    names = {name for name, _, _ in pieces}
    assert "DynamicQuantizeLinear" in names
    broken = [(name, piece) for name, piece, lines in pieces if lines > 1]
    assert broken == []
    # A long one does break, at a joint, rather than widening its column.
    parts = [piece for name, piece, _ in pieces if name == "DynamicQuantizeLinear"]
    assert parts == ["Dynamic", "Quantize", "Linear"]
    page.context.close()


AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) =>
    ({rule: v.id, nodes: v.nodes.length,
      first: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary.split('\\n')[1])}));
}"""


def audit_pass(browser, server: StaticServer, pages: list[str], scheme: str) -> dict[str, dict]:
    """Every page of ``pages`` loaded once at 1280 x 900 in one palette: what axe-core (served
    from node_modules, injected into the page, every rule on, no element excluded) finds of
    serious or critical, and what TABLES_JS finds."""
    axe = AXE.read_text(encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    # The search index plays no part in what is audited (the search box and its empty results
    # are there either way), but each page's search worker parsing it again was most of a
    # page load's CPU here: it is served empty.
    context.route("**/search/search_index.json", lambda route: route.fulfill(json={"config": {}, "docs": []}))
    # One tab, page after page: with four tabs at once each page took 3.8 times as long here
    # (2.9 s against 0.76 s), not less; a page that is not in front waits for its frames.
    tab = context.new_page()
    found: dict[str, dict] = {}
    for path in pages:
        tab.goto(server.url + path, wait_until="load")
        settle(tab)
        # Colours are audited at rest: a starved machine once caught a link half-way through a
        # colour transition. No transition may run; none left running.
        tab.add_style_tag(content=NO_TRANSITIONS)
        wait_until(tab, "document.getAnimations().every((a) => !(a instanceof CSSTransition)"
                        " || a.playState !== 'running')")
        expected = "slate" if scheme == "dark" else "default"
        assert tab.evaluate("document.body.dataset.mdColorScheme") == expected
        tab.evaluate(axe)  # DevTools compiles it: a script tag would break the policy
        found[path] = {"axe": tab.evaluate(AXE_RUN), "tables": tab.evaluate(TABLES_JS)}
    context.close()
    return found


def covering(site: Path, paths: list[str]) -> list[str]:
    """A few of ``paths`` that between them hold every CSS class any of them holds (a greedy
    set cover): pages built from one template differ only in the components they embed."""
    def classes(path: str) -> set[str]:
        html = (site / path / "index.html").read_text(encoding="utf-8")
        return {name for value in re.findall(r'class="([^"]*)"', html) for name in value.split()}
    left = {path: classes(path) for path in paths}
    wanted = set().union(*left.values())
    chosen: list[str] = []
    while wanted:
        best = max(left, key=lambda path: len(left[path] & wanted))
        chosen.append(best)
        wanted -= left.pop(best)
    return sorted(chosen)


@pytest.fixture(scope="module")
def laptop_pass(browser, server: StaticServer, pages: list[str]) -> dict[str, dict[str, dict]]:
    """The audit pass of every page in the light palette; in the dark one, of every page that
    is not a term page and of the term pages that between them hold every component any term
    page holds (the dark palette changes colours, not layout: the tables are read in light)."""
    terms = [p for p in pages if re.fullmatch(r"glossary/[^/]+/", p)]
    dark = [p for p in pages if p not in terms] + covering(server.root, terms)
    return {"light": audit_pass(browser, server, pages, "light"),
            "dark": audit_pass(browser, server, dark, "dark")}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_wcag_aa_in_axe(laptop_pass: dict[str, dict[str, dict]], scheme: str) -> None:
    """No serious or critical axe violation on any page, in either palette."""
    found = {path: seen["axe"] for path, seen in laptop_pass[scheme].items() if seen["axe"]}
    assert found == {}, json.dumps(found, indent=1)[:6000]


def test_term_page_card_runs_its_model_in_place(browser, server: StaticServer) -> None:
    """A term page shows each model as a compact card whose Run button runs it right there,
    with its answer first and the reference check folded under it; the code opens on demand."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "glossary/onnx/", wait_until="load")
    card = page.locator("article .gl-model-card").first
    widget = card.locator("[data-live-example][data-compact]")
    assert widget.count() == 1
    assert page.locator("article [data-live-example]").count() == 1  # no second, full widget
    code = widget.locator("details.gl-compact-code")
    assert code.get_attribute("open") is None
    assert not code.locator("[role=tablist]").is_visible()
    assert not widget.locator("[data-le=timings]").is_visible()
    widget.locator('button[data-action="run"]:enabled').click()
    wait_until(page, "document.querySelector('.gl-model-card [data-live-example]').dataset.state === 'done'",
                           timeout=120000)
    assert widget.get_attribute("data-match") == "true"
    assert widget.get_attribute("data-backend") in ("wasm", "webgpu")
    assert widget.locator("[data-le=answer]").is_visible()
    assert widget.locator("[data-le=answer]").inner_text() == widget.get_attribute("data-answer")
    assert widget.locator("[data-le=outputs]").text_content().strip()  # in the folded record
    assert "max abs diff" in widget.locator("[data-le=check]").text_content()
    code.locator("summary").click()
    assert code.locator("[role=tablist]").is_visible()
    page.context.close()


def test_term_page_with_a_model_is_not_a_wall(browser, server: StaticServer, real_site: Built) -> None:
    """The embed costs a card, not the whole widget: at 1280 px the card of /glossary/onnx/ is
    well under a screen high (the full widget and card were ~1,400 px)."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server.url + "glossary/onnx/", wait_until="load")
    height = page.locator("article .gl-model-card").first.evaluate("e => e.getBoundingClientRect().height")
    assert height < 700, height
    page.context.close()


def test_card_opens_the_drawing_pad_when_the_reader_chooses_to_draw(browser, server: StaticServer) -> None:
    """In a card the 256 px pad stays folded while a shipped digit is chosen, and opens (usable)
    as soon as the reader picks "your own drawing"."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(server.url + "glossary/softmax/", wait_until="load")
    widget = page.locator("article .gl-model-card [data-live-example][data-compact][data-input-kind=drawing]").first
    pad = widget.locator('canvas[data-le="pad"]')
    assert not pad.is_visible()
    widget.locator('[data-le="use-own"]').check()
    assert pad.is_visible()
    box = pad.bounding_box()
    assert box["width"] >= 200 and box["x"] + box["width"] <= 390
    page.context.close()
