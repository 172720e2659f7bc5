"""Unit tests of the core modules on small inputs: render, markdown_ext, catalog, assets,
element types and the model-facts serialisation. No site build, no browser."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import markdown
import onnx
import pytest
from jinja2 import Environment
from markupsafe import Markup
from onnx_glossary.browser import assets
from onnx_glossary.browser.runtime import BUNDLES, import_map, runtime_files
from onnx_glossary.common.paths import shown_path
from onnx_glossary.common.problems import Finding, Problem, SetupError
from onnx_glossary.common.suggestions import Suggestions, did_you_mean
from onnx_glossary.common.urls import SiteUrls
from onnx_glossary.common.yaml_lines import BadDate, YamlError, load_yaml
from onnx_glossary.glossary.index import GlossaryIndex, parse_term
from onnx_glossary.hosts.markdown_ext import GlossaryExtension, PageContext
from onnx_glossary.models.catalog import AnalysisCache, Catalog, load_catalog
from onnx_glossary.models.element_types import ELEMENT_TYPES
from onnx_glossary.options import Options
from onnx_glossary.render.environment import (
    environment,
    human_bytes,
    markdown_field,
    markdown_fields,
    md_escape,
    shape_text,
)
from onnx_glossary.render.pages import Pages
from onnx_glossary.site import Site

from . import model_builders as build
from .sitebuild import REPO, term

NODE_MODULES = REPO / "node_modules"


# -- element types, findings, helpers ---------------------------------------------------------


def test_element_types_match_onnx_enums():
    for element in ELEMENT_TYPES:
        assert onnx.TensorProto.DataType.Name(element.onnx).lower().replace("float", "float32") \
            .replace("float3216", "float16").replace("double", "float64") == element.name, element


def test_findings_decide_build_level_and_fix_text():
    note = Finding("note", "fixed shape")
    to_do = Finding("note", "an unnamed free axis", "name it")
    refusal = Finding("refusal", "IR 14 is too new", "use IR 10")
    # A fact the page states is no line of a build that went well; a note with a fix is.
    assert note.problem("m.onnx") == Problem("m.onnx", None, "fixed shape", level="debug")
    assert to_do.problem("m.onnx") == Problem("m.onnx", None, "an unnamed free axis: name it", level="info")
    assert refusal.problem("m.onnx") == Problem("m.onnx", None, "IR 14 is too new: use IR 10")
    assert (note.fails_build, refusal.fails_build) == (False, True)


def test_did_you_mean_and_shown_path(tmp_path: Path):
    assert did_you_mean("onnx-runtim", ["onnx-runtime", "opset"]) == ": did you mean 'onnx-runtime'?"
    assert did_you_mean("zzz", ["onnx"], " (none)") == " (none)"
    assert shown_path(tmp_path / "a" / "b.md", tmp_path) == "a/b.md"
    assert shown_path("/elsewhere/x.md", tmp_path) == "/elsewhere/x.md"


def test_suggestions_name_the_closest_slug_and_the_first_of_equals():
    names = [f"term-{i:04d}" for i in range(300)] + ["webgpu", "webassembly", "onnx-runtime"]
    suggestions = Suggestions(names)
    expected = {"term-004x": "term-0004", "trem-0042": "term-0042", "webgpv": "webgpu",
                "onnxruntime": "onnx-runtime", "x": None, "unwritten-3-4": None}
    assert {name: suggestions.closest(name) for name in expected} == expected
    # Equally close names: the first in the order given (term-0004 before term-0040...).
    assert Suggestions(["b-12", "a-12"]).closest("x-12") == "b-12"
    assert suggestions.hint("webgpv") == ": did you mean 'webgpu'?"
    assert suggestions.hint("zzz", " (none)") == " (none)"


# -- render -------------------------------------------------------------------------------


def test_md_escape_makes_markdown_and_html_inert():
    escaped = md_escape("<b>*bold*</b> [x](y)")
    assert "<b>" not in escaped and "\\*bold\\*" in escaped and "\\[x\\]\\(y\\)" in escaped
    html = markdown.markdown(str(escaped))
    assert "<em>" not in html and "<a" not in html


def test_markdown_field_drops_raw_html_and_script_links():
    html = markdown_field("Hi <script>alert(1)</script> [x](javascript:alert(1)) [ok](https://a.b/)")
    assert "<script" not in html and "javascript:" not in html
    assert '<a href="https://a.b/">ok</a>' in html


@pytest.mark.parametrize("texts", [
    ["A *plain* answer.", "Two\n\nparagraphs.", "- a list\n- of two"],
    ["Before a break.\n\n---\n\nAfter it.", "Another field."],  # a field's own <hr />
    ["```python\nnever closed", "Swallowed?", "Last."],  # a fence never closed
    ["A break\n\n***\n\nof its own.", "```\nopened", "closed\n```"],  # a break and a fence across fields
    ["`* * *` in code", "and `<hr />` as text"],
])
def test_markdown_fields_gives_each_field_what_converting_it_alone_gives(texts):
    assert markdown_fields(texts) == [markdown_field(text) for text in texts]


def test_filters():
    assert shape_text([None, "batch", 3]) == "[?, batch, 3]"
    assert shape_text(None) == "unknown rank"
    assert human_bytes(933) == "933 bytes"
    assert human_bytes(205_281) == "205.3 KB"


def test_templates_can_be_overridden_from_custom_dir(tmp_path: Path):
    override = tmp_path / "onnx_glossary"
    override.mkdir()
    (override / "model_card.html.jinja").write_text("<p class='mine'>{{ facts.name }}</p>")
    env = environment(str(tmp_path))
    assert env is not environment() and isinstance(env, Environment)
    assert env.get_template("model_card.html.jinja").render(facts={"name": "<x>"}) == \
        "<p class='mine'>&lt;x&gt;</p>"
    # Templates it does not override still come from the package.
    assert "verdict_box" in env.get_template("macros.jinja").module.__dict__


# -- catalog and pages ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> tuple[Catalog, list[Problem], AnalysisCache]:
    root = tmp_path_factory.mktemp("catalog")
    build.save(build.linear(), root / "models" / "lin")
    build.save(build.linear(ir_version=14), root / "models" / "new")
    (root / "models" / "broken").mkdir()
    (root / "models" / "broken" / "model.onnx").write_bytes(b"not a model")
    cache = AnalysisCache(root / "cache")
    found, problems = load_catalog(root / "models", root, cache, size_budget_bytes=10**6,
                                   node_modules=NODE_MODULES)
    return found, problems, cache


def test_catalog_loads_models_and_reports_each_problem_once(catalog):
    found, problems, cache = catalog
    assert sorted(found.models) == ["lin", "new"]
    assert found.models["lin"].live and found.models["lin"].verdict is None
    assert not found.models["new"].live and found.models["new"].verdict == "refusal"
    # A live model without example.yml gets its missing summary as information only.
    assert [(p.path, p.level) for p in problems] == [("models/broken/model.onnx", "warning"),
                                                     ("models/lin/example.yml", "info"),
                                                     ("models/new/model.onnx", "warning")]
    assert "does not run in onnxruntime-web" in problems[2].message
    assert cache.misses == 3


def test_catalog_cache_is_keyed_by_content(tmp_path: Path, catalog):
    _, _, first = catalog
    root = first.directory.parent
    again = AnalysisCache(first.directory)
    load_catalog(root / "models", root, again, size_budget_bytes=10**6, node_modules=NODE_MODULES)
    assert again.misses == 0
    build.save(build.linear(opset=18), root / "models" / "lin")
    changed = AnalysisCache(first.directory)
    found, _ = load_catalog(root / "models", root, changed, size_budget_bytes=10**6,
                            node_modules=NODE_MODULES)
    assert changed.misses == 1 and found.models["lin"].facts.opsets["ai.onnx"] == 18


def test_pages_link_through_the_url_helper(catalog):
    found, _, _ = catalog
    for directory, card_link in ((True, "../../models/lin/"), (False, "../models/lin/index.html")):
        pages = Pages(urls=SiteUrls(directory))
        card = pages.embed(found, "model-card", "lin", "glossary/t.md")
        assert f'href="{card_link}"' in card
        widget = pages.embed(found, "live-example", "lin", "glossary/t.md")
        assert "data-live-example" in widget and 'data-model-url="../' in widget
        assert pages.embed(found, "model-card", "nope", "glossary/t.md") is None
        made = pages.model_pages(found)
        files = {**dict(made.pages), **dict(made.files)}
        assert {"models/index.md", "models/operators.md", "models/lin/index.md",
                "models/lin/example.mjs", "models/new/index.md"} <= set(files)
        assert "models/new/example.mjs" not in files  # refused: no live example
        # The terms each model page links to come back with the pages, as a value.
        assert set(made.term_links) == {"models/lin/index.md", "models/new/index.md"}


# -- markdown extension ---------------------------------------------------------------------


def test_markdown_extension_adds_tooltips_embeds_and_line_numbers(tmp_path: Path):
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "onnx-runtime.md").write_text(term("ONNX Runtime"))
    build.save(build.linear(), tmp_path / "models" / "m")
    reported: list[Problem] = []
    options = Options.from_values({"glossary_dir": "glossary", "models_dir": "models",
                                   "node_modules": str(NODE_MODULES), "quality_checks": False},
                                  tmp_path)
    site = Site.load(options, tmp_path, reported.append)
    context = PageContext(site=site, report=reported.append)
    md = markdown.Markdown(extensions=[GlossaryExtension(context)])
    context.begin_page("page.md", "", file_text="", shown="docs/page.md")
    html = md.convert(textwrap.dedent("""\
        See [the runtime](glossary/onnx-runtime.md).

        [[model-card: m]]

        [[live-example: missing]]
        """))
    assert re.search(r'<a (?=[^>]*class="gl-term")[^>]*aria-describedby="gl-tip-onnx-runtime"', html)
    assert '<span id="gl-tip-onnx-runtime">ONNX Runtime in one sentence.</span>' in html
    assert 'class="gl-model-card"' in html and "data-compact" in html
    assert "Missing example model: missing" in html
    assert [str(p) for p in reported if p.level == "warning"] == [
        "docs/page.md:5: [[live-example: missing]] names the unknown model 'missing': add "
        "models/missing/model.onnx or fix the name"]
    assert context.links == {"page.md": {"onnx-runtime"}}


# -- assets ---------------------------------------------------------------------------------


def test_runtime_files_import_map_and_asset_list_agree(tmp_path: Path):
    config = Options(live_examples=True, cross_origin_isolation=True)
    listed = dict(assets.files(True, NODE_MODULES, config))
    for name in runtime_files():
        assert listed[assets.ORT_URI + name].is_file()
    assert "coi-serviceworker.js" in listed
    assert set(import_map("/s/assets/ort/")["imports"].values()) == \
        {f"/s/assets/ort/{b.module}" for b in BUNDLES.values()}
    with pytest.raises(SetupError, match="npm ci"):
        dict(assets.files(True, tmp_path / "node_modules", config))


def test_json_ld_is_data_not_text():
    parsed, _ = parse_term(term("A <b> term"), "glossary/a.md", "a")
    assert parsed is not None
    page = Pages(urls=SiteUrls(True, "https://x.io/r/")).term_page(parsed, GlossaryIndex.of([parsed]))
    (defined,) = page.json_ld
    assert defined["name"] == "A <b> term" and defined["url"] == "https://x.io/r/glossary/a/"
    assert json.loads(json.dumps(defined)) == defined
    assert isinstance(page.markdown, str) and not isinstance(page.markdown, Markup)


# -- yaml_lines ----------------------------------------------------------------------------


def test_load_yaml_keeps_the_file_line_of_every_key_and_item():
    text = "title: T\nsources:\n  - title: A\n    url: u\n  - b\ntitle: again\n"
    data, duplicates = load_yaml(text, first_line=2)
    assert data == {"title": "again", "sources": [{"title": "A", "url": "u"}, "b"]}
    assert data.line == 2 and data.key_lines == {"title": 7, "sources": 3}
    assert data["sources"].item_lines == [4, 6] and data["sources"][0].key_lines["url"] == 5
    assert duplicates == [("title", 7)]


def test_load_yaml_reads_scalars_merge_keys_and_aliases_as_pyyaml_does():
    text = ("n: 3\nflag: true\nnone:\nday: 2026-11-30\nbad: 2026-13-40\n"
            "base: &b {x: 1}\nmerged: {<<: *b, y: 2}\nagain: [*b, *b]\n")
    data, _ = load_yaml(text)
    assert data["n"] == 3 and data["flag"] is True and data["none"] is None
    assert data["day"].isoformat() == "2026-11-30" and data["bad"] == BadDate("2026-13-40")
    assert data["merged"] == {"x": 1, "y": 2}
    # An alias is the anchored object itself: a million aliases cost one construction.
    assert data["again"][0] is data["again"][1] is data["base"]


@pytest.mark.parametrize("text, line, what", [
    ("a: 1\nb: &x\n  - *x\n", 2, "refers to the value"),  # an alias inside its own anchor
    ("a: 1\n? [1, 2]\n: list key\n", 2, "key must be"),
    ("a: 1\nb: !thing {x: 1}\n", 2, "!thing"),
    ("a: 1\nb: !!map text\n", 2, "expected a mapping"),
    ("a: 1\nb: [1, 2\n", 3, ""),
])
def test_load_yaml_refuses_what_it_cannot_build_with_its_line(text, line, what):
    with pytest.raises(YamlError) as error:
        load_yaml(text, first_line=1)
    assert error.value.line == line and what in str(error.value)



def test_long_identifiers_get_break_points_at_their_joints_and_nowhere_else():
    from markupsafe import Markup
    from onnx_glossary.render.environment import identifier_breaks

    assert identifier_breaks("SessionOptions.add_free_dimension_override_by_name") == Markup(
        "Session<wbr>Options.<wbr>add_<wbr>free_<wbr>dimension_<wbr>override_<wbr>by_<wbr>name")
    # Short words, tags and attributes stay as they are; plain text is escaped first.
    html = Markup('see <a href="https://x.org/a_long_path_name/x">onnxruntime.InferenceSession</a>')
    assert identifier_breaks(html) == Markup(
        'see <a href="https://x.org/a_long_path_name/x">onnxruntime.<wbr>Inference<wbr>Session</a>')
    assert identifier_breaks("dim_param & <b>") == Markup("dim_param &amp; &lt;b&gt;")
