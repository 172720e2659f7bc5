"""Full MkDocs builds of a small project in a temp dir, asserting on the generated HTML."""

from __future__ import annotations

import hashlib
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from .sitebuild import Built, build_site, term, write_project

HOSTILE = '<script>alert("x")</script>'


class Page(HTMLParser):
    """Collects what the tests look at: links, headings, JSON-LD, meta tags, scripts."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []
        self.headings: list[tuple[str, str]] = []
        self.json_ld: list[object] = []
        self.meta: dict[str, str | None] = {}
        self.canonical: str | None = None
        self.script_srcs: list[str] = []
        self.inline_scripts: list[str] = []
        self._heading: str | None = None
        self._text: list[str] = []
        self._script: dict[str, str | None] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a":
            self.links.append(a)
        elif tag in ("h1", "h2", "h3"):
            self._heading, self._text = tag, []
        elif tag == "meta" and a.get("name"):
            self.meta[a["name"] or ""] = a.get("content")
        elif tag == "link" and a.get("rel") == "canonical":
            self.canonical = a.get("href")
        elif tag == "script":
            if a.get("src"):
                self.script_srcs.append(a["src"] or "")
            self._script, self._text = a, []

    def handle_endtag(self, tag: str) -> None:
        if tag == self._heading:
            self.headings.append((tag, "".join(self._text).replace("¶", "").strip()))
            self._heading = None
        elif tag == "script" and self._script is not None:
            text = "".join(self._text)
            if self._script.get("type") == "application/ld+json":
                self.json_ld.append(json.loads(text))
            elif text.strip():
                self.inline_scripts.append(text)
            self._script = None

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def link_to(self, href_part: str) -> dict[str, str | None]:
        matches = [link for link in self.links if href_part in (link.get("href") or "")]
        assert matches, f"no link to {href_part}"
        return matches[0]


FULL = """\
---
title: ONNX
aka: [Open Neural Network Exchange, .onnx]
category: AI
updated: 2026-08-10
summary: ONNX is an open format for trained models.
facts:
  caption: Quick facts about ONNX, from its name to its encoding.
  rows:
    - fact: Stands for
      detail: Open Neural Network Exchange
    - fact: Encoding
      detail: Protocol buffers
mistakes:
  - Ignoring the [opset](opset.md) a model needs.
  - Assuming an export is numerically identical.
faq:
  - q: Is ONNX a runtime?
    a: |
      No. It is a *format*; [ONNX Runtime](runtime.md) runs it.
  - q: Can I quantise it?
    a: Yes.
  - q: What's its opset?
    a: |
      Read it in Python:

      ```python
      print(model.opset_import)
      ```
sources:
  - title: ONNX IR specification
    url: https://onnx.ai/onnx/repo-docs/IR.html
  - title: Operators
    url: https://onnx.ai/onnx/operators/
related: [webgpu]
---
## What is inside an .onnx file?

A [graph](opset.md) of nodes.
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("tiny")
    config = write_project(root, {
        "onnx": FULL,
        "opset": term("Opset", "AI", summary="The operator set version a model targets."),
        "runtime": term("ONNX Runtime", "AI"),
        "webgpu": term("WebGPU", "Web"),
        "hostile": term("Evil " + HOSTILE.replace('"', "'"), "Web",
                        extra="facts:\n  rows:\n    - fact: '<b>bold</b>'\n      detail: '<img src=x onerror=alert(1)>'\n"
                              "faq:\n  - q: Link?\n    a: '[click](javascript:alert(1)) or <script>bad()</script>'\n"
                              "mistakes:\n  - '<iframe src=\"https://evil.example\"></iframe>'\n",
                        summary="A summary with \"quotes\" and <tags>."),
    }, docs={"index.md": "# Home\n\nRead about [ONNX](glossary/onnx.md) and "
                         "[the opset](glossary/opset.md#x).\n"})
    return build_site(config)


def test_build_is_clean(tiny: Built) -> None:
    assert tiny.warnings == []


def test_term_page_structure(tiny: Built) -> None:
    html = tiny.page("glossary/onnx")
    page = Page(html)
    assert ("h1", "ONNX") in page.headings
    h2 = [text for tag, text in page.headings if tag == "h2"]
    assert h2 == ["ONNX at a glance", "What is inside an .onnx file?",
                  "What people get wrong about ONNX", "Questions people ask", "Sources",
                  "More in AI", "Related terms", "Mentioned on"]
    assert "Also called <span class=\"gl-alias\">Open Neural Network Exchange</span> or " \
           "<span class=\"gl-alias\">.onnx</span>." in html
    assert '<span class="gl-category">AI</span>' in html
    assert '<time datetime="2026-08-10">10 August 2026</time>' in html
    assert "<p>ONNX is an open format for trained models.</p>" in html
    # The fact table: caption that reads as a sentence, scroll container, every row.
    assert "<caption>Quick facts about ONNX, from its name to its encoding.</caption>" in html
    assert re.search(r'class="gl-table-scroll"[^>]*>\s*<table>', html)
    assert '<th scope="row">Encoding</th><td>Protocol buffers</td>' in html
    # Numbered mistakes, questions as headings, sources as links.
    assert re.search(r'<div class="gl-mistakes">.*?<ol>\s*<li>Ignoring the '
                     r'<a (?=[^>]*class="gl-term")[^>]*href="../opset/"', html, re.S)
    assert ("h3", "Is ONNX a runtime?") in page.headings
    # Code fences in answers are code blocks, highlighted like the rest of the site; a quote
    # in a question stays out of its anchor.
    assert '<h3 id="whats-its-opset">' in html
    answer = html.split('id="whats-its-opset"')[1].split('class="gl-answer"')[1][:400]
    assert '<div class="highlight"><pre><span></span><code><span class="nb">print</span>' in answer
    assert page.link_to("https://onnx.ai/onnx/repo-docs/IR.html")
    # Same cluster links every other term of the category, related terms, back to index.
    cluster = html.split('id="same-cluster"')[1]
    assert 'href="../opset/"' in cluster and 'href="../runtime/"' in cluster
    assert 'href="../webgpu/"' in cluster.split('id="related"')[1]
    assert "Back to the glossary" in html and "All 5 terms" in html
    # Pages that link here: the hand-written home page (not the index, not the cluster).
    assert mentioned_on(html) == [("../../", "Home")]


def mentioned_on(html: str) -> list[tuple[str, str]]:
    """(href, text) of each link under "Mentioned on", group after group."""
    section = html.split('id="mentioned-on"')[1].split("</h2>", 1)[1].split('class="gl-back"')[0]
    return re.findall(r'<a [^>]*?href="([^"]*)"[^>]*>([^<]*)</a>', section)


def mention_groups(html: str) -> list[str]:
    section = html.split('id="mentioned-on"')[1].split("</h2>", 1)[1].split('class="gl-back"')[0]
    return re.findall(r'<p class="gl-chips-label"[^>]*>([^<]*)</p>', section)


def test_backlinks_list_terms_and_docs_pages_sorted_once(tiny: Built) -> None:
    # opset is linked from the home page, from ONNX's mistakes and its body (counted once):
    # the terms first, as chips with their short answer, then the other pages.
    opset = tiny.page("glossary/opset")
    assert mentioned_on(opset) == [("../onnx/", "ONNX"), ("../../", "Home")]
    assert mention_groups(opset) == ["Terms", "Pages"]
    terms = opset.split('id="mentioned-on"')[1].split("</ul>")[0]
    assert '<ul class="gl-chips"' in terms and tooltip(opset, "../onnx/").startswith("ONNX is an open format")
    # webgpu is only in ONNX's 'related'; the hostile term is linked by nobody.
    assert mentioned_on(tiny.page("glossary/webgpu")) == [("../onnx/", "ONNX")]
    assert 'id="mentioned-on"' not in tiny.page("glossary/hostile")


def test_edit_link_points_at_the_real_term_file(tiny: Built) -> None:
    page = Page(tiny.page("glossary/onnx"))
    assert page.link_to("/edit/")["href"] == "https://git.team.example/repo/edit/main/glossary/onnx.md"


def tooltip(html: str, href: str) -> str:
    """The text of a term link's aria-describedby target: what screen readers announce with
    the link and what assets/term-tips.js shows as its tooltip."""
    for attrs in re.findall(r'<a ([^>]*\bclass="gl-term"[^>]*)>', html):
        if f'href="{href}"' in attrs:
            target = re.search(r'aria-describedby="([^"]*)"', attrs)
            assert target, attrs
            [described] = re.findall(rf'<span id="{target.group(1)}">([^<]*)</span>', html)
            return unescape(described)
    raise AssertionError(f"no term link to {href}")


def test_term_links_carry_the_short_answer_as_tooltip(tiny: Built) -> None:
    home = tiny.page("")
    opset = "The operator set version a model targets."
    assert tooltip(home, "glossary/opset/#x") == opset
    onnx = tiny.page("glossary/onnx")
    # Links in the body and in front-matter markdown (answers) both get tooltips, and each
    # summary is on the page once, hidden, out of the search index.
    assert tooltip(onnx, "../runtime/") == "ONNX Runtime in one sentence."
    assert tooltip(onnx, "../opset/") == opset
    assert onnx.count('<span id="gl-tip-opset">') == 1
    assert '<div class="gl-tip-pool" hidden data-search-exclude>' in onnx
    # Inside the article (instant navigation swaps it with the page), after the content that
    # search reads: no summary reaches the search index.
    article = onnx[onnx.index("<article"):onnx.index("</article>")]
    assert article.index('<div class="gl-tip-pool"') > article.index("gl-term")
    entries = json.loads((tiny.site / "search" / "search_index.json").read_text(encoding="utf-8"))
    onnx_text = [e["text"] for e in entries["docs"] if e["location"].startswith("glossary/onnx/")]
    assert onnx_text and not any("ONNX Runtime in one sentence." in text for text in onnx_text)
    # An escaped summary stays escaped.
    index = tiny.page("glossary")
    assert tooltip(index, "hostile/") == 'A summary with "quotes" and <tags>.'
    assert "<tags>" not in index


def test_index_lists_all_terms_a_to_z_and_by_category(tiny: Built) -> None:
    html = tiny.page("glossary")
    page = Page(html)
    assert "5 terms in 2 topics" in html
    letters = [link["href"] for link in page.links if (link.get("href") or "").startswith("#letter-")]
    assert letters[:4] == ["#letter-e", "#letter-o", "#letter-w", "#letter-e"]  # jump bar, then TOC
    assert '<nav class="gl-letters" aria-label="Jump to a letter" style="--gl-letters: 3; --gl-letters-half: 2">' in html
    # The topics first, each term a chip with its short answer; then A to Z.
    h3 = [text for tag, text in page.headings if tag == "h3"]
    assert h3 == ["AI (3)", "Web (2)", "E", "O", "W"]
    topics = html.split('id="by-category"')[1].split('id="a-z"')[0]
    assert topics.count('<ul class="gl-chips"') == 2 and topics.count('class="gl-term"') == 5
    assert html.index('id="by-category"') < html.index('id="a-z"')
    assert html.index('href="onnx/"') < html.index('href="runtime/"') < html.index('href="opset/"')
    assert "ONNX is an open format for trained models." in html


def test_terms_are_not_in_the_navigation(tiny: Built) -> None:
    html = tiny.page("glossary/onnx")
    nav = html.split('class="md-nav md-nav--primary"')[1].split("</nav>")[0]
    assert "runtime/" not in nav and "opset/" not in nav


def test_untrusted_front_matter_is_escaped(tiny: Built) -> None:
    html = tiny.page("glossary/hostile")
    page = Page(html)
    assert "<script>alert" not in html and "alert(\"x\")</script>" not in html
    assert "&lt;script&gt;alert" in html
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<img src=x" not in html and "<iframe" not in html and "<script>bad()" not in html
    assert not any((link.get("href") or "").startswith("javascript:") for link in page.links)
    assert page.meta["description"] == 'A summary with "quotes" and <tags>.'
    title = html.split("<title>")[1].split("</title>")[0]
    assert "<script>" not in title and "&lt;script&gt;" in title
    for item in page.json_ld:  # parses, and the text survives intact
        if isinstance(item, dict) and item["@type"] == "DefinedTerm":
            assert item["name"] == "Evil <script>alert('x')</script>"


def test_json_ld_and_seo(tiny: Built) -> None:
    page = Page(tiny.page("glossary/onnx"))
    types = {item["@type"]: item for item in page.json_ld}  # type: ignore[index]
    term = types["DefinedTerm"]
    assert term["name"] == "ONNX"
    assert term["alternateName"] == ["Open Neural Network Exchange", ".onnx"]
    assert term["url"] == "https://docs.team.example/repo/glossary/onnx/"
    assert term["inDefinedTermSet"] == {"@type": "DefinedTermSet", "name": "Tiny set",
                                        "url": "https://docs.team.example/repo/glossary/"}
    faq = types["FAQPage"]
    assert [q["name"] for q in faq["mainEntity"]] == ["Is ONNX a runtime?", "Can I quantise it?",
                                                      "What's its opset?"]
    assert faq["mainEntity"][0]["acceptedAnswer"]["text"] == "No. It is a format; ONNX Runtime runs it."
    assert page.meta["description"] == "ONNX is an open format for trained models."
    assert page.canonical == "https://docs.team.example/repo/glossary/onnx/"
    sitemap = (tiny.site / "sitemap.xml").read_text()
    assert "https://docs.team.example/repo/glossary/onnx/" in sitemap


def test_no_request_to_another_origin_is_built_in(tiny: Built) -> None:
    for path in ("", "glossary", "glossary/onnx"):
        page = Page(tiny.page(path))
        assert all(not src.startswith(("http:", "https:", "//")) for src in page.script_srcs)
        html = tiny.page(path)
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
        assert 'data-md-component="source"' not in html  # would ask api.github.com


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for folder in ("docs", "glossary", "models", "diagrams") if (root / folder).exists()
            for p in sorted((root / folder).rglob("*")) if p.is_file()}


def test_bad_term_fails_strict_but_other_pages_build(tmp_path: Path) -> None:
    config = write_project(tmp_path, {
        "good": term("Good"),
        "broken": "---\ntitle: [oops\n---\n",
        "typo": term("Typo", extra="relatd: [good]\n"),
    }, docs={"index.md": "# Home\n\n[Gone](glossary/gone.md)\n"})
    before = _snapshot(tmp_path)
    strict = build_site(config, strict=True, site_dir=tmp_path / "strict")
    assert strict.aborted
    relaxed = build_site(config, site_dir=tmp_path / "relaxed")
    assert not relaxed.aborted
    ours = [w.removeprefix("onnx_glossary: ") for w in relaxed.warnings
            if w.startswith("onnx_glossary: ")]
    assert ours == [
        "glossary/broken.md:3: the front matter is not valid YAML (did not find expected ',' or "
        "']'): check indentation, and quote text that contains ': '",
        "glossary/typo.md:9: unknown key 'relatd': did you mean 'related'?",
        "docs/index.md:3: link to the unknown term 'gone' (glossary/gone.md): create "
        "glossary/gone.md or fix the link",
    ]
    assert (tmp_path / "relaxed/glossary/good/index.html").exists()
    assert (tmp_path / "relaxed/glossary/typo/index.html").exists()
    assert not (tmp_path / "relaxed/glossary/broken").exists()
    assert _snapshot(tmp_path) == before  # the build never writes into docs/ or glossary/


def test_a_docs_page_cannot_silently_shadow_a_term(tmp_path: Path) -> None:
    config = write_project(tmp_path, {"good": term("Good")},
                           docs={"index.md": "# Home\n", "glossary/good.md": "# Mine\n"})
    built = build_site(config)
    assert built.aborted or any("clashes with a page the glossary plugin generates" in w
                                for w in built.warnings)


def test_generated_index_has_no_edit_link(tiny: Built) -> None:
    assert not [link for link in Page(tiny.page("glossary")).links if "/edit/" in (link.get("href") or "")]
