"""Parsing and validation of term files: each bad input gives one message naming file and line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from onnx_glossary.glossary.index import GlossaryIndex, load_glossary, parse_term
from onnx_glossary.glossary.links import line_of

from .sitebuild import build_site, term, write_project


def problems_for(tmp_path: Path, files: dict[str, str], models: list[str] | None = None) -> list[str]:
    folder = tmp_path / "glossary"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    _, problems = load_glossary(folder, tmp_path, model_names=models)
    return [str(p) for p in problems]


def test_a_complete_term_parses_into_every_field() -> None:
    text = """---
title: ONNX
aka: [Open Neural Network Exchange, .onnx]
category: AI
updated: 2026-08-10
summary: An open format for models.
facts:
  caption: Quick facts about ONNX.
  rows:
    - fact: Opset
      detail: 17
mistakes:
  - Ignoring the [opset](opset.md).
faq:
  - q: Is it a runtime?
    a: No, a *format*.
sources:
  - title: Spec
    url: https://onnx.ai/onnx/repo-docs/IR.html
related: [webgpu]
models: [linear]
---
## Body heading
Text.
"""
    parsed, problems = parse_term(text, "glossary/onnx.md", "onnx")
    assert problems == []
    assert parsed is not None
    assert parsed.title == "ONNX"
    assert parsed.aka == ("Open Neural Network Exchange", ".onnx")
    assert parsed.updated == dt.date(2026, 8, 10)
    assert parsed.facts is not None and parsed.facts.caption == "Quick facts about ONNX."
    assert [(r.fact, r.detail) for r in parsed.facts.rows] == [("Opset", "17")]
    assert parsed.faq[0].question == "Is it a runtime?" and parsed.faq[0].answer == "No, a *format*."
    assert parsed.sources[0].url == "https://onnx.ai/onnx/repo-docs/IR.html"
    assert parsed.related == ("webgpu",) and parsed.models == ("linear",)
    assert parsed.body.startswith("## Body heading")
    assert parsed.body_line == 23
    assert parsed.src_uri == "glossary/onnx.md"


def test_empty_file(tmp_path: Path) -> None:
    assert problems_for(tmp_path, {"empty": ""}) == [
        "glossary/empty.md: the file is empty: add front matter with title, category, updated, "
        "summary and sources (see the contributing page)"]


def test_missing_front_matter(tmp_path: Path) -> None:
    [message] = problems_for(tmp_path, {"plain": "# Just markdown\n"})
    assert message.startswith("glossary/plain.md:1: no YAML front matter")


def test_unparseable_yaml_names_the_line(tmp_path: Path) -> None:
    text = "---\ntitle: ONNX\ncategory: [unclosed\nupdated: 2026-01-01\n---\n"
    [message] = problems_for(tmp_path, {"bad": text})
    assert message.startswith("glossary/bad.md:")
    assert "not valid YAML" in message
    line = int(message.split(":")[1])
    assert 3 <= line <= 5


def test_unknown_key_suggests_the_nearest(tmp_path: Path) -> None:
    text = term("ONNX", extra="sumary: typo\n")
    [message] = problems_for(tmp_path, {"onnx": text})
    assert message == "glossary/onnx.md:9: unknown key 'sumary': did you mean 'summary'?"


def test_unknown_key_without_a_near_one_lists_the_known(tmp_path: Path) -> None:
    [message] = problems_for(tmp_path, {"onnx": term("ONNX", extra="colour: red\n")})
    assert "unknown key 'colour' (known keys: title, aka, category" in message


@pytest.mark.parametrize("field", ["title", "category", "updated", "summary", "sources"])
def test_missing_required_field_drops_the_term(tmp_path: Path, field: str) -> None:
    lines = term("ONNX").splitlines(keepends=True)
    starts = {"title": "title:", "category": "category:", "updated": "updated:",
              "summary": "summary:", "sources": "sources:"}
    kept = [line for line in lines if not line.startswith(starts[field])]
    if field == "sources":  # drop the items too
        kept = [line for line in kept if not line.startswith("  ")]
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "onnx.md").write_text("".join(kept))
    index, problems = load_glossary(folder, tmp_path)
    assert [str(p) for p in problems] == [
        f"glossary/onnx.md: the required key '{field}' is missing: " + str(problems[0]).split(
            "is missing: ")[1]]
    assert len(index) == 0


@pytest.mark.parametrize(("extra", "expected"), [
    ("aka: ONNX format\n", "glossary/x.md:9: 'aka' must be a list (one '- item' per line), not text"),
    ("mistakes:\n  - 42\n", "glossary/x.md:10: each item of 'mistakes' must be text, not a number"),
    ("faq:\n  - q: Why?\n", "glossary/x.md:10: each faq entry is missing 'a'"),
    ("facts:\n  rows: nope\n", "glossary/x.md:10: 'facts rows' must be a list (one '- item' per line), not text"),
    ("related: [a, [b]]\n", "glossary/x.md:9: each item of 'related' must be text, not a list"),
])
def test_wrong_types(tmp_path: Path, extra: str, expected: str) -> None:
    assert expected in problems_for(tmp_path, {"x": term("X", extra=extra)})


def test_wrong_type_for_a_required_field_drops_the_term(tmp_path: Path) -> None:
    text = term("X").replace("summary: X in one sentence.", "summary: [a, list]")
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "x.md").write_text(text)
    index, problems = load_glossary(folder, tmp_path)
    assert [str(p) for p in problems] == ["glossary/x.md:5: 'summary' must be text, not a list"]
    assert len(index) == 0


@pytest.mark.parametrize("value", ["2026-13-40", "yesterday", "2026-02-30"])
def test_invalid_dates(tmp_path: Path, value: str) -> None:
    text = term("X").replace("updated: 2026-11-30", f"updated: {value}")
    [message] = problems_for(tmp_path, {"x": text})
    assert message == f"glossary/x.md:4: 'updated' must be a real date written YYYY-MM-DD, not '{value}'"


def test_duplicate_title_and_alias_across_terms_ignore_case(tmp_path: Path) -> None:
    problems = problems_for(tmp_path, {
        "a-onnx": term("ONNX", extra="aka: [Open format]\n"),
        "b-other": term("onnx"),
        "c-third": term("Third", extra="aka: [OPEN FORMAT]\n"),
    })
    assert "glossary/b-other.md:2: the title 'onnx' is already the title of glossary/a-onnx.md: " \
           "names must be unique across terms (ignoring case); rename or remove one" in problems
    assert any(p.startswith("glossary/c-third.md:9: the alias 'OPEN FORMAT' is already the alias "
                            "of glossary/a-onnx.md") for p in problems)


def test_duplicate_slug_ignoring_case(tmp_path: Path) -> None:
    problems = problems_for(tmp_path, {"onnx": term("ONNX"), "ONNX": term("Other")})
    assert any("the slug 'onnx' duplicates glossary/ONNX.md" in p for p in problems)
    assert any("glossary/ONNX.md: the file name 'ONNX.md' is not a usable slug" in p for p in problems)


def test_unknown_related_slug_names_its_line(tmp_path: Path) -> None:
    problems = problems_for(tmp_path, {
        "webgpu": term("WebGPU"),
        "onnx": term("ONNX", extra="related:\n  - webgpu\n  - webgpv\n"),
    })
    assert problems == ["glossary/onnx.md:11: 'related' names the unknown term 'webgpv': "
                        "did you mean 'webgpu.md'?"]


def test_source_url_must_be_http(tmp_path: Path) -> None:
    text = term("X").replace("https://example.org/spec", "javascript:alert(1)")
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "x.md").write_text(text)
    index, problems = load_glossary(folder, tmp_path)
    assert [str(p) for p in problems] == [
        "glossary/x.md:8: source URL 'javascript:alert(1)' is not an http(s) address: link the "
        "page the fact was read at, starting with https://"]
    assert len(index) == 0  # no usable source left: a page without sources is not published


def test_unknown_model_name(tmp_path: Path) -> None:
    problems = problems_for(tmp_path, {"x": term("X", extra="models: [linear, lineer, nope]\n")},
                            models=["linear", "edges"])
    assert problems == [
        "glossary/x.md:9: 'models' names the unknown model 'lineer': did you mean 'linear'?",
        "glossary/x.md:9: 'models' names the unknown model 'nope': add models/nope/model.onnx "
        "or use one of linear, edges"]


def built_problems(tmp_path: Path, files: dict[str, str]) -> list[str]:
    """The unknown-term problems a build of these terms reports (links are checked where
    Markdown converts them)."""
    built = build_site(write_project(tmp_path, files))
    return [w for w in built.ours() if "unknown term" in w]


def test_link_to_a_missing_term_names_the_body_line(tmp_path: Path) -> None:
    body = "Intro.\n\n```\n[not a link](ghost.md)\n```\n\nSee [WebGPU](webgpu.md) and [x](webgpv.md).\n"
    problems = built_problems(tmp_path, {"webgpu": term("WebGPU"), "x": term("X", body=body)})
    assert problems == ["glossary/x.md:16: link to the unknown term 'webgpv' (webgpv.md): "
                        "did you mean 'webgpu.md'?"]


def test_many_broken_links_in_a_big_glossary_each_get_the_nearest_slug(tmp_path: Path) -> None:
    # A big glossary's hints must read the same as a small one's (common/suggestions.py).
    files = {f"topic-{i:03d}": term(f"Topic {i}") for i in range(120)}
    files["webgpu"] = term("WebGPU")
    files["webassembly"] = term("WebAssembly")
    body = ("See [a](webgpv.md), [b](web-assembly.md), [c](topic-7.md), [d](webgpv.md) and "
            "[e](nothing-like-it.md).\n")
    files["x"] = term("X", body=body)
    problems = built_problems(tmp_path, files)
    assert problems == [
        "glossary/x.md:10: link to the unknown term 'webgpv' (webgpv.md): did you mean 'webgpu.md'?",
        "glossary/x.md:10: link to the unknown term 'web-assembly' (web-assembly.md): did you mean "
        "'webassembly.md'?",
        # Of equally close slugs, the first in sorted order.
        "glossary/x.md:10: link to the unknown term 'topic-7' (topic-7.md): did you mean "
        "'topic-007.md'?",
        "glossary/x.md:10: link to the unknown term 'webgpv' (webgpv.md): did you mean 'webgpu.md'?",
        "glossary/x.md:10: link to the unknown term 'nothing-like-it' (nothing-like-it.md): create "
        "glossary/nothing-like-it.md or fix the link"]


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    problems = problems_for(tmp_path, {"x": term("X", extra="title: Again\n")})
    assert "glossary/x.md:9: the key 'title' appears twice: keep one" in problems


def test_index_orders_groups_and_links_neighbours(tmp_path: Path) -> None:
    folder = tmp_path / "glossary"
    folder.mkdir()
    for slug, title, category in [("b", "beta", "One"), ("a", "Alpha", "One"),
                                  ("z", "3D things", "Two"), ("c", "Gamma", "Two")]:
        (folder / f"{slug}.md").write_text(term(title, category))
    index, problems = load_glossary(folder, tmp_path)
    assert problems == []
    assert [t.title for t in index.terms] == ["3D things", "Alpha", "beta", "Gamma"]
    assert list(index.letters()) == ["A", "B", "G", "#"]
    assert {k: [t.slug for t in v] for k, v in index.categories().items()} == {
        "One": ["a", "b"], "Two": ["z", "c"]}
    assert [t.slug for t in index.neighbours(index.by_slug["a"])] == ["b"]
    assert index.resolve("../glossary/a.md#x", "guides/page.md") is index.by_slug["a"]
    assert index.resolve("a.md", "glossary/b.md") is index.by_slug["a"]
    assert index.resolve("a.md", "guides/page.md") is None
    assert isinstance(index, GlossaryIndex)


def test_a_link_gets_the_line_it_is_written_on_in_source_order() -> None:
    text = "a [x](one.md)\n\nb [y](two.md) and [z](one.md)\n"
    first, after = line_of(text, "one.md")
    second, after = line_of(text, "two.md", after)
    third, _ = line_of(text, "one.md", after)
    assert (first, second, third) == (1, 3, 3)
    assert line_of(text, "absent.md") == (None, 0)


def test_a_link_to_a_missing_term_in_a_mistake_or_an_answer_names_its_item(tmp_path: Path) -> None:
    extra = ("mistakes:\n  - Fine.\n  - See [the ghost](ghost.md).\n"
             "faq:\n  - q: Why?\n    a: Because of [webgpv](webgpv.md).\n")
    problems = built_problems(tmp_path, {"webgpu": term("WebGPU"), "x": term("X", extra=extra)})
    assert problems == [
        "glossary/x.md:11: link to the unknown term 'ghost' (ghost.md): create glossary/ghost.md "
        "or fix the link",
        "glossary/x.md:14: link to the unknown term 'webgpv' (webgpv.md): did you mean 'webgpu.md'?"]
