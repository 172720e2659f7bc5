"""One core, any host: the same site under MkDocs, ProperDocs and Zensical.

ProperDocs (a maintained MkDocs 1.x fork) runs the plugin as it is. Zensical runs Python-Markdown
extensions but no MkDocs plugins, so it builds what ``onnx-glossary generate`` writes. Each host
lives in its own virtual environment (``make setup-hosts``: ``.venv-hosts/<host>/``), so its pins
never meet the others'.
"""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from onnx_glossary.hosts import markdown_ext
from onnx_glossary.hosts.generate import main as generate_main

from .sitebuild import REPO, Built, build_site, term, write_project
from .support.browser import PageProbe, StaticServer, chromium, wait_until

HOSTS = REPO / ".venv-hosts"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def host_command(host: str, command: str) -> Path:
    path = HOSTS / host / "bin" / command
    if not path.is_file():
        pytest.skip(f"{host} is not installed: run `make setup-hosts` (make test does)")
    return path


class _Outline(HTMLParser):
    """Headings (h1-h3) and fact-table row labels of a page, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[str] = []
        self._open: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h1", "h2", "h3") or (tag == "th" and ("scope", "row") in attrs):
            self._open = (tag, [])

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[0] == tag:
            text = " ".join("".join(self._open[1]).replace("¶", "").split())
            self.items.append(f"{'row' if tag == 'th' else tag}: {text}")
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[1].append(data)


def outline(site: Path) -> dict[str, list[str]]:
    """Every page of a built site (404 aside) -> its headings and fact-table rows."""
    pages = {}
    for path in sorted(site.rglob("*.html")):
        if path.name == "404.html":
            continue
        parser = _Outline()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path.relative_to(site).as_posix()] = parser.items
    return pages


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    zensical = host_command("zensical", "zensical")
    out = tmp_path_factory.mktemp("zensical")
    result = subprocess.run([str(HOSTS / "zensical" / "bin" / "onnx-glossary"), "generate",
                             str(out), "-f", str(REPO / "mkdocs.yml")],
                            cwd=REPO, env=ENV, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    result = subprocess.run([str(zensical), "build", "-f", str(out / "mkdocs.yml")], cwd=REPO,
                            env=ENV, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    # The plugin's Content-Security-Policy, which Zensical cannot run, comes after its build.
    result = subprocess.run([str(HOSTS / "zensical" / "bin" / "onnx-glossary"), "csp",
                             str(out / "site")], cwd=REPO, env=ENV, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'")
    return out / "site"


def test_three_hosts_build_the_same_pages(real_site: Built, zensical_site: Path,
                                          tmp_path: Path) -> None:
    properdocs = host_command("properdocs", "properdocs")
    site = tmp_path / "properdocs"
    result = subprocess.run([str(properdocs), "build", "--strict", "-f", str(REPO / "mkdocs.yml"),
                             "-d", str(site)], cwd=REPO, env=ENV, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    reference = outline(real_site.site)
    assert len(reference) > 50 and "models/linear/index.html" in reference
    assert outline(site) == reference
    assert outline(zensical_site) == reference


def test_zensical_build_has_tooltips_meta_and_structured_data(zensical_site: Path) -> None:
    page = (zensical_site / "glossary" / "onnx" / "index.html").read_text(encoding="utf-8")
    assert 'class="gl-term" title="' in page and 'class="gl-tip-pool"' in page
    assert '<meta name="description" content="ONNX' in page
    assert page.count('type="application/ld+json"') == 2
    assert '"@type": "DefinedTerm"' in page or '"@type":"DefinedTerm"' in page
    index = (zensical_site / "glossary" / "index.html").read_text(encoding="utf-8")
    assert "DefinedTermSet" in index


@pytest.mark.browser
def test_zensical_live_example_runs_under_a_sub_path(zensical_site: Path) -> None:
    with StaticServer(zensical_site, "/onnx-glossary/") as server, chromium() as browser:
        page = browser.new_context().new_page()
        probe = PageProbe(server.origin).attach(page)
        page.goto(server.url + "models/linear/", wait_until="load")
        run = '[data-live-example] button[data-action="run"]'
        page.wait_for_selector(run + ":not([disabled])")
        page.click(run)
        wait_until(page, "['done', 'error'].includes("
                               "document.querySelector('[data-live-example]').dataset.state)",
                               timeout=120_000)
        state = page.eval_on_selector("[data-live-example]", "e => ({...e.dataset})")
        assert state["state"] == "done", page.inner_text("[data-live-example]")
        assert state["match"] == "true"
        assert probe.other_origin == [] and probe.errors == []  # errors: CSP violations too
        assert page.locator('head meta[http-equiv="Content-Security-Policy"]').count() == 1
        assert any(path.startswith("/onnx-glossary/assets/ort/") for path in server.requests)


def test_markdown_extension_alone_loads_the_glossary_itself(caplog: pytest.LogCaptureFixture) -> None:
    md = markdown.Markdown(extensions=["onnx_glossary"], extension_configs={"onnx_glossary": {
        "glossary_dir": str(REPO / "glossary"), "models_dir": str(REPO / "models"),
        "node_modules": str(REPO / "node_modules"), "cache_dir": str(REPO / ".cache/onnx-glossary"),
        "site_url": "https://example.github.io/onnx-glossary/"}})
    html = md.convert("See the [opset](glossary/opset.md).\n\n[[model-card: linear]]\n\n"
                      "[[model-card: nope]]\n")
    assert 'class="gl-term" title="An opset' in html
    # The page is unknown to plain Python-Markdown: links go under the site's sub-path.
    assert 'href="/onnx-glossary/models/linear/"' in html
    assert "Missing example model: nope" in html
    assert any("names the unknown model 'nope'" in r.getMessage() for r in caplog.records)


def test_plugin_replaces_a_listed_extension_and_loads_once(tmp_path: Path) -> None:
    config = write_project(tmp_path, {"t": term("Tee")}, docs={"index.md": "See [Tee](glossary/t.md).\n"})
    text = config.read_text(encoding="utf-8").replace(
        "markdown_extensions: [attr_list, md_in_html, toc]",
        "markdown_extensions: [attr_list, md_in_html, toc, onnx_glossary]")
    config.write_text(text, encoding="utf-8")
    markdown_ext._LOADED.clear()
    built = build_site(config, strict=True)
    assert not built.aborted, built.warnings
    page = (built.site / "index.html").read_text(encoding="utf-8")
    assert page.count('class="gl-term"') == 1 and page.count('class="gl-tip-pool"') == 1
    assert markdown_ext._LOADED == {}  # the plugin's context served it: nothing loaded twice


def test_generate_refuses_to_write_into_docs(capsys: pytest.CaptureFixture[str]) -> None:
    assert generate_main(["generate", str(REPO / "docs" / "out"), "-f", str(REPO / "mkdocs.yml")]) == 1
    message = capsys.readouterr().err.strip()
    assert message.count("\n") == 0 and "inside docs/" in message
    assert not (REPO / "docs" / "out").exists()


def test_generate_command_is_installed() -> None:
    command = Path(sys.executable).parent / "onnx-glossary"
    result = subprocess.run([str(command), "generate", "--help"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and "mkdocs.yml" in result.stdout
