"""The glossary's editorial rules: each shortfall is one warning naming path:line and what to add."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import pytest
from onnx_glossary.glossary.index import GlossaryIndex, load_glossary
from onnx_glossary.glossary.quality import (
    check_completeness,
    check_dates,
    check_orphans,
    domain,
    latest_today,
)

from .sitebuild import MKDOCS_YML, REPO, build_site, write_project

COMPLETE = """\
---
title: {title}
category: {category}
updated: {updated}
summary: {title} in one sentence.
facts:
  rows:
    - fact: One
      detail: 1
    - fact: Two
      detail: 2
    - fact: Three
      detail: 3
    - fact: Four
      detail: 4
mistakes:
  - First mistake.
  - Second mistake.
faq:
  - q: Why?
    a: Because.
  - q: How?
    a: Like this.
sources:
  - title: Spec
    url: https://www.example.org/spec
  - title: Docs
    url: https://docs.example.com/page
---
{body}"""


def complete(title: str, category: str = "Cat", updated: str = "2026-01-01", body: str = "Text.\n") -> str:
    return COMPLETE.format(title=title, category=category, updated=updated, body=body)


def index_of(tmp_path: Path, files: dict[str, str]) -> GlossaryIndex:
    folder = tmp_path / "glossary"
    folder.mkdir(parents=True, exist_ok=True)
    for slug, text in files.items():
        (folder / f"{slug}.md").write_text(text, encoding="utf-8")
    index, problems = load_glossary(folder, tmp_path)
    assert problems == []
    return index


def test_a_complete_term_passes(tmp_path: Path) -> None:
    index = index_of(tmp_path, {"a": complete("A")})
    assert check_completeness(index) == []
    assert check_dates(index, dt.date(2026, 1, 1)) == []


def test_each_shortfall_names_its_line_and_what_to_add(tmp_path: Path) -> None:
    text = complete("A")
    text = text.replace("    - fact: Four\n      detail: 4\n", "")
    text = text.replace("  - Second mistake.\n", "")
    text = text.replace("  - q: How?\n    a: Like this.\n", "")
    text = text.replace("  - title: Docs\n    url: https://docs.example.com/page\n", "")
    messages = [str(p) for p in check_completeness(index_of(tmp_path, {"a": text}))]
    assert messages == [
        "glossary/a.md:19: only 1 source: add at least 2, from at least 2 different sites "
        "(a specification and the runtime's docs, say)",
        "glossary/a.md:6: 3 fact/detail rows in 'facts': add 1 more (at least 4)",
        "glossary/a.md:14: 1 'mistakes' (what people get wrong): add 1 more (at least 2)",
        "glossary/a.md:16: 1 'faq' entries (q and a: questions people ask): add 1 more (at least 2)",
    ]


def test_missing_optional_sections_are_named_at_the_top(tmp_path: Path) -> None:
    text = "---\ntitle: A\ncategory: C\nupdated: 2026-01-01\nsummary: A.\nsources:\n" \
           "  - {title: S, url: 'https://a.org/x'}\n  - {title: T, url: 'https://b.org/y'}\n---\n"
    messages = [str(p) for p in check_completeness(index_of(tmp_path, {"a": text}))]
    assert [m.split(": ", 1)[0] for m in messages] == ["glossary/a.md:1"] * 3
    assert "0 fact/detail rows in 'facts': add 4 more" in messages[0]


def test_sources_from_one_site_are_not_enough(tmp_path: Path) -> None:
    text = complete("A").replace("https://docs.example.com/page", "https://example.org/other")
    [problem] = check_completeness(index_of(tmp_path, {"a": text}))
    assert str(problem) == ("glossary/a.md:24: all 2 sources are from example.org: add one from "
                            "another site, so no fact rests on a single publisher")
    assert problem.level == "warning"
    assert domain("https://WWW.Example.org:443/x") == "example.org"


def test_a_date_in_the_future_is_a_typo(tmp_path: Path) -> None:
    index = index_of(tmp_path, {"a": complete("A", updated="2026-03-02")})
    assert check_dates(index, dt.date(2026, 3, 2)) == []
    [problem] = check_dates(index, dt.date(2026, 3, 1))
    assert str(problem).startswith("glossary/a.md:4: 'updated' is 2026-03-02, a date in the future")
    # 23:00 UTC on 1 March is already 2 March in Kiribati: a contributor there is not wrong.
    assert latest_today(dt.datetime(2026, 3, 1, 23, tzinfo=dt.UTC)) == dt.date(2026, 3, 2)
    assert latest_today(dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC)) == dt.date(2026, 3, 1)


def test_a_category_over_twelve_terms_warns_once(tmp_path: Path) -> None:
    files = {f"t{n:02d}": complete(f"T{n:02d}", category="Big") for n in range(13)}
    files["other"] = complete("Other", category="Small")
    problems = check_completeness(index_of(tmp_path, files))
    assert [str(p).split(": the")[0] for p in problems] == ["glossary/t12.md:3"]
    assert "the category 'Big' has 13 terms, more than 12: split it" in str(problems[0])
    del files["t12"]
    assert check_completeness(index_of(tmp_path / "twelve", files)) == []


def test_orphans_are_info_not_warnings(tmp_path: Path) -> None:
    index = index_of(tmp_path, {"a": complete("A"), "b": complete("B")})
    [problem] = check_orphans(index, {"a": ["some page"]})
    assert problem.level == "info" and str(problem).startswith("glossary/b.md: no other page links")


def test_build_warns_with_the_checks_on_and_logs_orphans(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    yml = MKDOCS_YML.format(node_modules=REPO / "node_modules").replace(
        "      quality_checks: false", "      quality_checks: true")
    good = complete("Good", body="See [thin](thin.md).\n")
    thin = complete("Thin").replace("  - Second mistake.\n", "")
    config = write_project(tmp_path, {"good": good, "thin": thin}, yml=yml)
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        strict = build_site(config, strict=True, site_dir=tmp_path / "strict")
    assert strict.aborted
    assert strict.ours() == ["glossary/thin.md:16: 1 'mistakes' (what people get wrong): add 1 "
                             "more (at least 2)"]
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert "onnx_glossary: glossary/good.md: no other page links to this term: link it from a " \
           "related term's body, mistakes or answers, or from a page in docs/" in infos
    assert not any("glossary/thin.md: no other page" in m for m in infos)


def test_the_contributing_example_term_meets_the_rules() -> None:
    from onnx_glossary.glossary.index import parse_term

    text = (REPO / "docs" / "contributing.md").read_text(encoding="utf-8")
    example = text.split("A complete example, every key used:\n\n```markdown\n", 1)[1].split("\n```\n", 1)[0]
    term, problems = parse_term(example + "\n", "docs/contributing.md", "onnx")
    assert problems == [] and term is not None
    assert check_completeness(GlossaryIndex.of([term])) == []
