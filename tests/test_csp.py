"""The Content-Security-Policy builder (csp.py), and the option in a small real build."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from onnx_glossary.browser import csp
from onnx_glossary.hosts.generate import main as generate_main

from .sitebuild import build_site, term, write_project

PAGE = """<!doctype html>
<html><head>
<meta charset="utf-8">
<script>var a = "</p>" && 1 < 2;</script>
<script type="importmap">{"imports": {"x": "./x.mjs"}}</script>
<script type="application/ld+json">{"@type": "DefinedTerm"}</script>
<script src="bundle.js"></script>
<script data-note="a>b" type="module">import "./x.mjs";
</script>
</head><body>
<!-- <script>not a script</script> --><!--><script>after(an, empty, comment)</script>
<style>/* <script>not a script either</script> */</style>
<SCRIPT>upper()</SCRIPT >
<script id="__config" type="application/json">{"base": "."}</script>
<script type="text/JavaScript">done()</script>
</body></html>
"""


def b64sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def test_finds_exactly_the_scripts_a_browser_runs() -> None:
    assert csp.inline_scripts(PAGE) == [
        'var a = "</p>" && 1 < 2;',
        '{"imports": {"x": "./x.mjs"}}',  # an import map is governed by script-src
        'import "./x.mjs";\n',
        "after(an, empty, comment)",
        "upper()",
        "done()",
    ]
    # The parser's line endings are the browser's: CR LF is hashed as LF.
    assert csp.inline_scripts("<script>a()\r\nb()</script>") == ["a()\nb()"]


def test_hashes_are_sha256_of_the_utf8_text() -> None:
    text = "document.title = 'Größe'"
    assert csp.script_hash(text) == f"'sha256-{b64sha256(text)}'"


def test_policy_has_the_required_directives_and_no_other_origin() -> None:
    value = csp.policy(["b()", "a()", "a()"])
    directives = dict(d.split(" ", 1) for d in value.split("; "))
    first, second, *hashes = directives["script-src"].split()
    assert (first, second) == ("'self'", "'wasm-unsafe-eval'")
    assert sorted(hashes) == sorted(f"'sha256-{b64sha256(s)}'" for s in ("a()", "b()"))
    assert directives["default-src"] == "'self'"
    assert directives["style-src"] == "'self' 'unsafe-inline'"
    assert directives["img-src"] == "'self' data: blob:"
    assert directives["worker-src"] == "'self' blob:"
    assert directives["connect-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'self'"
    # Every source is a keyword, a hash or a scheme of the page's own data: no host at all.
    sources = {s for v in directives.values() for s in v.split()}
    assert all(re.fullmatch(r"'(self|none|unsafe-inline|wasm-unsafe-eval|sha256-[A-Za-z0-9+/=]+)'"
                            r"|data:|blob:", s) for s in sources), sources
    # Only header-delivered directives would be ignored (with a console error) in a meta tag.
    assert not {"frame-ancestors", "report-uri", "sandbox"} & set(directives)


def test_tag_goes_right_after_meta_charset_and_is_replaced_not_repeated() -> None:
    value = csp.policy(csp.inline_scripts(PAGE))
    once = csp.with_policy(PAGE, value)
    assert once.index(csp.meta_tag(value)) == once.index('<meta charset="utf-8">') + len(
        '<meta charset="utf-8">\n')
    assert csp.with_policy(once, value) == once
    other = csp.with_policy(once, csp.policy([]))
    assert other.count("Content-Security-Policy") == 1 and csp.policy([]) in other
    # Without <meta charset>, first in <head>; without a head, untouched.
    assert csp.with_policy("<html><head><title>t</title></head></html>", value).startswith(
        f"<html><head>\n{csp.meta_tag(value)}<title>")
    assert csp.with_policy("<p>fragment</p>", value) == "<p>fragment</p>"


def test_one_policy_for_every_page_of_a_site(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text("<head><meta charset=utf-8><script>one()</script></head>")
    (tmp_path / "a" / "index.html").write_text("<head><meta charset=utf-8></head><script>two()</script>")
    applied = csp.apply_to_site(tmp_path)
    assert (applied.pages, applied.scripts) == (2, 2)
    for path in (tmp_path / "index.html", tmp_path / "a" / "index.html"):
        assert csp.meta_tag(applied.policy) in path.read_text()
    assert csp.apply_to_site(tmp_path) == applied  # the same again, and the same files


def test_option_off_by_default_and_on_adds_the_tag(tmp_path: Path) -> None:
    config = write_project(tmp_path, {"onnx": term("ONNX")})
    built = build_site(config, strict=True)
    assert not built.aborted, built.warnings
    assert "Content-Security-Policy" not in built.page("glossary/onnx")
    text = config.read_text().replace("      set_name:", "      content_security_policy: true\n"
                                      "      set_name:")
    config.write_text(text)
    built = build_site(config, strict=True)
    assert not built.aborted, built.warnings
    page = built.page("glossary/onnx")
    scripts = [s for p in built.site.rglob("*.html") for s in csp.inline_scripts(p.read_text())]
    assert csp.meta_tag(csp.policy(scripts)) in page
    assert "Content-Security-Policy" in (built.site / "404.html").read_text()


def test_csp_command_gives_a_built_site_its_policy(tmp_path: Path, capsys) -> None:
    """``onnx-glossary csp SITE``: for a site another host (Zensical) built without the plugin."""
    (tmp_path / "index.html").write_text("<head><meta charset=utf-8><script>one()</script></head>")
    assert generate_main(["csp", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == csp.policy(["one()"])  # one line, to send as a header where one can
    assert csp.meta_tag(printed) in (tmp_path / "index.html").read_text()
    assert generate_main(["csp", str(tmp_path / "nowhere")]) == 1
    assert "no index.html" in capsys.readouterr().err
