"""Export `background-removal`: MediaPipe's selfie segmentation, converted from TensorFlow
Lite, with MediaPipe's pre- and post-processing written into the ONNX graph.

The network is `selfie_segmentation.tflite` (the general 256x256 model) from the `mediapipe`
0.10.14 wheel on PyPI (Apache-2.0), converted by tf2onnx 1.17 (`tf2onnx.convert.from_tflite`,
opset 17, NCHW input). Its last layer is MediaPipe's custom operator
`Convolution2DTransposeBias`, which tf2onnx does not know: it logs "Unsupported ops" and
still exits 0, leaving a node onnxruntime refuses. CUSTOM_OP_HANDLERS below maps it to ONNX
ConvTranspose with the bias as its third input, after checking the operator's options (SAME
padding, stride 2) and reordering the kernel from TensorFlow Lite's [out, h, w, in] to ONNX's
[in, out, h, w].

Around the network, as ONNX operators, the steps of MediaPipe's `SelfieSegmentationCpu`
graph (constants from its graph config in the same wheel):

1. ImageToTensorCalculator: the whole picture scaled to 256x256 (keep_aspect_ratio: false,
   BORDER_ZERO), bilinearly in OpenCV's warp convention, values 0-1;
2. the network (a sigmoid at its end: TensorsToSegmentationCalculator's activation is NONE);
3. TensorsToSegmentationCalculator on the CPU: the 256x256 mask resized to the picture's
   size bilinearly (cv::resize, half-pixel centres), which is ONNX Resize "linear" with
   coordinate_transformation_mode "half_pixel".

So the model takes `image` uint8 [height, width, 4] RGBA (any size) and returns `mask` float
[height, width]: per pixel, the probability that it belongs to the foreground. The model was
trained on people in selfie and video-call pictures, but what it marks is the foreground: a
cup or a cat is marked too (see SOURCE.md).

Checks before anything is written (each failure one line; model.onnx stays as it was): the core
network against TensorFlow Lite's interpreter, whose XNNPACK delegate implements the custom
operator (its built-in kernels refuse it); the last layer alone against a numpy
transposed convolution written here from the operator's definition; the whole graph against
a numpy reference of steps 1 and 3 around TensorFlow Lite; the whole graph against MediaPipe's
own masks on the sample photos (models/_photos/): IoU of the foregrounds at 0.5 >= 0.95.

Run `.venv-tf/bin/python models/background-removal/export.py [--out DIR]`; writes
DIR/model.onnx and DIR/sample.png (the astronaut photo of models/_photos).
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx_glossary.models import tflite_export as tfl
from onnx_glossary.models.export_tools import (
    ExportError,
    ParityError,
    check_parity,
    parse_out_dir,
    run_main,
    save_checked,
    stamp_provenance,
)

EXPORT_VENV = ".venv-tf"
ORIGINAL_MODEL = "MediaPipe Selfie Segmentation (general, 256x256), by Google"
NAME = "background-removal"
SOURCE = tfl.TfliteSource("mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite",
                          "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c")
CUSTOM_OP = "Convolution2DTransposeBias"
# Probabilities 0-1: the core network against TensorFlow Lite (XNNPACK) on the same tensor.
TOLERANCE = 1e-3
PIPELINE_TOLERANCE = 1e-3
LAYER_TOLERANCE = 1e-4
SIZE = 256
MIN_MASK_IOU = 0.95  # MediaPipe parity (issue 22)
# TfLiteTransposeConvParams as the operator stores them: padding (1 = SAME), stride w, h.
EXPECTED_OPTIONS = (1, 2, 2)
PREPROCESSING = (
    "input: uint8 RGBA HWC 0-255 (canvas ImageData), any height and width; alpha is dropped. "
    "The graph scales the picture to 256x256 bilinearly (OpenCV's warp convention, as "
    "MediaPipe's ImageToTensorCalculator) and to 0-1. output: mask float32 [height, width], "
    "the foreground probability, resized back bilinearly (half-pixel centres)"
)


def custom_options(tflite_path: Any) -> tuple[int, ...]:
    """The raw options of the custom operator in the .tflite flatbuffer (three int32)."""
    from tf2onnx.tflite.Model import Model

    model = Model.GetRootAs(tflite_path.read_bytes(), 0)
    graph = model.Subgraphs(0)
    for index in range(graph.OperatorsLength()):
        op = graph.Operators(index)
        code = model.OperatorCodes(op.OpcodeIndex()).CustomCode()
        if code and code.decode() == CUSTOM_OP:
            return tuple(int(v) for v in np.frombuffer(op.CustomOptionsAsNumpy().tobytes(), "<i4"))
    raise ExportError(f"{NAME}: {tflite_path.name} has no {CUSTOM_OP}")


def convolution_transpose_bias(ctx: Any, node: Any, name: str, args: list[Any]) -> None:
    """tf2onnx handler: MediaPipe's Convolution2DTransposeBias (NHWC input, kernel
    [out, 2, 2, in], bias [out]) as ONNX ConvTranspose, 2x2 kernel, stride 2, no padding
    (SAME with kernel = stride crops nothing)."""
    x, kernel, bias = node.input
    node.type, node.domain = "ConvTranspose", ""
    for attribute in list(node.attr):
        del node.attr[attribute]
    ctx.insert_new_node_on_input(node, "Transpose", x, input_index=0, perm=[0, 3, 1, 2])
    ctx.insert_new_node_on_input(node, "Transpose", kernel, input_index=1, perm=[3, 0, 1, 2])
    node.set_attr("kernel_shape", [2, 2])
    node.set_attr("strides", [2, 2])
    node.set_attr("pads", [0, 0, 0, 0])
    ctx.insert_new_node_on_output("Transpose", node.output[0], perm=[0, 2, 3, 1])
    del bias, name, args


CUSTOM_OP_HANDLERS: dict[str, tuple[Any, list[Any]]] = {
    f"TFL_{CUSTOM_OP}": (convolution_transpose_bias, []),
}


def wrap(core: onnx.ModelProto) -> onnx.ModelProto:
    b = tfl.Nodes("pre")
    picture, height, width = tfl.picture_nchw(b, "image")
    zero = b.const(0.0)
    sx = b.op("Div", [width, b.const(float(SIZE))])
    sy = b.op("Div", [height, b.const(float(SIZE))])
    matrix = tfl.matrix_from(b, [sx, zero, zero, zero, sy, zero])
    warped = tfl.affine_warp(b, picture, height, width, matrix, (SIZE, SIZE), "zeros")
    tensor = b.op("Mul", [warped, b.const(1.0 / 255.0)])
    (core_input,) = [i.name for i in core.graph.input]
    core_nodes, core_inits, (mask,) = tfl.embed_core(core, "core", {core_input: tensor})

    p = tfl.Nodes("post")
    nchw = p.op("Reshape", [mask, p.const([1, 1, SIZE, SIZE], np.int64)])
    hw = p.op("Slice", [p.op("Shape", ["image"]), p.const([0], np.int64), p.const([2], np.int64)])
    sizes = p.op("Concat", [p.const([1, 1], np.int64), hw], axis=0)
    resized = p.op("Resize", [nchw, "", "", sizes], mode="linear",
                   coordinate_transformation_mode="half_pixel")
    p.op("Squeeze", [resized, p.const([0, 1], np.int64)], output="mask")
    return tfl.finish_model(
        b.nodes + core_nodes + p.nodes, "selfie_segmentation_rgba",
        [helper.make_tensor_value_info("image", TensorProto.UINT8, ["height", "width", 4])],
        [helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["height", "width"])],
        b.initializers + core_inits + p.initializers, core,
        "MediaPipe selfie segmentation (pretrained): RGBA picture in, foreground probability "
        "per pixel out, at the picture's size")


def network_input(pixels: np.ndarray) -> np.ndarray:
    height, width = pixels.shape[:2]
    matrix = np.array([[width / SIZE, 0, 0], [0, height / SIZE, 0]])
    return (tfl.numpy_warp(pixels[:, :, :3], matrix, (SIZE, SIZE), "zeros") / 255.0
            ).astype(np.float32)[None]


def resize_half_pixel(mask: np.ndarray, height: int, width: int) -> np.ndarray:
    """cv::resize INTER_LINEAR in numpy: half-pixel centres, edges clamped, no antialiasing."""
    def axis(out: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        source = np.clip((np.arange(out) + 0.5) * size / out - 0.5, 0, size - 1)
        low = np.floor(source).astype(np.int64)
        return low, np.minimum(low + 1, size - 1), source - low

    y0, y1, fy = axis(height, mask.shape[0])
    x0, x1, fx = axis(width, mask.shape[1])
    rows = mask[y0] * (1 - fy)[:, None] + mask[y1] * fy[:, None]
    return rows[:, x0] * (1 - fx) + rows[:, x1] * fx


def last_layer_check(core: onnx.ModelProto, interpreter: Any, tensor: np.ndarray) -> float:
    """The converted last layer against a numpy transposed convolution with the kernel and
    bias read from the .tflite file: out[o, 2i+a, 2j+b] = sum_c x[c, i, j] k[o, a, b, c] + bias[o],
    then the model's sigmoid."""
    (layer,) = [n for n in core.graph.node if n.op_type == "ConvTranspose"]
    probe = onnx.ModelProto()
    probe.CopyFrom(core)
    probe.graph.output.append(helper.make_tensor_value_info(layer.input[0], TensorProto.FLOAT, None))
    session = tfl.session(probe)
    final, features = session.run(None, {core.graph.input[0].name: tensor.transpose(0, 3, 1, 2)})
    details = {d["name"]: d for d in interpreter.get_tensor_details()}
    kernel = interpreter.get_tensor(details["segment/Kernel"]["index"]).astype(np.float64)
    bias = interpreter.get_tensor(details["segment/Bias"]["index"]).astype(np.float64)
    x = features[0].astype(np.float64)  # [16, 128, 128]
    out = np.einsum("cij,oabc->oiajb", x, kernel).reshape(kernel.shape[0], 2 * x.shape[1],
                                                          2 * x.shape[2])
    expected = 0.5 * (1.0 + np.tanh(0.5 * (out + bias[:, None, None])))  # sigmoid, no overflow
    return float(np.abs(expected[0] - final.reshape(expected.shape[1:])).max())


def builtin_kernels_refuse(tflite_path: Any) -> str:
    """What TensorFlow Lite's built-in kernels (no delegate) say about the custom operator."""
    import warnings

    import tensorflow as tf

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            plain = tf.lite.Interpreter(
                model_path=str(tflite_path),
                experimental_op_resolver_type=tf.lite.experimental.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        plain.allocate_tensors()
    except RuntimeError as error:
        return str(error).strip().splitlines()[0]
    return "runs"


def main() -> None:
    out_dir = parse_out_dir(__file__)
    tflite_path = tfl.fetch_tflite(SOURCE, NAME)
    options = custom_options(tflite_path)
    if options != EXPECTED_OPTIONS:
        raise ExportError(f"{NAME}: {CUSTOM_OP} has options {options} (padding, stride w, h); "
                          f"the handler maps only {EXPECTED_OPTIONS}")
    core = tfl.convert_tflite(tflite_path, NAME, input_name="input_1",
                          custom_op_handlers=CUSTOM_OP_HANDLERS)
    model = wrap(core)
    tfl.check_loads(model, f"{NAME}: the wrapped graph")

    interpreter = tfl.tflite_interpreter(tflite_path)
    core_session = tfl.session(core)
    session = tfl.session(model)
    reference = tfl.mediapipe_reference()
    core_diff = pipeline_diff = layer_diff = 0.0
    parity: dict[str, object] = {}
    for name in tfl.PHOTO_NAMES:
        pixels = tfl.read_photo(name)
        tensor = network_input(pixels)
        (expected,) = tfl.run_tflite(interpreter, tensor)
        (got,) = core_session.run(None, {"input_1": tensor.transpose(0, 3, 1, 2)})
        core_diff = max(core_diff, float(np.abs(expected - got.reshape(expected.shape)).max()))
        layer_diff = max(layer_diff, last_layer_check(core, interpreter, tensor))
        (mask,) = session.run(["mask"], {"image": pixels})
        numpy_mask = resize_half_pixel(expected[0, :, :, 0].astype(np.float64), *pixels.shape[:2])
        pipeline_diff = max(pipeline_diff, float(np.abs(numpy_mask - mask).max()))
        theirs = tfl.mediapipe_mask(name)
        iou = tfl.mask_iou(theirs, mask)
        if iou < MIN_MASK_IOU:
            raise ParityError(f"{NAME}: {name}: mask IoU with MediaPipe's {iou:.4f} (needs "
                              f">= {MIN_MASK_IOU})")
        parity[name] = {"mask_iou": round(iou, 4),
                        "max_abs_diff": round(float(np.abs(theirs - mask).max()), 4),
                        "foreground_fraction": round(float((mask > 0.5).mean()), 4)}
    check_parity(f"{NAME} (core network against TensorFlow Lite)", core_diff, TOLERANCE)
    check_parity(f"{NAME} (last layer against the numpy transposed convolution)", layer_diff,
                 LAYER_TOLERANCE)
    check_parity(f"{NAME} (whole graph against the numpy reference)", pipeline_diff,
                 PIPELINE_TOLERANCE)

    sample = out_dir / "sample.png"
    sample.write_bytes((tfl.PHOTOS_DIR / "astronaut.png").read_bytes())
    tfl.write_licence(out_dir, NAME)
    stamp_provenance(
        model,
        framework="tensorflow-lite (MediaPipe)",
        framework_version=f"mediapipe {tfl.MEDIAPIPE.version}",
        exporter_settings={
            "exporter": "tf2onnx.convert.from_tflite with a custom_op_handlers entry, then "
                        "onnx.helper (pre- and post-processing)",
            "opset_version": 17, "ir_version": model.ir_version, "inputs_as_nchw": ["input_1"],
            "custom_op_handlers": {CUSTOM_OP: "ConvTranspose kernel 2x2, stride 2, pads 0, "
                                              "bias as input B; kernel transposed [3, 0, 1, 2]"},
        },
        script=__file__,
        parity_max_abs_diff=core_diff,
        extra={
            "preprocessing": PREPROCESSING,
            "parity_against": "TensorFlow Lite interpreter (tensorflow "
                              f"{tfl.versions()['tensorflow']}) with its XNNPACK delegate, which "
                              f"implements {CUSTOM_OP}, on the same input tensor",
            "tflite_builtin_kernels": builtin_kernels_refuse(tflite_path),
            "last_layer_max_abs_diff": f"{layer_diff:.6g}",
            "last_layer_against": "numpy transposed convolution plus bias and sigmoid, "
                                  "kernel and bias read from the .tflite file",
            "pipeline_max_abs_diff": f"{pipeline_diff:.6g}",
            "pipeline_against": "numpy reference of MediaPipe's scaling and mask resizing "
                                "around the TensorFlow Lite interpreter",
            "mediapipe_parity": json.dumps(parity, sort_keys=True),
            "mediapipe_parity_against": "models/_photos/<photo>.mask.png (MediaPipe "
                                        f"{reference['versions']['mediapipe']} "
                                        "SelfieSegmentation, model_selection=0)",
            **tfl.source_metadata(SOURCE, ORIGINAL_MODEL,
                                  f"astronaut.png, SHA-256 {tfl.photo_sha256('astronaut')}"),
        },
    )
    path = out_dir / "model.onnx"
    size = save_checked(model, path)
    print(f"{NAME}: wrote {path} ({size} bytes) and {sample.name}; core vs TFLite "
          f"{core_diff:.3g}, last layer vs numpy {layer_diff:.3g}, graph vs numpy reference "
          f"{pipeline_diff:.3g}; MediaPipe parity {json.dumps(parity)}")


if __name__ == "__main__":
    run_main(main)
