"""The code checks configured in the repository, run as part of the suite so they cannot rot:
ruff and mypy (pyproject.toml) for the Python, tsc (tsconfig.json) and eslint
(eslint.config.mjs) for the JavaScript."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from onnx_glossary.browser.packages import load_manifest

from .sitebuild import REPO

NODE_BIN = REPO / "node_modules" / ".bin"
#: Every script the site ships and every node test: what tsc and eslint check.
JS_FILES = sorted([*(REPO / "plugins" / "onnx_glossary" / "assets").glob("*.js"),
                   *(REPO / "plugins" / "onnx_glossary" / "assets").glob("*.mjs"),
                   *(REPO / "tests" / "js").glob("*.mjs")])


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True)


def _node_tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    tool = NODE_BIN / name
    # The tools are devDependencies: `npm ci` (make setup) installs them.
    assert tool.exists(), f"{tool} is missing: run 'npm ci' (make setup does)"
    return subprocess.run([str(tool), *args], cwd=REPO, capture_output=True, text=True, timeout=300)


def test_ruff() -> None:
    result = _run("ruff", "check", "plugins", "tests", "scripts", "models")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_layers_hold() -> None:
    """import-linter's contracts (pyproject.toml): only hosts/ imports MkDocs, glossary/ and
    models/ never import each other, and imports flow one way down the layers."""
    result = subprocess.run([str(Path(sys.executable).parent / "lint-imports")], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout, result.stdout


def test_the_public_api_is_pinned() -> None:
    """What `import onnx_glossary` offers is exactly __all__, and every name of it loads."""
    import onnx_glossary

    assert onnx_glossary.__all__ == [
        "__version__", "Finding", "GeneratedFile", "Options", "OptionsError", "PageMeta",
        "Problem", "SetupError", "Site", "SiteContent"]
    for name in onnx_glossary.__all__:
        assert getattr(onnx_glossary, name) is not None
    assert onnx_glossary.Site.__module__ == "onnx_glossary.site"


def test_the_architecture_page_names_every_module() -> None:
    """docs/architecture.md's table has a row for each module of each sub-package."""
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    package = REPO / "plugins" / "onnx_glossary"
    table = {}
    section = ""
    for line in page.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) == 3 and cells[1].startswith("`"):
            section = cells[0].strip("`/ ") or section
            for name in cells[1].replace("`", "").split(","):
                table.setdefault(section if section != "(top)" else "", set()).add(name.strip())
    for path in package.rglob("*.py"):
        folder = path.parent.relative_to(package).as_posix()
        if path.name == "__init__.py" and folder != ".":
            continue
        assert path.name in table.get("" if folder == "." else folder, set()), path.relative_to(package)


ESLINT = REPO / "node_modules" / ".bin" / "eslint"
ASSETS = "plugins/onnx_glossary/assets/"


def _eslint(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ESLINT), *args], cwd=REPO, capture_output=True, text=True, input=stdin)


def test_eslint_keeps_the_browser_code_within_its_floor() -> None:
    """eslint.config.mjs: the widget's modules within ES2022 (Chrome 111, Firefox 115,
    Safari 16.4), the capability check within ES2017."""
    result = _eslint(ASSETS, "tests/support")
    assert result.returncode == 0, result.stdout + result.stderr


#: The live examples' browser floor, as the capability check tells a reader.
WORKS_IN = re.compile(r'const WORKS_IN = "Chrome or Edge (\d+), Firefox (\d+), Safari ([\d.]+) or newer";')
#: The features of ES2022, and the one of ES2023 that a floor browser lacks, in MDN's
#: browser-compat-data. (Top-level await, ES2022 too, is partial in Safari before 27 when two
#: modules import one at once; nothing the site ships awaits at the top level.)
ES2022 = ("javascript.classes.static.initialization_blocks", "javascript.classes.private_class_methods",
          "javascript.classes.private_class_fields_in", "javascript.builtins.Array.at",
          "javascript.builtins.Object.hasOwn", "javascript.builtins.RegExp.hasIndices",
          "javascript.builtins.Error.Error.options_cause_parameter")
ES2023_LACKED = "javascript.builtins.WeakMap.symbol_as_keys"


def _floor() -> dict[str, tuple[int, ...]]:
    check = (REPO / ASSETS / "live-example-check.js").read_text(encoding="utf-8")
    found = WORKS_IN.search(check)
    assert found, "live-example-check.js: WORKS_IN no longer names the three browsers"
    return {name: _version(found.group(i + 1)) for i, name in enumerate(("chrome", "firefox", "safari"))}


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _runs(compat: dict, feature: str, browser: str, version: tuple[int, ...]) -> bool:
    """Whether ``browser`` at ``version`` has ``feature`` whole: no flag, no partial support."""
    node = compat
    for key in feature.split("."):
        node = node[key]
    statements = node["__compat"]["support"][browser]
    for each in statements if isinstance(statements, list) else [statements]:
        added = each.get("version_added")
        if (isinstance(added, str) and added[0].isdigit() and _version(added) <= version
                and not each.get("partial_implementation") and not each.get("flags")
                and not each.get("version_removed")):
            return True
    return False


def test_the_floor_browsers_run_es2022_and_not_all_of_es2023() -> None:
    """Why eslint.config.mjs holds the modules at ES2022: every floor browser runs it whole,
    and Firefox 115 lacks part of ES2023."""
    data = REPO / "node_modules" / "@mdn" / "browser-compat-data" / "data.json"
    compat = json.loads(data.read_text(encoding="utf-8"))
    floor = _floor()
    lacking = [(feature, browser) for feature in ES2022 for browser, version in floor.items()
               if not _runs(compat, feature, browser, version)]
    assert lacking == []
    assert not _runs(compat, ES2023_LACKED, "firefox", floor["firefox"])


def test_the_generated_example_modules_keep_to_the_floor() -> None:
    """example.mjs, rendered from templates/example.mjs.jinja, is the code the widget imports:
    the same lint as the widget's modules (eslint.config.mjs), for a plain model (linear), an
    image model (edges) and a WebAssembly-only one (iris)."""
    from onnx_glossary.render.live_example import render_snippet_js

    from .test_live_example import reference_for

    for name in ("linear", "edges", "iris"):
        facts, reference = reference_for(name)
        result = _eslint("--stdin", "--stdin-filename", f"models/{name}/example.mjs",
                         "--max-warnings", "0", stdin=render_snippet_js(facts, reference))
        assert result.returncode == 0, (name, result.stdout + result.stderr)


# Newer syntax is a parse error at the file's ecmaVersion; newer built-ins are es-x's rules.
@pytest.mark.parametrize(("file", "code", "said"), [
    (ASSETS + "live-example-widget.mjs", "export const x = /[a]/v;\n", "Invalid regular expression flag"),
    (ASSETS + "live-example-widget.mjs", "export const p = Promise.withResolvers();\n",
     "es-x/no-promise-withresolvers"),
    (ASSETS + "live-example-check.js", "window.b = window.a?.c;\n", "es-x/no-optional-chaining"),
    (ASSETS + "term-tips.js", "window.e = Object.fromEntries([]);\n", "es-x/no-object-fromentries"),
])
def test_eslint_refuses_what_is_newer_than_the_floor(file: str, code: str, said: str) -> None:
    result = _eslint("--stdin", "--stdin-filename", file, "--format", "json", stdin=code)
    assert result.returncode == 1, result.stdout + result.stderr
    assert said in result.stdout, result.stdout


def test_tsc() -> None:
    result = _node_tool("tsc", "-p", "tsconfig.json")
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint() -> None:
    result = _node_tool("eslint", "--max-warnings", "0")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_js_tools_are_pinned_dev_dependencies() -> None:
    package = json.loads((REPO / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((REPO / "package-lock.json").read_text(encoding="utf-8"))
    dev = package["devDependencies"]
    for name in ("typescript", "eslint", "eslint-plugin-es-x", "@eslint/js", "globals", "axe-core"):
        assert re.fullmatch(r"\d+\.\d+\.\d+", dev.get(name, "")), (name, dev.get(name))
        assert lock["packages"][f"node_modules/{name}"]["version"] == dev[name], name
        assert lock["packages"][f"node_modules/{name}"].get("dev") is True, name
    assert not set(dev) & set(package.get("dependencies", {}))
    # A dependency is what a built site ships: the runtime manifest's packages, nothing else.
    assert set(package["dependencies"]) == {p.name for p in load_manifest().values()}


@pytest.mark.parametrize("path", JS_FILES, ids=[p.name for p in JS_FILES])
def test_every_js_file_is_type_checked_without_escape_hatches(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("// @ts-check\n"), f"{path.name}: the first line must be // @ts-check"
    # tsc's and eslint's ways of silencing a finding; eslint ignores its comments anyway
    # (linterOptions.noInlineConfig in eslint.config.mjs).
    found = re.findall(r"@ts-(?:ignore|expect-error|nocheck)|eslint-disable|\{\s*any\s*\}", text)
    assert found == [], f"{path.name}: {found}"
