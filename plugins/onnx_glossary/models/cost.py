"""How much arithmetic one run of a model takes: multiply-adds at the sample's sizes.

The live example's backend rule weighs this against the extra download of the WebGPU runtime
(a GPU can only win back its download on models with enough work per run). The size of every
tensor is read from one run of Python onnxruntime on the sample with every node's output made
a graph output (static shape inference loses sizes that a graph computes, as the text
detector's padding does). ``Conv``, ``ConvTranspose``, ``Gemm``, ``MatMul`` (and their integer
and fused forms) count their multiply-adds; every other operator is taken as free, which it
nearly is beside them. Pure: no MkDocs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from onnx import ModelProto, NodeProto, ValueInfoProto

_CONV = {"Conv", "ConvInteger", "QLinearConv", "FusedConv"}
_MATMUL = {"MatMul", "MatMulInteger", "QLinearMatMul", "FusedMatMul"}


def multiply_adds(model: ModelProto, feeds: Mapping[str, Any]) -> int:
    """Multiply-adds of one run of ``model`` on ``feeds`` (the sample's arrays)."""
    import onnxruntime

    exposed = ModelProto()
    exposed.CopyFrom(model)
    known = {o.name for o in exposed.graph.output}
    for node in exposed.graph.node:
        for name in node.output:
            if name and name not in known:
                exposed.graph.output.append(ValueInfoProto(name=name))
                known.add(name)
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(exposed.SerializeToString(), options,
                                           providers=["CPUExecutionProvider"])
    values = session.run(None, dict(feeds))
    shapes: dict[str, list[int]] = {o.name: list(getattr(v, "shape", ()))
                                    for o, v in zip(session.get_outputs(), values, strict=True)}
    shapes.update({name: list(getattr(value, "shape", ())) for name, value in feeds.items()})
    shapes.update({t.name: list(t.dims) for t in exposed.graph.initializer})
    return sum(_node_cost(node, shapes) for node in exposed.graph.node)


def _node_cost(node: NodeProto, shapes: Mapping[str, list[int]]) -> int:
    inputs = [shapes.get(name) for name in node.input]
    output = shapes.get(node.output[0]) if node.output else None
    if output is None:
        return 0
    if node.op_type in _CONV:
        weight_at = 3 if node.op_type == "QLinearConv" else 1
        weight = inputs[weight_at] if len(inputs) > weight_at else None
        if weight is None or len(weight) < 2:
            return 0
        # Every output value sums (input channels / groups) x kernel products.
        return math.prod(output) * math.prod(weight[1:])
    if node.op_type == "ConvTranspose":
        source, weight = [*inputs, None, None][:2]
        if source is None or weight is None:
            return 0
        # Every input value is spread over (output channels / groups) x kernel.
        return math.prod(source) * math.prod(weight[1:])
    if node.op_type in _MATMUL or node.op_type == "Gemm":
        left = inputs[0] if inputs else None
        if left is None:
            return 0
        depth = left[-2] if node.op_type == "Gemm" and _transposed(node) else left[-1]
        return math.prod(output) * depth
    return 0


def _transposed(node: NodeProto) -> bool:
    return any(a.name == "transA" and a.i for a in node.attribute)
