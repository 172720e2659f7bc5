"""What a model page states about one ``.onnx`` file: plain, frozen, JSON-serialisable values.

Made by :mod:`.model_analysis`; cached on disk as JSON (:func:`to_json_dict` and
:func:`from_json_dict`, the standard library's ``dataclasses`` doing the work). Pure: no onnx,
no MkDocs.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..browser.runtime import ORT_WEB_VERSION
from ..common.problems import Finding, Severity


@dataclass(frozen=True)
class TensorInfo:
    """A graph input or output.

    ``elem_type`` is the onnxruntime-web type string ("float32", "int64", ...) for tensors,
    or a description ("sequence<map<int64,float32>>") with ``is_tensor=False``. ``shape`` items
    are int (fixed), str (symbolic dim name) or None (unnamed, unknown); ``shape`` itself is
    None when even the rank is unknown.
    """

    name: str
    elem_type: str
    shape: tuple[int | str | None, ...] | None
    is_tensor: bool = True


@dataclass(frozen=True)
class DynamicAxis:
    """A free axis: "batch (axis 0 of input 'input') is free"."""

    tensor: str
    axis: int
    dim: str | None  # the symbolic name, None when the exporter left it unnamed
    role: str  # "input" or "output"


@dataclass(frozen=True, order=True)
class OperatorUse:
    """One operator type used by the model (subgraphs and local functions included)."""

    domain: str  # "ai.onnx" for the default domain
    op_type: str
    count: int
    since_version: int | None  # of the schema in force at the model's opset
    spec_url: str | None
    webgpu: bool | None  # every use placed on WebGPU (measured); False: none; None: see below
    # The measured table's word on it (browser/webgpu_kernels.py): yes, no, partly, not
    # measured, not applicable; for "partly", the input element types that run on WebAssembly.
    webgpu_status: str = "not applicable"
    webgpu_on_wasm: tuple[str, ...] = ()


@dataclass(frozen=True)
class MeasuredPlacement:
    """Where onnxruntime-web's WebGPU build put this very file's nodes, measured in Chromium
    with a software adapter (browser/webgpu_kernels.py), after its graph optimisation."""

    providers: dict[str, int]  # execution provider -> its number of nodes
    on_wasm: dict[str, int]  # op type -> its nodes on WebAssembly, as the log lists them
    error: str = ""  # why the WebGPU build could not create a session at all
    listed: bool = False  # the log listed every node (it does when they are split)


@dataclass(frozen=True)
class IndexRange:
    """Valid values of an integer input that indexes a table (``Gather`` on an initializer)."""

    input: str
    low: int
    high: int  # exclusive


@dataclass(frozen=True)
class ModelFacts:
    """Everything a model page states about one ``.onnx`` file."""

    name: str
    file_size: int
    sha256: str
    ir_version: int
    producer_name: str
    producer_version: str
    model_version: int
    doc_string: str
    domain: str
    opsets: dict[str, int]
    inputs: tuple[TensorInfo, ...]
    outputs: tuple[TensorInfo, ...]
    dynamic_axes: tuple[DynamicAxis, ...]
    parameter_count: int
    weight_bytes: int
    node_count: int
    metadata: dict[str, str]
    operators: tuple[OperatorUse, ...]
    external_data: bool
    findings: tuple[Finding, ...]
    acceptance: str  # why the shipped runtime accepts it ("IR 8 ≤ 13 and ..."), if it does
    earliest_ort: str
    shape_inference_ok: bool
    ort_web_version: str = ORT_WEB_VERSION
    index_ranges: tuple[IndexRange, ...] = ()
    webgpu_placement: MeasuredPlacement | None = None

    @property
    def runs_in_browser(self) -> bool:
        return not any(f.severity == "refusal" for f in self.findings)

    @property
    def refusals(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "refusal")


def verdict(findings: tuple[Finding, ...] | list[Finding]) -> Severity | None:
    """The worst severity among the findings; None when there is nothing to say."""
    worst = None
    for finding in findings:
        if worst is None or _RANK[finding.severity] > _RANK[worst]:
            worst = finding.severity
    return worst


_RANK: dict[Severity, int] = {"note": 0, "warning": 1, "refusal": 2}


def to_json_dict(value: Any) -> dict[str, Any]:
    """A dataclass as JSON-ready data (tuples become lists when dumped)."""
    return dataclasses.asdict(value)


T = TypeVar("T")


def from_json_dict(cls: type[T], data: Mapping[str, Any]) -> T:
    """The inverse of :func:`to_json_dict`, guided by the dataclass's type hints."""
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    return cls(**{f.name: _convert(hints[f.name], data[f.name]) for f in fields if f.name in data})


def _convert(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return from_json_dict(hint, value)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _convert(next(a for a in args if a is not type(None)), value)
    if origin is tuple:
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
        return tuple(_convert(item, v) for v in value)
    if origin is dict:
        return dict(value)
    return value
