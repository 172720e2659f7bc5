"""Re-run every `models/*/export.py` into a temp folder and compare with the committed model.

Marked `export` (needs the export extra: torch, scikit-learn, skl2onnx; a script that declares
`EXPORT_VENV` needs that environment, e.g. `.venv-tf` from `make setup-tf`). Models are found
from the scripts themselves, never from a list here.

Training is not bit-reproducible across CPUs (the same script gave other bytes for `digits`
on two machines), so a re-export is compared by what a reader relies on:
- every model: the same graph (operator types and counts, input and output names, element
  types and shapes, IR version and opsets), the script's own parity check passed (it exits
  non-zero otherwise) and its measured difference is within the script's TOLERANCE;
- trained models (metadata `heldout_accuracy`): held-out accuracy within 2 points of the
  committed value, and the same class names;
- models with no training: the same bytes, model and every other file the script writes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx_glossary.models.export_tools import (
    ExportScript,
    export_command,
    export_python,
    export_scripts,
    file_sha256,
)

from .sitebuild import MODELS, REPO

SCRIPTS = {script.name: script for script in export_scripts(MODELS)}
# A re-export on another CPU may land this far from the committed held-out accuracy.
ACCURACY_SLACK = 0.02
# Forces torch's portable (non-SIMD) CPU kernels: other float rounding, as on another machine.
PORTABLE_TORCH = {"ATEN_CPU_CAPABILITY": "default"}

pytestmark = [
    pytest.mark.export,
    pytest.mark.skipif(
        not all(importlib.util.find_spec(m) for m in ("torch", "sklearn", "skl2onnx")),
        reason="needs the export extra (torch, scikit-learn, skl2onnx)",
    ),
]


@dataclass
class Export:
    script: ExportScript
    out: Path
    returncode: int | None = None  # None: not run (its environment is missing)
    stderr: str = ""
    skipped: str = ""


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    # This checkout's plugin code, whatever the environment's editable install points at.
    return {**os.environ, "PYTHONPATH": str(REPO / "plugins"), **(extra or {})}


def run_export(script: ExportScript, out_root: Path, env: dict[str, str] | None = None) -> Export:
    result = Export(script, out_root / script.name)
    python = export_python(script, REPO)
    if not python.exists():
        result.skipped = (f"{script.name} exports in {script.venv}, which is absent: "
                          "run `make setup-tf` (.ci/run does, before `make test`)")
        return result
    done = subprocess.run(export_command(script, REPO, out_root), capture_output=True, text=True,
                          check=False, env=_env(env), timeout=900)
    result.returncode, result.stderr = done.returncode, done.stderr
    return result


def needs(export: Export) -> Export:
    """The export, or skip/fail the calling test if it was not run or failed."""
    if export.skipped:
        pytest.skip(export.skipped)
    assert export.returncode == 0, (
        f"{export.script.name} export failed (exit {export.returncode}):\n{export.stderr[-3000:]}")
    return export


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, Export]:
    """Export every model into one temp tree, two chains at a time (the machine has 2 cores).

    A chain is a model and the models derived from it, run in order.
    """
    out = tmp_path_factory.mktemp("models")
    roots = [s for s in SCRIPTS.values() if not s.derived_from]

    def chain(root: ExportScript) -> list[Export]:
        results = [run_export(root, out)]
        for script in SCRIPTS.values():  # already in dependency order
            if script.derived_from in {r.script.name for r in results}:
                source = next(r for r in results if r.script.name == script.derived_from)
                if source.returncode == 0:
                    results.append(run_export(script, out))
                else:
                    results.append(Export(script, out / script.name, returncode=-1,
                                          stderr=f"not run: {source.script.name} failed"))
        return results

    with ThreadPoolExecutor(max_workers=2) as pool:
        chains = list(pool.map(chain, roots))
    return {export.script.name: export for results in chains for export in results}


#: metadata_props whose values are measured at export time (float rounding of this CPU).
MEASURED = ("parity_max_abs_diff", "max_abs_diff_vs_float", "pipeline_max_abs_diff",
            "last_layer_max_abs_diff")
#: Measured too, as JSON objects: the MediaPipe models' parity tables and anchor scores.
MEASURED_JSON = ("mediapipe_parity", "top_anchor_score")


def without_measurements(path: Path) -> bytes:
    """The model file's serialised form with the measured metadata values blanked."""
    model = onnx.load(path, load_external_data=False)
    for prop in model.metadata_props:
        if prop.key in MEASURED:
            assert float(prop.value) >= 0, f"{path}: {prop.key}={prop.value!r}"
            prop.value = ""
        elif prop.key in MEASURED_JSON:
            assert isinstance(json.loads(prop.value), dict), f"{path}: {prop.key}"
            prop.value = ""
    return model.SerializeToString(deterministic=True)


def metadata(path: Path) -> dict[str, str]:
    return {prop.key: prop.value for prop in onnx.load(path, load_external_data=False).metadata_props}


def _dims(value_info: onnx.ValueInfoProto) -> Any:
    tensor = value_info.type.tensor_type
    if not value_info.type.HasField("tensor_type"):
        return str(value_info.type)
    if not tensor.HasField("shape"):
        return (tensor.elem_type, None)
    return (tensor.elem_type, tuple(
        d.dim_param if d.HasField("dim_param") else d.dim_value if d.HasField("dim_value") else "?"
        for d in tensor.shape.dim))


def graph_signature(path: Path) -> dict[str, Any]:
    """What a re-export must keep: operators and counts, inputs/outputs, IR and opsets."""
    model = onnx.load(path, load_external_data=False)
    initializers = {t.name for t in model.graph.initializer}
    return {
        "ir_version": model.ir_version,
        "opsets": sorted((o.domain or "ai.onnx", o.version) for o in model.opset_import),
        "operators": sorted(Counter((n.domain or "ai.onnx", n.op_type)
                                    for n in model.graph.node).items()),
        "inputs": [(v.name, _dims(v)) for v in model.graph.input if v.name not in initializers],
        "outputs": [(v.name, _dims(v)) for v in model.graph.output],
    }


def same_function(fresh: Path, committed: Path, name: str) -> bool:
    """The same operator types, inputs and outputs, and the same outputs on the model's own
    sample (its test_data_set_0, or its sample picture) within its example.yml tolerance."""
    a, b = graph_signature(fresh), graph_signature(committed)
    kinds = [{op for op, _ in s["operators"]} for s in (a, b)]
    if kinds[0] != kinds[1] or a["inputs"] != b["inputs"] or a["outputs"] != b["outputs"]:
        return False
    feeds = sample_feeds(committed.parent)
    runs = [onnxruntime.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, feeds)
            for p in (fresh, committed)]
    return all(np.allclose(x, y, atol=1e-4, rtol=1e-3) for x, y in zip(*runs, strict=True))


def sample_feeds(folder: Path) -> dict[str, np.ndarray]:
    """The model's own sample: its data set's inputs, else its sample picture as RGBA."""
    from onnx import numpy_helper
    from PIL import Image

    model = onnx.load(folder / "model.onnx", load_external_data=False)
    initializers = {t.name for t in model.graph.initializer}
    names = [v.name for v in model.graph.input if v.name not in initializers]
    data_set = folder / "test_data_set_0"
    if data_set.is_dir():
        feeds = {}
        for i, name in enumerate(names):
            tensor = onnx.TensorProto()
            tensor.ParseFromString((data_set / f"input_{i}.pb").read_bytes())
            feeds[name] = numpy_helper.to_array(tensor)
        return feeds
    picture = np.asarray(Image.open(folder / "sample.png").convert("RGBA"))
    return {names[0]: picture}


def check_against_committed(export: Export, models: Path = MODELS) -> None:
    """Everything a re-export must reproduce; shared by the normal and the portable-torch run
    and by the contributing walk-through (whose models folder is a copy's)."""
    name = export.script.name
    fresh, committed = export.out / "model.onnx", models / name / "model.onnx"
    converted = metadata(committed).get("framework", "").startswith("tensorflow-lite")
    if converted:
        # tf2onnx's optimiser folds a slightly different graph from run to run (measured: 243
        # and 245 nodes for background-removal, same file, same seed, PYTHONPATH changed; its
        # passes walk sets in an order that memory layout decides): the operators used, the
        # signature and the answers must agree, not the node counts.
        assert same_function(fresh, committed, name), (
            f"{name}: re-export computes something else than the committed model; run `make models`")
    else:
        assert graph_signature(fresh) == graph_signature(committed), (
            f"{name}: re-export has another graph than the committed model; run `make models`")
    new, old = metadata(fresh), metadata(committed)
    assert sorted(new) == sorted(old), f"{name}: metadata keys changed; run `make models`"
    assert new["export_script_sha256"] == file_sha256(export.script.path) == \
        old["export_script_sha256"], f"{name}: committed model is older than its export.py"
    if export.script.tolerance is not None:
        assert 0 <= float(new["parity_max_abs_diff"]) <= export.script.tolerance
    if "heldout_accuracy" in old:
        assert json.loads(new["class_names"]) == json.loads(old["class_names"])
        assert abs(float(new["heldout_accuracy"]) - float(old["heldout_accuracy"])) <= \
            ACCURACY_SLACK, (f"{name}: held-out accuracy {new['heldout_accuracy']} against "
                             f"committed {old['heldout_accuracy']}")
    elif not converted:
        # Differences measured with onnxruntime on this machine's CPU are recorded in the file;
        # their last digits depend on the CPU's kernels, so they are compared by value above.
        assert without_measurements(fresh) == without_measurements(committed), (
            f"{name}: no training, so the re-export must be byte-identical apart from measured "
            "differences; run `make models` and commit")


# -- every model ----------------------------------------------------------------------------


def test_models_are_discovered():
    # Guards the discovery itself, not a count: every export.py found, each has a model.
    assert SCRIPTS
    assert set(SCRIPTS) == {p.parent.name for p in MODELS.glob("*/export.py")}
    for name in SCRIPTS:
        assert (MODELS / name / "model.onnx").is_file(), f"{name}: export.py but no model.onnx"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_reexport_matches_committed_model(exported, name):
    check_against_committed(needs(exported[name]))


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_other_written_files_reproduce(exported, name):
    """Sample pictures and sidecars involve no training: byte-identical on any machine."""
    export = needs(exported[name])
    for path in sorted(p for p in export.out.rglob("*") if p.is_file()):
        if path.name != "model.onnx":
            relative = path.relative_to(export.out)
            committed = MODELS / name / relative
            assert committed.is_file(), f"{name}: export writes {relative}, which is not committed"
            assert path.read_bytes() == committed.read_bytes(), f"{name}: {relative} differs"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_metadata_conventions(exported, name):
    source = SCRIPTS[name].derived_from
    check_metadata_conventions(needs(exported[name]).out / "model.onnx", name,
                               exported[source].out / "model.onnx" if source else None)


def check_metadata_conventions(path: Path, name: str, source: Path | None = None) -> None:
    """What every exported model records: description, provenance, class names, accuracy."""
    model = onnx.load(path)
    meta = {prop.key: prop.value for prop in model.metadata_props}
    assert model.doc_string.strip(), f"{name}: no doc_string (the models index shows it)"
    assert meta["framework"] and meta["framework_version"]
    assert isinstance(json.loads(meta["exporter_settings"]), dict)
    if "class_names" in meta:
        names = json.loads(meta["class_names"])
        assert names and all(isinstance(n, str) for n in names)
        # Some output has one column per class.
        assert any(o.type.tensor_type.shape.dim[-1].dim_value == len(names)
                   for o in model.graph.output if o.type.tensor_type.shape.dim)
    if "heldout_accuracy" in meta:
        assert re.fullmatch(r"[01]\.\d{4}", meta["heldout_accuracy"])
        assert "class_names" in meta
    if source is not None:
        assert meta["quantized_from"] == source.parent.name
        assert meta["float_model_sha256"] == file_sha256(source)


# -- another float code path ----------------------------------------------------------------


def torch_trained() -> list[str]:
    return [name for name in sorted(SCRIPTS)
            if {"framework": "torch"}.items() <= metadata(MODELS / name / "model.onnx").items()
            and "heldout_accuracy" in metadata(MODELS / name / "model.onnx")]


def test_portable_torch_kernels_reproduce_a_trained_model(tmp_path):
    """ATEN_CPU_CAPABILITY=default trains with torch's portable kernels: other rounding
    (the weights come out different here), yet the same graph, parity and accuracy."""
    candidates = torch_trained()
    assert candidates, "no torch-trained model (framework torch with heldout_accuracy)"
    script = SCRIPTS[candidates[0]]
    probe = subprocess.run(
        [str(export_python(script, REPO)), "-c",
         "import torch; print(torch.backends.cpu.get_cpu_capability())"],
        capture_output=True, text=True, check=True, env=_env(PORTABLE_TORCH))
    assert probe.stdout.strip() == "DEFAULT"
    check_against_committed(needs(run_export(script, tmp_path, PORTABLE_TORCH)))


# -- the scripts' own guard ----------------------------------------------------------------


def test_parity_failure_exits_non_zero(tmp_path):
    # A script whose parity check fails must stop with a message, not write a model.
    script = tmp_path / "export.py"
    script.write_text(
        "from onnx_glossary.models.export_tools import check_parity, run_main\n"
        "run_main(lambda: check_parity('broken', 0.5, 1e-5))\n",
        encoding="utf-8",
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            check=False, env=_env())
    assert result.returncode == 1
    assert "broken: onnxruntime output differs from the framework by 0.5" in result.stderr


def test_derived_models_point_at_the_committed_source():
    # The derived models point at their source by SHA-256; a stale pointer means the float
    # model was re-exported without its quantised copy.
    for script in SCRIPTS.values():
        if script.derived_from:
            meta = metadata(MODELS / script.name / "model.onnx")
            source = MODELS / script.derived_from / "model.onnx"
            assert meta["float_model_sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()


# -- the MediaPipe models (TensorFlow Lite through tf2onnx) ------------------------------------

MEDIAPIPE_MODELS = ("background-removal", "face-detection", "face-landmarks")
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
needs_tf = pytest.mark.skipif(not TF_PYTHON.exists(),
                              reason="needs .venv-tf: run `make setup-tf` (.ci/run does)")


def test_mediapipe_reexports_match_mediapipe(exported):
    """Fresh exports against MediaPipe's own answers (models/_photos/mediapipe_reference.json),
    with the thresholds of issue 22, detection -> landmarks chained."""
    from onnx_glossary.models.tflite_export import mediapipe_reference

    from .test_photo_models import check_against_mediapipe, sessions

    for name in MEDIAPIPE_MODELS:
        needs(exported[name])
    out = exported[MEDIAPIPE_MODELS[0]].out.parent
    check_against_mediapipe(sessions(out), mediapipe_reference())


def run_with_handlers(tmp_path: Path, handlers: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """models/background-removal/export.py with its custom_op_handlers table replaced, run
    into a folder that already holds a model.onnx."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "model.onnx").write_bytes(b"the committed model")
    wrapper = tmp_path / "run.py"
    wrapper.write_text(
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('export', {str(SCRIPTS['background-removal'].path)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        f"module.CUSTOM_OP_HANDLERS = {handlers}\n"
        f"sys.argv = ['export.py', '--out', {str(out)!r}]\n"
        "from onnx_glossary.models.export_tools import run_main\n"
        "run_main(module.main)\n",
        encoding="utf-8")
    done = subprocess.run([str(TF_PYTHON), str(wrapper)], capture_output=True, text=True,
                          check=False, env=_env({"TF_CPP_MIN_LOG_LEVEL": "3"}), timeout=300)
    return done, out


def error_lines(stderr: str) -> list[str]:
    """The script's own message: lines starting with "error:" (TensorFlow logs the rest)."""
    return [line for line in stderr.splitlines() if line.startswith("error:")]


@needs_tf
def test_unsupported_operator_fails_in_one_line(tmp_path):
    """Without its handler tf2onnx only logs "Unsupported ops" and returns a graph: the
    export must stop with one line naming the operator and leave model.onnx as it was."""
    done, out = run_with_handlers(tmp_path, "{}")
    assert done.returncode == 1, done.stderr[-2000:]
    (line,) = error_lines(done.stderr)
    assert "Convolution2DTransposeBias" in line and "custom_op_handlers" in line
    assert "Traceback" not in done.stderr
    assert (out / "model.onnx").read_bytes() == b"the committed model"


@needs_tf
def test_refused_graph_fails_in_one_line(tmp_path):
    """A handler that leaves the operator's NHWC input and TensorFlow Lite kernel layout as
    they are makes a ConvTranspose the checker or onnxruntime refuses: one line, no model."""
    handler = ("{'TFL_Convolution2DTransposeBias': ("
               "lambda ctx, node, name, args: (setattr(node, 'type', 'ConvTranspose'), "
               "setattr(node, 'domain', ''), node.set_attr('strides', [2, 2])), [])}")
    done, out = run_with_handlers(tmp_path, handler)
    assert done.returncode == 1, done.stderr[-2000:]
    (line,) = error_lines(done.stderr)
    assert "background-removal" in line and ("checker" in line or "onnxruntime" in line), line
    assert "Traceback" not in done.stderr
    assert (out / "model.onnx").read_bytes() == b"the committed model"


def test_sample_photos_reproduce(tmp_path):
    """models/_photos/*.png come from scikit-image's wheel (SHA-256 checked) by photos.py."""
    done = subprocess.run([sys.executable, str(MODELS / "_photos" / "photos.py"), "--out",
                           str(tmp_path)], capture_output=True, text=True, check=False,
                          env=_env(), timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    assert written == sorted(p.name for p in (MODELS / "_photos").glob("*.png")
                             if not p.name.endswith(".mask.png"))
    for name in written:
        assert (tmp_path / name).read_bytes() == (MODELS / "_photos" / name).read_bytes(), name
