"""llms.txt and the glossary index's DefinedTermSet, checked against the built pages."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from .sitebuild import MKDOCS_YML, REPO, Built, build_site, term, write_project

LINE_RE = re.compile(r"^- \[(?P<name>(?:[^\]\\]|\\.)+)\]\((?P<url>[^)\s]+)\): (?P<text>.+)$")


class Head(HTMLParser):
    """The meta description and JSON-LD blocks of a built page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.description: str | None = None
        self.json_ld: list[dict] = []
        self._in_ld = False
        self._text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "meta" and a.get("name") == "description":
            self.description = a.get("content")
        elif tag == "script" and a.get("type") == "application/ld+json":
            self._in_ld, self._text = True, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_ld:
            self.json_ld.append(json.loads("".join(self._text)))
            self._in_ld = False

    def handle_data(self, data: str) -> None:
        self._text.append(data)


def page_file(site: Path, url: str, site_url: str | None) -> Path:
    """The built file a URL of llms.txt or JSON-LD points to (absolute, or root-relative)."""
    if site_url:
        assert url.startswith(site_url), f"{url} is not under {site_url}"
        path = url[len(site_url):]
    else:
        assert not urlsplit(url).scheme and not url.startswith("/"), url
        path = url
    file = site / path / "index.html" if path.endswith("/") or not path else site / path
    assert file.is_file(), f"{url} does not resolve to a built page ({file})"
    return file


def sections(text: str) -> dict[str, list[re.Match[str]]]:
    out: dict[str, list[re.Match[str]]] = {}
    current = ""
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:]
            out[current] = []
        elif line.startswith("- "):
            match = LINE_RE.match(line)
            assert match, f"not a '- [Name](URL): description' line: {line}"
            out[current].append(match)
    return out


def check_llms_txt(built: Built, site_url: str | None) -> dict[str, list[re.Match[str]]]:
    text = (built.site / "llms.txt").read_text(encoding="utf-8")
    assert text.startswith("# ") and "\n\n> " in text.split("## ", 1)[0]
    found = sections(text)
    for matches in found.values():
        for match in matches:
            head = Head(page_file(built.site, match["url"], site_url).read_text(encoding="utf-8"))
            assert head.description == match["text"], match["url"]
    return found


def test_llms_txt_lists_every_term_and_model_with_its_page_description(real_site: Built) -> None:
    found = check_llms_txt(real_site, real_site.site_url)
    assert list(found) == ["Glossary", "Models"]
    slugs = sorted(p.stem for p in (REPO / "glossary").glob("*.md"))
    assert sorted(m["url"].rstrip("/").rsplit("/", 1)[1] for m in found["Glossary"]) == slugs
    models = sorted(p.parent.name for p in (REPO / "models").glob("*/model.onnx"))
    assert sorted(m["name"] for m in found["Models"]) == models
    assert all("/onnx-glossary/" in m["url"] for m in found["Glossary"])


def test_index_json_ld_is_the_set_of_terms(real_site: Built) -> None:
    site_url = real_site.site_url
    assert site_url and site_url.endswith("/onnx-glossary/")
    head = Head((real_site.site / "glossary" / "index.html").read_text(encoding="utf-8"))
    [term_set] = [item for item in head.json_ld if item.get("@type") == "DefinedTermSet"]
    assert term_set["url"] == site_url + "glossary/"
    members = term_set["hasDefinedTerm"]
    assert len(members) == len(list((REPO / "glossary").glob("*.md")))
    for member in members:
        assert member["@type"] == "DefinedTerm"
        page = Head(page_file(real_site.site, member["url"], site_url).read_text(encoding="utf-8"))
        assert page.description == member["description"]
        [defined] = [item for item in page.json_ld if item.get("@type") == "DefinedTerm"]
        assert defined["name"] == member["name"]


def test_without_site_url_urls_are_relative_and_resolve(tmp_path: Path) -> None:
    yml = MKDOCS_YML.format(node_modules=REPO / "node_modules").replace(
        "site_url: https://docs.team.example/repo/\n", "")
    summary = "Brackets [x] and a\u00a0quote \"q\" & <tags>."
    config = write_project(tmp_path, {"a-b": term("A [b]", summary=summary), "c": term("C")},
                           yml=yml)
    built = build_site(config, use_directory_urls=False)
    assert built.warnings == []
    found = check_llms_txt(built, None)
    assert [m["url"] for m in found["Glossary"]] == ["glossary/a-b.html", "glossary/c.html"]
    assert found["Glossary"][0]["name"] == "A \\[b\\]"
    assert "Models" not in found
    head = Head((built.site / "glossary" / "index.html").read_text(encoding="utf-8"))
    [term_set] = head.json_ld
    assert "url" not in term_set
    assert [(m["name"], m["url"]) for m in term_set["hasDefinedTerm"]] == [("A [b]", "a-b.html"),
                                                                           ("C", "c.html")]
    assert term_set["hasDefinedTerm"][0]["description"] == summary
