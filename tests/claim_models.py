"""The small models the glossary's claim tests feed the runtimes (Python, Node and Chromium).

Each builder makes the smallest graph that shows one claim, stamped with exactly the IR version
and opset the claim is about. :func:`write_all` saves every one of them into a folder, for the
JavaScript claim tests (tests/js/claims-web.claims.mjs and tests/test_claims_browser.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from .model_builders import classifier, with_local_function

FLOAT = TensorProto.FLOAT


def unary(op: str = "Relu", *, opset: int = 17, ir_version: int = 10,
          elem_type: int = FLOAT, shape: list[int | str] | None = None) -> onnx.ModelProto:
    """One ``op`` node from ``x`` to ``y``."""
    shape = [2, 3] if shape is None else shape
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"])], op.lower(),
        [helper.make_tensor_value_info("x", elem_type, shape)],
        [helper.make_tensor_value_info("y", elem_type, shape)])
    return helper.make_model(graph, ir_version=ir_version,
                             opset_imports=[helper.make_opsetid("", opset)])


def hardmax_between_relus() -> onnx.ModelProto:
    """Relu, Hardmax, Relu: Hardmax has no WebGPU kernel, the Relus have one."""
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Hardmax", ["r"], ["h"]),
         helper.make_node("Relu", ["h"], ["y"])], "hardmax",
        [helper.make_tensor_value_info("x", FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", FLOAT, [2, 3])])
    return helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])


def image_decoder() -> onnx.ModelProto:
    """ImageDecoder (ai.onnx opset 20): encoded bytes in, pixels out."""
    graph = helper.make_graph(
        [helper.make_node("ImageDecoder", ["x"], ["y"])], "image_decoder",
        [helper.make_tensor_value_info("x", TensorProto.UINT8, ["n"])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, None)])
    return helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 20)])


def two_inputs_sharing_a_name() -> onnx.ModelProto:
    """Inputs ``a`` and ``b`` both declared ``[n]``, each copied to an output."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["a"], ["a_out"]),
         helper.make_node("Identity", ["b"], ["b_out"])], "shared_n",
        [helper.make_tensor_value_info(name, FLOAT, ["n"]) for name in ("a", "b")],
        [helper.make_tensor_value_info(name, FLOAT, ["n"]) for name in ("a_out", "b_out")])
    return helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])


def top_k(k: int = 2) -> onnx.ModelProto:
    """TopK (opset 11 defaults: largest, sorted) over the last axis of ``x`` [1, 5]."""
    k_tensor = numpy_helper.from_array(np.array([k], np.int64), "k")
    graph = helper.make_graph(
        [helper.make_node("TopK", ["x", "k"], ["values", "indices"])], "top_k",
        [helper.make_tensor_value_info("x", FLOAT, [1, 5])],
        [helper.make_tensor_value_info("values", FLOAT, [1, k]),
         helper.make_tensor_value_info("indices", TensorProto.INT64, [1, k])],
        [k_tensor])
    return helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])


def linear_with_external_data(folder: Path) -> Path:
    """The linear layer with its weight in ``linear-external.onnx.data`` next to the model."""
    weight = numpy_helper.from_array(np.arange(3 * 256, dtype=np.float32).reshape(256, 3) / 1000,
                                     "W")  # 3 KB: above save_model's 1024-byte threshold
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "W"], ["y"], transB=1)], "linear_external",
        [helper.make_tensor_value_info("x", FLOAT, ["batch", 3])],
        [helper.make_tensor_value_info("y", FLOAT, ["batch", 256])], [weight])
    model = helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])
    path = folder / "linear-external.onnx"
    onnx.save_model(model, path, save_as_external_data=True,
                    location="linear-external.onnx.data")
    return path


def string_split() -> onnx.ModelProto:
    """StringSplit (ai.onnx opset 20) on spaces: a string tensor in, its words and their count out."""
    graph = helper.make_graph(
        [helper.make_node("StringSplit", ["x"], ["words", "count"], delimiter=" ")], "string_split",
        [helper.make_tensor_value_info("x", TensorProto.STRING, [1])],
        [helper.make_tensor_value_info("words", TensorProto.STRING, None),
         helper.make_tensor_value_info("count", TensorProto.INT64, None)])
    return helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 20)])


def custom_op(domain: str = "my.domain", op: str = "MyOp") -> onnx.ModelProto:
    """One node of an operator outside the standard, its domain declared in opset_import."""
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], domain=domain)], "custom",
        [helper.make_tensor_value_info("x", FLOAT, [3])], [helper.make_tensor_value_info("y", FLOAT, [3])])
    return helper.make_model(graph, ir_version=10, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid(domain, 1)])


def identity_int64() -> onnx.ModelProto:
    """An int64 [1, n] input copied to the output, like a text model's input_ids."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["input_ids"], ["ids"])], "ids",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, "n"])],
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, "n"])])
    return helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])


def ort_format(onnx_path: Path) -> Path:
    """The ORT format copy of ``onnx_path``, made by onnxruntime's converter (next to it).

    In-process: the command line (``python -m onnxruntime.tools.convert_onnx_models_to_ort``)
    calls this same function, and a new process would import onnxruntime again (seconds).
    """
    import gc
    import warnings

    from onnxruntime.tools import convert_onnx_models_to_ort as converter

    with warnings.catch_warnings():
        # onnxruntime 1.32.0's config writer leaves the .ort it reads open: not this project's file.
        warnings.simplefilter("ignore", ResourceWarning)
        converter.convert_onnx_models_to_ort(onnx_path, optimization_styles=[converter.OptimizationStyle.Fixed])
        gc.collect()
    return onnx_path.with_suffix(".ort")


def write_all(folder: Path) -> Path:
    """Every model the JavaScript claim tests load, written into ``folder``; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    models = {
        "relu-ir13": unary(ir_version=13),
        "relu-ir14": unary(ir_version=14),
        "relu-opset26": unary(opset=26, ir_version=13),
        "relu-opset27": unary(opset=27, ir_version=13),
        "relu-float16": unary(elem_type=TensorProto.FLOAT16),
        "relu-1x1": unary(shape=[1, 1]),
        "hardmax": hardmax_between_relus(),
        "image-decoder": image_decoder(),
        "classifier-zipmap": classifier(zipmap=True),
        "shared-n": two_inputs_sharing_a_name(),
        "top-k": top_k(),
        "string-split": string_split(),
        "custom-op": custom_op(),
        "ms-gelu": custom_op("com.microsoft", "Gelu"),
        "local-function": with_local_function(),
        "identity-int64": identity_int64(),
    }
    for name, model in models.items():
        (folder / f"{name}.onnx").write_bytes(model.SerializeToString())
    linear_with_external_data(folder)
    linear = folder / "linear.onnx"
    linear.write_bytes((Path(__file__).resolve().parent.parent / "models" / "linear" / "model.onnx").read_bytes())
    ort_format(linear)
    return folder


def single_operator_cases(cache_root: Path | None = None) -> Path:
    """One model per operator that the onnx package's node tests cover, for coverage sweeps.

    The first single-node test case of each ai.onnx and ai.onnx.ml operator, as generated by
    ``onnx.backend.test.case.node`` (the wheel ships no node test data), kept only when its
    ai.onnx opset is at most 26 (what onnxruntime-web 1.31.1 reads) and stamped at most IR 13.
    Generating them takes about 10 s of CPU, so they are kept in the user's cache, one folder
    per onnx version: ``~/.cache/onnx-glossary/onnx-<version>-operator-cases/<domain>__<op>.onnx``.
    """
    import os
    import warnings

    root = cache_root or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "onnx-glossary"
    folder = root / f"onnx-{onnx.__version__}-operator-cases"
    done = folder / ".complete"
    if done.is_file():
        return folder
    from onnx.backend.test.case.node import collect_testcases

    folder.mkdir(parents=True, exist_ok=True)
    seen: set[tuple[str, str]] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the generators' own numpy and deprecation warnings
        cases = collect_testcases(None)
    for case in cases:
        model = case.model
        if len(model.graph.node) != 1:
            continue
        node = model.graph.node[0]
        key = (node.domain or "ai.onnx", node.op_type)
        versions = {o.domain or "ai.onnx": o.version for o in model.opset_import}
        if key[0] not in ("ai.onnx", "ai.onnx.ml") or key in seen or versions.get("ai.onnx", 0) > 26:
            continue
        seen.add(key)
        model.ir_version = min(model.ir_version, 13)
        (folder / f"{key[0]}__{key[1]}.onnx").write_bytes(model.SerializeToString())
    done.write_text(f"{len(seen)} operators\n", encoding="utf-8")
    return folder
