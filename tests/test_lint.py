"""The code checks configured in pyproject.toml, run as part of the suite so they cannot rot."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .sitebuild import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True)


def test_ruff() -> None:
    result = _run("ruff", "check", "plugins", "tests", "scripts", "models")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


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
    (ASSETS + "live-example-check.js", "var a = {}; var b = a?.c;\n", "Parsing error"),
    (ASSETS + "live-example-check.js", "var e = Object.fromEntries([]);\n", "es-x/no-object-fromentries"),
])
def test_eslint_refuses_what_is_newer_than_the_floor(file: str, code: str, said: str) -> None:
    result = _eslint("--stdin", "--stdin-filename", file, "--format", "json", stdin=code)
    assert result.returncode == 1, result.stdout + result.stderr
    assert said in result.stdout, result.stdout
