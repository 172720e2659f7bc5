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
    for name in ("typescript", "eslint", "eslint-plugin-es-x", "@eslint/js", "globals"):
        assert re.fullmatch(r"\d+\.\d+\.\d+", dev.get(name, "")), (name, dev.get(name))
        assert lock["packages"][f"node_modules/{name}"]["version"] == dev[name], name
        assert lock["packages"][f"node_modules/{name}"].get("dev") is True, name
    assert not set(dev) & set(package.get("dependencies", {}))


@pytest.mark.parametrize("path", JS_FILES, ids=[p.name for p in JS_FILES])
def test_every_js_file_is_type_checked_without_escape_hatches(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("// @ts-check\n"), f"{path.name}: the first line must be // @ts-check"
    # tsc's and eslint's ways of silencing a finding; eslint ignores its comments anyway
    # (linterOptions.noInlineConfig in eslint.config.mjs).
    found = re.findall(r"@ts-(?:ignore|expect-error|nocheck)|eslint-disable|\{\s*any\s*\}", text)
    assert found == [], f"{path.name}: {found}"
