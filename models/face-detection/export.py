"""Export `face-detection`: MediaPipe's short-range BlazeFace, converted from TensorFlow Lite,
with MediaPipe's pre- and post-processing written into the ONNX graph.

The network is `face_detection_short_range.tflite` from the `mediapipe` 0.10.14 wheel on PyPI
(Apache-2.0), converted by tf2onnx 1.17 (`tf2onnx.convert.from_tflite`, opset 17, NCHW input).
Around it, as ONNX operators, the steps of MediaPipe's `FaceDetectionShortRangeCpu` graph,
with the constants read from the expanded graph config in the same wheel:

1. ImageToTensorCalculator: the whole picture, padded to a square (keep_aspect_ratio: true,
   BORDER_ZERO), scaled to 128x128 bilinearly, values to [-1, 1];
2. the network: 896 anchors, 16 numbers each (box centre, size, six keypoints) and a score;
3. SsdAnchorsCalculator's anchors (num_layers 4, strides 8, 16, 16, 16, anchor offset 0.5,
   aspect ratio 1.0 plus one interpolated, fixed_anchor_size: true): generated here as that
   calculator does, then baked into the graph as an initializer;
4. TensorsToDetectionsCalculator: x_scale = y_scale = w_scale = h_scale = 128,
   reverse_output_order (x before y), sigmoid scores clipped at +-100, min_score_thresh 0.5;
5. NonMaxSuppressionCalculator: IoU above 0.3 suppresses, algorithm WEIGHTED: ONNX
   NonMaxSuppression picks the same leaders, then each leader's box and keypoints become the
   score-weighted mean of the candidates it suppressed (and itself), as MediaPipe does;
6. DetectionProjectionCalculator: back to the picture's pixels.

So the model takes `image` uint8 [height, width, 4] RGBA (canvas ImageData, any size) and
returns `boxes` float [faces, 4] (x0, y0, x1, y1), `scores` float [faces] (best first) and
`keypoints` float [faces, 6, 2] (x, y: right eye, left eye, nose tip, mouth centre, right ear
tragion, left ear tragion; the person's right and left), all in the picture's pixels.

Checks before anything is written (each failure is one line and model.onnx stays as it was):
the core network against TensorFlow Lite's interpreter on the same input tensor; the whole
graph against an independent numpy reference of steps 1 and 3-6 around TensorFlow Lite; the
whole graph against MediaPipe's own results on the sample photos (models/_photos/
mediapipe_reference.json): box IoU >= 0.9 and keypoints within 2 px.

Run `.venv-tf/bin/python models/face-detection/export.py [--out DIR]`; writes DIR/model.onnx
and DIR/sample.png (the astronaut photo of models/_photos).
"""

from __future__ import annotations

import json
import math
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx_glossary.models import tflite_export as tfl
from onnx_glossary.models.export_tools import (
    ParityError,
    check_parity,
    parse_out_dir,
    run_main,
    save_checked,
    stamp_provenance,
)

EXPORT_VENV = ".venv-tf"
ORIGINAL_MODEL = "BlazeFace short range (MediaPipe face detection), by Google"
NAME = "face-detection"
SOURCE = tfl.TfliteSource("mediapipe/modules/face_detection/face_detection_short_range.tflite",
                          "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8")
# Core network against TensorFlow Lite: raw regressors are pixel offsets up to ~100 and the
# fp16 weights are the same; 1e-3 leaves room for another CPU's float sums.
TOLERANCE = 1e-3
# The whole graph against the numpy reference (pixels and scores).
PIPELINE_TOLERANCE = 1e-2
INPUT = 128
ANCHORS = {  # SsdAnchorsCalculatorOptions of face_detection_short_range
    "num_layers": 4, "min_scale": 0.1484375, "max_scale": 0.75, "input_size": INPUT,
    "anchor_offset": 0.5, "strides": [8, 16, 16, 16], "aspect_ratios": [1.0],
    "interpolated_scale_aspect_ratio": 1.0, "fixed_anchor_size": True,
}
SCALE = 128.0  # x_scale, y_scale, w_scale, h_scale
SCORE_CLIP = 100.0
MIN_SCORE = 0.5
IOU_THRESHOLD = 0.3
KEYPOINTS = 6
# MediaPipe parity on the sample photos (issue 22): box IoU and keypoint distance.
MIN_BOX_IOU, MAX_KEYPOINT_PX = 0.9, 2.0
PREPROCESSING = (
    "input: uint8 RGBA HWC 0-255 (canvas ImageData), any height and width; alpha is dropped. "
    "The graph pads the picture to a square (zeros) centred on it, scales it to 128x128 "
    "bilinearly (OpenCV's warp convention, as MediaPipe's ImageToTensorCalculator) and maps "
    "0-255 to -1..1. outputs: boxes [faces, 4] x0 y0 x1 y1, scores [faces] best first, "
    "keypoints [faces, 6, 2] x y, in the picture's pixels; faces scoring above 0.5, after "
    "MediaPipe's weighted non-maximum suppression at IoU 0.3"
)


def calculate_scale(min_scale: float, max_scale: float, index: int, count: int) -> float:
    if count == 1:
        return (min_scale + max_scale) / 2
    return min_scale + (max_scale - min_scale) * index / (count - 1)


def ssd_anchors() -> np.ndarray:
    """SsdAnchorsCalculator's anchors, [896, 4] (x centre, y centre, width, height), 0-1.

    Layers that share a stride are one feature map; each cell holds one anchor per aspect
    ratio plus one interpolated; with fixed_anchor_size every anchor is 1 x 1.
    """
    o = ANCHORS
    strides: list[int] = o["strides"]  # type: ignore[assignment]
    layers: int = o["num_layers"]  # type: ignore[assignment]
    anchors: list[tuple[float, float, float, float]] = []
    layer = 0
    while layer < layers:
        heights, widths = [], []
        last = layer
        while last < layers and strides[last] == strides[layer]:
            scale = calculate_scale(o["min_scale"], o["max_scale"], last, layers)  # type: ignore[arg-type]
            ratios_scales = [(ratio, scale) for ratio in o["aspect_ratios"]]  # type: ignore[attr-defined]
            if o["interpolated_scale_aspect_ratio"] > 0:  # type: ignore[operator]
                following = 1.0 if last == layers - 1 else calculate_scale(
                    o["min_scale"], o["max_scale"], last + 1, layers)  # type: ignore[arg-type]
                ratios_scales.append((o["interpolated_scale_aspect_ratio"],  # type: ignore[arg-type]
                                      math.sqrt(scale * following)))
            for ratio, each in ratios_scales:
                heights.append(each / math.sqrt(ratio))
                widths.append(each * math.sqrt(ratio))
            last += 1
        size = math.ceil(INPUT / strides[layer])
        for y in range(size):
            for x in range(size):
                for width, height in zip(widths, heights, strict=True):
                    centre = ((x + o["anchor_offset"]) / size, (y + o["anchor_offset"]) / size)  # type: ignore[operator]
                    if o["fixed_anchor_size"]:
                        width = height = 1.0
                    anchors.append((*centre, width, height))
        layer = last
    return np.array(anchors, dtype=np.float32)


def letterbox_matrix(height: float, width: float) -> np.ndarray:
    """Tensor pixel (u, v) -> picture pixel: a square of the long side, centred."""
    side = max(height, width)
    return np.array([[side / INPUT, 0, (width - side) / 2],
                     [0, side / INPUT, (height - side) / 2]], dtype=np.float64)


def wrap(core: onnx.ModelProto, anchors: np.ndarray) -> onnx.ModelProto:
    b = tfl.Nodes("pre")
    picture, height, width = tfl.picture_nchw(b, "image")
    side = b.op("Max", [height, width])
    step = b.op("Div", [side, b.const(float(INPUT))])
    zero = b.const(0.0)
    half = b.const(0.5)
    offset_x = b.op("Mul", [b.op("Sub", [width, side]), half])
    offset_y = b.op("Mul", [b.op("Sub", [height, side]), half])
    matrix = tfl.matrix_from(b, [step, zero, offset_x, zero, step, offset_y])
    warped = tfl.affine_warp(b, picture, height, width, matrix, (INPUT, INPUT), "zeros")
    # 0..255 -> -1..1
    tensor = b.op("Sub", [b.op("Mul", [warped, b.const(2.0 / 255.0)]), b.const(1.0)])

    (core_input,) = [i.name for i in core.graph.input]
    core_nodes, core_inits, (regressors, classificators) = tfl.embed_core(
        core, "core", {core_input: tensor})

    p = tfl.Nodes("post")
    raw = p.op("Squeeze", [regressors, p.const([0], np.int64)])  # [896, 16]
    logits = p.op("Reshape", [classificators, p.const([-1], np.int64)])  # [896]
    scores = p.op("Sigmoid", [p.op("Clip", [logits, p.const(-SCORE_CLIP), p.const(SCORE_CLIP)])])
    # Decoding, in tensor units 0-1: centres and keypoints are offsets from the anchor's
    # centre, sizes are relative (the anchors are 1 x 1).
    xy = p.op("Tile", [p.const(anchors[:, :2]), p.const([1, 2 + KEYPOINTS], np.int64)])
    keep_offsets = np.ones(16, np.float32)
    keep_offsets[2:4] = 0.0  # width and height take no anchor offset
    decoded = p.op("Add", [p.op("Div", [raw, p.const(SCALE)]),
                           p.op("Mul", [xy, p.const(keep_offsets)])])
    # To picture pixels: u * side + offset (the letterbox projection).
    centre_xy = p.op("Slice", [decoded, p.const([0], np.int64), p.const([2], np.int64),
                               p.const([1], np.int64)])
    size_wh = p.op("Slice", [decoded, p.const([2], np.int64), p.const([4], np.int64),
                             p.const([1], np.int64)])
    half_wh = p.op("Mul", [size_wh, p.const(0.5)])
    corners = p.op("Concat", [p.op("Sub", [centre_xy, half_wh]),
                              p.op("Add", [centre_xy, half_wh])], axis=1)  # x0 y0 x1 y1
    points = p.op("Slice", [decoded, p.const([4], np.int64), p.const([16], np.int64),
                            p.const([1], np.int64)])
    offsets_xy = p.op("Concat", [p.op("Unsqueeze", [offset_x, p.const([0], np.int64)]),
                                 p.op("Unsqueeze", [offset_y, p.const([0], np.int64)])], axis=0)
    tiled = p.op("Tile", [offsets_xy, p.const([2 + KEYPOINTS], np.int64)])  # [16]
    geometry = p.op("Add", [p.op("Mul", [p.op("Concat", [corners, points], axis=1), side]),
                            tiled])  # [896, 16] pixels: box corners then keypoints
    boxes_xy = p.op("Slice", [geometry, p.const([0], np.int64), p.const([4], np.int64),
                              p.const([1], np.int64)])
    # NonMaxSuppression wants [y0, x0, y1, x1]; IoU is the same either way.
    boxes_yx = p.op("Gather", [boxes_xy, p.const([1, 0, 3, 2], np.int64)], axis=1)
    selected = p.op("NonMaxSuppression", [
        p.op("Unsqueeze", [boxes_yx, p.const([0], np.int64)]),
        p.op("Reshape", [scores, p.const([1, 1, -1], np.int64)]),
        p.const([len(anchors)], np.int64), p.const([IOU_THRESHOLD]), p.const([MIN_SCORE])])
    leaders = p.op("Squeeze", [p.op("Slice", [selected, p.const([2], np.int64),
                                              p.const([3], np.int64), p.const([1], np.int64)]),
                               p.const([1], np.int64)])
    # Best first, whatever order NonMaxSuppression returns.
    leader_scores = p.op("Gather", [scores, leaders], axis=0)
    count = p.op("Shape", [leaders])
    top_scores, order = p.name("top_scores"), p.name("order")
    p.ops("TopK", [leader_scores, count], [top_scores, order], axis=0, largest=1, sorted=1)
    leaders = p.op("Gather", [leaders, order], axis=0)
    leader_boxes = p.op("Gather", [boxes_xy, leaders], axis=0)  # [faces, 4]
    # IoU of every leader with every anchor's box: [faces, 896].
    lb = p.op("Unsqueeze", [leader_boxes, p.const([1], np.int64)])  # [faces, 1, 4]
    ab = p.op("Unsqueeze", [boxes_xy, p.const([0], np.int64)])  # [1, 896, 4]

    def column(tensor: str, index: int) -> str:
        return p.op("Gather", [tensor, p.const(index, np.int64)], axis=2)

    inter_w = p.op("Relu", [p.op("Sub", [p.op("Min", [column(lb, 2), column(ab, 2)]),
                                         p.op("Max", [column(lb, 0), column(ab, 0)])])])
    inter_h = p.op("Relu", [p.op("Sub", [p.op("Min", [column(lb, 3), column(ab, 3)]),
                                         p.op("Max", [column(lb, 1), column(ab, 1)])])])
    inter = p.op("Mul", [inter_w, inter_h])

    def area(tensor: str) -> str:
        return p.op("Mul", [p.op("Sub", [column(tensor, 2), column(tensor, 0)]),
                            p.op("Sub", [column(tensor, 3), column(tensor, 1)])])

    union = p.op("Sub", [p.op("Add", [area(lb), area(ab)]), inter])
    iou = p.op("Div", [inter, p.op("Max", [union, p.const(1e-12)])])
    # Candidates: anchors that pass the score threshold and overlap the leader; each belongs
    # to the first (best) leader it overlaps, as MediaPipe removes it from the rest there.
    overlaps = p.op("And", [p.op("Greater", [iou, p.const(IOU_THRESHOLD)]),
                            p.op("Unsqueeze", [p.op("Greater", [scores, p.const(MIN_SCORE)]),
                                               p.const([0], np.int64)])])
    member = p.op("Cast", [overlaps], to=TensorProto.FLOAT)
    running = p.op("CumSum", [member, p.const(0, np.int64)])
    first = p.op("Mul", [member, p.op("Cast", [p.op("Equal", [running, p.const(1.0)])],
                                      to=TensorProto.FLOAT)])
    weights = p.op("Mul", [first, p.op("Unsqueeze", [scores, p.const([0], np.int64)])])
    total = p.op("ReduceSum", [weights, p.const([1], np.int64)], keepdims=1)
    merged = p.op("Div", [p.op("MatMul", [weights, geometry]), total])  # [faces, 16]
    p.op("Slice", [merged, p.const([0], np.int64), p.const([4], np.int64),
                   p.const([1], np.int64)], output="boxes")
    p.op("Identity", [top_scores], output="scores")
    p.op("Reshape", [p.op("Slice", [merged, p.const([4], np.int64), p.const([16], np.int64),
                                    p.const([1], np.int64)]),
                     p.const([-1, KEYPOINTS, 2], np.int64)], output="keypoints")

    return tfl.finish_model(
        b.nodes + core_nodes + p.nodes, "blazeface_short_range_rgba",
        [helper.make_tensor_value_info("image", TensorProto.UINT8, ["height", "width", 4])],
        [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, ["faces", 4]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["faces"]),
         helper.make_tensor_value_info("keypoints", TensorProto.FLOAT, ["faces", KEYPOINTS, 2])],
        b.initializers + core_inits + p.initializers, core,
        "BlazeFace short-range face detection (MediaPipe, pretrained): RGBA picture in, face "
        "boxes, scores and six keypoints out, in pixels")


def letterboxed(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network's input as MediaPipe makes it, in numpy: [1, 128, 128, 3] and the matrix."""
    height, width = pixels.shape[:2]
    matrix = letterbox_matrix(height, width)
    warped = tfl.numpy_warp(pixels[:, :, :3], matrix, (INPUT, INPUT), "zeros")
    return (warped * (2.0 / 255.0) - 1.0).astype(np.float32)[None], matrix


def reference_detections(interpreter: object, pixels: np.ndarray, anchors: np.ndarray
                         ) -> list[dict[str, object]]:
    """MediaPipe's steps in plain numpy around TensorFlow Lite, its NMS loop as written in
    NonMaxSuppressionCalculator (WeightedNonMaxSuppression)."""
    tensor, matrix = letterboxed(pixels)
    regressors, classificators = tfl.run_tflite(interpreter, tensor)
    raw = regressors[0].astype(np.float64) / SCALE
    scores = 1.0 / (1.0 + np.exp(-np.clip(classificators[0, :, 0].astype(np.float64),
                                          -SCORE_CLIP, SCORE_CLIP)))
    ax, ay = anchors[:, 0:1].astype(np.float64), anchors[:, 1:2].astype(np.float64)
    cx, cy = raw[:, 0:1] + ax, raw[:, 1:2] + ay
    w, h = raw[:, 2:3], raw[:, 3:4]
    kx, ky = raw[:, 4::2] + ax, raw[:, 5::2] + ay
    side, x_off, y_off = matrix[0, 0] * INPUT, matrix[0, 2], matrix[1, 2]
    boxes = np.hstack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
    boxes = boxes * side + np.array([x_off, y_off, x_off, y_off])
    points = np.stack([kx * side + x_off, ky * side + y_off], axis=2)  # [896, 6, 2]
    remaining = sorted((i for i in range(len(scores)) if scores[i] > MIN_SCORE),
                       key=lambda i: -scores[i])
    found = []
    while remaining:
        leader = remaining[0]
        cluster = [i for i in remaining if tfl.box_iou(boxes[i], boxes[leader]) > IOU_THRESHOLD]
        remaining = [i for i in remaining if i not in cluster]
        weight = scores[cluster][:, None]
        found.append({
            "score": float(scores[leader]),
            "box": (boxes[cluster] * weight).sum(0) / weight.sum(),
            "keypoints": (points[cluster] * weight[:, :, None]).sum(0) / weight.sum(),
        })
    return found


def top_score(interpreter: object, pixels: np.ndarray) -> float:
    """The best anchor's score, whatever the threshold."""
    _, classificators = tfl.run_tflite(interpreter, letterboxed(pixels)[0])
    return float(1.0 / (1.0 + np.exp(-np.clip(classificators.max(), -SCORE_CLIP, SCORE_CLIP))))


def main() -> None:
    out_dir = parse_out_dir(__file__)
    tflite_path = tfl.fetch_tflite(SOURCE, NAME)
    core = tfl.convert_tflite(tflite_path, NAME, input_name="input")
    anchors = ssd_anchors()
    if anchors.shape != (896, 4):
        raise ParityError(f"{NAME}: made {len(anchors)} anchors, the network has 896")
    model = wrap(core, anchors)
    tfl.check_loads(model, f"{NAME}: the wrapped graph")

    interpreter = tfl.tflite_interpreter(tflite_path)
    core_session = tfl.session(core)
    session = tfl.session(model)
    reference = tfl.mediapipe_reference()
    core_diff = pipeline_diff = 0.0
    parity: dict[str, object] = {}
    tops: dict[str, float] = {}
    for name in tfl.PHOTO_NAMES:
        pixels = tfl.read_photo(name)
        tensor, _ = letterboxed(pixels)
        expected = tfl.run_tflite(interpreter, tensor)
        got = core_session.run(None, {"input": tensor.transpose(0, 3, 1, 2)})
        core_diff = max(core_diff, *(float(np.abs(e - g).max()) for e, g in zip(expected, got, strict=True)))
        boxes, scores, keypoints = session.run(["boxes", "scores", "keypoints"], {"image": pixels})
        numpy_found = reference_detections(interpreter, pixels, anchors)
        if len(numpy_found) != len(scores):
            raise ParityError(f"{NAME}: {name}: the graph finds {len(scores)} faces, the numpy "
                              f"reference {len(numpy_found)}")
        for index, face in enumerate(numpy_found):
            pipeline_diff = max(pipeline_diff,
                                float(np.abs(face["box"] - boxes[index]).max()),  # type: ignore[operator]
                                float(np.abs(face["keypoints"] - keypoints[index]).max()),  # type: ignore[operator]
                                abs(face["score"] - float(scores[index])))  # type: ignore[operator]
        tops[name] = round(top_score(interpreter, pixels), 4)
        parity[name] = compare_mediapipe(name, reference["photos"][name]["face_detection"],
                                         boxes, scores, keypoints)
    check_parity(f"{NAME} (core network against TensorFlow Lite)", core_diff, TOLERANCE)
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
            "exporter": "tf2onnx.convert.from_tflite, then onnx.helper (pre- and "
                        "post-processing)",
            "opset_version": 17, "ir_version": model.ir_version, "inputs_as_nchw": ["input"],
            "anchors": ANCHORS, "score_threshold": MIN_SCORE, "iou_threshold": IOU_THRESHOLD,
            "nms": "NonMaxSuppression leaders, score-weighted mean of each leader's candidates",
        },
        script=__file__,
        parity_max_abs_diff=core_diff,
        extra={
            "preprocessing": PREPROCESSING,
            "parity_against": "TensorFlow Lite interpreter (tensorflow "
                              f"{tfl.versions()['tensorflow']}) on the same input tensor, the "
                              "four sample photos",
            "pipeline_max_abs_diff": f"{pipeline_diff:.6g}",
            "pipeline_against": "numpy reference of MediaPipe's pre- and post-processing "
                                "around the TensorFlow Lite interpreter, pixels and scores",
            "mediapipe_parity": json.dumps(parity, sort_keys=True),
            "mediapipe_parity_against": "models/_photos/tfl.mediapipe_reference.json (MediaPipe "
                                        f"{reference['versions']['mediapipe']} FaceDetection)",
            "top_anchor_score": json.dumps(tops, sort_keys=True),
            **tfl.source_metadata(SOURCE, ORIGINAL_MODEL,
                                  f"astronaut.png, SHA-256 {tfl.photo_sha256('astronaut')}"),
        },
    )
    path = out_dir / "model.onnx"
    size = save_checked(model, path)
    print(f"{NAME}: wrote {path} ({size} bytes) and {sample.name}; core vs TFLite "
          f"{core_diff:.3g}, graph vs numpy reference {pipeline_diff:.3g}; MediaPipe parity "
          f"{json.dumps(parity)}; top anchor scores {json.dumps(tops)}")


def compare_mediapipe(name: str, expected: list[dict[str, object]], boxes: np.ndarray,
                      scores: np.ndarray, keypoints: np.ndarray) -> dict[str, object]:
    """Box IoU and keypoint distance against MediaPipe's detections; fails below the bar."""
    if len(expected) != len(scores):
        raise ParityError(f"{NAME}: {name}: MediaPipe finds {len(expected)} faces, the graph "
                          f"{len(scores)} (scores {np.round(scores, 3).tolist()})")
    worst_iou, worst_px, worst_score = 1.0, 0.0, 0.0
    for index, face in enumerate(expected):
        worst_iou = min(worst_iou, tfl.box_iou(face["box"], boxes[index]))
        distance = np.linalg.norm(np.asarray(face["keypoints"]) - keypoints[index], axis=1)
        worst_px = max(worst_px, float(distance.max()))
        worst_score = max(worst_score, abs(float(face["score"]) - float(scores[index])))  # type: ignore[arg-type]
    if worst_iou < MIN_BOX_IOU or worst_px > MAX_KEYPOINT_PX:
        raise ParityError(f"{NAME}: {name}: against MediaPipe box IoU {worst_iou:.3f} (needs "
                          f">= {MIN_BOX_IOU}), keypoints off by {worst_px:.2f} px (at most "
                          f"{MAX_KEYPOINT_PX})")
    return {"faces": len(expected), "min_box_iou": round(worst_iou, 4),
            "max_keypoint_px": round(worst_px, 3), "max_score_diff": round(worst_score, 4)}


if __name__ == "__main__":
    run_main(main)
