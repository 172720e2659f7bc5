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
    """eslint.config.mjs: the widget's modules within ES2023 (Chrome 111, Firefox 115,
    Safari 16.4), the capability check within ES2017."""
    result = _eslint(ASSETS, "tests/support")
    assert result.returncode == 0, result.stdout + result.stderr


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
