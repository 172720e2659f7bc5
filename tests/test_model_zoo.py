"""Models in the ONNX model zoo layout: `models/<name>/model.onnx` with
`test_data_set_N/input_K.pb` and `output_K.pb` (serialized TensorProto).

Found by their data sets, not by a list. Python onnxruntime must reproduce the shipped outputs
from the shipped inputs, and other inputs must give other outputs: a check built on these
files can fail.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import numpy_helper

from .sitebuild import MODELS

# Models copied in the model zoo's layout from elsewhere, unchanged: no export script makes
# them (an exported model's data set is its script's, checked with its export).
ZOO = sorted({p.parent.parent for p in MODELS.glob("*/test_data_set_*/input_0.pb")
              if not (p.parent.parent / "export.py").is_file()})
DATA_SETS = sorted(p.parent for p in MODELS.glob("*/test_data_set_*/input_0.pb") if p.parent.parent in ZOO)
# onnx's own backend tests compare with rtol 1e-3, atol 1e-7; float32 kernels of another
# runtime may differ by a few ulps, hence the looser atol.
RTOL, ATOL = 1e-3, 1e-5


def tensors(folder: Path, prefix: str) -> list[np.ndarray]:
    files = sorted(folder.glob(f"{prefix}_*.pb"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
    return [numpy_helper.to_array(onnx.load_tensor(str(path))) for path in files]


def session(model_dir: Path) -> ort.InferenceSession:
    return ort.InferenceSession(str(model_dir / "model.onnx"), providers=["CPUExecutionProvider"])


def run(model_dir: Path, inputs: list[np.ndarray]) -> list[np.ndarray]:
    sess = session(model_dir)
    names = [i.name for i in sess.get_inputs()]  # initializers are not among these
    assert len(names) == len(inputs)
    return sess.run(None, dict(zip(names, inputs, strict=True)))


def matches(expected: list[np.ndarray], actual: list[np.ndarray]) -> bool:
    return len(expected) == len(actual) and all(
        e.shape == a.shape and np.allclose(a, e, rtol=RTOL, atol=ATOL)
        for e, a in zip(expected, actual, strict=True))


def test_zoo_models_are_found():
    assert ZOO, "no model in the zoo layout under models/"


@pytest.mark.parametrize("data_set", DATA_SETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_outputs_are_reproduced(data_set):
    expected = tensors(data_set, "output")
    actual = run(data_set.parent, tensors(data_set, "input"))
    for e, a in zip(expected, actual, strict=True):
        np.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL)
    assert matches(expected, actual)


@pytest.mark.parametrize("data_set", DATA_SETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_other_inputs_give_other_outputs(data_set):
    """Swapped-in inputs (same shapes and types, other values) must fail the comparison."""
    inputs, expected = tensors(data_set, "input"), tensors(data_set, "output")
    rng = np.random.default_rng(0)
    swapped = [rng.permutation(x.reshape(-1)).reshape(x.shape) if x.size > 1 else x + 1
               for x in inputs]
    assert not all(np.array_equal(a, b) for a, b in zip(inputs, swapped, strict=True))
    assert not matches(expected, run(data_set.parent, swapped))
    fresh = [rng.standard_normal(x.shape).astype(x.dtype) for x in inputs]
    assert not matches(expected, run(data_set.parent, fresh))


@pytest.mark.parametrize("model_dir", ZOO, ids=lambda p: p.name)
def test_browser_limits_and_recorded_source(model_dir):
    model = onnx.load(model_dir / "model.onnx")
    onnx.checker.check_model(model, full_check=True)
    # onnxruntime-web 1.31.1 refuses IR versions above 13 and ai.onnx opsets above 26.
    assert model.ir_version <= 13
    assert all(o.version <= 26 for o in model.opset_import if o.domain in ("", "ai.onnx"))
    source = (model_dir / "SOURCE.md").read_text(encoding="utf-8")
    assert re.search(r"[Ll]icen[cs]e", source)
    for path in [model_dir / "model.onnx", *sorted(model_dir.glob("test_data_set_*/*.pb"))]:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert digest in source, f"{path.relative_to(model_dir)}: SHA-256 not in SOURCE.md"
