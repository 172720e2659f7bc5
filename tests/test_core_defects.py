"""Defects a maintainer's review found in the three hosts and the core, each confirmed by
running it. Every test here failed on the commit before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from . import model_builders as mb
from .sitebuild import REPO, Built, build_site, project, term, widget_attributes, write_project


def _widget(built: Built, url_path: str) -> dict[str, str | None]:
    return widget_attributes(built.page(url_path))


# -- one schema reader: example.yml names path:line once ------------------------------------


def test_an_example_yml_mistake_names_its_path_once_and_its_line(tmp_path: Path) -> None:
    config = project(tmp_path, {"lin": mb.linear()})
    (tmp_path / "models" / "lin" / "example.yml").write_text("dims:\n  batch: 2\ncolour: red\n")
    built = build_site(config)
    mine = [w for w in built.ours() if "example.yml" in w]
    assert len(mine) == 1, built.warnings
    assert mine[0].startswith("models/lin/example.yml:3: unknown key 'colour'"), mine
    assert str(tmp_path) not in mine[0]


# -- one link parser: the Markdown tree decides what a link is --------------------------------


def test_term_links_in_code_blocks_and_comments_are_not_links(tmp_path: Path) -> None:
    page = ("# Home\n\nSee [WebGPU](glossary/webgpu.md).\n\n"
            "    [an indented code block](glossary/ghost-one.md)\n\n"
            "<!-- [a comment](glossary/ghost-two.md) -->\n\n"
            "```\n[a fence](glossary/ghost-three.md)\n```\n")
    body = "Intro.\n\n    [indented](ghost-four.md)\n\n<!-- [hidden](ghost-five.md) -->\n"
    config = write_project(tmp_path, {"webgpu": term("WebGPU"), "x": term("X", body=body)},
                           docs={"index.md": page})
    built = build_site(config)
    # The build ran, and the real link beside the ghosts is still a link.
    assert not built.aborted, built.warnings
    assert 'href="glossary/webgpu/"' in built.page("")
    assert not [w for w in built.warnings if "ghost" in w], built.warnings


def test_a_link_with_parentheses_is_read_whole_and_named_on_its_line(tmp_path: Path) -> None:
    page = "# Home\n\nText.\n\nSee [z](glossary/a(b).md) and [w](glossary/webgpv.md).\n"
    config = write_project(tmp_path, {"webgpu": term("WebGPU")}, docs={"index.md": page})
    built = build_site(config)
    mine = [w for w in built.ours() if "unknown term" in w]
    assert mine == [
        "docs/index.md:5: link to the unknown term 'a(b)' (glossary/a(b).md): create "
        "glossary/a(b).md or fix the link",
        "docs/index.md:5: link to the unknown term 'webgpv' (glossary/webgpv.md): did you mean "
        "'webgpu.md'?"], built.warnings


# -- "compact" is a template choice -----------------------------------------------------------


def test_a_site_that_overrides_the_widget_template_still_gets_compact_cards(tmp_path: Path) -> None:
    terms = {"t": term("T", extra="models: [lin]\n")}
    config = project(tmp_path, {"lin": mb.linear()}, terms=terms)
    text = config.read_text()
    config.write_text(text.replace("  font: false\n", "  font: false\n  custom_dir: overrides\n"))
    override = tmp_path / "overrides" / "onnx_glossary"
    override.mkdir(parents=True)
    original = (REPO / "plugins" / "onnx_glossary" / "templates" / "live_example.html").read_text()
    # A site shows no code under its widgets, and a note of its own instead.
    at = original.index('<div class="live-example__code">')
    (override / "live_example.html").write_text(
        original[:at] + '<p class="site-note">Runs offline.</p>\n</div>\n')
    built = build_site(config)
    assert not built.aborted, built.warnings
    page = built.page("glossary/t")
    assert "Runs offline." in page
    assert "data-compact" in _widget(built, "glossary/t")


# -- the extension alone renders what the plugin renders --------------------------------------


def test_the_extension_alone_renders_the_plugins_widget(real_site: Built, tmp_path: Path) -> None:
    import markdown
    from onnx_glossary.hosts.markdown_ext import GlossaryExtension

    extension = GlossaryExtension(glossary_dir=str(REPO / "glossary"),
                                  models_dir=str(REPO / "models"),
                                  node_modules=str(REPO / "node_modules"),
                                  cache_dir=str(tmp_path / "cache"),
                                  site_url="https://docs.team.example/onnx-glossary/")
    html = markdown.Markdown(extensions=[extension, "attr_list", "md_in_html"]).convert(
        "[[live-example: linear]]\n")
    alone = widget_attributes(html)
    plugin = _widget(real_site, "models/linear")
    assert json.loads(alone["data-download-sizes"] or "") == json.loads(
        plugin["data-download-sizes"] or "")
    assert json.loads(alone["data-download-sizes"] or "")["runtime"]["wasm"] > 10_000_000


# -- the plugin leaves the host process alone --------------------------------------------------

_THREADS = """
import sys
from pathlib import Path
from threadpoolctl import threadpool_info
if {build!r}:  # MkDocs imports no numpy: the plugin is the first to
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config({config!r})
    config.plugins.on_startup(command="build", dirty=False)
    build(config)
    assert "numpy" in sys.modules
else:
    import numpy  # noqa: F401
print(max(i["num_threads"] for i in threadpool_info() if i["internal_api"] == "openblas"))
"""


def test_a_build_leaves_numpys_blas_threads_as_they_were(tmp_path: Path) -> None:
    config = project(tmp_path, {"lin": mb.linear()})
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}

    def threads(build: bool) -> int:
        code = _THREADS.format(repo=str(REPO), build=build, config=str(config))
        result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                                capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
        return int(result.stdout.split()[-1])

    assert threads(build=True) == threads(build=False)
