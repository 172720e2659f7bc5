"""Export `digits-int8`: post-training dynamic quantisation (int8 weights) of `digits`.

Reads ../digits/model.onnx (run digits/export.py first) and quantises its three MatMul
weights to 8 bits with `quantize_dynamic`; activations are quantised at run time by
DynamicQuantizeLinear. Every op stays in the standard ai.onnx domain (DynamicQuantizeLinear,
MatMulInteger, Cast, Mul, Add), which the onnxruntime-web WASM backend runs; no com.microsoft
ops. Weights shrink from 4 bytes to 1, so the file is about a quarter of the float one.

Run `python models/digits-int8/export.py [--out DIR] [--float-dir DIR]`; writes DIR/model.onnx.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx_glossary.models.export_tools import (
    ParityError,
    check_parity,
    classifier_metadata,
    max_abs_diff,
    run_main,
    stamp_quantised,
)
from onnxruntime.quantization import QuantType, quantize_dynamic
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

# The float model this one is made from; scripts/export_models.py exports it first.
DERIVED_FROM = "digits"
FLOAT_NAME = DERIVED_FROM
# Largest change of any logit or probability on the held-out rows. Logits span about
# +-20 and int8 moves them by ~0.1; beyond 0.5 the quantised model is no longer the same
# classifier.
TOLERANCE = 0.5
# The quantised model may lose at most this much held-out accuracy (1 point = 4.5 digits).
MAX_ACCURACY_DROP = 0.01
SETTINGS = {
    "method": "quantize_dynamic",
    # Unsigned weights (U8U8): x86 CPUs without VNNI compute uint8 x int8 products with an
    # instruction that saturates, so the Python reference could drift from the browser's;
    # uint8 x uint8 has no such path. Accuracy is the same as with QInt8 here.
    "weight_type": "QUInt8",
    "activations": "uint8, quantised at run time (DynamicQuantizeLinear)",
    "per_channel": False,
    "reduce_range": False,
    "op_types_to_quantize": ["MatMul"],
    "extra_options": {"MatMulConstBOnly": True},
}


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description="Quantise models/digits into digits-int8")
    parser.add_argument("--out", type=Path, default=here, help="folder for model.onnx")
    parser.add_argument(
        "--float-dir", type=Path, default=here.parent / FLOAT_NAME,
        help="folder holding the float model.onnx",
    )
    return parser.parse_args()


def held_out(split: dict[str, object]) -> tuple[np.ndarray, np.ndarray]:
    """The float model's held-out rows, rebuilt from the split recorded in its metadata."""
    data = load_digits()
    labels = data.target.astype(np.int64)
    _, x_test, _, y_test = train_test_split(
        data.data.astype(np.float32), labels,
        test_size=split["test_size"], random_state=split["random_state"],
        stratify=labels if split["stratify"] else None,
    )
    return x_test, y_test


def run(path: Path, pixels: np.ndarray) -> list[np.ndarray]:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    outputs: list[np.ndarray] = session.run(["logits", "probabilities"], {"pixels": pixels})
    return outputs


def main() -> None:
    args = parse_args()
    out_dir: Path = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    float_path: Path = args.float_dir / "model.onnx"
    path = out_dir / "model.onnx"

    # The quantiser logs a hint to run its shape pre-processing first; our shapes infer
    # fine without it (three MatMuls with constant weights).
    logging.getLogger().setLevel(logging.ERROR)
    quantize_dynamic(
        str(float_path),
        str(path),
        weight_type=QuantType.QUInt8,
        per_channel=False,
        reduce_range=False,
        op_types_to_quantize=["MatMul"],
        use_external_data_format=False,
        extra_options={"MatMulConstBOnly": True},
    )

    float_metadata = {p.key: p.value for p in onnx.load(float_path).metadata_props}
    x_test, y_test = held_out(json.loads(float_metadata["test_split"]))
    expected, actual = run(float_path, x_test), run(path, x_test)
    diff = max(max_abs_diff(e, a) for e, a in zip(expected, actual, strict=True))
    check_parity("digits-int8 vs digits", diff, TOLERANCE)
    float_accuracy = float((expected[0].argmax(axis=1) == y_test).mean())
    accuracy = float((actual[0].argmax(axis=1) == y_test).mean())
    if f"{float_accuracy:.4f}" != float_metadata["heldout_accuracy"]:
        raise ParityError(
            f"digits-int8: float model scores {float_accuracy:.4f} on the held-out rows, "
            f"its metadata says {float_metadata['heldout_accuracy']}; wrong split or stale model"
        )
    if accuracy < float_accuracy - MAX_ACCURACY_DROP:
        raise ParityError(
            f"digits-int8: held-out accuracy fell from {float_accuracy:.4f} to {accuracy:.4f}"
        )

    size = stamp_quantised(
        path, name="digits-int8", float_name=FLOAT_NAME, float_path=float_path,
        settings=SETTINGS, script=__file__, diff=diff,
        doc_string="Int8 dynamic post-training quantisation of the digits MLP",
        diff_input="every held-out row of its test split",
        diff_unit="in the float values of logits and probabilities (0 to 1)",
        required_ops=("MatMulInteger",),
        extra={
            "test_split": float_metadata["test_split"],
            "float_test_accuracy": f"{float_accuracy:.4f}",
            # test_accuracy repeats heldout_accuracy under its first name for existing readers.
            "test_accuracy": f"{accuracy:.4f}",
            **classifier_metadata(
                json.loads(float_metadata["class_names"]), actual[0].argmax(axis=1), y_test
            ),
        },
    )
    float_size = float_path.stat().st_size
    print(
        f"digits-int8: wrote {path} ({size} bytes; float {float_size} bytes), "
        f"max abs diff vs float {diff:.3g}, held-out accuracy {accuracy:.4f} "
        f"(float {float_accuracy:.4f})"
    )


if __name__ == "__main__":
    run_main(main)
