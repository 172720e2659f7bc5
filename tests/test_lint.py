"""The code checks configured in pyproject.toml, run as part of the suite so they cannot rot."""

from __future__ import annotations

import subprocess
import sys

from .sitebuild import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True)


def test_ruff() -> None:
    result = _run("ruff", "check", "plugins", "tests", "scripts", "models")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
