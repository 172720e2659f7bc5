"""`mkdocs serve` as a contributor runs it: rebuilds on glossary/ and models/ changes, keeps
running on a broken term, and serves module scripts and WebAssembly with the right types."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from .sitebuild import REPO, project, term


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, "", b""


def _wait_for(url: str, predicate, timeout: float = 60) -> bytes:
    deadline = time.monotonic() + timeout
    body = b""
    while time.monotonic() < deadline:
        try:
            status, _, body = _get(url)
            if status == 200 and predicate(body):
                return body
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{url} never satisfied the condition; last body {body[:200]!r}")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("serve")
    linear = (REPO / "models/linear/model.onnx").read_bytes()
    project(root, {"linear": linear},
            terms={"onnx": term("ONNX", summary="First version of the summary.")},
            extra="      content_security_policy: true")
    port = _free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    base = f"http://127.0.0.1:{port}/repo/"
    try:
        _wait_for(base + "glossary/onnx/", lambda body: b"First version" in body, timeout=90)
        yield root, base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def test_serve_leaves_out_the_policy_its_live_reload_would_break(served: tuple[Path, str]) -> None:
    """livereload's inline script holds a per-request number, so no hash could allow it."""
    _, base = served
    _, _, body = _get(base + "glossary/onnx/")
    assert b"livereload(" in body
    assert b'http-equiv="Content-Security-Policy"' not in body


def test_serve_rebuilds_when_a_term_changes(served: tuple[Path, str]) -> None:
    root, base = served
    path = root / "glossary/onnx.md"
    path.write_text(term("ONNX", summary="Second version of the summary."))
    body = _wait_for(base + "glossary/onnx/", lambda b: b"Second version" in b)
    assert b"First version" not in body


def test_serve_keeps_running_on_a_broken_term(served: tuple[Path, str]) -> None:
    root, base = served
    (root / "glossary/broken.md").write_text("---\ntitle: [oops\n---\n")
    (root / "glossary/fresh.md").write_text(term("Fresh"))
    _wait_for(base + "glossary/fresh/", lambda b: b"Fresh" in b)
    status, _, _ = _get(base + "glossary/onnx/")
    assert status == 200
    (root / "glossary/broken.md").unlink()


def test_serve_rebuilds_when_a_model_changes(served: tuple[Path, str]) -> None:
    root, base = served
    shutil.copy(REPO / "models/iris/model.onnx", root / "models/iris.onnx.tmp")
    (root / "models/iris").mkdir()
    (root / "models/iris.onnx.tmp").rename(root / "models/iris/model.onnx")
    _wait_for(base + "models/iris/", lambda b: b"ai.onnx.ml" in b)


def test_serve_sends_module_and_wasm_types(served: tuple[Path, str]) -> None:
    _, base = served
    javascript = ("text/javascript", "application/javascript")  # both run as module scripts
    status, kind, _ = _get(base + "assets/ort/ort.wasm.bundle.min.mjs")
    assert status == 200 and kind.split(";")[0] in javascript
    status, kind, body = _get(base + "assets/ort/ort-wasm-simd-threaded.wasm")
    assert (status, kind) == (200, "application/wasm")
    assert body[:4] == b"\0asm"
    status, kind, _ = _get(base + "models/linear/example.mjs")
    assert status == 200 and kind.split(";")[0] in javascript
