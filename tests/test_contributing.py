"""docs/contributing.md, followed to the letter in a copy of the repository.

Its step-by-step section adds a term and a model: the files are read from the page's code
blocks titled with a path, the commands from its block titled "shell", so the page and what
works cannot drift apart. The copy then passes what the suite asks of every term and model:
a `--strict` build with no warning, the export checks of tests/test_exports.py (re-export,
graph, parity, metadata) and a live example that matches its reference in Chromium.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from onnx_glossary.models.export_tools import export_scripts

from .sitebuild import REPO
from .support.browser import PageProbe, StaticServer, chromium
from .test_exports import check_against_committed, check_metadata_conventions, needs, run_export

PAGE = REPO / "docs" / "contributing.md"
SECTION = "## Step by step: a new term and a new model"
# A fenced block inside a list item: its indent, language, title and body.
BLOCK = re.compile(r'^( *)```(\w+) title="([^"]+)"\n(.*?)^\1```$', re.DOTALL | re.MULTILINE)
RUN = '[data-live-example] button[data-action="run"]'


def walkthrough() -> tuple[dict[str, str], list[str]]:
    """The section's files (path -> text) and its shell commands, in order."""
    text = PAGE.read_text(encoding="utf-8")
    assert SECTION in text, f"{PAGE.name} lost its section {SECTION!r}"
    files: dict[str, str] = {}
    commands: list[str] = []
    for indent, _language, title, body in BLOCK.findall(text.split(SECTION, 1)[1]):
        body = textwrap.dedent(body) if indent else body
        if title == "shell":
            commands += [line for line in body.splitlines() if line.strip()]
        else:
            files[title] = body
    return files, commands


@dataclass
class Copy:
    root: Path
    files: dict[str, str]
    outputs: list[subprocess.CompletedProcess[str]]

    @property
    def new_model(self) -> str:
        return next(Path(p).parent.name for p in self.files if p.startswith("models/"))

    @property
    def new_term(self) -> str:
        return next(Path(p).stem for p in self.files if p.startswith("glossary/"))


@pytest.fixture(scope="module")
def followed(tmp_path_factory: pytest.TempPathFactory) -> Copy:
    """A copy of the repository's content with the walk-through's files and commands done."""
    root = tmp_path_factory.mktemp("contributing")
    for name in ("docs", "glossary", "models", "diagrams"):  # diagrams: the drawn mermaid fences
        shutil.copytree(REPO / name, root / name)
    shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
    for name in (".venv", "node_modules"):  # the commands use the repository's own set-up
        (root / name).symlink_to(REPO / name)
    if (REPO / ".cache").is_dir():  # analyses of the existing models: only the new one is cold
        shutil.copytree(REPO / ".cache", root / ".cache")
    files, commands = walkthrough()
    assert files and commands, "the walk-through has no titled files or no shell commands"
    for path, text in files.items():
        target = root / path
        assert not target.exists(), f"{path} exists already: the walk-through must add it"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    outputs = [subprocess.run(command, shell=True, cwd=root, env=env, capture_output=True,
                              text=True, timeout=600, check=False) for command in commands]
    return Copy(root, files, outputs)


def test_every_command_succeeds_and_the_build_warns_of_nothing(followed: Copy) -> None:
    for done in followed.outputs:
        assert done.returncode == 0, f"{done.args} failed:\n{done.stdout}\n{done.stderr}"
    export, build = followed.outputs[0], followed.outputs[-1]
    assert f"{followed.new_model}: wrote" in export.stdout
    assert "WARNING" not in build.stderr, build.stderr
    assert "Documentation built" in build.stderr


def test_the_term_page_shows_the_model_card_and_the_model_page_runs(followed: Copy) -> None:
    site = followed.root / "site"
    term = (site / "glossary" / followed.new_term / "index.html").read_text(encoding="utf-8")
    model = (site / "models" / followed.new_model / "index.html").read_text(encoding="utf-8")
    for page in (term, model):  # the card runs the model in place, as the model page does
        assert "data-live-example" in page and f"models/{followed.new_model}/" in page
    assert "Does not run" not in model and "Runs, with notes" not in model


def test_the_suites_export_checks_accept_the_new_model(followed: Copy, tmp_path: Path) -> None:
    scripts = {s.name: s for s in export_scripts(followed.root / "models")}
    export = needs(run_export(scripts[followed.new_model], tmp_path))
    check_against_committed(export, followed.root / "models")
    check_metadata_conventions(export.out / "model.onnx", followed.new_model)


@pytest.fixture(scope="module")
def served(followed: Copy) -> Iterator[StaticServer]:
    with StaticServer(followed.root / "site", prefix="/repo/") as server:
        yield server


@pytest.mark.browser
@pytest.mark.parametrize("page", ["models/{model}/", "glossary/{term}/"])
def test_the_new_model_runs_in_chromium_and_matches(followed: Copy, served: StaticServer,
                                                    page: str) -> None:
    url = served.url + page.format(model=followed.new_model, term=followed.new_term)
    with chromium() as browser:
        tab = browser.new_page()
        probe = PageProbe(served.origin).attach(tab)
        tab.goto(url, wait_until="load")
        tab.click(RUN)
        tab.wait_for_selector('[data-live-example][data-state="done"]', timeout=60_000)
        root = tab.query_selector("[data-live-example]")
        assert root is not None
        assert root.get_attribute("data-match") == "true"
        assert root.get_attribute("data-backend") == "wasm"
        assert not probe.errors and not probe.other_origin
