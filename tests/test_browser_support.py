"""plugins/onnx_glossary/data/browser-support.json is what scripts/browser_support.py extracts from
the pinned @mdn/browser-compat-data package, so the browser-support table never drifts from it."""

from __future__ import annotations

import functools
import importlib.util
import json
import re

from .sitebuild import REPO

DATA_FILE = REPO / "plugins" / "onnx_glossary" / "data" / "browser-support.json"
PACKAGE = "@mdn/browser-compat-data"


def script():
    spec = importlib.util.spec_from_file_location("browser_support", REPO / "scripts" / "browser_support.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_package_is_pinned_exactly_as_a_dev_dependency() -> None:
    manifest = json.loads((REPO / "package.json").read_text(encoding="utf-8"))
    version = manifest["devDependencies"][PACKAGE]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version  # no range: exactly one release
    assert PACKAGE not in manifest.get("dependencies", {})
    lock = json.loads((REPO / "package-lock.json").read_text(encoding="utf-8"))
    locked = lock["packages"][f"node_modules/{PACKAGE}"]
    assert locked["version"] == version and locked.get("dev") is True
    installed = json.loads((REPO / "node_modules" / PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert installed["version"] == version


@functools.cache
def expected() -> str:
    """What the script extracts from the installed package (20 MB of JSON: read once)."""
    text: str = script().expected_text()
    return text


def test_the_data_file_is_what_the_pinned_package_gives() -> None:
    expected_text = expected()
    assert DATA_FILE.read_text(encoding="utf-8") == expected_text, (
        "run python scripts/browser_support.py and commit plugins/onnx_glossary/data/browser-support.json")
    data = json.loads(expected_text)
    version = json.loads((REPO / "package.json").read_text(encoding="utf-8"))["devDependencies"][PACKAGE]
    assert data["source"]["version"] == version


def test_the_data_file_holds_the_features_and_browsers_of_the_table() -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    ids = [f["id"] for f in data["features"]]
    assert {"webgpu", "wasm-simd", "wasm-threads", "sharedarraybuffer", "jspi", "import-maps", "webnn"} <= set(ids)
    assert [b["id"] for b in data["browsers"]][:4] == ["chrome", "edge", "firefox", "safari"]
    for feature in data["features"]:
        assert set(feature["support"]) == {b["id"] for b in data["browsers"]}, feature["id"]
        for statements in feature["support"].values():
            assert statements and all("version_added" in s for s in statements)
            assert not any("<" in note for s in statements for note in s.get("notes", []))  # plain text
    assert DATA_FILE.stat().st_size < 20_000  # small: the plugin reads it, sites never fetch the package


def test_the_check_mode_fails_on_a_stale_file(tmp_path, monkeypatch) -> None:
    module = script()
    stale = tmp_path / "browser-support.json"
    stale.write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(module, "DATA_FILE", stale)
    monkeypatch.setattr(module, "REPO", tmp_path.parent)
    monkeypatch.setattr(module, "expected_text", expected)  # the extraction itself is tested above
    assert module.main(["--check"]) == 1
    assert module.main([]) == 0 and module.main(["--check"]) == 0
