"""What the glossary says about which browsers have which feature, checked against the data file
extracted from the pinned @mdn/browser-compat-data (tests/test_browser_support.py keeps that file
equal to the package). Named ``<term>__<claim>`` like every claim test."""

from __future__ import annotations

import functools
import json
import re

import pytest

from .sitebuild import REPO

DATA = json.loads((REPO / "plugins" / "onnx_glossary" / "data" / "browser-support.json").read_text(encoding="utf-8"))
FEATURES = {f["id"]: f for f in DATA["features"]}
BCD = REPO / "node_modules" / "@mdn" / "browser-compat-data" / "data.json"


@functools.cache
def bcd_browsers() -> dict:
    """The package's browser release table (release dates), read once: data.json is 20 MB."""
    browsers: dict = json.loads(BCD.read_text(encoding="utf-8"))["browsers"]
    return browsers


def first_release(feature: str, browser: str, *, flags: bool = False) -> str | None:
    """The earliest version_added among the statements (those behind a flag only if ``flags``)."""
    versions = [s["version_added"] for s in FEATURES[feature]["support"][browser]
                if isinstance(s["version_added"], str) and bool(s.get("flags")) == flags]
    return min(versions, key=lambda v: [float(x) for x in v.split(".")]) if versions else None


def term_facts(slug: str) -> dict[str, str]:
    import yaml

    text = (REPO / "glossary" / f"{slug}.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---\n")[1])
    return {row["fact"]: row["detail"] for row in front["facts"]["rows"]}


ROWS = {  # fact name in glossary/browser-support.md -> feature id in the data file
    "WebAssembly SIMD": "wasm-simd", "WebAssembly threads and atomics": "wasm-threads",
    "SharedArrayBuffer": "sharedarraybuffer", "crossOriginIsolated": "cross-origin-isolated",
    "WebGPU": "webgpu", "WebAssembly JSPI": "jspi", "CSP 'wasm-unsafe-eval'": "wasm-unsafe-eval",
    "Import maps": "import-maps", "Float16Array": "float16array",
}


@pytest.mark.parametrize("fact", sorted(ROWS))
def test_browser_support__each_row_gives_the_first_releases(fact: str) -> None:
    detail = term_facts("browser-support")[fact]
    for browser, name in (("chrome", "Chrome"), ("firefox", "Firefox"), ("safari", "Safari")):
        assert f"{name} {first_release(ROWS[fact], browser)}" in detail, (fact, browser, detail)
    assert DATA["source"]["version"] == "8.1.9"  # the release the caption names


def test_browser_support__webgpu_platforms_and_partial_support() -> None:
    chrome = FEATURES["webgpu"]["support"]["chrome"]
    early = next(s for s in chrome if s["version_added"] == "113")
    assert early.get("partial_implementation") and "ChromeOS, macOS, and Windows" in early["notes"][0]
    assert any(s["version_added"] == "144" and "Linux" in s["notes"][0] for s in chrome)
    (firefox,) = FEATURES["webgpu"]["support"]["firefox"]
    assert firefox["partial_implementation"] and any("Does not support Linux" in n for n in firefox["notes"])
    assert first_release("webgpu", "chrome_android") == "121" and first_release("webgpu", "safari") == "26"


def test_browser_support__simd_threads_and_isolation_everywhere_since_2021_2022_safari_simd_2023() -> None:
    browsers = bcd_browsers()
    years = {}
    for feature in ("wasm-simd", "wasm-threads", "sharedarraybuffer", "cross-origin-isolated"):
        for browser in ("chrome", "edge", "firefox", "safari"):
            version = first_release(feature, browser)
            years[(feature, browser)] = int(browsers[browser]["releases"][version]["release_date"][:4])
    latest = {feature: max(y for (f, _), y in years.items() if f == feature) for feature, _ in years}
    assert latest["wasm-simd"] == 2023 and years[("wasm-simd", "safari")] == 2023
    assert all(latest[f] in (2021, 2022) for f in ("wasm-threads", "sharedarraybuffer", "cross-origin-isolated"))


def test_browser_support__every_onnxruntime_web_wasm_is_a_simd_threaded_build() -> None:
    files = sorted(p.name for p in (REPO / "node_modules" / "onnxruntime-web" / "dist").glob("*.wasm"))
    assert len(files) == 4 and all(name.startswith("ort-wasm-simd-threaded") for name in files)


def test_webnn__browsers_per_mdn_compat_data() -> None:
    assert first_release("webnn", "chrome", flags=True) == "112" and first_release("webnn", "chrome") is None
    assert first_release("webnn", "edge", flags=True) == "112"
    for browser in ("firefox", "safari", "safari_ios"):
        assert [s["version_added"] for s in FEATURES["webnn"]["support"][browser]] == [False]


def test_jspi__first_releases_per_mdn_compat_data() -> None:
    assert [first_release("jspi", b) for b in ("chrome", "edge", "firefox", "safari")] == ["137", "137", "153", "27"]


def test_webgpu__first_shipped_in_chrome_113_per_mdn_compat_data() -> None:
    browsers = bcd_browsers()
    assert first_release("webgpu", "chrome") == "113"
    assert browsers["chrome"]["releases"]["113"]["release_date"].startswith("2023")
    assert re.search("ChromeOS, macOS, and Windows", FEATURES["webgpu"]["support"]["chrome"][1]["notes"][0])
