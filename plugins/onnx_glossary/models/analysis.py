"""``.onnx`` file -> :class:`~.model_facts.ModelFacts`: the analysis behind a model page.

Pure (onnx and the standard library; no MkDocs), so a CLI, a notebook or a test can use it.
Unusable files raise :class:`ModelError` with one line a person can act on. A model that loads
but that the shipped browser runtime refuses is *not* an error: it is analysed and carries
"refusal" findings, because the page about it is still worth building.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import onnx
from google.protobuf.message import DecodeError
from onnx import ModelProto, TensorProto, TypeProto

from ..browser.runtime import BrowserRuntime, browser_runtime
from ..browser.webgpu_kernels import WASM_EP, WebGpuKernels, normalise_domain
from ..common.problems import Finding
from ..models.element_types import BY_ONNX
from ..models.facts import DynamicAxis, MeasuredPlacement, ModelFacts, TensorInfo
from ..models.graph import (
    all_tensors,
    count_operators,
    element_types,
    index_ranges,
    input_signatures,
    nbytes,
    operator_use,
    weights,
)
from .acceptance import acceptance, earliest_ort, refusals


class ModelError(ValueError):
    """The file cannot be used as a model; the message names it and says what to do."""


def analyse_model(
    path: Path,
    *,
    size_budget_bytes: int | None = None,
    webgpu: WebGpuKernels | None = None,
    runtime: BrowserRuntime | None = None,
    name: str | None = None,
) -> ModelFacts:
    """Analyse one model file. `name` defaults to the folder name (models/<name>/model.onnx);
    `size_budget_bytes` is the site's (Options.size_budget_bytes, where its one default
    lives); None checks no size, for a caller that chose the file itself.

    Raises ModelError for files that are not usable models (see the module docstring).
    """
    path = Path(path)
    runtime = runtime or browser_runtime()
    budget = size_budget_bytes if size_budget_bytes is not None else float("inf")
    data = _read_bounded(path, budget)
    model = _parse(path, data)
    findings: list[Finding] = []

    external_files = _check_external_data(path, model)
    total = len(data) + sum(f.stat().st_size for f in external_files)
    if total > budget:
        raise ModelError(
            f"{path}: model and external data take {total:,} bytes, over the size budget of "
            f"{size_budget_bytes:,}; use a smaller model or raise the budget"
        )
    if external_files:
        names = ", ".join(sorted(f.name for f in external_files))
        findings.append(Finding(
            "warning",
            f"Stored with external data ({names}): onnxruntime-web needs the session option "
            "externalData listing each file, and this site does not publish external data, so "
            "there is no live example",
            "save the model as one file (onnx.save_model(..., save_as_external_data=False))"))

    _check(path, model, findings)
    opsets = _opsets(model.opset_import, findings)
    inferred, shape_inference_ok = _infer_shapes(model, findings)

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
    _describe_io(inputs, outputs, findings)

    local_functions = {(normalise_domain(f.domain), f.name) for f in model.functions}
    op_counts, node_count = count_operators(model, opsets)
    signatures = input_signatures(model, element_types(model, inferred or _types_only(model)))
    operators = tuple(
        sorted(
            (operator_use(key, count, opsets, webgpu, local_functions, signatures, runtime.version)
             for key, count in op_counts.items()),
            key=lambda op: (op.domain != "ai.onnx", op.domain, op.op_type),
        )
    )
    parameter_count, weight_bytes = weights(model)
    refused = refusals(model.ir_version, opsets, (*inputs, *outputs),
                       {domain for domain, _ in local_functions}, runtime)
    if opsets.get("ai.onnx", 7) < 7:
        findings.append(Finding(
            "note", f"ai.onnx opset {opsets['ai.onnx']} is older than 7, the oldest in ONNX "
            "Runtime's compatibility table: it may load with a warning, or not at all",
            "convert it with onnx.version_converter.convert_version(model, 17)"))

    sha256 = hashlib.sha256(data).hexdigest()
    return ModelFacts(
        name=name or path.parent.name,
        file_size=len(data),
        sha256=sha256,
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
        findings=(*refused, *findings),
        acceptance="" if refused else acceptance(model.ir_version, opsets, runtime),
        earliest_ort=earliest_ort(opsets, model.ir_version),
        shape_inference_ok=shape_inference_ok,
        ort_web_version=runtime.version,
        index_ranges=index_ranges(model, inputs),
        webgpu_placement=_placement(webgpu.model(runtime.version, sha256)) if webgpu else None,
    )


def _placement(measured: Mapping[str, Any] | None) -> MeasuredPlacement | None:
    """The table's record of this very file, as facts."""
    if measured is None:
        return None
    return MeasuredPlacement(dict(measured.get("providers", {})),
                             dict(measured.get("op_types", {}).get(WASM_EP, {})),
                             str(measured.get("error", "")), bool(measured.get("listed")))


# -- loading and validation -------------------------------------------------------------


def _read_bounded(path: Path, budget: float) -> bytes:
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


def _check_external_data(path: Path, model: ModelProto) -> list[Path]:
    """Every external-data file exists, stays next to the model and is long enough."""
    folder = path.parent.resolve()
    files: dict[Path, None] = {}
    for tensor in all_tensors(model):
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
        needed = int(info.get("offset", 0)) + int(info.get("length", 0) or nbytes(tensor))
        if target.stat().st_size < needed:
            raise ModelError(
                f"{path}: external data file '{location}' is shorter than tensor "
                f"'{tensor.name}' needs ({needed:,} bytes); it is truncated, re-export the model"
            )
        files[target] = None
    return list(files)


def _check(path: Path, model: ModelProto, findings: list[Finding]) -> None:
    if model.ir_version > onnx.IR_VERSION:
        # This onnx package cannot judge a newer format; say so instead of failing the page.
        findings.append(Finding(
            "note", f"Not checked: IR version {model.ir_version} is newer than the "
            f"{onnx.IR_VERSION} that onnx {onnx.__version__} knows"))
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


def _opsets(imports: Iterable[onnx.OperatorSetIdProto], findings: list[Finding]) -> dict[str, int]:
    opsets: dict[str, int] = {}
    for entry in imports:
        domain = normalise_domain(entry.domain)
        if domain in opsets and opsets[domain] != entry.version:
            findings.append(Finding(
                "note", f"opset_import lists {domain} twice ({opsets[domain]} and "
                f"{entry.version}); runtimes may pick either", "keep one entry per domain"))
        opsets[domain] = max(entry.version, opsets.get(domain, 0))
    return dict(sorted(opsets.items(), key=lambda item: (item[0] != "ai.onnx", item[0])))


def _infer_shapes(model: ModelProto, findings: list[Finding]) -> tuple[dict[str, TypeProto], bool]:
    """Strict shape inference; failure is a warning (the model may still run)."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError) as error:
        findings.append(Finding("note", f"Shape inference failed: {_one_line(error)}"))
        return {}, False
    return {value.name: value.type for value in (
        *inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output)}, True


def _types_only(model: ModelProto) -> dict[str, TypeProto]:
    """When strict shape inference fails: the types the lenient one still finds."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        return {}
    return {value.name: value.type for value in inferred.graph.value_info}


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
    if elem_type in BY_ONNX:
        return BY_ONNX[elem_type].name
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
    inputs: tuple[TensorInfo, ...], outputs: tuple[TensorInfo, ...], findings: list[Finding]
) -> None:
    # Inputs and outputs the runtime cannot hold are refusals (runtime.refusals), said once.
    for tensor in inputs:
        if tensor.shape is None or not tensor.is_tensor:
            continue
        if tensor.shape and all(isinstance(dim, int) for dim in tensor.shape):
            findings.append(Finding(
                "note", f"Input '{tensor.name}' has a fixed shape {list(tensor.shape)}: "
                "it takes inputs of that size only"))
        for axis, dim in enumerate(tensor.shape):
            if dim is None:
                findings.append(Finding(
                    "note", f"Input '{tensor.name}' axis {axis} is free but unnamed: "
                    "freeDimensionOverrides cannot pin it", "name the axis when exporting "
                    "(dynamic_axes or dynamic_shapes in torch.onnx.export)"))


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
