"""models/text-detection: the real PP-OCRv4 detector on its shipped sample, with onnxruntime.

What the site's browser test will require of the live example (mean of the probability map
>= 0.5 inside the boxes of sample.boxes.json, <= 0.1 outside) must already hold in Python.
No mocks: the committed model.onnx, sample.png and sample.boxes.json.
"""

from __future__ import annotations

import hashlib
import json
import re

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from PIL import Image

from .sitebuild import MODELS

FOLDER = MODELS / "text-detection"


@pytest.fixture(scope="module")
def session() -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # as the browser runs it without cross-origin isolation
    return ort.InferenceSession(str(FOLDER / "model.onnx"), options,
                                providers=["CPUExecutionProvider"])


@pytest.fixture(scope="module")
def sample() -> np.ndarray:
    with Image.open(FOLDER / "sample.png") as image:
        return np.array(image.convert("RGBA"), dtype=np.uint8)


@pytest.fixture(scope="module")
def boxes() -> list[list[int]]:
    return json.loads((FOLDER / "sample.boxes.json").read_text(encoding="utf-8"))["boxes"]


def detect(session: ort.InferenceSession, pixels: np.ndarray) -> np.ndarray:
    result: np.ndarray = session.run(["probability"], {"image": pixels})[0]
    return result


def means(probability: np.ndarray, boxes: list[list[int]]) -> tuple[float, float]:
    inside = np.zeros(probability.shape, dtype=bool)
    for x0, y0, x1, y1 in boxes:
        inside[y0:y1, x0:x1] = True
    return float(probability[inside].mean()), float(probability[~inside].mean())


def test_sample_fits_the_page(sample, boxes):
    height, width = sample.shape[:2]
    assert max(height, width) <= 320
    assert 2 <= len(boxes) <= 3
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height


def test_map_is_high_on_the_text_and_low_elsewhere(session, sample, boxes):
    probability = detect(session, sample)
    assert probability.shape == sample.shape[:2] and probability.dtype == np.float32
    inside, outside = means(probability, boxes)
    assert inside >= 0.5, f"mean inside the boxes {inside:.3f}"
    assert outside <= 0.1, f"mean outside the boxes {outside:.4f}"
    # Each line on its own, not just on average.
    for box in boxes:
        assert means(probability, [box])[0] >= 0.5, box


def test_the_box_check_can_fail(session, sample, boxes):
    """The same check on boxes moved between the lines, and on blank paper, fails."""
    probability = detect(session, sample)
    between = [[x0, y0 + 20, x1, y1 + 20] for x0, y0, x1, y1 in boxes]
    assert means(probability, between)[0] < 0.5
    paper = np.broadcast_to(sample[0, 0], sample.shape).copy()  # the background colour only
    assert float(detect(session, paper).max()) < 0.1


@pytest.mark.parametrize("size", [(45, 77), (160, 320), (161, 333), (7, 500)])
def test_any_picture_size_works(session, sample, size):
    """Height and width need not be multiples of 32: the graph pads and crops back."""
    height, width = size
    pixels = np.resize(sample, (height, width, 4))
    assert detect(session, pixels).shape == (height, width)


def test_alpha_is_ignored(session, sample):
    transparent = sample.copy()
    transparent[:, :, 3] = 0
    np.testing.assert_array_equal(detect(session, sample), detect(session, transparent))


def test_graph_preprocesses_as_paddleocr(session, sample):
    """The wrapped network, cut out of the shipped file at its own input `x`, fed the BGR,
    mean 0.5 / std 0.5 normalised, edge-padded picture computed here in numpy, gives the
    map the whole model gives (cropped). RGB order instead of BGR does not."""
    model = onnx.load(FOLDER / "model.onnx")
    crop = next(n for n in model.graph.node if n.output[0] == "post.crop")
    network = onnx.utils.Extractor(model).extract_model(["x"], [crop.input[0]])
    bare = ort.InferenceSession(network.SerializeToString(), providers=["CPUExecutionProvider"])
    pixels = np.ascontiguousarray(sample[:150, :301])  # not multiples of 32: padding used

    def bare_map(channels: list[int]) -> np.ndarray:
        x = (pixels[:, :, channels].astype(np.float64) / 255 - 0.5) / 0.5
        x = np.pad(x, ((0, -150 % 32), (0, -301 % 32), (0, 0)), mode="edge")
        out: np.ndarray = bare.run(None, {"x": x.astype(np.float32).transpose(2, 0, 1)[None]})[0]
        return out[0, 0, :150, :301]

    whole = detect(session, pixels)
    np.testing.assert_allclose(whole, bare_map([2, 1, 0]), atol=1e-4)
    assert np.abs(whole - bare_map([0, 1, 2])).max() > 1e-3


def test_model_file_limits_and_provenance():
    model = onnx.load(FOLDER / "model.onnx")
    onnx.checker.check_model(model, full_check=True)
    assert model.ir_version <= 10
    domains = [o.domain for o in model.opset_import]
    assert len(domains) == len(set(domains)), "one opset import per domain"
    assert all(o.version <= 17 for o in model.opset_import if o.domain in ("", "ai.onnx"))
    meta = {p.key: p.value for p in model.metadata_props}
    script = (FOLDER / "export.py").read_text(encoding="utf-8")
    recorded = re.search(r'"sha256": "([0-9a-f]{64})"', script)
    assert recorded and meta["source_sha256"] == recorded.group(1)
    source_md = (FOLDER / "SOURCE.md").read_text(encoding="utf-8")
    assert meta["source_sha256"] in source_md and meta["source_url"] in source_md
    assert meta["source_url"].startswith("https://pypi.org/project/rapidocr-onnxruntime/")
    assert meta["license"].startswith("Apache-2.0")
    assert "Apache License" in (FOLDER / "LICENSE-Apache-2.0.txt").read_text(encoding="utf-8")
    assert float(meta["parity_max_abs_diff"]) <= 1e-4
    assert meta["export_script_sha256"] == hashlib.sha256(
        (FOLDER / "export.py").read_bytes()).hexdigest()
