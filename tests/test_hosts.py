"""One core, any host: the same site under MkDocs, ProperDocs and Zensical.

ProperDocs (a maintained MkDocs 1.x fork) runs the plugin as it is. Zensical runs Python-Markdown
extensions but no MkDocs plugins, so it builds what ``onnx-glossary generate`` writes. Each host
lives in its own virtual environment (``make setup-hosts``: ``.venv-hosts/<host>/``), so its pins
never meet the others'.
"""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import markdown
import pytest
from onnx_glossary.hosts import markdown_ext
from onnx_glossary.hosts.generate import main as generate_main
from onnx_glossary.options import Options

from .sitebuild import REPO, Built, build_site, term, write_project
from .support.browser import PageProbe, StaticServer, chromium, wait_until
from .support.pages import facts_of, page_facts

HOSTS = REPO / ".venv-hosts"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def host_command(host: str, command: str) -> Path:
    path = HOSTS / host / "bin" / command
    if not path.is_file():
        pytest.skip(f"{host} is not installed: run `make setup-hosts` (make test does)")
    return path


def zensical_build(config: Path, out: Path) -> Path:
    """`onnx-glossary generate`, `zensical build` and `onnx-glossary csp`: the built site."""
    zensical = host_command("zensical", "zensical")
    result = subprocess.run([str(HOSTS / "zensical" / "bin" / "onnx-glossary"), "generate",
                             str(out), "-f", str(config)],
                            cwd=config.parent, env=ENV, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    result = subprocess.run([str(zensical), "build", "-f", str(out / "mkdocs.yml")],
                            cwd=config.parent, env=ENV, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    # The plugin's Content-Security-Policy, which Zensical cannot run, comes after its build.
    result = subprocess.run([str(HOSTS / "zensical" / "bin" / "onnx-glossary"), "csp",
                             str(out / "site")], cwd=config.parent, env=ENV, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'")
    return out / "site"


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return zensical_build(REPO / "mkdocs.yml", tmp_path_factory.mktemp("zensical"))


#: Pages one host makes and another does not, each with its reason. None today: every host
#: builds every page. (Add an entry only with the reason a reader would accept.)
ALLOWED_MISSING: dict[str, dict[str, str]] = {"properdocs": {}, "zensical": {}}


def test_three_hosts_build_the_same_pages(real_site: Built, zensical_site: Path,
                                          tmp_path: Path) -> None:
    """Page by page: the same pages, every widget's attributes, the page metadata (description,
    JSON-LD), the plugin's scripts and import map, and the headings."""
    properdocs = host_command("properdocs", "properdocs")
    site = tmp_path / "properdocs"
    result = subprocess.run([str(properdocs), "build", "--strict", "-f", str(REPO / "mkdocs.yml"),
                             "-d", str(site)], cwd=REPO, env=ENV, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    reference = page_facts(real_site.site)
    assert len(reference) > 50 and "models/linear/index.html" in reference
    assert sum(len(facts.widgets) for facts in reference.values()) >= 10
    # The plugin's scripts never hold up the first paint: every one is deferred (compared
    # below, so in every host too).
    ours = [script for facts in reference.values() for script in facts.scripts
            if "/assets/onnx_glossary/" in script[0]]
    assert ours and all(defer for _, _, defer in ours), ours
    for host, built in (("properdocs", site), ("zensical", zensical_site)):
        other = page_facts(built)
        missing = set(reference) - set(other) - set(ALLOWED_MISSING[host])
        assert not missing and not set(other) - set(reference), (host, missing)
        for page, facts in reference.items():
            if page in other:
                assert asdict(other[page]) == asdict(facts), (host, page)


def test_zensical_build_has_tooltips_meta_and_structured_data(zensical_site: Path) -> None:
    page = (zensical_site / "glossary" / "onnx" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a [^>]*class="gl-term"', page) and 'class="gl-tip-pool"' in page
    assert '<meta name="description" content="ONNX' in page
    assert page.count('type="application/ld+json"') == 2
    assert '"@type": "DefinedTerm"' in page or '"@type":"DefinedTerm"' in page
    # The one known difference (docs/publishing.md): "Mentioned on" is in the page, not in
    # Zensical's table of contents: the one link to it is the heading's own permalink.
    assert 'id="mentioned-on"' in page and page.count('href="#mentioned-on"') == 1
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
        "site_url": "https://docs.team.example/onnx-glossary/"}})
    html = md.convert("See the [opset](glossary/opset.md).\n\n[[model-card: linear]]\n\n"
                      "[[model-card: nope]]\n")
    assert re.search(r'<a [^>]*class="gl-term"', html) and '<span id="gl-tip-opset">An opset' in html
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


def test_generate_carries_isolation_and_an_escaped_description_to_zensical(tmp_path: Path) -> None:
    summary = 'A "quoted" <b>term</b> & its tail.'
    config = write_project(tmp_path, {"t": term("Tee", summary=summary)})
    text = config.read_text(encoding="utf-8").replace(
        "      set_name: Tiny set\n", "      set_name: Tiny set\n      cross_origin_isolation: true\n")
    config.write_text(text, encoding="utf-8")
    built = zensical_build(config, tmp_path / "out")
    facts = page_facts(built)["glossary/t/index.html"]
    assert facts.description == summary
    assert ("coi-serviceworker.js", None, False) in facts.scripts
    assert (built / "coi-serviceworker.js").is_file()


def _site_paths(widget: dict[str, str | None], page: str) -> dict[str, str | None]:
    """A widget's attributes with its URLs as paths from the site root (a page-relative URL and
    a root-relative one name the same file)."""
    out = dict(widget)
    for key, value in widget.items():
        if key.endswith("-url") and value:
            path = (value.removeprefix("/onnx-glossary/") if value.startswith("/")
                    else posixpath.normpath(posixpath.join(posixpath.dirname(page), value)))
            out[key] = path
    return out


def test_every_embed_renders_alone_as_under_the_plugin(real_site: Built, tmp_path: Path) -> None:
    """Python-Markdown with the extension alone (as a host without plugins runs it) gives every
    widget of every page with an embed, hand-written or generated, the plugin's attributes."""
    options = {"glossary_dir": str(REPO / "glossary"), "models_dir": str(REPO / "models"),
               "node_modules": str(REPO / "node_modules"), "cache_dir": str(tmp_path / "cache"),
               "site_url": "https://docs.team.example/onnx-glossary/"}
    site = markdown_ext.load_site(Options.from_values(options, REPO))
    texts = {p.relative_to(REPO / "docs").as_posix(): p.read_text(encoding="utf-8")
             for p in (REPO / "docs").rglob("*.md")}
    texts.update({page.src_uri: page.content or "" for page in site.content(texts).pages})
    built = page_facts(real_site.site)
    found = 0
    for uri, text in sorted(texts.items()):
        if not re.search(r"^\[\[(model-card|live-example):", text, re.M):
            continue
        md = markdown.Markdown(extensions=["onnx_glossary", "attr_list", "md_in_html", "admonition",
                                           "pymdownx.superfences"],
                               extension_configs={"onnx_glossary": options})
        stem = uri.removesuffix(".md").removesuffix("index").rstrip("/")
        page = f"{stem}/index.html" if stem else "index.html"
        alone = facts_of(md.convert(text), page).widgets
        assert [_site_paths(w, page) for w in alone] == [
            _site_paths(w, page) for w in built[page].widgets], uri
        found += len(alone)
    assert found >= 5


FINAL_HTML_CASES = {
    "nested blocks": '# T\n\n<div class="a">\n<div class="b">\n<p>x &amp; y</p>\n</div>\n</div>\n\nText.\n',
    "a blank line inside": "<div>\n<p>one</p>\n\n<p>two</p>\n</div>\n\n## Next\n",
    "lists in lists": "<ul>\n<li>a<ul><li>b</li></ul></li>\n</ul>\n\n- item\n",
    "a comment inside": "<div>\n<!-- <div> -->\n</div>\n\nAfter.\n",
    "code inside": "<div>\n<pre><code>&lt;div&gt;\n\n</code></pre>\n</div>\n\nAfter.\n",
    "text after the end tag": "<div>\n<p>a</p>\n</div> tail *b*\n\nAfter.\n",
    "two blocks on one line": "<p>a</p><p>b</p>\n\nAfter.\n",
    "no blank line before": "Para\n<div>\n<p>a</p>\n</div>\n\nAfter.\n",
    "no blank line after": "<div>\n<p>a</p>\n</div>\nAfter.\n",
    "the last line": "Before.\n\n<section>\n<p>a</p>\n</section>",
    "an id inside": '<div>\n<p id="x">a</p>\n</div>\n\n[to x](#x)\n',
    "markdown inside": '<div markdown="1">\n*a*\n</div>\n\nAfter.\n',
    "an inline element": '<span class="x">a</span>\n\nAfter.\n',
    "trailing spaces": "<div>\n<p>a</p>\n</div>  \n\nAfter.\n",
    "indented": "- item\n\n    <div>\n    <p>a</p>\n    </div>\n\nAfter.\n",
}


@pytest.mark.parametrize("case", FINAL_HTML_CASES)
def test_a_generated_pages_html_blocks_skip_the_html_parser_and_convert_alike(case: str) -> None:
    """The glossary's own pages hand their top-level HTML blocks to Markdown's store as they
    are (markdown_ext._FinalHtml); the page converts to the same HTML as when Markdown's HTML
    parser reads them, and blocks it could read otherwise are left to it."""
    def convert(generated: bool) -> str:
        context = markdown_ext.PageContext(generated=generated)
        md = markdown.Markdown(extensions=["md_in_html", "attr_list", "toc", "tables",
                                           markdown_ext.GlossaryExtension(context)])
        return md.convert(FINAL_HTML_CASES[case])

    assert convert(True) == convert(False)


def test_only_plain_final_blocks_are_stored_as_they_are() -> None:
    md = markdown.Markdown(extensions=["md_in_html"])
    lines = FINAL_HTML_CASES["nested blocks"].split("\n")
    assert markdown_ext._final_block(lines, 2, md) == 6
    assert markdown_ext._final_block(FINAL_HTML_CASES["a comment inside"].split("\n"), 0, md) is None
    assert markdown_ext._final_block(FINAL_HTML_CASES["two blocks on one line"].split("\n"), 0, md) is None
