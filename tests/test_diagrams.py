"""Diagrams drawn ahead of time (render/diagrams.py, scripts/render_diagrams.py): every mermaid
fence of the site has a current drawing, the build shows the drawing and never the fence's text,
a drawing is small and follows the page's palette, and in real Chromium it fits its column at
1280 px with labels of at least 12 px on a 360 px phone.
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest
from onnx_glossary.render.diagrams import (
    MIN_LABEL_PX,
    Diagrams,
    fences,
    read_drawing,
    source_hash,
    stale,
    wanted,
)

from .sitebuild import REPO, Built, build_site, term, write_project
from .support.browser import StaticServer, wait_until

FIGURE = re.compile(r'<figure class="gl-diagram".*?</figure>', re.S)
#: Words of a mermaid fence, as HTML would show them, that no drawing has: its keyword and its
#: arrows.
SOURCE_WORDS = re.compile(r"flowchart (?:LR|TD|TB)|--&gt;")
#: A colour written into a drawing instead of taken from the page.
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b(?![\w-])|\brgba?\(|\bhsla?\(")
FENCE = "```mermaid\nflowchart LR\n  a[\"one\"] --> b[\"two\"]\n```\n"


def diagram_pages(built: Built) -> dict[str, str]:
    """The built pages with a diagram: URL path -> HTML."""
    out = {}
    for path in sorted(built.site.rglob("index.html")):
        html = path.read_text(encoding="utf-8")
        if 'class="gl-diagram"' in html:
            out[path.parent.relative_to(built.site).as_posix() + "/"] = html
    return out


def test_every_diagram_of_the_site_has_a_drawing_of_its_current_text() -> None:
    """The repository's own check, as a contributor runs it (a stale or missing drawing, or a
    drawing of no diagram, makes it exit 1 with one line each)."""
    done = subprocess.run([sys.executable, "scripts/render_diagrams.py", "--check"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_a_stale_missing_or_left_over_drawing_is_named(tmp_path: Path) -> None:
    pages = {"glossary/a.md": "# A\n\n" + FENCE, "b.md": "# B\n\n" + FENCE.replace("two", "three")}
    diagrams = wanted(pages)
    assert [(d.page_uri, d.name) for d in diagrams] == [("b.md", "b.svg"), ("glossary/a.md", "glossary/a.svg")]
    folder = tmp_path / "diagrams"
    (folder / "glossary").mkdir(parents=True)
    svg = '<svg width="100" height="40" data-source-sha256="{}" data-layout="written"></svg>'
    (folder / "glossary/a.svg").write_text(svg.format(diagrams[1].fence.sha256))
    (folder / "b.svg").write_text(svg.format(source_hash("an older text")))
    (folder / "gone.svg").write_text(svg.format("0" * 64))
    assert stale(diagrams, folder) == ["b.md (diagram 1): b.svg is stale",
                                       "gone.svg is the drawing of no diagram: delete it"]
    (folder / "b.svg").unlink()
    assert stale(diagrams, folder)[0] == "b.md (diagram 1): b.svg is missing"


def test_a_fence_inside_a_code_block_is_code_and_trailing_spaces_do_not_count() -> None:
    lines = ["````markdown", *FENCE.splitlines(), "````", "", *FENCE.splitlines()]
    found = list(fences(lines))
    assert [(f.start, f.end) for f in found] == [(7, 10)]
    assert found[0].sha256 == source_hash(found[0].source.replace("flowchart LR", "flowchart LR   "))


def test_a_fence_without_a_drawing_is_a_warning_on_its_line_and_shows_no_source(tmp_path: Path) -> None:
    config = write_project(tmp_path, {"onnx": term("ONNX", body="## How\n\n" + FENCE)})
    built = build_site(config, strict=True)
    assert built.aborted
    [warning] = [w for w in built.ours() if "mermaid" in w]
    line = (tmp_path / "glossary/onnx.md").read_text().splitlines().index("```mermaid") + 1
    assert warning.startswith(f"glossary/onnx.md:{line}: this mermaid diagram has no drawing in diagrams/")
    assert "scripts/render_diagrams.py" in warning
    html = built.page("glossary/onnx")
    assert "This diagram is not drawn yet." in html
    assert not SOURCE_WORDS.search(html) and "mermaid" not in html


def test_the_built_site_shows_drawings_only_small_and_in_the_pages_colours(real_site: Built) -> None:
    pages = diagram_pages(real_site)
    drawn = {f.as_posix() for f in (REPO / "diagrams").rglob("*.svg")}
    assert len(pages) >= 5 and "glossary/onnx/" in pages and len(drawn) >= 10
    for path, html in pages.items():
        figures = FIGURE.findall(html)
        assert figures, path
        # The drawings are the page's own markup: no diagram library, no request, no source.
        assert not SOURCE_WORDS.search(html.split("<article", 1)[1]), path
        assert "mermaid" not in re.sub(r'aria-roledescription="[^"]*"', "", "".join(figures)), path
        weight = len(gzip.compress("".join(figures).encode("utf-8"), 9))
        assert weight <= 30_000, f"{path}: its diagrams add {weight} bytes gzipped"
    assert not list(real_site.site.rglob("mermaid*"))
    for svg in (REPO / "diagrams").rglob("*.svg"):
        text = svg.read_text(encoding="utf-8")
        assert not COLOUR.search(text), f"{svg}: {COLOUR.search(text).group(0)}"
        assert "var(--md-typeset-color" in text and "var(--md-default-bg-color" in text
        assert read_drawing(svg) is not None


def test_diagrams_load_reports_a_file_that_is_no_drawing(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.svg").write_text("<svg></svg>")
    diagrams, problems = Diagrams.load(tmp_path / "d", tmp_path)
    assert [(p.path, p.message.split(":")[0]) for p in problems] == [
        ("d/x.svg", "is no drawing of a diagram (no data-source-sha256, data-layout, width and height on its <svg>)")]
    assert diagrams.figure("flowchart LR\n a --> b") is None


# In Chromium: what a reader sees.

#: For each visible drawing: its drawn width, its container's, and its smallest label in CSS
#: pixels (the label's font size times the drawing's scale).
MEASURE_JS = """() => [...document.querySelectorAll('article figure.gl-diagram svg')]
  .filter((svg) => svg.getBoundingClientRect().width > 0)
  .map((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    const figure = svg.closest('figure');
    return {id: svg.id, width: svg.getBoundingClientRect().width, column: figure.clientWidth,
            scrolls: figure.scrollWidth > figure.clientWidth, labels: sizes.length, smallest: Math.min(...sizes)};
  })"""

#: Every visible piece of text of the page that reads like a diagram's source.
SOURCE_VISIBLE_JS = r"""() => {
  const text = document.body ? document.body.innerText : '';
  return (text.match(/flowchart (LR|TD|TB)|-->/g) || []).length;
}"""


@pytest.mark.browser
def test_no_diagram_source_is_visible_while_the_page_loads(browser, server: StaticServer) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(server.url + "glossary/onnx/", wait_until="commit")
    seen = []
    for wait in (50, 450):
        page.wait_for_timeout(wait)
        seen.append(page.evaluate(SOURCE_VISIBLE_JS))
    page.wait_for_load_state("load")
    seen.append(page.evaluate(SOURCE_VISIBLE_JS))
    # The drawing is in the page from its first paint: nothing draws it later.
    assert page.locator("article figure.gl-diagram svg >> visible=true").count() == 1
    assert seen == [0, 0, 0]
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_every_diagram_fits_its_column_with_readable_labels(browser, server: StaticServer,
                                                           real_site: Built, width: int) -> None:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    wrong = {}
    for path in diagram_pages(real_site):
        page.goto(server.url + path, wait_until="load")
        wait_until(page, "document.fonts.status === 'loaded'")
        found = page.evaluate(MEASURE_JS)
        assert found and all(d["labels"] for d in found), path
        for d in found:
            if d["width"] > d["column"] + 0.5 or d["scrolls"] or d["smallest"] < MIN_LABEL_PX - 0.01:
                wrong[f"{path} {d['id']}"] = d
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.context.close()
    assert wrong == {}


@pytest.mark.browser
def test_a_drawing_follows_the_palette(browser, server: StaticServer) -> None:
    colours = {}
    for scheme in ("light", "dark"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme).new_page()
        page.goto(server.url + "glossary/onnx/", wait_until="load")
        colours[scheme] = page.evaluate("""() => {
          const text = document.querySelector('article figure.gl-diagram svg text');
          const box = document.querySelector('article figure.gl-diagram svg .node rect');
          const probe = document.createElement('span');
          probe.style.color = 'var(--md-typeset-color)';
          document.querySelector('article').append(probe);
          return [getComputedStyle(text).fill, getComputedStyle(probe).color, getComputedStyle(box).fill];
        }""")
        page.context.close()
    (light_text, light_page, light_box), (dark_text, dark_page, dark_box) = colours["light"], colours["dark"]
    assert (light_text, dark_text) == (light_page, dark_page)  # the page's text colour, each time
    assert light_text != dark_text and light_box != dark_box
