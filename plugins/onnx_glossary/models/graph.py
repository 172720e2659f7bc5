"""Walks over a model's graphs: operators used, weights held, tables indexed.

Part of the model analysis (:mod:`.model_analysis`); pure onnx, no MkDocs. Subgraphs (If, Loop,
Scan bodies) and local functions count everywhere.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping

import onnx
from onnx import AttributeProto, GraphProto, ModelProto, TensorProto, TypeProto

from ..browser.webgpu_kernels import WebGpuKernels, normalise_domain
from ..models.element_types import BY_ONNX
from ..models.facts import IndexRange, OperatorUse, TensorInfo

# Spec pages on onnx.ai, per domain (URL scheme checked against onnx.ai/onnx/operators/).
_SPEC_URL = {
    "ai.onnx": "https://onnx.ai/onnx/operators/onnx__{op}.html",
    "ai.onnx.ml": "https://onnx.ai/onnx/operators/onnx_aionnxml_{op}.html",
}


def iter_graphs(graph: GraphProto) -> Iterator[GraphProto]:
    """The graph and every subgraph (If/Loop/Scan bodies), depth first."""
    yield graph
    for node in graph.node:
        yield from _node_subgraphs(node)


def _node_subgraphs(node: onnx.NodeProto) -> Iterator[GraphProto]:
    for attribute in node.attribute:
        if attribute.type == AttributeProto.GRAPH:
            yield from iter_graphs(attribute.g)
        elif attribute.type == AttributeProto.GRAPHS:
            for graph in attribute.graphs:
                yield from iter_graphs(graph)


def all_graphs(model: ModelProto) -> Iterator[GraphProto]:
    yield from iter_graphs(model.graph)
    for function in model.functions:
        for node in function.node:
            yield from _node_subgraphs(node)


def all_tensors(model: ModelProto) -> Iterator[TensorProto]:
    """Initializers and Constant-node tensors anywhere; any of them may be external."""
    for graph in all_graphs(model):
        yield from graph.initializer
        yield from (sparse.values for sparse in graph.sparse_initializer)
        for node in graph.node:
            for attribute in node.attribute:
                if attribute.type == AttributeProto.TENSOR:
                    yield attribute.t



def count_operators(
    model: ModelProto, opsets: Mapping[str, int]
) -> tuple[Counter[tuple[str, str, int | None]], int]:
    """Count (domain, op_type, opset) over the graph, its subgraphs and local functions."""
    counts: Counter[tuple[str, str, int | None]] = Counter()
    nodes = 0

    def count_graph(graph: GraphProto, versions: Mapping[str, int]) -> None:
        nonlocal nodes
        for sub in iter_graphs(graph):
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


def element_types(model: ModelProto, inferred: Mapping[str, TypeProto]) -> dict[str, str]:
    """The element type of every value of the main graph that has one: initialisers, Constant
    nodes' outputs, and what the model declares or shape inference found (``inferred``)."""
    found = {name: _type_name(kind.tensor_type.elem_type) for name, kind in inferred.items()
             if kind.HasField("tensor_type") and kind.tensor_type.elem_type}
    for value in (*model.graph.input, *model.graph.value_info, *model.graph.output):
        if value.type.HasField("tensor_type") and value.type.tensor_type.elem_type:
            found.setdefault(value.name, _type_name(value.type.tensor_type.elem_type))
    for tensor in model.graph.initializer:
        found[tensor.name] = _type_name(tensor.data_type)
    for node in model.graph.node:
        if node.op_type == "Constant" and node.attribute and node.attribute[0].type == AttributeProto.TENSOR:
            found[node.output[0]] = _type_name(node.attribute[0].t.data_type)
    return found


def _type_name(elem_type: int) -> str:
    known = BY_ONNX.get(elem_type)
    return known.name if known else TensorProto.DataType.Name(elem_type).lower()


def input_types(node: onnx.NodeProto, types: Mapping[str, str]) -> tuple[str, ...]:
    """A node's input element types, "" for an optional input left out, "?" when unknown."""
    return tuple(types.get(value, "?") if value else "" for value in node.input)


def input_signatures(model: ModelProto,
                     types: Mapping[str, str]) -> dict[tuple[str, str], set[tuple[str, ...]]]:
    """Per (domain, op type): the input element types of each of its uses in the main graph;
    a use inside a subgraph or local function counts with unknown types."""
    found: dict[tuple[str, str], set[tuple[str, ...]]] = {}
    for node in model.graph.node:
        found.setdefault((normalise_domain(node.domain), node.op_type), set()).add(input_types(node, types))
    # Subgraphs (every level: _node_subgraphs recurses) and local functions: types unknown.
    nested = [sub for node in model.graph.node for sub in _node_subgraphs(node)]
    bodies = [GraphProto(node=function.node) for function in model.functions]
    for graph in (*nested, *(g for body in bodies for g in iter_graphs(body))):
        for node in graph.node:
            found.setdefault((normalise_domain(node.domain), node.op_type), set()).add(("?",))
    return found


def operator_use(
    key: tuple[str, str, int | None],
    count: int,
    opsets: Mapping[str, int],
    webgpu: WebGpuKernels | None,
    local_functions: set[tuple[str, str]],
    signatures: Mapping[tuple[str, str], set[tuple[str, ...]]] | None = None,
    runtime_version: str = "",
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
    # Constant nodes become initializers when the session loads: nothing runs, so no
    # kernel is needed and "no WebGPU kernel" would mislead (webgpu.status says so).
    status: str = "not applicable"
    on_wasm: tuple[str, ...] = ()
    if webgpu is not None and (domain, op_type) not in local_functions:
        uses = (signatures or {}).get((domain, op_type), set())
        status, on_wasm = webgpu.status(runtime_version, domain, op_type, since, sorted(uses))
    supported = {"yes": True, "no": False}.get(status)
    return OperatorUse(domain, op_type, count, since, spec_url, supported, status, on_wasm)


def nbytes(tensor: TensorProto) -> int:
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


def weights(model: ModelProto) -> tuple[int, int]:
    """(parameter count, bytes) over all initializers; Constant nodes are not parameters.

    ai.onnx.ml operators (LinearClassifier, TreeEnsemble...) keep their learned numbers in
    float-list attributes, not initializers; those count too, or a scikit-learn model
    would claim zero parameters.
    """
    parameters = 0
    size = 0
    for graph in all_graphs(model):
        for node in graph.node:
            if node.domain != "ai.onnx.ml":
                continue
            for attribute in node.attribute:
                if attribute.type == AttributeProto.FLOATS:
                    parameters += len(attribute.floats)
                    size += 4 * len(attribute.floats)
        for tensor in graph.initializer:
            parameters += math.prod(tensor.dims)
            size += nbytes(tensor)
        for sparse in graph.sparse_initializer:
            parameters += math.prod(sparse.values.dims)
            size += nbytes(sparse.values) + nbytes(sparse.indices)
    return parameters, size


def index_ranges(model: ModelProto, inputs: tuple[TensorInfo, ...]) -> tuple[IndexRange, ...]:
    """Integer inputs used as ``Gather`` indices into an initializer: their valid range.

    A live example feeding random integers would index out of range and onnxruntime would
    refuse the run; the graph itself says which values are valid.
    """
    tables = {t.name: tuple(t.dims) for t in model.graph.initializer}
    integer_inputs = {t.name for t in inputs if t.elem_type.startswith(("int", "uint"))}
    ranges: dict[str, int] = {}
    for node in model.graph.node:
        if node.op_type != "Gather" or normalise_domain(node.domain) != "ai.onnx":
            continue
        if len(node.input) < 2 or node.input[1] not in integer_inputs:
            continue
        dims = tables.get(node.input[0])
        axis = next((a.i for a in node.attribute if a.name == "axis"), 0)
        if not dims or not -len(dims) <= axis < len(dims):
            continue
        size = int(dims[axis])
        name = node.input[1]
        ranges[name] = min(size, ranges.get(name, size))
    return tuple(IndexRange(name, 0, size) for name, size in sorted(ranges.items()) if size > 0)
