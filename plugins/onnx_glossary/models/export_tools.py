"""Shared plumbing for the `models/<name>/export.py` scripts.

Pure onnx + numpy so that the scripts share one definition of the provenance keys and
the parity check, while the site build (which never imports torch) can still import
this package. The framework-specific parts stay in each script.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx


class ExportError(RuntimeError):
    """An export that must stop: `run_main` prints its message as one line and exits 1."""


class ParityError(ExportError):
    """The exported model disagrees with the framework beyond the tolerance."""


@dataclass(frozen=True)
class ExportScript:
    """One `models/<name>/export.py` and what it declares at module level.

    Read with `ast`, never imported, so a runner needs neither torch nor TensorFlow:
    `DERIVED_FROM = "digits"` (made from another model's file; the script takes
    `--float-dir DIR`), `EXPORT_VENV = ".venv-tf"` (runs with that virtual environment's
    Python, relative to the repository) and `TOLERANCE = 1e-5` (its parity bound).
    """

    name: str
    path: Path
    derived_from: str | None = None
    venv: str | None = None
    tolerance: float | None = None


def read_export_script(path: Path) -> ExportScript:
    values: dict[str, Any] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in ("DERIVED_FROM", "EXPORT_VENV",
                                                             "TOLERANCE"):
                values[target.id] = ast.literal_eval(node.value)
    tolerance = values.get("TOLERANCE")
    return ExportScript(
        name=path.parent.name,
        path=path,
        derived_from=values.get("DERIVED_FROM"),
        venv=values.get("EXPORT_VENV"),
        tolerance=None if tolerance is None else float(tolerance),
    )


def export_scripts(models_dir: Path) -> list[ExportScript]:
    """Every `models_dir/*/export.py`, alphabetical except that a model follows its source."""
    scripts = {s.name: s for s in map(read_export_script, sorted(models_dir.glob("*/export.py")))}
    ordered: list[ExportScript] = []

    def visit(script: ExportScript, stack: tuple[str, ...]) -> None:
        if script in ordered:
            return
        if script.name in stack:
            raise ValueError(f"export dependency cycle: {' -> '.join((*stack, script.name))}")
        if script.derived_from:
            if script.derived_from not in scripts:
                raise ValueError(f"{script.name} is derived from models/{script.derived_from}/"
                                 "export.py, which is missing")
            visit(scripts[script.derived_from], (*stack, script.name))
        ordered.append(script)

    for script in scripts.values():
        visit(script, ())
    return ordered


def export_python(script: ExportScript, repo: Path) -> Path:
    """The interpreter that runs the script: its EXPORT_VENV's, else the current one."""
    if script.venv is None:
        return Path(sys.executable)
    return repo / script.venv / "bin" / "python"


def export_command(script: ExportScript, repo: Path, out_root: Path | None = None) -> list[str]:
    """The command line that re-exports `script` into `out_root/<name>/` (default: in place).

    A derived model reads its source from `out_root/<source>/`, so export the source first.
    """
    command = [str(export_python(script, repo)), str(script.path)]
    if out_root is not None:
        command += ["--out", str(out_root / script.name)]
        if script.derived_from:
            command += ["--float-dir", str(out_root / script.derived_from)]
    return command


def parse_out_dir(script: str | Path, argv: list[str] | None = None) -> Path:
    """Return the output folder from `--out DIR`, defaulting to the script's own folder.

    Tests export into a temp folder so that they never touch the committed models.
    """
    here = Path(script).resolve().parent
    parser = argparse.ArgumentParser(description=f"Export the example model in {here.name}/")
    parser.add_argument("--out", type=Path, default=here, help="folder for model.onnx")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    return out


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def max_abs_diff(expected: np.ndarray, actual: np.ndarray) -> float:
    """Max absolute difference, computed in float64 so uint8 outputs cannot wrap around."""
    if expected.shape != actual.shape:
        raise ParityError(f"shape mismatch: framework {expected.shape}, onnxruntime {actual.shape}")
    if expected.size == 0:
        return 0.0
    diff = np.abs(expected.astype(np.float64) - actual.astype(np.float64))
    return float(diff.max())


def check_parity(name: str, diff: float, tolerance: float) -> None:
    """Fail the export loudly: a model that disagrees with its framework must not ship."""
    if not diff <= tolerance:  # also catches NaN
        raise ParityError(
            f"{name}: onnxruntime output differs from the framework by {diff:.3g} "
            f"(tolerance {tolerance:.3g}); fix the export before committing the model"
        )


def classifier_metadata(
    class_names: list[str], predicted: np.ndarray, labels: np.ndarray
) -> dict[str, str]:
    """The metadata the site reads from a trained classifier, for `stamp_provenance(extra=)`.

    `class_names`: JSON array of strings in output-class order. `heldout_accuracy`: share of
    held-out rows whose predicted class (from onnxruntime on the exported model) is the label,
    as a decimal fraction with 4 digits. A model carrying `heldout_accuracy` counts as trained:
    re-exports are compared by graph and accuracy, not by bytes (training is not
    bit-reproducible across CPUs).
    """
    if len(predicted) != len(labels) or not len(labels):
        raise ValueError("heldout_accuracy needs one prediction per held-out row")
    if not all(0 <= int(label) < len(class_names) for label in labels):
        raise ValueError("a held-out label has no entry in class_names")
    accuracy = float((np.asarray(predicted) == np.asarray(labels)).mean())
    return {
        "class_names": json.dumps([str(name) for name in class_names]),
        "heldout_accuracy": f"{accuracy:.4f}",
    }


def stamp_provenance(
    model: onnx.ModelProto,
    *,
    framework: str,
    framework_version: str,
    exporter_settings: Mapping[str, Any],
    script: str | Path,
    parity_max_abs_diff: float,
    extra: Mapping[str, str] | None = None,
) -> None:
    """Replace the model's metadata_props with the provenance entries, in a fixed order.

    A fixed order (and no timestamps) keeps re-exports byte-identical.
    """
    entries = {
        "framework": framework,
        "framework_version": framework_version,
        "exporter_settings": json.dumps(dict(exporter_settings), sort_keys=True),
        "export_script_sha256": file_sha256(script),
        "parity_max_abs_diff": f"{parity_max_abs_diff:.6g}",
    }
    entries.update(extra or {})
    del model.metadata_props[:]
    for key, value in entries.items():
        model.metadata_props.add(key=key, value=value)


def save_checked(model: onnx.ModelProto, path: Path) -> int:
    """Check and save the model as one self-contained file; return its size in bytes."""
    onnx.checker.check_model(model, full_check=True)
    # Weights stay inside the file: the browser example would otherwise need externalData.
    onnx.save_model(model, path, save_as_external_data=False)
    return path.stat().st_size


def stamp_quantised(
    path: Path,
    *,
    name: str,
    float_name: str,
    float_path: Path,
    settings: Mapping[str, Any],
    script: str | Path,
    diff: float,
    doc_string: str,
    diff_input: str = "",
    diff_unit: str = "",
    required_ops: tuple[str, ...] = (),
    extra: Mapping[str, str] | None = None,
) -> int:
    """The common tail of the int8 scripts: check, stamp and save what the quantiser wrote.

    `path` holds the quantiser's output, `float_path` the model it was quantised from. The
    model must use only standard ai.onnx ops (onnxruntime-web runs no com.microsoft ops) and
    contain every op in `required_ops`. Provenance names onnxruntime.quantization and links
    the float model by name, SHA-256 and size; its `preprocessing` is carried over. Returns
    the saved file's size in bytes.
    """
    import onnxruntime  # the quantiser's version; a base dependency, imported only here

    model = onnx.load(path)
    domains = {node.domain for node in model.graph.node}
    if not domains <= {"", "ai.onnx"}:
        raise SystemExit(f"{name}: quantiser emitted non-standard domains {sorted(domains)}")
    missing = set(required_ops) - {node.op_type for node in model.graph.node}
    if missing:
        raise SystemExit(f"{name}: no {', '.join(sorted(missing))} in the output; "
                         "nothing was quantised")
    float_metadata = {p.key: p.value for p in onnx.load(float_path).metadata_props}
    model.doc_string = doc_string
    stamp_provenance(
        model,
        framework="onnxruntime.quantization",
        framework_version=onnxruntime.__version__,
        exporter_settings={**settings, "opset_version": model.opset_import[0].version},
        script=script,
        parity_max_abs_diff=diff,
        extra={
            "preprocessing": float_metadata["preprocessing"],
            "quantized_from": float_name,
            "float_model_sha256": file_sha256(float_path),
            "float_model_bytes": str(float_path.stat().st_size),
            "max_abs_diff_vs_float": f"{diff:.6g}",
            # What the model page says the difference was measured on, and in which unit.
            **({"max_abs_diff_vs_float_input": diff_input} if diff_input else {}),
            **({"max_abs_diff_vs_float_unit": diff_unit} if diff_unit else {}),
            **(extra or {}),
        },
    )
    return save_checked(model, path)


def run_main(main: Any) -> None:
    """Run an export `main()`, turning an ExportError (a ParityError among them) into a
    one-line message and exit 1."""
    try:
        main()
    except ExportError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(1) from None
