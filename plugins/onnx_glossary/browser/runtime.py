"""The browser runtime the site ships: its version, limits, bundles and files.

Pure (standard library only). What a model needs of it is judged in
:mod:`onnx_glossary.models.acceptance`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

PACKAGE_JSON = Path("onnxruntime-web") / "package.json"

# Limits of onnxruntime-web 1.31.1, measured (the same as 1.30.0's): a model of IR version 14
# is refused with "Unsupported model IR version: 14, max supported IR version: 13", and ai.onnx
# opset 27 is refused as "under development". Python onnxruntime 1.32 accepts both, so a model
# can load in Python and still fail in the browser (tests/js/claims-web.claims.mjs runs both).
ORT_WEB_VERSION = "1.31.1"
ORT_WEB_MAX_IR = 13
ORT_WEB_MAX_OPSET = 26

# Domains onnxruntime(-web) ships kernels for; anything else needs a custom-op library.
RUNTIME_DOMAINS = frozenset({"ai.onnx", "ai.onnx.ml", "com.microsoft"})


@dataclass(frozen=True)
class Bundle:
    """One build of onnxruntime-web: the import specifier, its module file and its .wasm.

    With ``env.wasm.wasmPaths`` unset, a bundle fetches its .wasm from next to itself, so the
    two files always travel together.
    """

    specifier: str
    module: str
    wasm: str


#: The builds a live example can load, by backend. The WebGPU build carries the native WebGPU
#: execution provider plus WASM (its .wasm is 28.7 MB); the WASM-only build is about half that.
BUNDLES: dict[str, Bundle] = {
    "webgpu": Bundle("onnxruntime-web/webgpu", "ort.webgpu.bundle.min.mjs",
                     "ort-wasm-simd-threaded.asyncify.wasm"),
    "wasm": Bundle("onnxruntime-web/wasm", "ort.wasm.bundle.min.mjs", "ort-wasm-simd-threaded.wasm"),
}


def runtime_files() -> list[str]:
    """Every file of ``onnxruntime-web/dist`` the site publishes."""
    return [name for bundle in BUNDLES.values() for name in (bundle.module, bundle.wasm)]


def file_digest(path: Path) -> str:
    """The content hash that keys a file in the widget's persistent cache (hex SHA-256)."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def wasm_digests(dist: Path) -> dict[str, str]:
    """Per backend, the content hash of the .wasm its bundle loads, from ``dist``."""
    return {backend: file_digest(dist / bundle.wasm) for backend, bundle in BUNDLES.items()}


def wasm_sizes(dist: Path) -> dict[str, int]:
    """Per backend, the size in bytes of the .wasm its bundle loads, from ``dist``: what a
    widget says the runtime costs before Run."""
    return {backend: (dist / bundle.wasm).stat().st_size for backend, bundle in BUNDLES.items()}


def import_map(ort_url: str) -> dict[str, dict[str, str]]:
    """The page's import map: npm specifiers -> the self-hosted bundles under ``ort_url``."""
    return {"imports": {b.specifier: ort_url + b.module for b in BUNDLES.values()}}


#: How much more the WebGPU runtime's .wasm weighs than the WebAssembly one, in MB: as files
#: (28.7 against 14.8 MB in 1.31.1), and as a static host sends them, gzipped (7.2 against
#: 3.8 MB). A test checks both against the shipped files.
EXTRA_WEBGPU_MB = 13.9
EXTRA_WEBGPU_GZIP_MB = 3.4

#: The assumptions of the backend rule, not measured (this site's machines have no GPU): a
#: reader's connection, the runs of one visit, and a GPU run taking no time at all (the most
#: favourable case for the GPU; its session start, which compiles shaders, is not counted).
ASSUMED_MBIT_S = 100
ASSUMED_RUNS_A_VISIT = 10

#: Below this many multiply-adds a run, the live example's "auto" runs WebAssembly without
#: asking for a GPU. A GPU can save a visit at most the WebAssembly time of its runs, and it
#: costs the extra download of its runtime first. Counted as transferred (GitHub Pages gzips
#: .wasm files), 3.4 MB take 0.27 s at 100 Mbit/s; over ten runs a GPU wins that back only
#: where a run takes at least 27 ms on WebAssembly. Measured here (docs/benchmarks.json,
#: live.per-run-widget-ms), text-detection's 287.8 million multiply-adds take about 31 ms a run
#: on one thread: about 9 billion a second, so 27 ms is about 250 million. The reader can
#: always choose WebGPU; docs/benchmarks.md prints the figures and each model's count.
WEBGPU_MIN_MULTIPLY_ADDS = 250_000_000


def auto_backend(multiply_adds: int, wasm_only: bool) -> str:
    """What "auto" runs a model on, as ``example.mjs``'s ``pickBackend`` decides it at build
    time: ``"wasm"``, or ``"webgpu"`` (on a hardware adapter; WebAssembly elsewhere)."""
    if wasm_only or multiply_adds < WEBGPU_MIN_MULTIPLY_ADDS:
        return "wasm"
    return "webgpu"


#: Measured with onnxruntime-web 1.30.0 and again with 1.31.1: the WebGPU build has no ai.onnx.ml
#: kernels ("No Op registered for LinearClassifier"); only the WASM build runs them.
WASM_ONLY_DOMAINS = frozenset({"ai.onnx.ml"})


@dataclass(frozen=True)
class BrowserRuntime:
    """The onnxruntime-web build the site ships, and what it accepts."""

    version: str = ORT_WEB_VERSION
    max_ir: int = ORT_WEB_MAX_IR
    max_opset: int = ORT_WEB_MAX_OPSET

    @property
    def name(self) -> str:
        return f"onnxruntime-web {self.version}"


def find_node_modules(start: Path | None = None) -> Path | None:
    """The nearest ``node_modules`` holding onnxruntime-web, searching upwards."""
    starts = [start] if start else [Path.cwd(), Path(__file__).resolve().parent.parent]
    for base in starts:
        for folder in (base, *base.parents):
            candidate = folder / "node_modules"
            if (candidate / "onnxruntime-web" / "package.json").is_file():
                return candidate
    return None


def package_version(node_modules: Path) -> str | None:
    """The installed onnxruntime-web version, or None when the package is not there."""
    package_json = node_modules / PACKAGE_JSON
    if not package_json.is_file():
        return None
    version = json.loads(package_json.read_text(encoding="utf-8")).get("version")
    return str(version) if version else None


def browser_runtime(node_modules: Path | None = None) -> BrowserRuntime:
    """The installed onnxruntime-web's version, so the pages cannot drift from it."""
    folder = node_modules or find_node_modules()
    version = package_version(folder) if folder else None
    return BrowserRuntime(version=version or ORT_WEB_VERSION)
