"""What the glossary says about MediaPipe's models, TensorFlow Lite, tf2onnx, anchors and
non-maximum suppression, and segmentation masks, run here.

Named ``<term>__<claim>`` like every claim test; glossary/claims.yml says which sentence each one
backs. Two kinds:

- Python onnxruntime (1.32.0) on this site's committed models (`models/face-detection`,
  `models/background-removal`), with the converted network's own outputs exposed
  (``core.regressors``, ``core.classificators``): the raw numbers BlazeFace gives, decoded here
  by hand, against MediaPipe 0.10.14's own answers (`models/_photos/mediapipe_reference.json`).
- TensorFlow 2.21 and tf2onnx 1.17 on the pinned `.tflite` files, which live in `.venv-tf`
  (`make setup-tf`): `tests/support/tflite_facts.py` runs there once per session (about 14 s)
  and the tests assert on the JSON it prints. Without `.venv-tf` those tests skip.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, defs, helper, numpy_helper
from onnx_glossary.models.tflite_export import (
    PHOTO_NAMES,
    box_iou,
    mask_iou,
    mediapipe_mask,
    mediapipe_reference,
    read_photo,
)

from .sitebuild import MODELS, REPO

CPU = ["CPUExecutionProvider"]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
DETECTOR = MODELS / "face-detection" / "model.onnx"
SEGMENTER = MODELS / "background-removal" / "model.onnx"
#: BlazeFace's constants as MediaPipe's face_detection graphs set them.
INPUT, SCALE, MIN_SCORE, IOU = 128, 128.0, 0.5, 0.3


def session(model: onnx.ModelProto) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), options, providers=CPU)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x.astype(np.float64), -100, 100)))


# -- the face detector -------------------------------------------------------------------------


def anchors_of(model: onnx.ModelProto) -> onnx.TensorProto:
    """The anchor centres the graph stores: the one [896, 2] initializer."""
    (found,) = [t for t in model.graph.initializer if list(t.dims) == [896, 2]]
    return found


@pytest.fixture(scope="module")
def detector() -> onnx.ModelProto:
    return onnx.load(DETECTOR)


@pytest.fixture(scope="module")
def raw_detector(detector: onnx.ModelProto) -> ort.InferenceSession:
    """The committed graph with the converted network's two outputs exposed as well."""
    model = copy.deepcopy(detector)
    for name in ("core.regressors", "core.classificators"):
        model.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    return session(model)


def decode(raw: ort.InferenceSession, anchors: np.ndarray, pixels: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """BlazeFace's raw outputs decoded as the page says: centre = anchor + offset / 128,
    width and height = value / 128 (anchors of size 1), sigmoid score, then from the padded
    128 x 128 square to the photo's pixels. Returns boxes [896, 4], keypoints [896, 6, 2],
    scores [896] and the raw regressors [896, 16]."""
    *_, regressors, classificators = raw.run(None, {"image": pixels})
    values = regressors[0].astype(np.float64) / SCALE
    height, width = pixels.shape[:2]
    side = max(height, width)
    offset = np.array([(width - side) / 2, (height - side) / 2])
    cx, cy = values[:, 0] + anchors[:, 0], values[:, 1] + anchors[:, 1]
    w, h = values[:, 2], values[:, 3]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1) * side + np.tile(offset, 2)
    points = np.stack([values[:, 4::2] + anchors[:, :1], values[:, 5::2] + anchors[:, 1:2]], 2)
    return boxes, points * side + offset, sigmoid(classificators[0, :, 0]), regressors[0]


def suppress(boxes: np.ndarray, points: np.ndarray, scores: np.ndarray, *, weighted: bool
             ) -> list[dict[str, Any]]:
    """Non-maximum suppression as the page describes it: best box first, every box overlapping
    it by IoU > 0.3 removed; weighted, the winner becomes its group's score-weighted mean."""
    remaining = sorted((i for i in range(len(scores)) if scores[i] > MIN_SCORE), key=lambda i: -scores[i])
    found = []
    while remaining:
        leader = remaining[0]
        group = [i for i in remaining if box_iou(boxes[i], boxes[leader]) > IOU]
        remaining = [i for i in remaining if i not in group]
        weight = scores[group][:, None]
        found.append({
            "leader": leader, "score": float(scores[leader]), "group": len(group),
            "box": (boxes[group] * weight).sum(0) / weight.sum() if weighted else boxes[leader],
            "keypoints": ((points[group] * weight[:, :, None]).sum(0) / weight.sum()
                          if weighted else points[leader]),
        })
    return found


def test_anchors_and_nms__blazeface_has_896_anchors_on_two_grids(detector, raw_detector) -> None:
    anchors = numpy_helper.to_array(anchors_of(detector))
    # 16 x 16 cells of stride 8, two anchors each; then 8 x 8 cells of stride 16, six each.
    fine = [((x + 0.5) / 16, (y + 0.5) / 16) for y in range(16) for x in range(16) for _ in range(2)]
    coarse = [((x + 0.5) / 8, (y + 0.5) / 8) for y in range(8) for x in range(8) for _ in range(6)]
    np.testing.assert_allclose(anchors, np.array(fine + coarse), atol=1e-7)
    assert len(fine) == 512 and len(coarse) == 384
    # The network sees 128 x 128 and gives 16 numbers and one score logit per anchor.
    *_, regressors, classificators = raw_detector.run(None, {"image": read_photo("astronaut")})
    assert regressors.shape == (1, 896, 16) and classificators.shape == (1, 896, 1)
    size = [i for i in detector.graph.initializer if list(i.dims) == [INPUT]]
    assert size, "the 128-wide sampling grid"


def test_anchors_and_nms__decoding_by_hand_and_weighted_nms_give_mediapipes_faces(detector, raw_detector) -> None:
    """The decoding, the thresholds and weighted NMS written out here reproduce MediaPipe's own
    detections from the network's raw numbers (box, six keypoints, score)."""
    anchors = numpy_helper.to_array(anchors_of(detector)).astype(np.float64)
    reference = mediapipe_reference()["photos"]
    for name in PHOTO_NAMES:
        faces = suppress(*decode(raw_detector, anchors, read_photo(name))[:3], weighted=True)
        expected = reference[name]["face_detection"]
        assert len(faces) == len(expected), name
        for face, theirs in zip(faces, expected, strict=True):
            assert box_iou(face["box"], theirs["box"]) > 0.95, name
            assert np.linalg.norm(face["keypoints"] - np.array(theirs["keypoints"]), axis=1).max() < 1.0
            assert abs(face["score"] - theirs["score"]) < 0.005
            assert 6 <= face["group"] <= 11  # several neighbouring anchors fire on one face


def test_anchors_and_nms__hard_nms_keeps_the_winners_and_moves_the_keypoints(detector, raw_detector) -> None:
    anchors = numpy_helper.to_array(anchors_of(detector)).astype(np.float64)
    moved = []
    for name in ("astronaut", "astronaut-tilted", "chelsea-small"):
        decoded = decode(raw_detector, anchors, read_photo(name))[:3]
        weighted, hard = suppress(*decoded, weighted=True), suppress(*decoded, weighted=False)
        assert [f["leader"] for f in hard] == [f["leader"] for f in weighted]
        for a, b in zip(weighted, hard, strict=True):
            moved.append(float(np.linalg.norm(a["keypoints"] - b["keypoints"], axis=1).max()))
    # 1.7, 2.2 and 3.8 px measured: "a few pixels".
    assert all(1.0 < px < 5.0 for px in moved), moved


def test_anchors_and_nms__the_cat_scores_0_63_at_128_px_and_0_48_at_256(detector, raw_detector) -> None:
    anchors = numpy_helper.to_array(anchors_of(detector)).astype(np.float64)
    small = read_photo("chelsea-small")
    assert small.shape[1] == 128
    best_small = float(decode(raw_detector, anchors, small)[2].max())
    best_large = float(decode(raw_detector, anchors, read_photo("chelsea"))[2].max())
    assert round(best_small, 2) == 0.63 and round(best_large, 2) == 0.48
    (theirs,) = mediapipe_reference()["photos"]["chelsea-small"]["face_detection"]
    assert round(theirs["score"], 3) == 0.630
    faces = lambda name: len(raw_detector.run(["scores"], {"image": read_photo(name)})[0])  # noqa: E731
    assert faces("chelsea-small") == 1 and faces("chelsea") == 0


def replace_anchors(detector: onnx.ModelProto, change: Callable[[np.ndarray], np.ndarray]) -> onnx.ModelProto:
    model = copy.deepcopy(detector)
    tensor = anchors_of(model)
    tensor.CopyFrom(numpy_helper.from_array(change(numpy_helper.to_array(tensor)).astype(np.float32),
                                            tensor.name))
    return model


def test_anchors_and_nms__a_wrong_anchor_count_fails_loudly(detector) -> None:
    for count in (895, 897):
        model = replace_anchors(detector, lambda a, n=count: np.resize(a, (n, 2)))
        with pytest.raises(Exception, match=r"Incompatible dimensions|broadcast"):
            session(model).run(None, {"image": read_photo("astronaut")})


def test_anchors_and_nms__a_half_cell_offset_only_shifts_every_box(detector) -> None:
    pixels = read_photo("astronaut")
    boxes, scores, _ = session(detector).run(None, {"image": pixels})

    def shift(a: np.ndarray) -> np.ndarray:
        out = a.copy()
        out[:512] += 0.5 / 16
        out[512:] += 0.5 / 8
        return out

    moved_boxes, moved_scores, _ = session(replace_anchors(detector, shift)).run(None, {"image": pixels})
    np.testing.assert_allclose(moved_scores, scores, rtol=1e-5)  # no error, the same faces
    offset = moved_boxes - boxes
    # The whole box moves (by half a cell of 256 / 16 px), its size does not change.
    np.testing.assert_allclose(offset, np.full_like(offset, offset[0, 0]), atol=1e-3)
    assert abs(float(offset[0, 0]) - 8.0) < 1e-3


def nms(boxes: list[list[float]], scores: list[float], *, center_point_box: int = 0,
        iou: float = 0.3, score: float = 0.0) -> list[list[int]]:
    """ONNX NonMaxSuppression (opset 17) in onnxruntime: the kept [batch, class, box] rows."""
    graph = helper.make_graph(
        [helper.make_node("NonMaxSuppression", ["boxes", "scores", "k", "iou", "score"], ["kept"],
                          center_point_box=center_point_box)], "nms",
        [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [1, None, 4]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 1, None])],
        [helper.make_tensor_value_info("kept", TensorProto.INT64, [None, 3])],
        [numpy_helper.from_array(np.array([10], np.int64), "k"),
         numpy_helper.from_array(np.array([iou], np.float32), "iou"),
         numpy_helper.from_array(np.array([score], np.float32), "score")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    (kept,) = session(model).run(None, {"boxes": np.array([boxes], np.float32),
                                        "scores": np.array([[scores]], np.float32)})
    return kept.tolist()


def test_anchors_and_nms__non_max_suppression_since_opset_10_returns_batch_class_box(detector) -> None:
    # Added in opset 10 (and revised in 11): no version exists before it.
    assert defs.get_schema("NonMaxSuppression", 10).since_version == 10
    schema = defs.get_schema("NonMaxSuppression")
    assert schema.since_version == 11 and [o.name for o in schema.outputs] == ["selected_indices"]
    with pytest.raises(defs.SchemaError):
        defs.get_schema("NonMaxSuppression", 9)
    # Three boxes as corners: the second overlaps the first (IoU 0.68), the third is apart.
    corners = [[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]]
    assert nms(corners, [0.9, 0.8, 0.7]) == [[0, 0, 0], [0, 0, 2]]
    # Read as [x, y, x, y] or [y, x, y, x], corners give the same IoU: swapping is harmless.
    swapped = [[b[1], b[0], b[3], b[2]] for b in corners]
    assert nms(swapped, [0.9, 0.8, 0.7]) == nms(corners, [0.9, 0.8, 0.7])
    # Boxes given as centre and size (IoU 0.14: all kept) but read as corners
    # (center_point_box 0, the default) lose one of them.
    centres = [[10, 10, 2, 2], [11, 11, 2, 2], [30, 30, 2, 2]]
    assert nms(centres, [0.9, 0.8, 0.7], center_point_box=1) == [[0, 0, 0], [0, 0, 1], [0, 0, 2]]
    assert nms(centres, [0.9, 0.8, 0.7]) == [[0, 0, 0], [0, 0, 2]]
    # A threshold of 0.5 meant for probabilities drops a face whose logit is 0.4 (p = 0.60).
    assert nms(corners, [2.0, 1.5, 0.4], score=0.5) == [[0, 0, 0]]
    assert nms(corners, sigmoid(np.array([2.0, 1.5, 0.4])).tolist(), score=0.5) == [[0, 0, 0], [0, 0, 2]]


def test_anchors_and_nms__this_sites_graph_keeps_anchors_decoding_and_nms_inside(detector) -> None:
    ops = {node.op_type for node in detector.graph.node}
    assert {"NonMaxSuppression", "Sigmoid", "CumSum"} <= ops
    assert [i.name for i in detector.graph.input] == ["image"]
    boxes, _, points = session(detector).run(None, {"image": read_photo("astronaut")})
    (theirs,) = mediapipe_reference()["photos"]["astronaut"]["face_detection"]
    assert box_iou(boxes[0], theirs["box"]) > 0.99  # in the photo's pixels
    assert points.shape == (1, 6, 2)


# -- the selfie segmenter ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def segmenter() -> onnx.ModelProto:
    return onnx.load(SEGMENTER)


def masks(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    run = session(model)
    return {name: run.run(["mask"], {"image": read_photo(name)})[0] for name in PHOTO_NAMES}


@pytest.fixture(scope="module")
def committed_masks(segmenter: onnx.ModelProto) -> dict[str, np.ndarray]:
    return masks(segmenter)


def test_segmentation_and_matting__a_foreground_probability_per_pixel_at_the_photos_size(
        segmenter, committed_masks) -> None:
    for name, mask in committed_masks.items():
        assert mask.shape == read_photo(name).shape[:2]
        assert mask.min() >= 0.0 and mask.max() <= 1.0
    # The network ends with a sigmoid, and its 256 x 256 mask is resized by the graph.
    producer = {out: node for node in segmenter.graph.node for out in node.output}
    core_output = next(i for node in segmenter.graph.node if not node.name.startswith("core.")
                       for i in node.input if i.startswith("core."))
    node = producer[core_output]
    while node.op_type in ("Reshape", "Transpose", "Identity"):  # layout only
        node = producer[node.input[0]]
    assert node.op_type == "Sigmoid"
    (resize,) = [n for n in segmenter.graph.node if n.op_type == "Resize" and not n.name.startswith("core.")]
    attributes = {a.name: a.s.decode() for a in resize.attribute}
    assert attributes == {"mode": "linear", "coordinate_transformation_mode": "half_pixel"}


def test_segmentation_and_matting__462_kb_and_iou_0_98_to_1_00_against_mediapipe(committed_masks) -> None:
    assert round(SEGMENTER.stat().st_size / 1000) == 462
    ious = [mask_iou(mediapipe_mask(name), mask) for name, mask in committed_masks.items()]
    assert len(ious) == 5 and all(0.98 <= iou <= 1.0 for iou in ious), ious


def test_segmentation_and_matting__the_cup_and_the_cat_are_foreground(committed_masks) -> None:
    assert round(float((committed_masks["coffee"] > 0.5).mean()), 2) == 0.16
    assert round(float((committed_masks["chelsea"] > 0.5).mean()), 2) == 0.92


def test_segmentation_and_matting__the_probability_keeps_soft_edges(committed_masks) -> None:
    for name, mask in committed_masks.items():
        partial = (mask > 0.05) & (mask < 0.95)
        assert partial.mean() > 0.02, name  # the edges between 0 and 1
        hard = (mask > 0.5).astype(np.float32)
        assert set(np.unique(hard)) <= {0.0, 1.0}


def test_segmentation_and_matting__another_resize_filter_runs_and_moves_the_edges(segmenter, committed_masks) -> None:
    nearest = copy.deepcopy(segmenter)
    (resize,) = [n for n in nearest.graph.node if n.op_type == "Resize" and not n.name.startswith("core.")]
    del resize.attribute[:]
    resize.attribute.extend([helper.make_attribute("mode", "nearest"),
                             helper.make_attribute("coordinate_transformation_mode", "asymmetric")])
    other = masks(nearest)  # runs, no error
    for name in ("coffee", "chelsea", "chelsea-small"):  # photos the mask is scaled for
        theirs = mediapipe_mask(name)
        assert np.abs(other[name] - theirs).mean() > 1.5 * np.abs(committed_masks[name] - theirs).mean()
        changed = np.abs(other[name] - committed_masks[name]) > 0.05
        assert changed.any()
        edge = (theirs > 0.02) & (theirs < 0.98)
        near_edge = edge.copy()  # the edge and its neighbours, one pixel either way
        near_edge[1:] |= edge[:-1]
        near_edge[:-1] |= edge[1:]
        near_edge[:, 1:] |= near_edge[:, :-1].copy()
        near_edge[:, :-1] |= near_edge[:, 1:].copy()
        assert not (changed & ~near_edge).any(), name


# -- TensorFlow Lite and tf2onnx (in .venv-tf) -------------------------------------------------


@pytest.fixture(scope="session")
def tflite() -> dict[str, Any]:
    if not TF_PYTHON.exists():
        pytest.skip("needs .venv-tf: run `make setup-tf` (.ci/run does)")
    done = subprocess.run([str(TF_PYTHON), str(REPO / "tests" / "support" / "tflite_facts.py")],
                          capture_output=True, text=True, check=False, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(REPO / "plugins")})
    assert done.returncode == 0, done.stderr[-3000:]
    facts: dict[str, Any] = json.loads(done.stdout)
    facts["stderr"] = done.stderr
    return facts


def test_tensorflow_lite__a_flatbuffers_file_of_subgraphs_operators_tensors_and_buffers(tflite) -> None:
    for name, file in tflite["files"].items():
        assert file["subgraphs"] == 1 and file["operators"] > 100 and file["tensors"] > file["operators"]
        assert file["buffers"] > 1, name
    # Every operator has a built-in code, except the selfie model's one custom code.
    assert tflite["files"]["background-removal"]["custom_codes"] == ["Convolution2DTransposeBias"]
    assert tflite["files"]["background-removal"]["operator_counts"]["custom"] == 1
    assert [f["custom_codes"] for n, f in tflite["files"].items() if n != "background-removal"] == [[], []]


def test_tensorflow_lite__the_interpreter_of_tensorflow_2_21_warns_about_ai_edge_litert(tflite) -> None:
    assert tflite["tensorflow"] == "2.21.0"
    (warning,) = tflite["interpreter_warnings"]
    assert "tf.lite.Interpreter is deprecated" in warning and "ai_edge_litert" in warning


def test_tensorflow_lite__float16_weights_each_with_a_dequantize_297_in_all(tflite) -> None:
    files = tflite["files"]
    for file in files.values():
        assert file["tensor_types"]["FLOAT16"] == file["operator_counts"]["DEQUANTIZE"]
        assert file["dequantize_of_float16_weights"] == file["operator_counts"]["DEQUANTIZE"]
    assert sum(f["operator_counts"]["DEQUANTIZE"] for f in files.values()) == 297


def test_tensorflow_lite__builtin_kernels_refuse_the_custom_operator_xnnpack_runs_it(tflite) -> None:
    assert tflite["selfie_builtin_kernels"] == "Encountered unresolved custom op: Convolution2DTransposeBias."
    assert tflite["selfie_default_interpreter_output"] == [1, 256, 256, 1]
    assert "Created TensorFlow Lite XNNPACK delegate for CPU" in tflite["stderr"]


def test_tensorflow_lite__tf2onnx_logs_unsupported_ops_exits_0_and_onnxruntime_refuses(tflite) -> None:
    cli = tflite["cli_without_handler"]
    assert cli["returncode"] == 0 and cli["wrote"]
    assert cli["unsupported"] == ["Unsupported ops: Counter({'TFL_Convolution2DTransposeBias': 1})"]
    assert "No Op registered for TFL_Convolution2DTransposeBias" in cli["onnxruntime"]


def test_tensorflow_lite__a_handler_converts_the_whole_model_within_2e_4(tflite) -> None:
    converted = tflite["with_handler"]
    assert converted["tf2onnx"] == "1.17.0"
    assert "ConvTranspose" in converted["operators"] and converted["custom_domains"] == []
    assert all(diff < 2e-4 for diff in converted["max_abs_diff"].values()), converted["max_abs_diff"]
    assert len(converted["max_abs_diff"]) == 5
    assert converted["last_layer_max_abs_diff"] < 1e-6


def test_tensorflow_lite__channels_last_and_inputs_as_nchw(tflite) -> None:
    assert tflite["files"]["background-removal"]["input_shape"] == [1, 256, 256, 3]
    assert tflite["files"]["face-detection"]["input_shape"] == [1, 128, 128, 3]
    assert tflite["with_handler"]["input_shape"] == [1, 3, 256, 256]
    assert tflite["blazeface_outputs"] == {"regressors": [1, 896, 16], "classificators": [1, 896, 1]}


def test_tensorflow_lite__float16_weights_become_float32_constants_twice_the_size(tflite) -> None:
    converted = tflite["with_handler"]
    assert set(converted["initializer_types"]) <= {"FLOAT", "INT64"} and converted["casts"] == 0
    tflite_bytes = tflite["files"]["background-removal"]["bytes"]
    assert round(tflite_bytes / 1000) == 250 and round(SEGMENTER.stat().st_size / 1000) == 462
    assert 1.7 < SEGMENTER.stat().st_size / tflite_bytes < 2.1

