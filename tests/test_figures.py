"""Measured figures come from one place: the benchmarks' data file, printed with
[[figure: KEY]] wherever a page or a term's field names one."""

from __future__ import annotations

import json
from pathlib import Path

from onnx_glossary.common.figures import SCHEMA_PATH

from .sitebuild import REPO, build_site, term, write_project

DATA = {"page": "bench.md", "runs": [
    {"date": "2026-12-01", "machine": "m", "versions": {}, "command": "make bench",
     "figures": {"build.p1": {"value": 1.3, "text": "1.30", "label": "Build ratio"}}},
    {"date": "2026-12-02", "machine": "m", "versions": {}, "command": "make bench",
     "figures": {"build.p1": {"value": 1.2, "text": "1.21", "label": "Build ratio"},
                 "live.cold": {"value": 0.5, "text": "0.49 s", "label": "Cold Run"}}}]}


def test_the_data_file_follows_its_declared_format() -> None:
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(json.loads((REPO / "docs" / "benchmarks.json").read_text()), schema)
    jsonschema.validate(DATA, schema)


def test_a_figure_prints_its_newest_value_linked_and_labelled(tmp_path: Path) -> None:
    body = "It builds at [[figure: build.p1]] of plain Material.\n"
    # Quoted: a plain YAML scalar with ": " in it would be a mapping.
    extra = ("mistakes:\n  - 'A Run takes [[figure: live.cold]].'\n"
             "  - 'Nothing [[figure: live.cld]].'\n"
             # A fact's detail is plain text, escaped, with its figures printed (line 12).
             "facts:\n  rows:\n    - fact: Cold\n"
             "      detail: \"[[figure: live.cold]] <b>cold</b>\"\n"
             "    - fact: Typo\n      detail: \"[[figure: build.p2]]\"\n")
    docs = {"index.md": "# Home\n\nCold: [[figure: live.cold]].\n",
            "bench.md": "# Bench\n\n[[figure-table: all]]\n"}
    config = write_project(tmp_path, {"t": term("T", body=body, extra=extra)}, docs=docs)
    (tmp_path / "figures.json").write_text(json.dumps(DATA))
    text = config.read_text().replace("      set_name: Tiny set\n",
                                      "      set_name: Tiny set\n      figures_file: figures.json\n")
    config.write_text(text)
    built = build_site(config)
    page = built.page("glossary/t")
    assert ('<a class="gl-figure" href="../../bench/#figure-build-p1" title="Build ratio: measured '
            "on this site&#39;s machines on 2026-12-02\">1.21</a>") in page
    assert ">0.49 s</a>" in page and ">0.49 s</a>" in built.page("")
    assert ('<td><a class="gl-figure" href="../../bench/#figure-live-cold" title="Cold Run: measured '
            "on this site&#39;s machines on 2026-12-02\">0.49 s</a> &lt;b&gt;cold&lt;/b&gt;</td>") in page
    assert '<del class="gl-figure-missing">figure build.p2</del>' in page
    assert 'id="figure-build-p1"' in built.page("bench") and 'id="figure-live-cold"' in built.page("bench")
    assert sorted(w for w in built.ours() if "figure" in w) == [
        "glossary/t.md:11: [[figure: live.cld]] is no figure of the benchmarks' data file: did you "
        "mean 'live.cold'?",
        "glossary/t.md:12: [[figure: build.p2]] is no figure of the benchmarks' data file: did you "
        "mean 'build.p1'?"]


def test_a_page_naming_a_figure_without_a_data_file_is_told_what_to_set(tmp_path: Path) -> None:
    config = write_project(tmp_path, {"t": term("T")},
                           docs={"index.md": "# Home\n\nText.\n\nFast: [[figure: live.cold]].\n"})
    built = build_site(config)
    assert [w for w in built.ours() if "figure" in w] == [
        "docs/index.md:5: [[figure: live.cold]] names a figure, but the site has no figures: set "
        "the glossary option figures_file to the benchmarks' data file"]
