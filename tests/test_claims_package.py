"""What the glossary says about the files of the shipped npm packages (node_modules, from the lock
file): onnxruntime-web 1.31.1's bundles and .wasm sizes, its imports, its operator table.

Sizes in the glossary are decimal (1 KB = 1,000 bytes, 1 MB = 1,000,000 bytes), rounded as
written; "gzipped" is gzip at its default level (6), what a static host's compression gives.
Named ``<term>__<claim>``; glossary/claims.yml says which sentence each one backs.
"""

from __future__ import annotations

import gzip
import json

from .sitebuild import REPO

PACKAGE = REPO / "node_modules" / "onnxruntime-web"
DIST = PACKAGE / "dist"


def size(name: str, *, gzipped: bool = False, unit: float = 1e6) -> float:
    data = (DIST / name).read_bytes()
    return len(gzip.compress(data, 6) if gzipped else data) / unit


def test_onnxruntime_web__the_shipped_version_is_1_31_1() -> None:
    assert json.loads((PACKAGE / "package.json").read_text())["version"] == "1.31.1"
    lock = json.loads((REPO / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/onnxruntime-web"]["version"] == "1.31.1"


def test_onnxruntime_web__bundle_and_wasm_sizes() -> None:
    assert round(size("ort.wasm.bundle.min.mjs", unit=1e3)) == 77
    assert round(size("ort.webgpu.bundle.min.mjs", unit=1e3)) == 122
    assert round(size("ort-wasm-simd-threaded.wasm"), 1) == 14.8
    assert round(size("ort-wasm-simd-threaded.asyncify.wasm"), 1) == 28.7
    assert round(size("ort-wasm-simd-threaded.wasm", gzipped=True), 1) == 3.8
    assert round(size("ort-wasm-simd-threaded.asyncify.wasm", gzipped=True), 1) == 7.2


def test_onnxruntime_web__the_imports_and_the_wasm_each_loads() -> None:
    exports = json.loads((PACKAGE / "package.json").read_text())["exports"]
    assert {".", "./wasm", "./webgpu", "./all", "./webgl", "./jspi"} <= set(exports)
    imports = {name: exports[name]["import"]["default"] for name in (".", "./wasm", "./webgpu")}
    assert imports == {".": "./dist/ort.bundle.min.mjs", "./wasm": "./dist/ort.wasm.bundle.min.mjs",
                       "./webgpu": "./dist/ort.webgpu.bundle.min.mjs"}
    loads = {name: (DIST / path.removeprefix("./dist/")).read_text(encoding="utf-8")
             for name, path in imports.items()}
    assert "ort-wasm-simd-threaded.wasm" in loads["./wasm"]
    assert "ort-wasm-simd-threaded.asyncify.wasm" in loads["./webgpu"]
    assert "ort-wasm-simd-threaded.jsep.wasm" in loads["."]
    assert round(size("ort.bundle.min.mjs", unit=1e3)) == 418  # the default import: the largest


def test_operator__the_package_ships_a_webgpu_operator_table_for_the_jsep_build() -> None:
    table = (PACKAGE / "docs" / "webgpu-operators.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")}
    assert {"Conv", "Gemm", "Resize", "Softmax"} <= rows
    assert "Hardmax" not in rows and "LinearClassifier" not in rows and "ai.onnx.ml" not in table
    assert "generate-webgpu-operator-md" in table
    assert (PACKAGE / "lib" / "wasm" / "jsep" / "webgpu").is_dir()  # the JSEP build's TypeScript kernels


def test_jspi__bundle_and_wasm_sizes() -> None:
    assert round(size("ort.jspi.bundle.min.mjs", unit=1e3)) == 121
    assert round(size("ort-wasm-simd-threaded.jspi.wasm"), 1) == 17.9
    assert "ort-wasm-simd-threaded.jspi.wasm" in (DIST / "ort.jspi.bundle.min.mjs").read_text(encoding="utf-8")
