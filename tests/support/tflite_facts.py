"""What TensorFlow Lite and tf2onnx do with MediaPipe's three models, measured in one run of the
TensorFlow environment (`.venv-tf`, `make setup-tf`), printed as one JSON object on stdout.

The claim tests run in the site's environment, which has neither TensorFlow nor tf2onnx, so
tests/test_claims_tflite.py runs this file once with `.venv-tf/bin/python` and asserts on what
it prints. The `.tflite` files come from the pinned mediapipe wheel (SHA-256 checked, cached by
`onnx_glossary.models.tflite_export`), the same files the export scripts convert.

    .venv-tf/bin/python tests/support/tflite_facts.py
"""

from __future__ import annotations

import collections
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"
WHO = "tests/support/tflite_facts.py"


def export_module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"export_{name.replace('-', '_')}",
                                                  MODELS / name / "export.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def flatbuffer(path: Path) -> dict[str, Any]:
    """The file's structure as TensorFlow Lite's schema lays it out (tf2onnx's reader)."""
    from tf2onnx.tflite import BuiltinOperator, TensorType
    from tf2onnx.tflite.Model import Model

    builtin = {v: k for k, v in vars(BuiltinOperator.BuiltinOperator).items() if not k.startswith("_")}
    types = {v: k for k, v in vars(TensorType.TensorType).items() if not k.startswith("_")}
    model = Model.GetRootAs(path.read_bytes(), 0)
    graph = model.Subgraphs(0)
    operators: collections.Counter[str] = collections.Counter()
    custom: list[str] = []
    dequantized_float16 = 0
    for index in range(graph.OperatorsLength()):
        op = graph.Operators(index)
        code = model.OperatorCodes(op.OpcodeIndex())
        if code.CustomCode():
            custom.append(code.CustomCode().decode())
            operators["custom"] += 1
            continue
        name = builtin[max(code.BuiltinCode(), code.DeprecatedBuiltinCode())]
        operators[name] += 1
        if name == "DEQUANTIZE":
            source = graph.Tensors(op.Inputs(0))
            has_data = model.Buffers(source.Buffer()).DataLength() > 0
            if types[source.Type()] == "FLOAT16" and has_data:
                dequantized_float16 += 1
    tensor_types = collections.Counter(types[graph.Tensors(i).Type()] for i in range(graph.TensorsLength()))
    first = graph.Tensors(graph.Inputs(0))
    return {
        "bytes": path.stat().st_size,
        "subgraphs": model.SubgraphsLength(),
        "operators": graph.OperatorsLength(),
        "tensors": graph.TensorsLength(),
        "buffers": model.BuffersLength(),
        "operator_counts": dict(operators),
        "custom_codes": custom,
        "tensor_types": dict(tensor_types),
        "dequantize_of_float16_weights": dequantized_float16,
        "input_shape": [int(v) for v in first.ShapeAsNumpy()],
    }


def interpreter_facts(paths: dict[str, Path]) -> dict[str, Any]:
    import numpy as np
    import tensorflow as tf

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        detector = tf.lite.Interpreter(model_path=str(paths["face-detection"]), num_threads=1)
    detector.allocate_tensors()
    outputs = {d["name"]: [int(v) for v in d["shape"]] for d in detector.get_output_details()}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            plain = tf.lite.Interpreter(
                model_path=str(paths["background-removal"]),
                experimental_op_resolver_type=tf.lite.experimental.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        plain.allocate_tensors()
        builtin = "runs"
    except RuntimeError as error:
        builtin = str(error).strip().splitlines()[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        default = tf.lite.Interpreter(model_path=str(paths["background-removal"]), num_threads=1)
    default.allocate_tensors()
    default.set_tensor(default.get_input_details()[0]["index"], np.zeros((1, 256, 256, 3), np.float32))
    default.invoke()
    mask = default.get_tensor(default.get_output_details()[0]["index"])
    return {
        "tensorflow": tf.__version__,
        "interpreter_warnings": [str(w.message).strip() for w in caught],
        "blazeface_outputs": outputs,
        "selfie_builtin_kernels": builtin,
        "selfie_default_interpreter_output": [int(v) for v in mask.shape],
    }


def cli_without_handler(path: Path, out: Path) -> dict[str, Any]:
    """`python -m tf2onnx.convert --tflite` on the selfie model, which has a custom operator."""
    import onnxruntime as ort

    done = subprocess.run([sys.executable, "-m", "tf2onnx.convert", "--tflite", str(path),
                           "--output", str(out), "--opset", "17"],
                          capture_output=True, text=True, check=False, timeout=600,
                          env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    unsupported = [line[line.index("Unsupported ops"):] for line in done.stderr.splitlines()
                   if "Unsupported ops" in line]
    try:
        ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
        refusal = None
    except Exception as error:  # onnxruntime raises its own types
        refusal = str(error).strip().splitlines()[0]
    return {"returncode": done.returncode, "wrote": out.is_file(), "unsupported": unsupported,
            "onnxruntime": refusal}


def with_handler(path: Path) -> dict[str, Any]:
    """The selfie model through `tf2onnx.convert.from_tflite` with the export script's handler
    for its custom operator, against TensorFlow Lite on the five sample photos; and its last
    layer against the export script's numpy transposed convolution (kernel and bias read from
    the .tflite file)."""
    import numpy as np
    import onnxruntime as ort
    import tf2onnx
    from onnx_glossary.models import tflite_export as tfl

    export = export_module("background-removal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, _ = tf2onnx.convert.from_tflite(str(path), opset=17, inputs_as_nchw=["input_1"],
                                               custom_op_handlers=export.CUSTOM_OP_HANDLERS)
    interpreter = tfl.tflite_interpreter(path)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    differences, last_layer = {}, 0.0
    for name in tfl.PHOTO_NAMES:
        tensor = export.network_input(tfl.read_photo(name))
        (expected,) = tfl.run_tflite(interpreter, tensor)
        (got,) = session.run(None, {"input_1": tensor.transpose(0, 3, 1, 2)})
        differences[name] = float(np.abs(expected - got.reshape(expected.shape)).max())
        last_layer = max(last_layer, export.last_layer_check(model, interpreter, tensor))
    from onnx import TensorProto

    initializer_types = collections.Counter(TensorProto.DataType.Name(t.data_type)
                                            for t in model.graph.initializer)
    return {
        "tf2onnx": tf2onnx.__version__.split()[0],
        "operators": sorted({node.op_type for node in model.graph.node}),
        "custom_domains": sorted({node.domain for node in model.graph.node} - {""}),
        "input_shape": [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim],
        "initializer_types": dict(initializer_types),
        "casts": sum(node.op_type == "Cast" for node in model.graph.node),
        "max_abs_diff": differences,
        "last_layer_max_abs_diff": last_layer,
    }


def main() -> None:
    from onnx_glossary.models import tflite_export as tfl

    names = ("background-removal", "face-detection", "face-landmarks")
    paths = {name: tfl.fetch_tflite(export_module(name).SOURCE, WHO) for name in names}
    facts: dict[str, Any] = {"files": {name: flatbuffer(path) for name, path in paths.items()}}
    facts.update(interpreter_facts(paths))
    with tempfile.TemporaryDirectory() as tmp:
        facts["cli_without_handler"] = cli_without_handler(paths["background-removal"],
                                                           Path(tmp) / "selfie.onnx")
    facts["with_handler"] = with_handler(paths["background-removal"])
    json.dump(facts, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
