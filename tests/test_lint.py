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
