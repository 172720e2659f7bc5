"""The text detector's box step (plugins/onnx_glossary/assets/text-boxes.mjs) on real maps.

The map of the shipped sample is computed here exactly as the build computes reference.json
(``compute_reference``, Python onnxruntime on models/text-detection), written to a temporary
file, and handed to the node check tests/js/text-boxes-sample.check.mjs, which fails without it.

``test_rapidocr_gives_the_same_boxes`` runs rapidocr's own post-processing (the wheel's
DBPostProcess, which needs OpenCV, pyclipper and shapely) on the same map and on synthetic ones.
The project's venv has no OpenCV, so it runs only where RAPIDOCR_PYTHON names a Python that
has them, for example::

    python3 -m venv /tmp/rapidocr-venv
    /tmp/rapidocr-venv/bin/pip install opencv-python-headless==4.10.0.84 pyclipper==1.3.0.post6 \\
        shapely==2.0.6 numpy==1.26.4 pyyaml==6.0.2
    RAPIDOCR_PYTHON=/tmp/rapidocr-venv/bin/python .venv/bin/pytest tests/test_text_boxes.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from onnx_glossary.models.analysis import analyse_model
from onnx_glossary.models.example_spec import load_example_spec
from onnx_glossary.models.reference import compute_reference

from .sitebuild import MODELS, REPO

NODE = shutil.which("node")
CHECK = REPO / "tests" / "js" / "text-boxes-sample.check.mjs"
MODULE = REPO / "plugins" / "onnx_glossary" / "assets" / "text-boxes.mjs"
RAPIDOCR = "rapidocr-onnxruntime==1.4.4"


@pytest.fixture(scope="module")
def sample_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """reference.json of models/text-detection, as the build writes it."""
    model_dir = MODELS / "text-detection"
    facts = analyse_model(model_dir / "model.onnx", name="text-detection")
    reference = compute_reference(model_dir / "model.onnx", facts, load_example_spec(model_dir), model_dir)
    path = tmp_path_factory.mktemp("text-boxes") / "reference.json"
    path.write_text(reference.to_json(), encoding="utf-8")
    return path


def _node(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    assert NODE, "node is needed for the widget's unit tests (the README's set-up installs it)"
    return subprocess.run([NODE, *args], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_the_sample_map_gives_the_sample_lines(sample_reference: Path) -> None:
    result = _node("--test", str(CHECK), env={"TEXT_BOXES_REFERENCE": str(sample_reference)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout and "# pass 3" in result.stdout, result.stdout


def test_the_sample_check_fails_without_the_map() -> None:
    env = {key: value for key, value in os.environ.items() if key != "TEXT_BOXES_REFERENCE"}
    assert NODE
    result = subprocess.run([NODE, "--test", str(CHECK)], cwd=REPO, capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode != 0
    assert "TEXT_BOXES_REFERENCE is not set" in result.stdout + result.stderr


def _iou(a: list[float], b: list[float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union else 0.0


def test_the_thumbnails_upright_boxes_are_the_widgets_on_the_sample(sample_reference: Path) -> None:
    """The build's answer thumbnail boxes the sample with render/text_boxes.py, an upright
    version of text-boxes.mjs: the same 3 boxes, in the same order, within a pixel or two."""
    from onnx_glossary.render.text_boxes import text_boxes
    from onnx_glossary.render.thumbnails import answer_thumbnail

    script = ("import { readFileSync } from 'node:fs';"
              f"import {{ detectTextBoxes }} from {json.dumps(MODULE.as_uri())};"
              "const { outputs: [o] } = JSON.parse(readFileSync(process.env.TEXT_BOXES_REFERENCE, 'utf8'));"
              "const [h, w] = o.dims.slice(-2);"
              "console.log(JSON.stringify(detectTextBoxes(Float32Array.from(o.data), w, h).map((b) => b.box)));")
    result = _node("--input-type=module", "-e", script, env={"TEXT_BOXES_REFERENCE": str(sample_reference)})
    assert result.returncode == 0, result.stderr
    widget = json.loads(result.stdout)
    reference = json.loads(sample_reference.read_text(encoding="utf-8"))
    output = reference["outputs"][0]
    height, width = output["dims"][-2:]
    upright = text_boxes(output["data"], width, height)
    assert len(widget) == len(upright) == 3
    for mine, theirs in zip(upright, widget, strict=True):
        assert _iou(list(mine), theirs) >= 0.9 and max(abs(a - b) for a, b in zip(mine, theirs, strict=True)) <= 2, (
            mine, theirs)
    thumbnail = answer_thumbnail(reference, (MODELS / "text-detection" / "sample.png").read_bytes())
    assert thumbnail is not None and thumbnail.caption == "3 lines of text found"


def synthetic_maps(seed: int = 5, count: int = 60) -> list[dict[str, Any]]:
    """Text-like maps: 1 to 4 rotated bars inside the map, each a plateau falling off to 0 over
    a quarter of its size, every third map with noise; float32 values rounded to 4 decimals."""
    rng = np.random.default_rng(seed)
    maps = []
    for index in range(count):
        height, width = int(rng.integers(60, 140)), int(rng.integers(100, 240))
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
        probability = np.zeros((height, width))
        for _ in range(int(rng.integers(1, 5))):
            length, thickness = rng.uniform(3, 40), rng.uniform(1.5, 8)
            angle = rng.uniform(-0.5, 0.5) if rng.random() < 0.7 else rng.uniform(-3.14, 3.14)
            reach = 1.6 * (length + thickness)
            cx = rng.uniform(reach, max(reach + 1, width - reach))
            cy = rng.uniform(reach, max(reach + 1, height - reach))
            u = (xx - cx) * np.cos(angle) + (yy - cy) * np.sin(angle)
            v = -(xx - cx) * np.sin(angle) + (yy - cy) * np.cos(angle)
            distance = np.maximum(np.abs(u) / length, np.abs(v) / thickness)
            plateau = np.clip((1.25 - distance) * 4, 0, 1)
            probability = np.maximum(probability, plateau * rng.uniform(0.6, 1.0))
        if index % 3 == 0:
            probability = np.clip(probability + rng.normal(0, 0.1, probability.shape), 0, 1)
        values = np.round(probability.astype(np.float32), 4).astype(float).reshape(-1)
        maps.append({"dims": [height, width], "data": values.tolist()})
    return maps


def _rapidocr_wheel() -> Path:
    """The wheel, downloaded once with pip and unpacked into the user's cache."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = root / "onnx-glossary" / "rapidocr-onnxruntime-1.4.4" / "wheel"
    if not (folder / "rapidocr_onnxruntime" / "config.yaml").is_file():
        download = folder.with_name("download")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "--only-binary=:all:", RAPIDOCR, "-d", str(download)], check=True)
        (wheel,) = download.glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(folder)
    return folder


def _key(points: list[list[int]]) -> list[tuple[int, int]]:
    return sorted((int(x), int(y)) for x, y in points)


def test_rapidocr_gives_the_same_boxes(sample_reference: Path, tmp_path: Path) -> None:
    python = os.environ.get("RAPIDOCR_PYTHON")
    if not python:
        pytest.skip("set RAPIDOCR_PYTHON to a Python with opencv, pyclipper, shapely and PyYAML "
                    "(this module's docstring says how) to compare with rapidocr itself")
    sample = json.loads(sample_reference.read_text(encoding="utf-8"))["outputs"][0]
    maps = [{"dims": sample["dims"], "data": sample["data"]}, *synthetic_maps()]
    maps_path = tmp_path / "maps.json"
    maps_path.write_text(json.dumps(maps), encoding="utf-8")
    done = subprocess.run([python, str(REPO / "tests" / "support" / "rapidocr_boxes.py"),
                           str(_rapidocr_wheel()), str(maps_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    theirs = json.loads(done.stdout)
    script = (f"import {{ RAPIDOCR_DB, detectTextBoxes }} from {json.dumps(MODULE.as_uri())};"
              "import { readFileSync } from 'node:fs';"
              "const maps = JSON.parse(readFileSync(process.argv[1], 'utf8'));"
              "console.log(JSON.stringify({ config: RAPIDOCR_DB, results: maps.map((m) => {"
              "  const boxes = detectTextBoxes(Float32Array.from(m.data), m.dims[1], m.dims[0]);"
              "  return { boxes: boxes.map((b) => b.points), scores: boxes.map((b) => b.score) }; }) }));")
    ran = _node("--input-type=module", "-e", script, str(maps_path))
    assert ran.returncode == 0, ran.stderr
    ours = json.loads(ran.stdout)

    # The module's constants are the wheel's config.yaml and utils.py.
    assert theirs["config"] == {"thresh": 0.3, "box_thresh": 0.5, "max_candidates": 1000,
                                "unclip_ratio": 1.6, "use_dilation": True, "score_mode": "fast"}
    assert theirs["min_size"] == 3
    assert ours["config"] == {"thresh": 0.3, "boxThresh": 0.5, "maxCandidates": 1000,
                              "unclipRatio": 1.6, "useDilation": True, "minSize": 3}

    # On the sample: the same boxes and scores (rapidocr 1.4.4 found, in its order,
    # [[15,116],[249,114],[249,141],[15,143]] 0.8142, [[14,67],[251,69],[251,96],[14,94]] 0.7512,
    # [[15,23],[267,23],[267,49],[15,49]] 0.8250).
    (sample_theirs, *rest_theirs), (sample_ours, *rest_ours) = theirs["results"], ours["results"]
    assert sorted(map(_key, sample_ours["boxes"])) == sorted(map(_key, sample_theirs["boxes"]))
    assert sorted(sample_ours["scores"]) == pytest.approx(sorted(sample_theirs["scores"]), abs=1e-6)

    # On the synthetic maps (when measured: 41 boxes from rapidocr, 40 of them the same points,
    # one 2 px away; 38 the same score within 1e-6, 3 within 0.011): the same boxes nearly
    # always; where not (the module's header says why), a few pixels or a little score off, or
    # one box more or fewer because its score is at box_thresh.
    boxes = same = 0
    uneven = []
    for index, (mine, reference) in enumerate(zip(rest_ours, rest_theirs, strict=True)):
        a = sorted(zip(map(_key, mine["boxes"]), mine["scores"], strict=True))
        b = sorted(zip(map(_key, reference["boxes"]), reference["scores"], strict=True))
        if len(a) != len(b):
            uneven.append(index)
            continue
        for (p, score), (q, their_score) in zip(a, b, strict=True):
            boxes += 1
            same += p == q and abs(score - their_score) < 1e-6
            assert max(max(abs(s[0] - t[0]), abs(s[1] - t[1])) for s, t in zip(p, q, strict=True)) <= 3, index
            assert abs(score - their_score) < 0.03, index
    assert boxes >= 30 and same >= 0.85 * boxes, f"{same} of {boxes} boxes the same"
    assert len(uneven) <= 2, f"maps {uneven} give a different number of boxes"
