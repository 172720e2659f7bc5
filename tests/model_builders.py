"""Small ONNX models built with onnx.helper, shared by the model tests.

Each builder returns a ModelProto; `save(model, folder)` writes it as model.onnx. Built
here rather than shipped as files so that each test says what it is about.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT = TensorProto.FLOAT


def save(model: onnx.ModelProto, folder: Path, name: str = "model.onnx") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(model.SerializeToString())
    return path


def model(
    graph: onnx.GraphProto,
    *,
    opset: int = 17,
    ir_version: int = 8,
    extra_opsets: dict[str, int] | None = None,
    functions: list[onnx.FunctionProto] | None = None,
) -> onnx.ModelProto:
    opsets = [helper.make_opsetid("", opset)]
    opsets += [helper.make_opsetid(domain, v) for domain, v in (extra_opsets or {}).items()]
    built = helper.make_model(
        graph, opset_imports=opsets, producer_name="tests", functions=functions or []
    )
    built.ir_version = ir_version
    return built


def linear(*, opset: int = 17, ir_version: int = 8) -> onnx.ModelProto:
    """y = x @ W.T + b with a free `batch` axis: 4 parameters, like models/linear."""
    weight = numpy_helper.from_array(np.array([[0.5, -1.0, 2.0]], np.float32), "W")
    bias = numpy_helper.from_array(np.array([0.25], np.float32), "b")
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "W", "b"], ["y"], transB=1)],
        "linear",
        [helper.make_tensor_value_info("x", FLOAT, ["batch", 3])],
        [helper.make_tensor_value_info("y", FLOAT, ["batch", 1])],
        [weight, bias],
    )
    return model(graph, opset=opset, ir_version=ir_version)


def ir3_initializers_as_inputs() -> onnx.ModelProto:
    """Old-style (IR 3, opset 9): the weights are listed among the graph inputs too."""
    weight = numpy_helper.from_array(np.ones((4, 3), np.float32), "W")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["y"])],
        "ir3",
        [
            helper.make_tensor_value_info("x", FLOAT, [2, 4]),
            helper.make_tensor_value_info("W", FLOAT, [4, 3]),
        ],
        [helper.make_tensor_value_info("y", FLOAT, [2, 3])],
        [weight],
    )
    return model(graph, opset=9, ir_version=3)


def mixed_inputs() -> onnx.ModelProto:
    """Several symbolic dims and non-float inputs: int64 ids, bool mask, uint8 bytes."""
    graph = helper.make_graph(
        [
            helper.make_node("Cast", ["ids"], ["ids_f"], to=FLOAT),
            helper.make_node("Cast", ["mask"], ["mask_f"], to=FLOAT),
            helper.make_node("Mul", ["ids_f", "mask_f"], ["masked"]),
            helper.make_node("Cast", ["raw"], ["raw_f"], to=FLOAT),
            helper.make_node("ReduceSum", ["raw_f"], ["raw_sum"], keepdims=0),
        ],
        "mixed",
        [
            helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info("mask", TensorProto.BOOL, ["batch", "sequence"]),
            helper.make_tensor_value_info("raw", TensorProto.UINT8, ["height", "width", 4]),
        ],
        [
            helper.make_tensor_value_info("masked", FLOAT, ["batch", "sequence"]),
            helper.make_tensor_value_info("raw_sum", FLOAT, []),
        ],
    )
    return model(graph)


def classifier(*, zipmap: bool) -> onnx.ModelProto:
    """ai.onnx.ml LinearClassifier (2 features, 2 classes); ZipMap optional."""
    nodes = [
        helper.make_node(
            "LinearClassifier", ["x"], ["label", "scores"], domain="ai.onnx.ml",
            classlabels_ints=[0, 1], coefficients=[1.0, -1.0, -1.0, 1.0],
            intercepts=[0.0, 0.0], post_transform="SOFTMAX",
        )
    ]
    outputs = [helper.make_tensor_value_info("label", TensorProto.INT64, ["N"])]
    if zipmap:
        nodes.append(
            helper.make_node("ZipMap", ["scores"], ["probabilities"], domain="ai.onnx.ml",
                             classlabels_int64s=[0, 1])
        )
        map_type = helper.make_map_type_proto(
            TensorProto.INT64, helper.make_tensor_type_proto(FLOAT, [])
        )
        outputs.append(
            helper.make_value_info("probabilities", helper.make_sequence_type_proto(map_type))
        )
    else:
        outputs.append(helper.make_tensor_value_info("scores", FLOAT, ["N", 2]))
    graph = helper.make_graph(
        nodes, "classifier", [helper.make_tensor_value_info("x", FLOAT, ["N", 2])], outputs
    )
    return model(graph, extra_opsets={"ai.onnx.ml": 1})


def with_if() -> onnx.ModelProto:
    """An If whose branches hold an Add and a Relu+Neg: 4 nodes in all."""
    one = numpy_helper.from_array(np.array([1.0], np.float32), "one")
    then_branch = helper.make_graph(
        [helper.make_node("Add", ["x", "one"], ["then_out"])], "then", [],
        [helper.make_tensor_value_info("then_out", FLOAT, [3])],
    )
    else_branch = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["else_out"])],
        "else", [], [helper.make_tensor_value_info("else_out", FLOAT, [3])],
    )
    graph = helper.make_graph(
        [helper.make_node("If", ["flag"], ["y"], then_branch=then_branch,
                          else_branch=else_branch)],
        "with_if",
        [
            helper.make_tensor_value_info("flag", TensorProto.BOOL, []),
            helper.make_tensor_value_info("x", FLOAT, [3]),
        ],
        [helper.make_tensor_value_info("y", FLOAT, [3])],
        [one],
    )
    return model(graph)


def with_local_function() -> onnx.ModelProto:
    """A model-local function `local.Double(x) = x + x`, called twice."""
    function = helper.make_function(
        "local", "Double", ["a"], ["b"], [helper.make_node("Add", ["a", "a"], ["b"])],
        [helper.make_opsetid("", 17)],
    )
    graph = helper.make_graph(
        [
            helper.make_node("Double", ["x"], ["y1"], domain="local"),
            helper.make_node("Double", ["y1"], ["y"], domain="local"),
        ],
        "functions",
        [helper.make_tensor_value_info("x", FLOAT, ["n"])],
        [helper.make_tensor_value_info("y", FLOAT, ["n"])],
    )
    return model(graph, extra_opsets={"local": 1}, functions=[function])


def fails_checker() -> onnx.ModelProto:
    """A node reads a tensor nothing produces."""
    graph = helper.make_graph(
        [helper.make_node("Relu", ["nowhere"], ["y"])],
        "broken",
        [helper.make_tensor_value_info("x", FLOAT, [1])],
        [helper.make_tensor_value_info("y", FLOAT, [1])],
    )
    return model(graph)
