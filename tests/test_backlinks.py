"""Model-page labels linked to their terms, and the "Mentioned on" list of each term page."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from onnx_glossary.common.urls import SiteUrls
from onnx_glossary.glossary.backlinks import Backlinks, Mention, page_title
from onnx_glossary.glossary.index import GlossaryIndex, parse_term
from onnx_glossary.render.termlinks import TermLinker

from . import model_builders as mb
from .sitebuild import build_site, project, term, write_project


def index_of(*terms: str) -> GlossaryIndex:
    parsed = []
    for text in terms:
        slug = re.search(r"^title: (.*)$", text, re.M).group(1).lower().replace(" ", "-")  # type: ignore[union-attr]
        found, problems = parse_term(text, f"glossary/{slug}.md", slug)
        assert problems == [] and found is not None
        parsed.append(found)
    return GlossaryIndex.of(parsed)


def test_labels_resolve_by_slug_title_or_alias_and_record_the_terms() -> None:
    index = index_of(term("Opset", extra="aka: [opset_import]\n"), term("Tensor"))
    assert index.find("OPSET_IMPORT") is index.find("opset") is index.by_slug["opset"]
    link = TermLinker(index, "models/m/index.md", SiteUrls(use_directory_urls=False))
    html = str(link("Opset imports", "opset_import", "opset"))
    assert html == ('<a class="gl-term" href="../../glossary/'
                    'opset.html" aria-describedby="gl-tip-opset">Opset imports</a>')
    assert str(link("Dynamic <axes>", "dynamic-axes")) == "Dynamic &lt;axes&gt;"  # no term: text
    assert link.used == {"opset"}


def test_backlinks_are_sorted_unique_and_never_the_page_itself() -> None:
    links = Backlinks()
    links.add(Mention("zeta", "models/zeta/index.md"), ["a", "a", "b"])
    links.add(Mention("Alpha", "glossary/alpha.md"), ["a"])
    links.add(Mention("A", "glossary/a.md"), ["a", "b"])  # the term itself: not a mention
    assert [m.title for m in links.of("a")] == ["Alpha", "zeta"]
    assert "b" in links and "c" not in links


def test_docs_page_title_is_front_matter_then_first_heading() -> None:
    assert page_title("---\ntitle: From meta\n---\n# Heading\n", "x")[0] == "From meta"
    assert page_title("```\n# not a heading\n```\n# Guide { #guide }\n", "x")[0] == "Guide"
    assert page_title("No heading.\n", "Fallback")[0] == "Fallback"


def test_a_docs_page_is_mentioned_by_its_title_for_its_real_links(tmp_path: Path) -> None:
    docs = {"index.md": "# Home\n", "guides/use.md": "# Use it\n\nSee [opset](../glossary/opset.md) "
            "and `[code](../glossary/webgpu.md)`.\n"}
    built = build_site(write_project(tmp_path, {"opset": term("Opset"), "webgpu": term("WebGPU")},
                                     docs=docs))
    opset = built.page("glossary/opset")
    assert 'id="mentioned-on"' in opset and ">Use it</a>" in opset
    # Its heading has a permalink, as the toc extension gives every other heading.
    assert '<a class="headerlink" href="#mentioned-on" title="Permanent link">&para;</a>' in opset
    assert 'id="mentioned-on"' not in built.page("glossary/webgpu")  # a code span is no link


def test_model_page_labels_link_to_terms_and_terms_list_the_model(tmp_path: Path) -> None:
    terms = {
        "opset": term("Opset", extra="aka: [opset_import]\n", summary='Operator "set" version.'),
        "dynamic-axes": term("Dynamic axes"),
        "operator": term("Operator"),
        "quiet": term("Quiet"),
    }
    config = project(tmp_path, {"lin": mb.linear()}, terms=terms)
    built = build_site(config, use_directory_urls=False)
    assert built.ours() == []
    html = (built.site / "models" / "lin" / "index.html").read_text(encoding="utf-8")
    tips = dict(re.findall(r'<span id="gl-tip-([^"]*)">([^<]*)</span>', html))
    labels = {text: (href, unescape(tips[slug])) for href, slug, text in re.findall(
        r'<a class="gl-term" href="([^"]*)" aria-describedby="gl-tip-([^"]*)">([^<]*)</a>',
        html)}
    assert labels["Opset imports"] == ("../../glossary/opset.html", 'Operator "set" version.')
    assert labels["Since version"][0] == "../../glossary/opset.html"
    assert labels["Dynamic axes"][0] == "../../glossary/dynamic-axes.html"
    assert labels["Operator"][0] == "../../glossary/operator.html"
    # No term for these: plain text, no link.
    assert '<th scope="row">IR version</th>' in html and '<th scope="row">Parameters</th>' in html
    # Operator names still link to the ONNX specification.
    assert re.search(r'<a href="https://onnx\.ai/onnx/operators/[^"]*Gemm[^"]*">Gemm</a>', html)
    # Each summary once, hidden, for the links' aria-describedby.
    assert html.count('<span id="gl-tip-opset">Operator &#34;set&#34; version.</span>') + \
        html.count('<span id="gl-tip-opset">Operator &quot;set&quot; version.</span>') == 1
    # The terms list the model page under "Mentioned on"; an unlinked term has no such list.
    opset = (built.site / "glossary" / "opset.html").read_text(encoding="utf-8")
    section = opset.split('id="mentioned-on"')[1].split("</ul>")[0]
    assert re.findall(r'<a href="([^"]*)">([^<]*)</a>', section) == [("../models/lin/index.html", "lin")]
    assert 'id="mentioned-on"' not in (built.site / "glossary" / "quiet.html").read_text(encoding="utf-8")


def test_verdict_names_the_runtime_through_its_term(tmp_path: Path) -> None:
    config = project(tmp_path, {"lin": mb.linear()},
                     terms={"onnxruntime-web": term("onnxruntime-web", summary="The browser runtime.")})
    built = build_site(config)
    html = built.page("models/lin")
    verdict = html.split('class="admonition-title"')[1].split("</p>")[0]
    assert re.search(r'Runs in <a (?=[^>]*class="gl-term")[^>]*href="../../'
                     r'glossary/onnxruntime-web/"[^>]*>onnxruntime-web [0-9.]+</a>', verdict)
