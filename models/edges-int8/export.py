"""Export `edges-int8`: post-training static quantisation (QDQ, int8) of `edges`.

Reads ../edges/model.onnx and ../edges/sample.png (run edges/export.py first), calibrates
on crops and flips of the sample picture, and quantises only the convolutions. The result
uses standard ai.onnx QuantizeLinear/DequantizeLinear ops, which the onnxruntime-web WASM
backend runs (it fuses them into QLinearConv); no com.microsoft ops.

Run `python models/edges-int8/export.py [--out DIR] [--float-dir DIR]`; writes DIR/model.onnx
and copies sample.png next to it.
"""

from __future__ import annotations

import argparse
import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnxruntime as ort
from onnx_glossary.models.export_tools import check_parity, max_abs_diff, run_main, stamp_quantised
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)
from PIL import Image

# The float model this one is made from; scripts/export_models.py exports it first.
DERIVED_FROM = "edges"
FLOAT_NAME = DERIVED_FROM
# Grey levels (0-255) the quantised sketch may differ from the float one on the sample.
# Int8 activations quantise the blurred grey image to 256 steps before Sobel, so edge
# strength moves by several levels; beyond 32 the picture visibly changes.
TOLERANCE = 32.0
SETTINGS = {
    "quant_format": "QDQ",
    "activation_type": "QUInt8",
    # Int8 weights in 7 bits (reduce_range). With full 8-bit int8 weights an x86 CPU without
    # VNNI (AVX2 only) multiplies uint8 x int8 with an instruction that saturates at 16 bits:
    # the blur's largest weight quantises to 127, 255 x 127 x 2 overflows, and the fused
    # QLinearConv turned whole edges from black to white (255 grey levels off the float model
    # on such a machine). 7-bit weights cannot overflow (onnxruntime's advice for such CPUs).
    # uint8 weights (U8U8) also avoid it in Python, but the browser's WebGPU path then landed
    # 7 grey levels from Python on the sample; with 7-bit int8 weights it stays within 4.
    "weight_type": "QInt8",
    "reduce_range": True,
    "per_channel": False,
    "calibrate_method": "MinMax",
    "op_types_to_quantize": ["Conv"],
    "calibration": "sample.png, its mirror images and 4 quarter crops",
}


class SampleReader(CalibrationDataReader):
    """Feeds the sample picture, its mirror images and four quarter crops."""

    def __init__(self, pixels: np.ndarray) -> None:
        height, width = pixels.shape[:2]
        half_h, half_w = height // 2, width // 2
        crops = [
            pixels[:half_h, :half_w], pixels[:half_h, half_w:],
            pixels[half_h:, :half_w], pixels[half_h:, half_w:],
        ]
        batches = [pixels, pixels[:, ::-1], pixels[::-1, :], *crops]
        self._feeds: Iterator[dict[str, np.ndarray]] = iter(
            {"pixels": np.ascontiguousarray(batch)} for batch in batches
        )

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._feeds, None)


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description="Quantise models/edges into edges-int8")
    parser.add_argument("--out", type=Path, default=here, help="folder for model.onnx")
    parser.add_argument(
        "--float-dir", type=Path, default=here.parent / FLOAT_NAME,
        help="folder holding the float model.onnx and sample.png",
    )
    return parser.parse_args()


def run(path: Path, pixels: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    output: np.ndarray = session.run(None, {"pixels": pixels})[0]
    return output


def main() -> None:
    args = parse_args()
    out_dir: Path = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    float_path: Path = args.float_dir / "model.onnx"
    # Each model folder is self-contained for the site: ship the same picture here too.
    sample_path = out_dir / "sample.png"
    shutil.copyfile(args.float_dir / "sample.png", sample_path)
    pixels = np.array(Image.open(sample_path).convert("RGBA"), dtype=np.uint8)
    path = out_dir / "model.onnx"

    # The quantiser logs a hint to run its shape pre-processing first; that pass only
    # helps models with symbolic shapes it cannot infer, and ours quantise fine without it.
    logging.getLogger().setLevel(logging.ERROR)
    quantize_static(
        str(float_path),
        str(path),
        SampleReader(pixels),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        reduce_range=True,
        per_channel=False,
        calibrate_method=CalibrationMethod.MinMax,
        op_types_to_quantize=["Conv"],
        calibration_providers=["CPUExecutionProvider"],
        use_external_data_format=False,
    )

    diff = max_abs_diff(run(float_path, pixels), run(path, pixels))
    check_parity("edges-int8 vs edges", diff, TOLERANCE)

    size = stamp_quantised(
        path, name="edges-int8", float_name=FLOAT_NAME, float_path=float_path,
        settings=SETTINGS, script=__file__, diff=diff,
        doc_string="Int8 (QDQ) post-training quantisation of the edges pencil-sketch model",
        diff_input="the sample picture, sample.png",
        diff_unit="grey levels out of 255",
    )
    print(
        f"edges-int8: wrote {path} ({size} bytes; float {float_path.stat().st_size} bytes), "
        f"max abs diff vs float {diff:.3g} grey levels"
    )

if __name__ == "__main__":
    run_main(main)
