"""Whether the shipped browser runtime accepts a model, decided once, as findings.

Everything a page or a build message says about "does this model run in onnxruntime-web" is
decided here, as :class:`~onnx_glossary.common.problems.Finding` values. Pure (standard library).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from ..browser.runtime import RUNTIME_DOMAINS, BrowserRuntime
from ..common.problems import Finding
from .element_types import is_web_type

#: The fix a contributor needs when onnx.helper stamps its newest IR version and opset.
OLDER_STAMP_FIX = ("build it with onnx.helper.make_model(..., ir_version=10, "
                   "opset_imports=[onnx.helper.make_opsetid(\"\", 17)]), or convert an existing "
                   "file with onnx.version_converter.convert_version(model, 17) and set "
                   "model.ir_version = 10")


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
