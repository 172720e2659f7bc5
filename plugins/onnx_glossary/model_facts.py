"""`.onnx` file -> `ModelFacts`: a plain, JSON-serialisable summary for model pages.

Pure (onnx + the standard library, no MkDocs), so a CLI, a notebook or a test can use it.
Unusable files raise `ModelError` with one line a person can act on; a model that loads
but that the shipped browser runtime refuses is *not* an error: it is analysed and flagged
(`runs_in_browser=False`), because the page about it is still worth building.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import onnx
from google.protobuf.message import DecodeError
from onnx import AttributeProto, GraphProto, ModelProto, TensorProto, TypeProto

from .webgpu_ops import WebGpuSupport, normalise_domain, package_version

# The browser runtime the site ships. The limits were measured on 1.30.0 (PLATFORM.md):
# it refuses IR 14 ("max supported IR version: 13") and ai.onnx opset 27.
ORT_WEB_VERSION = "1.30.0"
ORT_WEB_MAX_IR = 13
ORT_WEB_MAX_OPSET = 26

DEFAULT_SIZE_BUDGET = 50_000_000

# Element types an onnxruntime-web Tensor can hold, by their ort-web type string.
_ELEM_TYPES: dict[int, str] = {
    TensorProto.FLOAT: "float32",
    TensorProto.FLOAT16: "float16",
    TensorProto.DOUBLE: "float64",
    TensorProto.INT8: "int8",
    TensorProto.UINT8: "uint8",
    TensorProto.INT16: "int16",
    TensorProto.UINT16: "uint16",
    TensorProto.INT32: "int32",
    TensorProto.UINT32: "uint32",
    TensorProto.INT64: "int64",
    TensorProto.UINT64: "uint64",
    TensorProto.BOOL: "bool",
    TensorProto.STRING: "string",
    TensorProto.INT4: "int4",
    TensorProto.UINT4: "uint4",
}

# From ONNX Runtime's compatibility table (docs/reference/compatibility.md, which ends at
# 1.20): the first release implementing each ai.onnx opset, with its ai.onnx.ml opset and
# IR version. Releases that added nothing are left out.
ORT_COMPATIBILITY_SOURCE = "https://onnxruntime.ai/docs/reference/compatibility.html"
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
# Domains onnxruntime(-web) ships kernels for; anything else needs a custom-op library.
_RUNTIME_DOMAINS = frozenset({"ai.onnx", "ai.onnx.ml", "com.microsoft"})
# Spec pages on onnx.ai, per domain (URL scheme checked against onnx.ai/onnx/operators/).
_SPEC_URL = {
    "ai.onnx": "https://onnx.ai/onnx/operators/onnx__{op}.html",
    "ai.onnx.ml": "https://onnx.ai/onnx/operators/onnx_aionnxml_{op}.html",
}


class ModelError(ValueError):
    """The file cannot be used as a model; the message names it and says what to do."""


@dataclass(frozen=True)
class BrowserRuntime:
    """The onnxruntime-web build the site ships, and what it accepts."""

    version: str = ORT_WEB_VERSION
    max_ir: int = ORT_WEB_MAX_IR
    max_opset: int = ORT_WEB_MAX_OPSET


def find_node_modules(start: Path | None = None) -> Path | None:
    """The nearest `node_modules` holding onnxruntime-web, searching upwards."""
    starts = [start] if start else [Path.cwd(), Path(__file__).resolve().parent]
    for base in starts:
        for folder in (base, *base.parents):
            candidate = folder / "node_modules"
            if (candidate / "onnxruntime-web" / "package.json").is_file():
                return candidate
    return None


def browser_runtime(node_modules: Path | None = None) -> BrowserRuntime:
    """Read the installed onnxruntime-web version so the pages cannot drift from it."""
    folder = node_modules or find_node_modules()
    version = package_version(folder) if folder else None
    return BrowserRuntime(version=version or ORT_WEB_VERSION)


@dataclass(frozen=True)
class TensorInfo:
    """A graph input or output.

    `elem_type` is the onnxruntime-web type string ("float32", "int64", ...) for tensors,
    or a description ("sequence<map<int64,float32>>") with `is_tensor=False`. `shape` items
    are int (fixed), str (symbolic dim name) or None (unnamed, unknown); `shape` itself is
    None when even the rank is unknown.
    """

    name: str
    elem_type: str
    shape: tuple[int | str | None, ...] | None
    is_tensor: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "elem_type": self.elem_type,
            "shape": None if self.shape is None else list(self.shape),
            "is_tensor": self.is_tensor,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TensorInfo:
        shape = data["shape"]
        return cls(data["name"], data["elem_type"], None if shape is None else tuple(shape),
                   data["is_tensor"])


@dataclass(frozen=True)
class DynamicAxis:
    """A free axis: "batch (axis 0 of input 'input') is free"."""

    tensor: str
    axis: int
    dim: str | None  # the symbolic name, None when the exporter left it unnamed
    role: str  # "input" or "output"

    def to_dict(self) -> dict[str, Any]:
        return {"tensor": self.tensor, "axis": self.axis, "dim": self.dim, "role": self.role}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DynamicAxis:
        return cls(data["tensor"], data["axis"], data["dim"], data["role"])


@dataclass(frozen=True, order=True)
class OperatorUse:
    """One operator type used by the model (subgraphs and local functions included)."""

    domain: str  # "ai.onnx" for the default domain
    op_type: str
    count: int
    since_version: int | None  # of the schema in force at the model's opset
    spec_url: str | None
    webgpu: bool | None  # a WebGPU kernel exists at that version; None: cannot tell

    def to_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "op_type": self.op_type,
            "count": self.count,
            "since_version": self.since_version,
            "spec_url": self.spec_url,
            "webgpu": self.webgpu,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OperatorUse:
        return cls(**{key: data[key] for key in cls.__dataclass_fields__})


@dataclass(frozen=True)
class ModelFacts:
    """Everything a model page states about one `.onnx` file."""

    name: str
    path: str
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
    warnings: tuple[str, ...]
    runs_in_browser: bool
    browser_reason: str
    earliest_ort: str
    shape_inference_ok: bool
    ort_web_version: str = ORT_WEB_VERSION
    webgpu_source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-native (lists, str, int, bool, None) so it can be cached on disk."""
        data: dict[str, Any] = {}
        for key in self.__dataclass_fields__:
            value = getattr(self, key)
            if key in ("inputs", "outputs", "dynamic_axes", "operators"):
                value = [item.to_dict() for item in value]
            elif key == "warnings":
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            data[key] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModelFacts:
        values = dict(data)
        values["inputs"] = tuple(TensorInfo.from_dict(item) for item in data["inputs"])
        values["outputs"] = tuple(TensorInfo.from_dict(item) for item in data["outputs"])
        values["dynamic_axes"] = tuple(DynamicAxis.from_dict(i) for i in data["dynamic_axes"])
        values["operators"] = tuple(OperatorUse.from_dict(item) for item in data["operators"])
        values["warnings"] = tuple(data["warnings"])
        return cls(**values)


def analyse_model(
    path: Path,
    *,
    size_budget_bytes: int = DEFAULT_SIZE_BUDGET,
    webgpu: WebGpuSupport | None = None,
    runtime: BrowserRuntime | None = None,
    name: str | None = None,
) -> ModelFacts:
    """Analyse one model file. `name` defaults to the folder name (models/<name>/model.onnx).

    Raises ModelError for files that are not usable models (see the module docstring).
    """
    path = Path(path)
    runtime = runtime or browser_runtime()
    data = _read_bounded(path, size_budget_bytes)
    model = _parse(path, data)
    warnings: list[str] = []

    external_files = _check_external_data(path, model)
    total = len(data) + sum(f.stat().st_size for f in external_files)
    if total > size_budget_bytes:
        raise ModelError(
            f"{path}: model and external data take {total:,} bytes, over the size budget of "
            f"{size_budget_bytes:,}; use a smaller model or raise the budget"
        )
    if external_files:
        names = ", ".join(sorted(f.name for f in external_files))
        warnings.append(
            f"Stored with external data ({names}): onnxruntime-web needs the session option "
            "externalData listing each file, or it fails to create the session"
        )

    _check(path, model, warnings)
    opsets = _opsets(model.opset_import, warnings)
    inferred, shape_inference_ok = _infer_shapes(model, warnings)

    initializer_names = {t.name for t in model.graph.initializer}
    # IR 3 exporters also list initializers as graph inputs; those are weights, not inputs.
    inputs = tuple(
        _tensor_info(value.name, value.type)
        for value in model.graph.input
        if value.name not in initializer_names
    )
    outputs = tuple(
        _tensor_info(value.name, _best_type(value.type, inferred.get(value.name)))
        for value in model.graph.output
    )
    _describe_io(inputs, outputs, warnings)

    local_functions = {(normalise_domain(f.domain), f.name) for f in model.functions}
    op_counts, node_count = _count_operators(model, opsets)
    operators = tuple(
        sorted(
            (_operator_use(key, count, opsets, webgpu, local_functions)
             for key, count in op_counts.items()),
            key=lambda op: (op.domain != "ai.onnx", op.domain, op.op_type),
        )
    )
    parameter_count, weight_bytes = _weights(model)
    runs, reason = _browser_verdict(model.ir_version, opsets, inputs, outputs, local_functions,
                                    runtime)
    if opsets.get("ai.onnx", 7) < 7:
        warnings.append(
            f"ai.onnx opset {opsets['ai.onnx']} is older than 7, the oldest that ONNX Runtime "
            "supports; convert it with onnx.version_converter"
        )

    return ModelFacts(
        name=name or path.parent.name,
        path=str(path),
        file_size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        ir_version=model.ir_version,
        producer_name=model.producer_name,
        producer_version=model.producer_version,
        model_version=model.model_version,
        doc_string=model.doc_string,
        domain=model.domain,
        opsets=opsets,
        inputs=inputs,
        outputs=outputs,
        dynamic_axes=_dynamic_axes(inputs, outputs),
        parameter_count=parameter_count,
        weight_bytes=weight_bytes,
        node_count=node_count,
        metadata={prop.key: prop.value for prop in model.metadata_props},
        operators=operators,
        external_data=bool(external_files),
        warnings=tuple(warnings),
        runs_in_browser=runs,
        browser_reason=reason,
        earliest_ort=earliest_ort(opsets, model.ir_version),
        shape_inference_ok=shape_inference_ok,
        ort_web_version=runtime.version,
        webgpu_source=webgpu.source if webgpu else None,
    )


# -- loading and validation -------------------------------------------------------------


def _read_bounded(path: Path, budget: int) -> bytes:
    if not path.is_file():
        raise ModelError(f"{path}: file not found; run `make models` or fix the path")
    size = path.stat().st_size
    if size == 0:
        raise ModelError(f"{path}: file is empty (0 bytes); re-export the model")
    if size > budget:
        raise ModelError(
            f"{path}: {size:,} bytes, over the size budget of {budget:,}; "
            "use a smaller model or raise the budget"
        )
    return path.read_bytes()


def _parse(path: Path, data: bytes) -> ModelProto:
    if data.startswith(b"version https://git-lfs"):
        raise ModelError(f"{path}: is a Git LFS pointer, not the model; run `git lfs pull`")
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except DecodeError as error:
        raise ModelError(
            f"{path}: not a readable ONNX file ({error}); it is truncated or not a model, "
            "re-export it"
        ) from None
    # Protobuf parses many byte strings "successfully" into unknown fields, and other ONNX
    # messages (a TensorProto .pb, a GraphProto) reuse field numbers; a real model has all of:
    problems = []
    if not model.HasField("graph"):
        problems.append("no graph")
    if not model.opset_import:
        problems.append("no opset_import")
    if not 1 <= model.ir_version <= 100:
        problems.append(f"ir_version {model.ir_version}")
    if problems:
        raise ModelError(
            f"{path}: parses as protobuf but is not an ONNX model ({', '.join(problems)}); "
            "is it a tensor (.pb) or a graph file? Point to the model.onnx instead"
        )
    return model


def _iter_graphs(graph: GraphProto) -> Iterator[GraphProto]:
    """The graph and every subgraph (If/Loop/Scan bodies), depth first."""
    yield graph
    for node in graph.node:
        yield from _node_subgraphs(node)


def _node_subgraphs(node: onnx.NodeProto) -> Iterator[GraphProto]:
    for attribute in node.attribute:
        if attribute.type == AttributeProto.GRAPH:
            yield from _iter_graphs(attribute.g)
        elif attribute.type == AttributeProto.GRAPHS:
            for graph in attribute.graphs:
                yield from _iter_graphs(graph)


def _all_graphs(model: ModelProto) -> Iterator[GraphProto]:
    yield from _iter_graphs(model.graph)
    for function in model.functions:
        for node in function.node:
            yield from _node_subgraphs(node)


def _all_tensors(model: ModelProto) -> Iterator[TensorProto]:
    """Initializers and Constant-node tensors anywhere; any of them may be external."""
    for graph in _all_graphs(model):
        yield from graph.initializer
        yield from (sparse.values for sparse in graph.sparse_initializer)
        for node in graph.node:
            for attribute in node.attribute:
                if attribute.type == AttributeProto.TENSOR:
                    yield attribute.t


def _check_external_data(path: Path, model: ModelProto) -> list[Path]:
    """Every external-data file exists, stays next to the model and is long enough."""
    folder = path.parent.resolve()
    files: dict[Path, None] = {}
    for tensor in _all_tensors(model):
        if tensor.data_location != TensorProto.EXTERNAL:
            continue
        info = {entry.key: entry.value for entry in tensor.external_data}
        location = info.get("location", "")
        target = (folder / location).resolve()
        if not location or Path(location).is_absolute() or folder not in target.parents:
            raise ModelError(
                f"{path}: tensor '{tensor.name}' points to external data '{location}' outside "
                "the model's folder; re-save the model with its data file next to it"
            )
        if not target.is_file():
            raise ModelError(
                f"{path}: tensor '{tensor.name}' keeps its data in '{location}', which is "
                "missing; copy that file next to the model or re-export it as a single file"
            )
        needed = int(info.get("offset", 0)) + int(info.get("length", 0) or _nbytes(tensor))
        if target.stat().st_size < needed:
            raise ModelError(
                f"{path}: external data file '{location}' is shorter than tensor "
                f"'{tensor.name}' needs ({needed:,} bytes); it is truncated, re-export the model"
            )
        files[target] = None
    return list(files)


def _check(path: Path, model: ModelProto, warnings: list[str]) -> None:
    if model.ir_version > onnx.IR_VERSION:
        # This onnx package cannot judge a newer format; say so instead of failing the page.
        warnings.append(
            f"Not checked: IR version {model.ir_version} is newer than the {onnx.IR_VERSION} "
            f"that onnx {onnx.__version__} knows"
        )
        return
    try:
        # Given the path, the checker also resolves external data next to the file. The
        # shape-inference part of full_check is run separately so that it only warns.
        onnx.checker.check_model(str(path), full_check=False)
    except onnx.checker.ValidationError as error:
        raise ModelError(
            f"{path}: fails the ONNX checker: {_one_line(error)}; fix the exporter or re-export"
        ) from None


def _one_line(error: Exception, limit: int = 300) -> str:
    """The checker's message, which spans lines mid-sentence, as one capped line."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _opsets(imports: Any, warnings: list[str]) -> dict[str, int]:
    opsets: dict[str, int] = {}
    for entry in imports:
        domain = normalise_domain(entry.domain)
        if domain in opsets and opsets[domain] != entry.version:
            warnings.append(
                f"opset_import lists {domain} twice ({opsets[domain]} and {entry.version}); "
                "runtimes may pick either"
            )
        opsets[domain] = max(entry.version, opsets.get(domain, 0))
    return dict(sorted(opsets.items(), key=lambda item: (item[0] != "ai.onnx", item[0])))


def _infer_shapes(model: ModelProto, warnings: list[str]) -> tuple[dict[str, TypeProto], bool]:
    """Strict shape inference; failure is a warning (the model may still run)."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError) as error:
        warnings.append(f"Shape inference failed: {_one_line(error)}")
        return {}, False
    return {value.name: value.type for value in inferred.graph.output}, True


def _best_type(declared: TypeProto, inferred: TypeProto | None) -> TypeProto:
    """Prefer the declared type, but fill in a shape the exporter left out."""
    if (
        inferred is not None
        and declared.WhichOneof("value") == "tensor_type"
        and not declared.tensor_type.HasField("shape")
        and inferred.tensor_type.HasField("shape")
    ):
        return inferred
    return declared


# -- describing types and shapes --------------------------------------------------------


def elem_type_name(elem_type: int) -> str:
    if elem_type in _ELEM_TYPES:
        return _ELEM_TYPES[elem_type]
    try:
        return TensorProto.DataType.Name(elem_type).lower()
    except ValueError:
        return f"unknown({elem_type})"


def _describe_type(type_proto: TypeProto) -> str:
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        return elem_type_name(type_proto.tensor_type.elem_type)
    if kind == "sequence_type":
        return f"sequence<{_describe_type(type_proto.sequence_type.elem_type)}>"
    if kind == "map_type":
        key = elem_type_name(type_proto.map_type.key_type)
        return f"map<{key},{_describe_type(type_proto.map_type.value_type)}>"
    if kind == "optional_type":
        return f"optional<{_describe_type(type_proto.optional_type.elem_type)}>"
    if kind == "sparse_tensor_type":
        return f"sparse_tensor<{elem_type_name(type_proto.sparse_tensor_type.elem_type)}>"
    return "unknown"


def _tensor_info(name: str, type_proto: TypeProto) -> TensorInfo:
    if type_proto.WhichOneof("value") != "tensor_type":
        return TensorInfo(name, _describe_type(type_proto), None, is_tensor=False)
    tensor_type = type_proto.tensor_type
    shape: tuple[int | str | None, ...] | None = None
    if tensor_type.HasField("shape"):
        shape = tuple(
            dim.dim_value if dim.HasField("dim_value")
            else dim.dim_param if dim.HasField("dim_param") and dim.dim_param
            else None
            for dim in tensor_type.shape.dim
        )
    return TensorInfo(name, elem_type_name(tensor_type.elem_type), shape)


def _describe_io(
    inputs: tuple[TensorInfo, ...], outputs: tuple[TensorInfo, ...], warnings: list[str]
) -> None:
    for role, tensors in (("Input", inputs), ("Output", outputs)):
        for tensor in tensors:
            if not tensor.is_tensor:
                hint = " (convert skl2onnx classifiers with zipmap disabled)" if (
                    "map<" in tensor.elem_type) else ""
                warnings.append(
                    f"{role} '{tensor.name}' is a {tensor.elem_type}, not a tensor: "
                    f"onnxruntime-web cannot {'read' if role == 'Output' else 'feed'} it{hint}"
                )
            elif tensor.elem_type not in _ELEM_TYPES.values():
                warnings.append(
                    f"{role} '{tensor.name}' has element type {tensor.elem_type}, which "
                    "onnxruntime-web tensors cannot hold"
                )
    for tensor in inputs:
        if tensor.shape is None or not tensor.is_tensor:
            continue
        if tensor.shape and all(isinstance(dim, int) for dim in tensor.shape):
            warnings.append(
                f"Input '{tensor.name}' has a fixed shape {list(tensor.shape)}: "
                "the model refuses any other size"
            )
        for axis, dim in enumerate(tensor.shape):
            if dim is None:
                warnings.append(
                    f"Input '{tensor.name}' axis {axis} is free but unnamed: "
                    "freeDimensionOverrides cannot pin it"
                )


def _dynamic_axes(
    inputs: tuple[TensorInfo, ...], outputs: tuple[TensorInfo, ...]
) -> tuple[DynamicAxis, ...]:
    axes = []
    for role, tensors in (("input", inputs), ("output", outputs)):
        for tensor in tensors:
            for axis, dim in enumerate(tensor.shape or ()):
                if not isinstance(dim, int):
                    axes.append(DynamicAxis(tensor.name, axis, dim, role))
    return tuple(axes)


# -- operators and weights --------------------------------------------------------------


def _count_operators(
    model: ModelProto, opsets: Mapping[str, int]
) -> tuple[Counter[tuple[str, str, int | None]], int]:
    """Count (domain, op_type, opset) over the graph, its subgraphs and local functions."""
    counts: Counter[tuple[str, str, int | None]] = Counter()
    nodes = 0

    def count_graph(graph: GraphProto, versions: Mapping[str, int]) -> None:
        nonlocal nodes
        for sub in _iter_graphs(graph):
            for node in sub.node:
                domain = normalise_domain(node.domain)
                counts[(domain, node.op_type, versions.get(domain))] += 1
                nodes += 1

    count_graph(model.graph, opsets)
    for function in model.functions:
        versions = {**opsets, **{normalise_domain(o.domain): o.version
                                 for o in function.opset_import}}
        body = GraphProto(node=function.node)
        count_graph(body, versions)
    return counts, nodes


def _operator_use(
    key: tuple[str, str, int | None],
    count: int,
    opsets: Mapping[str, int],
    webgpu: WebGpuSupport | None,
    local_functions: set[tuple[str, str]],
) -> OperatorUse:
    domain, op_type, opset = key
    since: int | None = None
    if opset is not None and (domain, op_type) not in local_functions:
        try:
            schema = onnx.defs.get_schema(op_type, opset, "" if domain == "ai.onnx" else domain)
            since = schema.since_version
        except onnx.defs.SchemaError:
            since = None
    url_pattern = _SPEC_URL.get(domain)
    spec_url = url_pattern.format(op=op_type) if url_pattern and since is not None else None
    supported: bool | None = None
    # Constant nodes become initializers when the session loads: nothing runs, so no
    # kernel is needed and "no WebGPU kernel" would mislead.
    if webgpu is not None and (domain, op_type) not in local_functions and op_type != "Constant":
        version = since if since is not None else opset
        supported = webgpu.supports(domain, op_type, version) if version is not None else None
    return OperatorUse(domain, op_type, count, since, spec_url, supported)


def _nbytes(tensor: TensorProto) -> int:
    """Stored size of a tensor's data, without loading external data."""
    if tensor.data_location == TensorProto.EXTERNAL:
        info = {entry.key: entry.value for entry in tensor.external_data}
        if info.get("length"):
            return int(info["length"])
    elif tensor.HasField("raw_data"):
        return len(tensor.raw_data)
    if tensor.data_type == TensorProto.STRING:
        return sum(len(item) for item in tensor.string_data)
    count = math.prod(tensor.dims)
    if tensor.data_type in (TensorProto.INT4, TensorProto.UINT4, TensorProto.FLOAT4E2M1):
        return (count + 1) // 2
    itemsize = onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type).itemsize
    return int(count * itemsize)


def _weights(model: ModelProto) -> tuple[int, int]:
    """(parameter count, bytes) over all initializers; Constant nodes are not parameters.

    ai.onnx.ml operators (LinearClassifier, TreeEnsemble...) keep their learned numbers in
    float-list attributes, not initializers; those count too, or a scikit-learn model
    would claim zero parameters.
    """
    parameters = 0
    size = 0
    for graph in _all_graphs(model):
        for node in graph.node:
            if node.domain != "ai.onnx.ml":
                continue
            for attribute in node.attribute:
                if attribute.type == AttributeProto.FLOATS:
                    parameters += len(attribute.floats)
                    size += 4 * len(attribute.floats)
        for tensor in graph.initializer:
            parameters += math.prod(tensor.dims)
            size += _nbytes(tensor)
        for sparse in graph.sparse_initializer:
            parameters += math.prod(sparse.values.dims)
            size += _nbytes(sparse.values) + _nbytes(sparse.indices)
    return parameters, size


# -- verdicts ---------------------------------------------------------------------------


def _browser_verdict(
    ir_version: int,
    opsets: Mapping[str, int],
    inputs: tuple[TensorInfo, ...],
    outputs: tuple[TensorInfo, ...],
    local_functions: set[tuple[str, str]],
    runtime: BrowserRuntime,
) -> tuple[bool, str]:
    name = f"onnxruntime-web {runtime.version}"
    problems = []
    if ir_version > runtime.max_ir:
        problems.append(
            f"IR version {ir_version} is newer than the {runtime.max_ir} that {name} reads"
        )
    opset = opsets.get("ai.onnx")
    if opset is not None and opset > runtime.max_opset:
        problems.append(
            f"ai.onnx opset {opset} is newer than the {runtime.max_opset} that {name} accepts"
        )
    function_domains = {domain for domain, _ in local_functions}
    for domain in opsets:
        if domain not in _RUNTIME_DOMAINS and domain not in function_domains:
            problems.append(f"operators of domain '{domain}' need a custom-op library")
    for tensor in (*inputs, *outputs):
        if not tensor.is_tensor or tensor.elem_type not in _ELEM_TYPES.values():
            problems.append(f"'{tensor.name}' is a {tensor.elem_type}")
    if problems:
        return False, "no: " + "; ".join(problems)
    reason = f"yes: IR {ir_version} <= {runtime.max_ir}"
    if opset is not None:
        reason += f" and ai.onnx opset {opset} <= {runtime.max_opset}"
    return True, reason


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
