"""The browser packages without npm: the manifest, the registry, the checked per-user cache.

A tiny fake package served by a localhost "registry" stands in for the real tarballs, so these
run in a fraction of a second; tests/test_wheel.py does the same with the real ones.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from onnx_glossary.browser import runtime
from onnx_glossary.browser.packages import (
    DEFAULT_REGISTRY,
    MANIFEST,
    SITE_FILES,
    Package,
    RuntimeSetupError,
    load_manifest,
    manifest_from_lock,
    registry_url,
    resolve,
)

from .sitebuild import REPO

CLOSED = "http://127.0.0.1:9/"  # the discard port: nothing listens, the connection is refused


def test_manifest_agrees_with_the_lock_file():
    lock = json.loads((REPO / "package-lock.json").read_text())
    assert json.loads(MANIFEST.read_text()) == manifest_from_lock(lock, SITE_FILES), \
        "run python scripts/runtime_manifest.py and commit plugins/onnx_glossary/runtime-packages.json"
    declared = json.loads((REPO / "package.json").read_text())["dependencies"]
    for package in load_manifest().values():
        assert declared[package.name] == package.version  # exact pins, no ranges
        assert package.integrity.startswith("sha512-")
    assert load_manifest()["onnxruntime-web"].version == runtime.ORT_WEB_VERSION


def test_registry_follows_npm_configuration(tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    assert registry_url(project, {}, home) == DEFAULT_REGISTRY
    (home / ".npmrc").write_text("fund=false\nregistry=https://user.example/npm/\n")
    assert registry_url(project, {}, home) == "https://user.example/npm/"
    (project / ".npmrc").write_text("registry = https://project.example/\n")
    assert registry_url(project, {}, home) == "https://project.example/"
    assert registry_url(project, {"NPM_CONFIG_REGISTRY": "https://env.example/"}, home) == "https://env.example/"


# -- a fake package on a localhost registry --------------------------------------------------


def _tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


GOOD = _tarball({"package.json": b'{"version": "0.1.7"}', "coi-serviceworker.js": b"// worker\n",
                 "README.md": b"not needed by the site"})
PACKAGE = Package("coi-serviceworker", "0.1.7", "coi-serviceworker/-/coi-serviceworker-0.1.7.tgz",
                  "sha512-" + base64.b64encode(hashlib.sha512(GOOD).digest()).decode())
MANIFEST_ = {PACKAGE.name: PACKAGE}


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """(URL, folder) of a static registry; the test puts tarballs under the folder."""
    folder = tmp_path / "registry"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", folder
    finally:
        server.shutdown()
        server.server_close()


def _publish(folder: Path, data: bytes) -> None:
    path = folder / PACKAGE.tarball
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _resolve(tmp_path: Path, registry: str, *, explicit: bool = False):
    return resolve([PACKAGE.name], node_modules=tmp_path / "node_modules", explicit=explicit,
                   root=tmp_path, cache=tmp_path / "cache", registry=registry, manifest=MANIFEST_)


def test_downloads_once_then_works_offline_with_only_the_site_files(tmp_path, registry):
    url, folder = registry
    _publish(folder, GOOD)
    root = _resolve(tmp_path, url).roots[PACKAGE.name]
    assert (root / "coi-serviceworker.js").read_bytes() == b"// worker\n"
    assert not (root / "README.md").exists()
    (folder / PACKAGE.tarball).unlink()
    assert _resolve(tmp_path, CLOSED).roots[PACKAGE.name] == root


def test_offline_with_an_empty_cache_says_what_is_missing_and_both_ways_out(tmp_path):
    with pytest.raises(RuntimeSetupError) as error:
        _resolve(tmp_path, CLOSED)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"the browser runtime package coi-serviceworker@0.1.7 is not in the cache {tmp_path / 'cache'}")
    assert f"the npm registry {CLOSED} could not be reached" in message
    assert "npm install --save-exact coi-serviceworker@0.1.7" in message
    assert "node_modules option" in message


def test_a_tampered_download_is_refused_and_not_cached(tmp_path, registry):
    url, folder = registry
    _publish(folder, GOOD.replace(b"\x00", b"\x01", 1))
    with pytest.raises(RuntimeSetupError, match=r"does not match the integrity pinned for coi-serviceworker@0\.1\.7"):
        _resolve(tmp_path, url)
    assert not any((tmp_path / "cache").rglob("*.tgz*"))


def test_a_tampered_cache_is_refused_and_an_edited_copy_repaired(tmp_path, registry):
    url, folder = registry
    _publish(folder, GOOD)
    root = _resolve(tmp_path, url).roots[PACKAGE.name]
    (root / "coi-serviceworker.js").write_text("alert('edited')")
    (root / "extra.js").write_text("alert('added')")
    _resolve(tmp_path, CLOSED)
    assert (root / "coi-serviceworker.js").read_bytes() == b"// worker\n"
    assert not (root / "extra.js").exists()
    cached = tmp_path / "cache" / "tarballs" / "coi-serviceworker-0.1.7.tgz"
    cached.write_bytes(cached.read_bytes()[:-10])
    with pytest.raises(RuntimeSetupError, match="corrupted or tampered"):
        _resolve(tmp_path, CLOSED)
    assert not cached.exists() and not root.exists()


def test_node_modules_is_used_first_and_its_version_checked(tmp_path):
    installed = tmp_path / "node_modules" / PACKAGE.name
    installed.mkdir(parents=True)
    (installed / "package.json").write_text('{"version": "0.1.6"}')
    resolved = _resolve(tmp_path, CLOSED)
    assert resolved.roots == {PACKAGE.name: installed}
    assert [str(w) for w in resolved.warnings] == [
        f"{installed}: holds coi-serviceworker 0.1.6, but this plugin is made for 0.1.7: run 'npm install "
        f"--save-exact coi-serviceworker@0.1.7' (or remove {installed} and let the plugin download its pinned copy)"]


def test_an_explicit_node_modules_without_the_packages_is_an_error(tmp_path):
    with pytest.raises(RuntimeSetupError, match=r"the plugin's node_modules option.*has no coi-serviceworker"):
        _resolve(tmp_path, CLOSED, explicit=True)


def test_the_extra_size_of_the_webgpu_runtime_is_the_shipped_files() -> None:
    """The backend rule says how much larger WebGPU's .wasm is, as a file and gzipped (at
    gzip's default level, as a static host compresses): it is."""
    import gzip

    from onnx_glossary.browser.runtime import BUNDLES, EXTRA_WEBGPU_GZIP_MB, EXTRA_WEBGPU_MB, wasm_sizes

    dist = REPO / "node_modules" / "onnxruntime-web" / "dist"
    sizes = wasm_sizes(dist)
    assert round((sizes["webgpu"] - sizes["wasm"]) / 1e6, 1) == EXTRA_WEBGPU_MB
    sent = {name: len(gzip.compress((dist / b.wasm).read_bytes(), 6)) for name, b in BUNDLES.items()}
    assert round((sent["webgpu"] - sent["wasm"]) / 1e6, 1) == EXTRA_WEBGPU_GZIP_MB
