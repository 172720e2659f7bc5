"""The plugin proven outside the repository: installed by the quickstart's own commands, run as
written (pip builds the wheel from a copy of the repository next to the new folder), into a
fresh virtual environment in a temporary folder with no node_modules in reach, it follows
docs/quickstart.md literally.

The quickstart's commands and files are read from the page itself, so the page cannot drift
from what works.
Python dependencies come from the package index or pip's cache. The browser packages come from
a "registry" on localhost serving the tarballs `npm pack` takes from npm's own cache, so the
build downloads, caches and checks them exactly as it would from registry.npmjs.org, without
the network. The tests share one venv (about a minute to make) and one filled cache.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from onnx_glossary.browser.packages import load_manifest, tarball_path

from .sitebuild import REPO
from .support.browser import PageProbe, StaticServer, chromium

pytestmark = pytest.mark.wheel

QUICKSTART = REPO / "docs" / "quickstart.md"
CLOSED = "http://127.0.0.1:9/"  # nothing listens on the discard port: connection refused
RUN = '[data-live-example] button[data-action="run"]'


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without what would make Python or npm look elsewhere."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.lower().startswith("npm_config_")}
    return {**env, **extra}


@dataclass
class Installed:
    venv: Path
    registry: str
    tmp: Path

    def run(self, *args: str, cwd: Path, cache: Path, registry: str) -> subprocess.CompletedProcess[str]:
        env = clean_env(PATH=f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                        NO_MKDOCS_2_WARNING="1", XDG_CACHE_HOME=str(cache), npm_config_registry=registry)
        return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def quickstart_files() -> dict[str, str]:
    """The files the quickstart asks for: its code blocks titled with a path."""
    text = QUICKSTART.read_text(encoding="utf-8")
    blocks = re.findall(r'^```\w+ title="([^"]+)"\n(.*?)^```$', text, flags=re.DOTALL | re.MULTILINE)
    return {title: body for title, body in blocks if title != "shell"}


def quickstart_blocks() -> list[str]:
    text = QUICKSTART.read_text(encoding="utf-8")
    return re.findall(r'^```sh title="shell"\n(.*?)^```$', text, flags=re.DOTALL | re.MULTILINE)


def quickstart_commands() -> list[str]:
    return [line for block in quickstart_blocks() for line in block.splitlines()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    tmp = tmp_path_factory.mktemp("wheel")
    assert not any((folder / "node_modules").exists() for folder in (tmp, *tmp.parents))
    # The copy of the repository the quickstart installs from (what the wheel is made of), so
    # the install writes nothing into the repository.
    source = tmp / "onnx-glossary"
    shutil.copytree(REPO / "plugins", source / "plugins", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README-package.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    # Step 1 as written, in a shell; `python3.11` is this interpreter.
    interpreter = tmp / "bin"
    interpreter.mkdir()
    (interpreter / "python3.11").symlink_to(sys.executable)
    install = quickstart_blocks()[0]
    done = subprocess.run(["bash", "-e", "-c", install], cwd=tmp, capture_output=True, text=True,
                          env=clean_env(PATH=f"{interpreter}{os.pathsep}{os.environ.get('PATH', '')}"))
    assert done.returncode == 0, done.stdout + done.stderr
    venv = tmp / "my-glossary" / ".venv"
    registry = tmp / "registry"
    for package in load_manifest().values():
        target = registry / tarball_path(package.name, package.version)
        target.parent.mkdir(parents=True, exist_ok=True)
        # npm's cache holds the registry's bytes (make test's `npm ci` filled it).
        subprocess.run(["npm", "pack", "--prefer-offline", "--silent", "--pack-destination",
                        str(target.parent), package.spec], check=True, capture_output=True, text=True)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(registry))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield Installed(venv, f"http://127.0.0.1:{server.server_address[1]}/", tmp)
    finally:
        server.shutdown()
        server.server_close()


def new_project(installed: Installed, name: str) -> Path:
    """An empty folder that then holds the quickstart's files and its model."""
    project = installed.tmp / name
    for path, text in quickstart_files().items():
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text(text, encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def quickstart(installed: Installed) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """(project, filled cache, build) after following the quickstart with the wheel."""
    assert "pip install ../onnx-glossary" in quickstart_commands()
    assert "python make_model.py" in quickstart_commands() and "mkdocs serve" in quickstart_commands()
    assert set(quickstart_files()) == {"mkdocs.yml", "docs/index.md", "glossary/onnx.md", "make_model.py"}
    project, cache = new_project(installed, "my-glossary"), installed.tmp / "cache"
    made = installed.run("python", "make_model.py", cwd=project, cache=cache, registry=installed.registry)
    assert made.returncode == 0, made.stderr
    # `mkdocs serve` builds like this, then serves; the test serves the folder itself.
    built = installed.run("mkdocs", "build", "--strict", cwd=project, cache=cache, registry=installed.registry)
    return project, cache, built


@pytest.mark.browser
def test_the_quickstart_builds_from_the_wheel_and_its_example_runs_in_chromium(installed, quickstart):
    project, cache, built = quickstart
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr and "Traceback" not in built.stderr
    assert f"onnx_glossary: downloading onnxruntime-web@1.31.1 from {installed.registry}" in built.stderr
    assert sorted(p.name for p in (cache / "onnx-glossary/npm/tarballs").iterdir()) == [
        "onnxruntime-web-1.31.1.tgz"]
    # A build that went well prints nothing that reads like a problem (issue 23).
    assert not [line for line in built.stderr.splitlines() if re.search(r"Could not|refuses|WARNING", line)]
    site = project / "site"
    assert (site / "reference/options/index.html").is_file() and (site / "glossary/onnx/index.html").is_file()
    version = installed.run("python", "-c", "import importlib.metadata as m, onnx_glossary; "
                            "print(m.version('onnx-glossary'), onnx_glossary.__version__)",
                            cwd=project, cache=cache, registry=CLOSED)
    first, second = version.stdout.split()
    assert first == second
    with StaticServer(site, "/") as server, chromium() as browser:
        page = browser.new_context().new_page()
        probe = PageProbe(server.origin).attach(page)
        page.goto(server.url, wait_until="load")
        page.wait_for_selector(RUN + ":not([disabled])")
        page.click(RUN)
        page.wait_for_function("['done', 'error'].includes(document.querySelector('[data-live-example]')"
                               ".dataset.state)", timeout=180_000)
        state = page.eval_on_selector("[data-live-example]", "e => ({...e.dataset})")
        assert state["state"] == "done" and state["match"] == "true", page.inner_text("[data-live-example]")
        assert probe.other_origin == [] and probe.errors == []
        assert probe.fetched("/assets/ort/ort.wasm.bundle.min.mjs")


def test_offline_with_an_empty_cache_the_build_says_what_is_missing(installed, quickstart):
    project = new_project(installed, "offline")
    shutil.copytree(quickstart[0] / "models", project / "models")
    built = installed.run("mkdocs", "build", "--strict", cwd=project, cache=installed.tmp / "empty",
                          registry=CLOSED)
    assert built.returncode != 0
    errors = [line for line in built.stderr.splitlines() if line.startswith("ERROR")]
    assert errors == [
        "ERROR   -  the browser runtime package onnxruntime-web@1.31.1 is not in the "
        f"cache {installed.tmp / 'empty/onnx-glossary/npm/tarballs'}, and the npm registry {CLOSED} could not "
        "be reached ([Errno 111] Connection refused): either let this build reach the registry once (or set "
        "npm_config_registry, or registry= in .npmrc, to a mirror), or install it with 'npm install "
        "--save-exact onnxruntime-web@1.31.1' next to mkdocs.yml (or point the plugin's "
        "node_modules option at a folder holding it)"]
    assert "Traceback" not in built.stderr and not (project / "site").exists()


def test_a_tampered_cached_tarball_is_refused_and_never_published(installed, quickstart):
    project, cache, _ = quickstart
    tampered = installed.tmp / "tampered"
    shutil.copytree(cache, tampered)
    tarball = tampered / "onnx-glossary/npm/tarballs/onnxruntime-web-1.31.1.tgz"
    data = bytearray(tarball.read_bytes())
    data[len(data) // 2] ^= 0xFF
    tarball.write_bytes(bytes(data))
    shutil.rmtree(project / "site")
    built = installed.run("mkdocs", "build", "--strict", cwd=project, cache=tampered, registry=CLOSED)
    assert built.returncode != 0
    assert (f"ERROR   -  {tarball} does not match the integrity pinned for onnxruntime-web@1.31.1 (corrupted "
            "or tampered): it was refused and deleted, nothing from it was published") in built.stderr
    assert not tarball.exists() and not (tampered / "onnx-glossary/npm/unpacked/onnxruntime-web-1.31.1").exists()
    assert not (project / "site" / "assets" / "ort").exists()


def test_the_installed_metadata_names_no_made_up_address(installed):
    """The wheel's metadata (pip built it from the copy) carries no placeholder URL: the
    published address and the repository are not known where the package is built."""
    (metadata,) = (installed.venv / "lib").glob("python3.*/site-packages/onnx_glossary-*.dist-info/METADATA")
    text = metadata.read_text(encoding="utf-8")
    assert text.startswith("Metadata-Version:") and "Name: onnx-glossary" in text
    assert "github.com/example" not in text and "example.github.io" not in text
