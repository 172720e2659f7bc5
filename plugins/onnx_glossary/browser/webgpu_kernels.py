"""Which operator uses the shipped WebGPU runtime places on WebGPU: the measured table.

``data/webgpu-kernels.json`` is written by ``scripts/webgpu_kernels.py``: in headless Chromium
with a software WebGPU adapter, onnxruntime-web/webgpu (the native WebGPU execution provider,
which the live examples load) creates a session for a one-node model of every distinct use of
an operator in the shipped models, and for each shipped model, and its own "Node placements"
log says where every node went. A use is the operator, the version of its definition in force
at the model's opset, and the element types of its inputs: int64 ``Cast`` runs on WebAssembly
where float32 ``Cast`` runs on WebGPU. The table is keyed by the runtime version it was
measured with: for any other version, and for any use it lacks, nothing is known.

Pure (standard library only).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

TABLE = Path(__file__).resolve().parent.parent / "data" / "webgpu-kernels.json"
#: onnxruntime-web's names of the two providers a live example can get.
WEBGPU_EP = "WebGpuExecutionProvider"
WASM_EP = "CPUExecutionProvider"

#: What a page says about one operator: "yes" (every use placed on WebGPU), "no" (none),
#: "partly" (some of its input types run on WebAssembly), "not measured" (for this runtime),
#: "not applicable" (a Constant, a local function, a custom domain: no kernel is involved).
Status = Literal["yes", "no", "partly", "not measured", "not applicable"]

# Domains onnxruntime(-web) ships kernels for (browser/runtime.py's RUNTIME_DOMAINS); an
# operator of any other domain needs a custom-op library, which the site never has.
_KERNEL_DOMAINS = frozenset({"ai.onnx", "ai.onnx.ml", "com.microsoft"})


def normalise_domain(domain: str) -> str:
    return "ai.onnx" if domain in ("", "ai.onnx") else domain


def op_key(domain: str, op_type: str, since: int | None) -> str:
    """The key of an operator's definition: ``ai.onnx/Resize@13``."""
    return f"{normalise_domain(domain)}/{op_type}@{since}"


def use_key(domain: str, op_type: str, since: int | None, input_types: Iterable[str]) -> str:
    """The table's key of one use: ``ai.onnx/Resize@13(float32,,,int64)``, "" where an optional
    input is left out."""
    return f"{op_key(domain, op_type, since)}({','.join(input_types)})"


@dataclass(frozen=True)
class WebGpuKernels:
    """The measured table, for the onnxruntime-web version it was measured with."""

    version: str  # the onnxruntime-web version measured; "" when there is no table
    uses: Mapping[str, bool] = field(default_factory=dict)  # use key -> placed on WebGPU
    models: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # sha256 -> placement
    measured_with: Mapping[str, Any] = field(default_factory=dict)
    digest: str = ""  # of the table file, for the analysis cache's key

    def status(self, runtime_version: str, domain: str, op_type: str, since: int | None,
               input_types: Iterable[tuple[str, ...]]) -> tuple[Status, tuple[str, ...]]:
        """What the table says about an operator's uses in one model, and the element types (of
        the first input) of the uses that run on WebAssembly."""
        domain = normalise_domain(domain)
        if op_type == "Constant" or domain not in _KERNEL_DOMAINS:
            return "not applicable", ()
        if runtime_version != self.version or since is None:
            return "not measured", ()
        found = {types: self.uses.get(use_key(domain, op_type, since, types))
                 for types in input_types}
        if not found or None in found.values():
            return "not measured", ()
        on_wasm = tuple(sorted({types[0] if types else "" for types, on in found.items() if not on}))
        if not on_wasm:
            return "yes", ()
        return ("no" if not any(found.values()) else "partly"), on_wasm

    def model(self, runtime_version: str, sha256: str) -> Mapping[str, Any] | None:
        """The measured placement of the shipped model with this content, if it was measured."""
        return self.models.get(sha256) if runtime_version == self.version else None

    def basis(self, runtime_version: str) -> str:
        """One sentence: what the WebGPU column is based on."""
        if runtime_version != self.version:
            return (f"The WebGPU column is not measured for onnxruntime-web {runtime_version}: "
                    f"the site's table of WebGPU kernels was measured with "
                    f"{'onnxruntime-web ' + self.version if self.version else 'no runtime'} "
                    "(scripts/webgpu_kernels.py measures it again).")
        measured = self.measured_with
        return (f"The WebGPU column is measured, not read from a list: for each use of an operator "
                f"(its type, version and input element types), a one-node model was loaded by "
                f"onnxruntime-web {self.version}'s WebGPU build in {measured.get('browser', 'Chromium')} "
                f"with a software WebGPU adapter, and the runtime's own log said where the node went.")


def load_webgpu_kernels(path: Path = TABLE) -> WebGpuKernels:
    """The committed table; an absent file is an empty table (every operator "not measured")."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return WebGpuKernels(version="")
    table = json.loads(data)
    uses = {key: bool(entry["webgpu"]) for key, entry in table["ops"].items()}
    models = {entry["sha256"]: {"name": name, **entry} for name, entry in table["models"].items()}
    return WebGpuKernels(version=str(table["onnxruntime-web"]), uses=uses, models=models,
                         measured_with=table.get("measured_with", {}),
                         digest=hashlib.sha256(data).hexdigest())
