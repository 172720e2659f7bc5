"""Every generated link goes through one URL helper: unit tests, and a crawl of whole builds
with and without directory URLs that finds no broken internal link."""

from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from onnx_glossary.common.urls import SiteUrls

from .sitebuild import REPO, Built, build_site


@pytest.mark.parametrize(
    ("directory", "source", "target", "expected"),
    [
        (True, "models/operators.md", "models/digits/index.md#operators", "../digits/#operators"),
        (False, "models/operators.md", "models/digits/index.md#operators", "digits/index.html#operators"),
        (True, "models/digits/index.md", "models/operators.md", "../operators/"),
        (False, "models/digits/index.md", "models/operators.md", "../operators.html"),
        (True, "glossary/onnx.md", "models/linear/", "../../models/linear/"),
        (False, "glossary/onnx.md", "models/linear/", "../models/linear/"),
        (True, "models/digits/index.md", "models/digits/model.onnx", "model.onnx"),
        (False, "models/digits/index.md", "models/digits/model.onnx", "model.onnx"),
        (True, "glossary/onnx.md", "glossary/index.md", "../"),
        (False, "glossary/onnx.md", "glossary/index.md", "index.html"),
        (True, "index.md", "glossary/index.md", "glossary/"),
        (True, "models/digits/index.md", "models/digits/", "./"),
    ],
)
def test_url_between_pages_folders_and_files(directory, source, target, expected):
    assert SiteUrls(directory).between(source, target) == expected


def test_absolute_urls_need_a_site_url():
    assert SiteUrls(True, None).absolute("glossary/onnx.md") is None
    assert SiteUrls(True, "https://x.github.io/repo").absolute("glossary/onnx.md") == \
        "https://x.github.io/repo/glossary/onnx/"
    assert SiteUrls(False, "https://x.github.io/repo/").absolute("glossary/onnx.md") == \
        "https://x.github.io/repo/glossary/onnx.html"


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (name in ("href", "src") or (tag == "div" and name.startswith("data-")
                                                       and name.endswith("-url"))):
                self.links.append(value)


def broken_links(site: Path, prefix: str = "/onnx-glossary/") -> dict[str, list[str]]:
    """Internal links (href, src, the widget's data-*-url) that lead to no file of the build.

    Root-absolute links (only 404.html has them) must start with the site's sub-path.
    """
    broken: dict[str, list[str]] = {}
    for page in sorted(site.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        here = page.relative_to(site).parent.as_posix()
        for link in parser.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("#", "data:", "blob:")):
                continue
            path = unquote(parts.path)
            if path.startswith("/"):
                path = "/" + path.removeprefix(prefix) if path.startswith(prefix) else "/missing"
                target = site / posixpath.normpath(path.lstrip("/") or ".")
            else:
                target = site / posixpath.normpath(posixpath.join(here, path))
            if path.endswith("/") or target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.setdefault(page.relative_to(site).as_posix(), []).append(link)
    return broken


@pytest.fixture(scope="module")
def flat(tmp_path_factory: pytest.TempPathFactory) -> Built:
    site = tmp_path_factory.mktemp("flat") / "site"
    built = build_site(REPO / "mkdocs.yml", strict=True, site_dir=site, use_directory_urls=False)
    assert not built.aborted, built.warnings
    return built


def test_no_broken_internal_link_without_directory_urls(flat: Built) -> None:
    pages = list(flat.site.rglob("*.html"))
    assert len(pages) > 30 and not (flat.site / "glossary" / "onnx").is_dir()
    assert broken_links(flat.site) == {}


def test_no_broken_internal_link_with_directory_urls(real_site: Built) -> None:
    assert broken_links(real_site.site) == {}


def test_crawler_sees_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<a href="../b/">b</a><img src="x.png">'
                                              '<a href="https://example.org/">ok</a>'
                                              '<a href="/onnx-glossary/b/">b</a><a href="/b/">b</a>')
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<a href="../a/#top">a</a>')
    assert broken_links(tmp_path) == {"a/index.html": ["x.png", "/b/"]}


def test_import_map_is_serialised_json(real_site: Built) -> None:
    html = (real_site.site / "models" / "linear" / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="importmap">(.*?)</script>', html, re.S)
    assert found is not None
    imports = json.loads(found.group(1))["imports"]
    assert imports == {
        "onnxruntime-web/webgpu": "../../assets/ort/ort.webgpu.bundle.min.mjs",
        "onnxruntime-web/wasm": "../../assets/ort/ort.wasm.bundle.min.mjs",
    }
    for url in imports.values():
        assert (real_site.site / "models" / "linear" / url).resolve().is_file()
