"""Re-run every export script into a temp folder and compare with the committed model.

Marked `export` (needs the export extra: torch, scikit-learn, skl2onnx). The scripts are
deterministic, so a re-export must reproduce the committed bytes; a difference means the
committed model is stale or the export stopped being reproducible.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

from .sitebuild import MODELS

# Parity tolerances the scripts enforce, in output units (uint8 models: grey levels).
TOLERANCES = {"linear": 1e-5, "iris": 1e-5, "digits": 1e-5, "digits-int8": 0.5, "edges": 1.0,
              "edges-int8": 32.0}

pytestmark = [
    pytest.mark.export,
    pytest.mark.skipif(
        not all(importlib.util.find_spec(m) for m in ("torch", "sklearn", "skl2onnx")),
        reason="needs the export extra (torch, scikit-learn, skl2onnx)",
    ),
]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """Export all models into one temp tree, in the same order as scripts/export_models.py."""
    out = tmp_path_factory.mktemp("models")
    for name in ("linear", "iris", "digits", "digits-int8", "edges", "edges-int8"):
        command = [sys.executable, str(MODELS / name / "export.py"), "--out", str(out / name)]
        if name.endswith("-int8"):
            command += ["--float-dir", str(out / name.removesuffix("-int8"))]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        assert result.returncode == 0, f"{name} export failed:\n{result.stderr[-2000:]}"
    return out


def test_export_scripts_cover_every_model():
    assert {p.parent.name for p in MODELS.glob("*/export.py")} == set(TOLERANCES)


@pytest.mark.parametrize("name", sorted(TOLERANCES))
def test_reexport_reproduces_committed_model(exported, name):
    fresh = exported / name / "model.onnx"
    committed = MODELS / name / "model.onnx"
    assert sha256(fresh) == sha256(committed), (
        f"{name}: re-export differs from the committed model; run `make models` and commit"
    )
    assert fresh.stat().st_size < 1_000_000


@pytest.mark.parametrize("name", sorted(TOLERANCES))
def test_provenance_metadata(exported, name):
    model = onnx.load(exported / name / "model.onnx")
    meta = {prop.key: prop.value for prop in model.metadata_props}
    assert meta["export_script_sha256"] == sha256(MODELS / name / "export.py")
    assert 0 <= float(meta["parity_max_abs_diff"]) <= TOLERANCES[name]
    assert meta["framework"] and meta["framework_version"]
    assert json.loads(meta["exporter_settings"])
    if name.startswith("edges"):
        assert "RGBA" in meta["preprocessing"]
    if name.startswith("digits"):
        assert "divides by 16" in meta["preprocessing"]
        assert 0.95 <= float(meta["test_accuracy"]) <= 1


def test_quantised_digits_is_smaller_and_as_accurate(exported):
    model = onnx.load(exported / "digits-int8" / "model.onnx")
    meta = {prop.key: prop.value for prop in model.metadata_props}
    assert (exported / "digits-int8" / "model.onnx").stat().st_size * 3 < int(meta["float_model_bytes"])
    assert float(meta["test_accuracy"]) >= float(meta["float_test_accuracy"]) - 0.01


def test_sample_pictures_reproduce(exported):
    for name in ("edges", "edges-int8"):
        assert sha256(exported / name / "sample.png") == sha256(MODELS / name / "sample.png")


def test_parity_failure_exits_non_zero(tmp_path):
    # A script whose parity check fails must stop with a message, not write a model.
    script = tmp_path / "export.py"
    script.write_text(
        "from onnx_glossary.export_tools import check_parity, run_main\n"
        "run_main(lambda: check_parity('broken', 0.5, 1e-5))\n",
        encoding="utf-8",
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 1
    assert "broken: onnxruntime output differs from the framework by 0.5" in result.stderr
