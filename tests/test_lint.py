"""The code checks configured in pyproject.toml, run as part of the suite so they cannot rot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .sitebuild import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True)


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
