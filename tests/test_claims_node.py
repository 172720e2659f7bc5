"""The glossary's claims about onnxruntime-web that Node 20 can show: tests/js/claims-web.claims.mjs.

The file runs once per session (one Node process, every import loaded once); each of its tests
is one item here, named as in glossary/claims.yml, so a failing claim shows up by its name.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .claim_models import single_operator_cases, write_all
from .sitebuild import REPO

CLAIMS_JS = REPO / "tests" / "js" / "claims-web.claims.mjs"
NODE = shutil.which("node")
#: V8 compiles each runtime's .wasm (14 to 28 MB) with its baseline compiler, then optimises it
#: again in the background, and the process waits for that on exit: 35 to 65 s of CPU per
#: import on this machine. The claims are about behaviour, not speed: baseline code only.
NODE_FLAGS = ("--liftoff-only",)
TEST_NAME = re.compile(r'^test\("([a-z0-9_]+)"', re.MULTILINE)


def node_test_names(path: Path = CLAIMS_JS) -> list[str]:
    """The names of the top-level ``test("...")`` calls of a claims file, in order."""
    return TEST_NAME.findall(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def node_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each node test's name -> "ok" or its failure report (TAP), from one run of the file."""
    assert NODE, "node is needed for the claim tests (the README's set-up installs it)"
    models = write_all(tmp_path_factory.mktemp("claim-models"))
    result = subprocess.run(
        [NODE, *NODE_FLAGS, "--test", "--test-reporter=tap", str(CLAIMS_JS)], cwd=REPO, capture_output=True,
        text=True, timeout=300, env={**os.environ, "CLAIMS_MODELS": str(models), "CLAIMS_CASES": str(single_operator_cases())})
    outcomes: dict[str, str] = {}
    current: str | None = None
    for line in result.stdout.splitlines():
        match = re.match(r"^(not ok|ok) \d+ - (\S+)", line)
        if match:
            current = match.group(2)
            outcomes[current] = "ok" if match.group(1) == "ok" else ""
        elif current and outcomes.get(current) != "ok" and line.startswith("  "):
            outcomes[current] += line + "\n"
    assert outcomes, result.stdout + result.stderr
    return outcomes


def test_the_claims_file_has_tests() -> None:
    names = node_test_names()
    assert len(names) >= 20 and len(names) == len(set(names)), names


@pytest.mark.parametrize("name", node_test_names())
def test_node_claim(node_results: dict[str, str], name: str) -> None:
    assert name in node_results, f"{name} did not run: {sorted(node_results)}"
    assert node_results[name] == "ok", node_results[name]
