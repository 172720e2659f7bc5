"""``[[browser-support: all]]``: the browser-support table, made at build time from the plugin's
data file (plugins/onnx_glossary/data/browser-support.json, itself checked against the pinned
@mdn/browser-compat-data by tests/test_browser_support.py). One tiny site is built for the
module; its cells are checked against the data file, and Chromium checks that it fits a phone."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from onnx_glossary.browser.support import DATA_FILE, cell, load_browser_support
from onnx_glossary.render.pages import Pages

from .sitebuild import Built, build_site, term, write_project
from .support.browser import PageProbe, StaticServer, chromium

DATA = json.loads(DATA_FILE.read_text(encoding="utf-8"))
PAGE = "# Support\n\nWhere it runs.\n\n[[browser-support: all]]\n\nAnd a typo:\n\n[[browser-support: chrome]]\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("support")
    config = write_project(root, {"t": term("T")}, docs={"index.md": "# Home\n", "support.md": PAGE})
    return build_site(config)


def rows_of(page: str) -> dict[str, list[str]]:
    """Each feature row's cells, as text (footnote marks dropped), by feature id."""
    rows = {}
    for feature_id, body in re.findall(r'<tr id="support-([a-z0-9-]+)">(.*?)</tr>', page, re.DOTALL):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", body, re.DOTALL)
        rows[feature_id] = [html.unescape(re.sub(r"<sup>.*?</sup>|</?span>", "", c)) for c in cells]
    return rows


def earliest_unflagged(statements: list[dict]) -> tuple[str, bool] | None:
    """The first release without a flag, and whether its support is partial (the oracle)."""
    found = [(s["version_added"], bool(s.get("partial_implementation"))) for s in statements
             if isinstance(s.get("version_added"), str) and not s.get("flags")]
    return min(found, key=lambda v: [float(n) for n in re.findall(r"\d+", v[0])]) if found else None


def test_a_row_per_feature_and_a_cell_per_browser_as_the_data_file_says(built: Built) -> None:
    page = built.page("support")
    assert f"<caption>MDN browser-compat-data {DATA['source']['version']}</caption>" in page
    headers = re.findall(r'<th scope="col">([^<]*)</th>', page)
    assert headers == ["Feature", *[b["name"] for b in DATA["browsers"]]]
    rows = rows_of(page)
    assert list(rows) == [f["id"] for f in DATA["features"]]
    for feature in DATA["features"]:
        for browser, text in zip(DATA["browsers"], rows[feature["id"]], strict=True):
            statements = feature["support"][browser["id"]]
            first = earliest_unflagged(statements)
            if first is None:
                flagged = any(s.get("flags") and s.get("version_added") for s in statements)
                assert text == ("flag" if flagged else "No"), (feature["id"], browser["id"])
            else:
                version, partial = first
                assert text.startswith(version + (" (partial)" if partial else "")), (feature["id"], text)
    # The cases a reader needs most, as they stand in browser-compat-data 8.1.9.
    assert rows["webgpu"][:4] == ["113 (partial), 144", "113 (partial), 144", "141 (partial)", "26"]
    assert rows["webnn"] == ["flag", "flag", "No", "No", "flag", "No"]
    assert rows["wasm-simd"][3] == "16.4"


def test_every_note_is_a_numbered_footnote_of_its_cells(built: Built) -> None:
    page = built.page("support")
    notes = dict(re.findall(r'<li id="support-note-(\d+)">([^<]*)</li>', page))
    texts = [html.unescape(t) for t in notes.values()]
    for feature in DATA["features"]:
        for browser in DATA["browsers"]:
            for statement in feature["support"][browser["id"]]:
                for note in statement.get("notes", []):
                    assert any(t.startswith(f"{feature['title']}, ") and t.endswith(note)
                               and browser["name"] in t for t in texts), note
    # Chrome and Edge share WebGPU's notes: one footnote names both.
    assert any(t.startswith("WebGPU, Chrome, Edge: ") for t in texts)
    for number in notes:
        assert f'href="#support-note-{number}"' in page


def test_another_name_than_all_is_a_warning_naming_the_line(built: Built) -> None:
    assert [w for w in built.ours() if "browser-support" in w] == [
        "docs/support.md:9: [[browser-support: chrome]]: write [[browser-support: all]]"]


def test_cells_follow_the_rule_and_the_data_is_escaped(tmp_path: Path) -> None:
    assert cell([{"version_added": False}]).text == "No"
    assert cell([{"version_added": "112", "flags": True}]).text == "flag"
    assert cell([{"version_added": "60", "version_removed": "70"}]).text == "No"
    assert cell([{"version_added": True}]).text == "Yes"
    assert cell([{"version_added": "≤79"}, {"version_added": "12", "prefix": "webkit"}]).notes == (
        "As webkit from 12.",)
    assert cell([{"version_added": "9", "partial_implementation": True}]).text == "9 (partial)"
    data = json.loads(json.dumps(DATA))
    data["features"][0]["title"] = "<b>GPU</b>"
    data["features"][0]["mdn_url"] = "javascript:alert(1)"
    data["features"][0]["support"]["safari"] = [{"version_added": "26", "notes": ["<script>x</script>"]}]
    data["source"]["version"] = "<i>9</i>"
    path = tmp_path / "support.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    table = Pages(browser_support=load_browser_support(path)).browser_support_table()
    assert table is not None
    assert "&lt;b&gt;GPU&lt;/b&gt;" in table and "&lt;script&gt;x&lt;/script&gt;" in table
    assert "&lt;i&gt;9&lt;/i&gt;" in table and "<script>" not in table and "javascript:" not in table


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_the_table_fits_a_phone_and_a_desktop(built: Built, width: int) -> None:
    with StaticServer(built.site) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": width, "height": 800})
        probe = PageProbe(server.origin).attach(page)
        page.goto(server.url + "support/", wait_until="load")
        sizes = page.evaluate("""() => {
            const table = document.querySelector('table.gl-support');
            const box = table.closest('.gl-table-scroll');
            let right = 0;
            for (const e of table.querySelectorAll('th, td')) right = Math.max(right, e.getBoundingClientRect().right);
            const cell = table.querySelector('tbody td');
            return {page: document.documentElement.scrollWidth, inner: innerWidth, right,
                    table: table.scrollWidth, box: box.clientWidth,
                    label: getComputedStyle(cell, '::before').content,
                    overflowing: [...table.querySelectorAll('tbody th, tbody td')].filter(e => e.scrollWidth > e.clientWidth + 1).length};
        }""")
        assert sizes["page"] <= sizes["inner"] and sizes["right"] <= sizes["inner"], sizes
        assert sizes["table"] <= sizes["box"] and sizes["overflowing"] == 0, sizes
        # Stacked on a phone: each cell shows its browser's name; a real table on a desktop.
        assert sizes["label"] == ('"Chrome"' if width == 360 else "none"), sizes
        assert probe.errors == [] and probe.other_origin == []
