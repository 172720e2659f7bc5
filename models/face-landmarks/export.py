"""Export `face-landmarks`: MediaPipe's face mesh (468 points), converted from TensorFlow
Lite, with the crop from a face detection and the way back to the picture inside the graph.

The network is `face_landmark.tflite` from the `mediapipe` 0.10.14 wheel on PyPI
(Apache-2.0), converted by tf2onnx 1.17 (`tf2onnx.convert.from_tflite`, opset 17, NCHW
input). It sees a 192x192 face crop. Around it, as ONNX operators, the steps MediaPipe's
`FaceLandmarkFrontCpu` graph runs between a detection and the landmarks, with the constants
of its expanded graph config in the same wheel:

1. DetectionsToRectsCalculator (rotation_vector_start_keypoint_index 0, end 1, target angle
   0): the crop is centred on the detection's box and turned so that the line from the right
   eye to the left eye is level: rotation = atan2(dy, dx) of that line, in pixels. The graph
   needs only its cosine and sine, dx / r and dy / r (ONNX has no atan2);
2. RectTransformationCalculator (scale_x 1.5, scale_y 1.5, square_long: true): a square whose
   side is 1.5 times the box's longer side;
3. ImageToTensorCalculator (192x192, values 0-1, border mode unspecified, which MediaPipe
   treats as BORDER_REPLICATE): the rotated square sampled bilinearly, with `GridSample`;
4. the network: 468 points (x, y, z in crop pixels) and a face-presence logit;
5. TensorsToFloatsCalculator (sigmoid) for the face score, and LandmarkProjectionCalculator:
   the points turned and scaled back into the picture (z scaled like x).

So the model takes `image` uint8 [height, width, 4] RGBA (any size) with the face detector's
`boxes` float [faces, 4] and `keypoints` float [faces, 6, 2] (models/face-detection's outputs,
in pixels; the first face is used, and with no face the whole picture is the crop), and
returns `landmarks` float [468, 3] in the picture's pixels, `face_score` float [1] (MediaPipe
drops the landmarks below 0.5) and `transform` float [2, 3], which maps a crop pixel (u, v, 1)
to the picture (for drawing the crop).

Checks before anything is written (each failure one line; model.onnx stays as it was): the core
network against TensorFlow Lite's interpreter on the same crop; the whole graph against a
numpy reference of steps 1-5 around TensorFlow Lite; the whole graph, fed MediaPipe's own
detections, against MediaPipe's own face mesh (models/_photos/mediapipe_reference.json): every
point within 2 px.

Also writes `test_data_set_0/` (the astronaut photo and MediaPipe's detection of it: the live
example's sample) and `mesh.json` (the face mesh's edges, from the wheel's
face_mesh_connections.py, for drawing the mesh).

Run `.venv-tf/bin/python models/face-landmarks/export.py [--out DIR]`.
"""

from __future__ import annotations

import ast
import json
import math
import os
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
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
ORIGINAL_MODEL = "MediaPipe Face Mesh (face_landmark), by Google"
NAME = "face-landmarks"
SOURCE = tfl.TfliteSource("mediapipe/modules/face_landmark/face_landmark.tflite",
                          "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814")
CONNECTIONS = "mediapipe/python/solutions/face_mesh_connections.py"
# Core network against TensorFlow Lite: points in crop pixels 0-192.
TOLERANCE = 1e-2
# The whole graph against the numpy reference, in picture pixels.
PIPELINE_TOLERANCE = 2e-2
CROP = 192
SCALE = 1.5  # RectTransformationCalculator scale_x, scale_y (square_long)
POINTS = 468
MAX_LANDMARK_PX = 2.0  # MediaPipe parity (issue 22)
SAMPLE = "astronaut"
PREPROCESSING = (
    "input: image uint8 RGBA HWC 0-255, any size, with the face detector's boxes [faces, 4] "
    "(x0 y0 x1 y1) and keypoints [faces, 6, 2] in its pixels; the first face is used (none: "
    "the whole picture). The graph crops a square 1.5 times the box's longer side, centred on "
    "the box and turned so the eyes are level, samples it at 192x192 bilinearly (edge pixels "
    "repeated) and scales to 0-1. outputs: landmarks [468, 3] x y z in the picture's pixels "
    "(z scaled like x), face_score [1] (sigmoid), transform [2, 3] crop pixel -> picture pixel"
)


def roi_matrix(box: np.ndarray, keypoints: np.ndarray) -> np.ndarray:
    """MediaPipe's ROI as in its calculators (atan2 and all): crop pixel -> picture pixel."""
    x0, y0, x1, y1 = (float(v) for v in box)
    (rx, ry), (lx, ly) = keypoints[0], keypoints[1]
    rotation = 0.0 - math.atan2(-(ly - ry), lx - rx)  # target angle 0
    rotation -= 2 * math.pi * math.floor((rotation + math.pi) / (2 * math.pi))
    side = SCALE * max(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    cos, sin = math.cos(rotation), math.sin(rotation)
    step = side / CROP
    return np.array([[cos * step, -sin * step, cx - side * (cos - sin) / 2],
                     [sin * step, cos * step, cy - side * (sin + cos) / 2]])


def wrap(core: onnx.ModelProto) -> onnx.ModelProto:
    b = tfl.Nodes("pre")
    picture, height, width = tfl.picture_nchw(b, "image")
    zero, one = b.const(0.0), b.const(1.0)

    def row(values: list[str]) -> str:
        return b.op("Concat", [b.op("Unsqueeze", [v, b.const([0], np.int64)]) for v in values],
                    axis=0)

    # The first face, or (none) the whole picture with level "eyes".
    whole = b.op("Unsqueeze", [row([zero, zero, width, height]), b.const([0], np.int64)])
    box = b.op("Gather", [b.op("Concat", ["boxes", whole], axis=0), b.const(0, np.int64)], axis=0)
    level = b.const(np.zeros((1, 6, 2), np.float32))
    points = b.op("Gather", [b.op("Concat", ["keypoints", level], axis=0),
                             b.const(0, np.int64)], axis=0)  # [6, 2]
    x0, y0, x1, y1 = (b.scalar(box, i) for i in range(4))
    right_eye = b.op("Gather", [points, b.const(0, np.int64)], axis=0)
    left_eye = b.op("Gather", [points, b.const(1, np.int64)], axis=0)
    eyes = b.op("Sub", [left_eye, right_eye])
    dx, dy = b.scalar(eyes, 0), b.scalar(eyes, 1)
    r = b.op("Sqrt", [b.op("Add", [b.op("Mul", [dx, dx]), b.op("Mul", [dy, dy])])])
    has_eyes = b.op("Greater", [r, zero])
    safe_r = b.op("Max", [r, b.const(1e-12)])
    cos = b.op("Where", [has_eyes, b.op("Div", [dx, safe_r]), one])
    sin = b.op("Where", [has_eyes, b.op("Div", [dy, safe_r]), zero])
    side = b.op("Mul", [b.op("Max", [b.op("Sub", [x1, x0]), b.op("Sub", [y1, y0])]),
                        b.const(SCALE)])
    half = b.const(0.5)
    cx = b.op("Mul", [b.op("Add", [x0, x1]), half])
    cy = b.op("Mul", [b.op("Add", [y0, y1]), half])
    step = b.op("Div", [side, b.const(float(CROP))])
    half_side = b.op("Mul", [side, half])
    a00 = b.op("Mul", [cos, step])
    a01 = b.op("Neg", [b.op("Mul", [sin, step])])
    a02 = b.op("Sub", [cx, b.op("Mul", [half_side, b.op("Sub", [cos, sin])])])
    a10 = b.op("Mul", [sin, step])
    a11 = a00
    a12 = b.op("Sub", [cy, b.op("Mul", [half_side, b.op("Add", [sin, cos])])])
    matrix = tfl.matrix_from(b, [a00, a01, a02, a10, a11, a12])
    crop = tfl.affine_warp(b, picture, height, width, matrix, (CROP, CROP), "border")
    tensor = b.op("Mul", [crop, b.const(1.0 / 255.0)])

    (core_input,) = [i.name for i in core.graph.input]
    core_nodes, core_inits, (mesh, flag) = tfl.embed_core(core, "core", {core_input: tensor})

    p = tfl.Nodes("post")
    crop_points = p.op("Reshape", [mesh, p.const([POINTS, 3], np.int64)])
    xy = p.op("Slice", [crop_points, p.const([0], np.int64), p.const([2], np.int64),
                        p.const([1], np.int64)])
    z = p.op("Slice", [crop_points, p.const([2], np.int64), p.const([3], np.int64),
                       p.const([1], np.int64)])
    linear = p.op("Slice", [matrix, p.const([0], np.int64), p.const([2], np.int64),
                            p.const([1], np.int64)])  # [2, 2]
    shift = p.op("Reshape", [p.op("Slice", [matrix, p.const([2], np.int64),
                                            p.const([3], np.int64), p.const([1], np.int64)]),
                             p.const([1, 2], np.int64)])
    picture_xy = p.op("Add", [p.op("MatMul", [xy, p.op("Transpose", [linear], perm=[1, 0])]),
                              shift])
    picture_z = p.op("Mul", [z, step])
    p.op("Concat", [picture_xy, picture_z], output="landmarks", axis=1)
    p.op("Sigmoid", [p.op("Reshape", [flag, p.const([1], np.int64)])], output="face_score")
    p.op("Identity", [matrix], output="transform")

    return tfl.finish_model(
        b.nodes + core_nodes + p.nodes, "face_mesh_from_detection_rgba",
        [helper.make_tensor_value_info("image", TensorProto.UINT8, ["height", "width", 4]),
         helper.make_tensor_value_info("boxes", TensorProto.FLOAT, ["faces", 4]),
         helper.make_tensor_value_info("keypoints", TensorProto.FLOAT, ["faces", 6, 2])],
        [helper.make_tensor_value_info("landmarks", TensorProto.FLOAT, [POINTS, 3]),
         helper.make_tensor_value_info("face_score", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("transform", TensorProto.FLOAT, [2, 3])],
        b.initializers + core_inits + p.initializers, core,
        "MediaPipe face mesh (pretrained): RGBA picture and a face detection in, the face "
        "cropped and turned upright inside the graph, 468 points out in the picture's pixels")


def reference_landmarks(interpreter: object, pixels: np.ndarray, box: np.ndarray,
                        keypoints: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """Steps 1-5 in numpy around TensorFlow Lite: picture points, face score, the crop."""
    matrix = roi_matrix(box, keypoints)
    crop = (tfl.numpy_warp(pixels[:, :, :3], matrix, (CROP, CROP), "border") / 255.0)
    mesh, flag = tfl.run_tflite(interpreter, crop.astype(np.float32)[None])
    points = mesh.reshape(POINTS, 3).astype(np.float64)
    # LandmarkProjectionCalculator: relative to the crop's centre, turned, scaled, moved.
    picture = np.empty_like(points)
    picture[:, :2] = points[:, :2] @ matrix[:, :2].T + matrix[:, 2]
    picture[:, 2] = points[:, 2] * math.hypot(matrix[0, 0], matrix[1, 0])  # z like x
    score = 1.0 / (1.0 + math.exp(-float(flag.reshape(-1)[0])))
    return picture, score, crop.astype(np.float32)[None]


def mesh_edges(who: str) -> dict[str, list[list[int]]]:
    """The face mesh's edges from the wheel's face_mesh_connections.py, read with ast."""
    source = tfl.wheel_member(tfl.fetch_wheel(tfl.MEDIAPIPE, who), CONNECTIONS).decode("utf-8")
    sets: dict[str, set[tuple[int, int]]] = {}
    for node in ast.parse(source).body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call) and node.value.args
                and isinstance(node.value.args[0], ast.List)):
            sets[node.targets[0].id] = set(ast.literal_eval(node.value.args[0]))
    contours = ("FACEMESH_LIPS", "FACEMESH_LEFT_EYE", "FACEMESH_LEFT_EYEBROW",
                "FACEMESH_RIGHT_EYE", "FACEMESH_RIGHT_EYEBROW", "FACEMESH_FACE_OVAL")
    return {
        "tesselation": sorted(map(list, sets["FACEMESH_TESSELATION"])),
        "contours": sorted(map(list, set().union(*(sets[name] for name in contours)))),
    }


def write_sample(out_dir: Path, pixels: np.ndarray, face: dict[str, object]) -> None:
    """test_data_set_0: the photo and MediaPipe's detection of it, as TensorProto files."""
    folder = out_dir / "test_data_set_0"
    folder.mkdir(parents=True, exist_ok=True)
    feeds = {"image": pixels,
             "boxes": np.asarray([face["box"]], dtype=np.float32),
             "keypoints": np.asarray([face["keypoints"]], dtype=np.float32)}
    for index, (name, array) in enumerate(feeds.items()):
        tensor = numpy_helper.from_array(array, name)
        (folder / f"input_{index}.pb").write_bytes(tensor.SerializeToString(deterministic=True))


def main() -> None:
    out_dir = parse_out_dir(__file__)
    tflite_path = tfl.fetch_tflite(SOURCE, NAME)
    core = tfl.convert_tflite(tflite_path, NAME, input_name="input_1")
    model = wrap(core)
    tfl.check_loads(model, f"{NAME}: the wrapped graph")

    interpreter = tfl.tflite_interpreter(tflite_path)
    core_session = tfl.session(core)
    session = tfl.session(model)
    reference = tfl.mediapipe_reference()
    core_diff = pipeline_diff = 0.0
    parity: dict[str, object] = {}
    for name in tfl.PHOTO_NAMES:
        photo = reference["photos"][name]
        if not photo["face_detection"]:
            continue
        pixels = tfl.read_photo(name)
        face = photo["face_detection"][0]
        box = np.asarray([face["box"]], np.float32)
        keypoints = np.asarray([face["keypoints"]], np.float32)
        expected, expected_score, crop = reference_landmarks(interpreter, pixels, box[0],
                                                             keypoints[0])
        tflite_out = tfl.run_tflite(interpreter, crop)
        core_out = core_session.run(None, {"input_1": crop.transpose(0, 3, 1, 2)})
        core_diff = max(core_diff, *(float(np.abs(t - c).max())
                                     for t, c in zip(tflite_out, core_out, strict=True)))
        landmarks, score, _ = session.run(None, {"image": pixels, "boxes": box,
                                                 "keypoints": keypoints})
        pipeline_diff = max(pipeline_diff, float(np.abs(expected - landmarks).max()),
                            abs(expected_score - float(score[0])))
        mesh = photo["face_mesh_landmarks"]
        if mesh is None:
            parity[name] = {"mediapipe_mesh": "none (its face score is below 0.5)",
                            "face_score": round(float(score[0]), 4)}
            continue
        distance = np.linalg.norm(np.asarray(mesh)[:, :2] - landmarks[:, :2], axis=1)
        worst = float(distance.max())
        if worst > MAX_LANDMARK_PX:
            raise ParityError(f"{NAME}: {name}: a landmark lies {worst:.2f} px from MediaPipe's "
                              f"(at most {MAX_LANDMARK_PX})")
        parity[name] = {"max_landmark_px": round(worst, 3),
                        "mean_landmark_px": round(float(distance.mean()), 3),
                        "face_score": round(float(score[0]), 4)}
    check_parity(f"{NAME} (core network against TensorFlow Lite)", core_diff, TOLERANCE)
    check_parity(f"{NAME} (whole graph against the numpy reference)", pipeline_diff,
                 PIPELINE_TOLERANCE)

    sample_face = reference["photos"][SAMPLE]["face_detection"][0]
    write_sample(out_dir, tfl.read_photo(SAMPLE), sample_face)
    edges = mesh_edges(NAME)
    (out_dir / "mesh.json").write_text(
        "{\n" + ",\n".join(f' "{key}": {json.dumps(value)}' for key, value in edges.items())
        + "\n}\n", encoding="utf-8")
    tfl.write_licence(out_dir, NAME)
    stamp_provenance(
        model,
        framework="tensorflow-lite (MediaPipe)",
        framework_version=f"mediapipe {tfl.MEDIAPIPE.version}",
        exporter_settings={
            "exporter": "tf2onnx.convert.from_tflite, then onnx.helper (crop and projection)",
            "opset_version": 17, "ir_version": model.ir_version, "inputs_as_nchw": ["input_1"],
            "crop": {"size": CROP, "scale": SCALE, "square_long": True,
                     "rotation_keypoints": [0, 1], "padding": "border"},
        },
        script=__file__,
        parity_max_abs_diff=core_diff,
        extra={
            "preprocessing": PREPROCESSING,
            "parity_against": "TensorFlow Lite interpreter (tensorflow "
                              f"{tfl.versions()['tensorflow']}) on the same 192x192 crop",
            "pipeline_max_abs_diff": f"{pipeline_diff:.6g}",
            "pipeline_against": "numpy reference of MediaPipe's ROI, crop and projection "
                                "around the TensorFlow Lite interpreter, picture pixels",
            "mediapipe_parity": json.dumps(parity, sort_keys=True),
            "mediapipe_parity_against": "models/_photos/tfl.mediapipe_reference.json (MediaPipe "
                                        f"{reference['versions']['mediapipe']} FaceMesh), fed "
                                        "MediaPipe's FaceDetection boxes and keypoints",
            **tfl.source_metadata(SOURCE, ORIGINAL_MODEL,
                                  f"{SAMPLE}.png, SHA-256 {tfl.photo_sha256(SAMPLE)}, with MediaPipe's "
                                  "detection of it (test_data_set_0)"),
        },
    )
    path = out_dir / "model.onnx"
    size = save_checked(model, path)
    print(f"{NAME}: wrote {path} ({size} bytes), test_data_set_0 and mesh.json; core vs "
          f"TFLite {core_diff:.3g}, graph vs numpy reference {pipeline_diff:.3g}; MediaPipe "
          f"parity {json.dumps(parity)}")


if __name__ == "__main__":
    run_main(main)
