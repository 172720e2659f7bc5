"""The browser runtime the site ships, and the policy of what it accepts.

Pure (standard library only). Everything a page or a build message says about "does this model
run in onnxruntime-web" is decided here, once, as :class:`~.problems.Finding` values.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..browser.webgpu_ops import package_version
from ..common.problems import Finding
from ..models.element_types import is_web_type

# Limits of onnxruntime-web 1.30.0, measured: a model of IR version 14 is refused with
# "Unsupported model IR version: 14, max supported IR version: 13", and ai.onnx opset 27 is
# refused as "under development". Python onnxruntime 1.32 accepts both, so a model can load in
# Python and still fail in the browser.
ORT_WEB_VERSION = "1.30.0"
ORT_WEB_MAX_IR = 13
ORT_WEB_MAX_OPSET = 26

#: The fix a contributor needs when onnx.helper stamps its newest IR version and opset.
OLDER_STAMP_FIX = ("build it with onnx.helper.make_model(..., ir_version=10, "
                   "opset_imports=[onnx.helper.make_opsetid(\"\", 17)]), or convert an existing "
                   "file with onnx.version_converter.convert_version(model, 17) and set "
                   "model.ir_version = 10")

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
#: execution provider plus WASM (its .wasm is 26.8 MB); the WASM-only build is about half that.
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


#: Measured with onnxruntime-web 1.30: the WebGPU build has no ai.onnx.ml kernels ("No Op
#: registered for LinearClassifier"); only the WASM build runs them.
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


def browser_runtime(node_modules: Path | None = None) -> BrowserRuntime:
    """The installed onnxruntime-web's version, so the pages cannot drift from it."""
    folder = node_modules or find_node_modules()
    version = package_version(folder) if folder else None
    return BrowserRuntime(version=version or ORT_WEB_VERSION)


class _Tensor(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def elem_type(self) -> str: ...
    @property
    def is_tensor(self) -> bool: ...


def refusals(ir_version: int, opsets: Mapping[str, int], tensors: Iterable[_Tensor],
             function_domains: Iterable[str], runtime: BrowserRuntime) -> list[Finding]:
    """Why the shipped runtime would refuse this model; empty when it accepts it."""
    found: list[Finding] = []
    if ir_version > runtime.max_ir:
        found.append(Finding("refusal", f"IR version {ir_version} is newer than the "
                             f"{runtime.max_ir} that {runtime.name} reads", OLDER_STAMP_FIX))
    opset = opsets.get("ai.onnx")
    if opset is not None and opset > runtime.max_opset:
        found.append(Finding("refusal", f"ai.onnx opset {opset} is newer than the "
                             f"{runtime.max_opset} that {runtime.name} accepts", OLDER_STAMP_FIX))
    local = set(function_domains)
    for domain in opsets:
        if domain not in RUNTIME_DOMAINS and domain not in local:
            found.append(Finding("refusal", f"operators of domain '{domain}' need a custom-op "
                                 "library, which onnxruntime-web cannot load"))
    for tensor in tensors:
        if not tensor.is_tensor or not is_web_type(tensor.elem_type):
            fix = ("convert skl2onnx classifiers with ZipMap disabled (options={id(model): "
                   "{'zipmap': False}})") if "map<" in tensor.elem_type else ""
            found.append(Finding("refusal", f"'{tensor.name}' is a {tensor.elem_type}, which "
                                 "onnxruntime-web cannot pass in or out", fix))
    return found


def acceptance(ir_version: int, opsets: Mapping[str, int], runtime: BrowserRuntime) -> str:
    """Why the runtime accepts the model, e.g. ``IR 8 ≤ 13 and ai.onnx opset 17 ≤ 26``."""
    text = f"IR {ir_version} ≤ {runtime.max_ir}"
    opset = opsets.get("ai.onnx")
    if opset is not None:
        text += f" and ai.onnx opset {opset} ≤ {runtime.max_opset}"
    return text


# From ONNX Runtime's compatibility table (onnxruntime.ai/docs/reference/compatibility.html,
# which ends at 1.20): the first release implementing each ai.onnx opset, with its ai.onnx.ml
# opset and IR version. Releases that added nothing are left out.
ORT_COMPATIBILITY: tuple[tuple[str, int, int, int], ...] = (
    # (release, ai.onnx opset, ai.onnx.ml opset, IR version)
    ("0.1", 8, 1, 3),
    ("0.3", 9, 1, 3),
    ("0.4", 10, 1, 5),
    ("1.0", 11, 2, 6),
    ("1.3", 12, 2, 7),
    ("1.6", 13, 2, 7),
    ("1.8", 14, 2, 7),
    ("1.9", 15, 2, 8),
    ("1.11", 16, 2, 8),
    ("1.12", 17, 3, 8),
    ("1.14", 18, 3, 8),
    ("1.15", 19, 3, 8),
    ("1.16", 19, 3, 9),
    ("1.17", 20, 4, 9),
    ("1.18", 21, 4, 10),
)
ORT_COMPATIBILITY_LAST = "1.20"  # last release in the table (same opsets as 1.18)


def earliest_ort(opsets: Mapping[str, int], ir_version: int) -> str:
    """The first ONNX Runtime release implementing the model's opsets and IR version."""
    opset = opsets.get("ai.onnx", 0)
    ml_opset = opsets.get("ai.onnx.ml", 0)
    for release, max_opset, max_ml, max_ir in ORT_COMPATIBILITY:
        if opset <= max_opset and ml_opset <= max_ml and ir_version <= max_ir:
            return release
    _, last_opset, last_ml, last_ir = ORT_COMPATIBILITY[-1]
    last = ORT_COMPATIBILITY_LAST
    return (
        f"newer than {last} (the compatibility table ends at {last}: ai.onnx opset "
        f"{last_opset}, ai.onnx.ml {last_ml}, IR {last_ir})"
    )
