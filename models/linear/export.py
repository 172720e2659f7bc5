"""Export the reference article's tiny model: nn.Linear(3, 1) with a free batch axis.

Run `python models/linear/export.py [--out DIR]`; writes DIR/model.onnx (default: this folder).
"""

from __future__ import annotations

import warnings

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx_glossary.models.export_tools import (
    check_parity,
    max_abs_diff,
    parse_out_dir,
    run_main,
    save_checked,
    stamp_provenance,
)
from torch import nn

OPSET = 17
SEED = 17
# Float32 through Gemm on 3 numbers: anything above a few ulps means a broken export.
TOLERANCE = 1e-5
DYNAMIC_AXES = {"input": {0: "batch"}, "output": {0: "batch"}}


def main() -> None:
    out_dir = parse_out_dir(__file__)
    torch.manual_seed(SEED)
    model = nn.Linear(3, 1).eval()
    dummy = torch.rand(1, 3)
    path = out_dir / "model.onnx"

    # dynamo=False: torch's default (dynamo) exporter imports onnxscript, which the
    # export extra in pyproject.toml does not install; the TorchScript exporter needs none
    # and writes one self-contained file stamped IR 8, which onnxruntime-web 1.30 reads.
    # Its deprecation notice is known, not news.
    warnings.filterwarnings("ignore", "You are using the legacy TorchScript", DeprecationWarning)
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=["input"],
        output_names=["output"],
        dynamic_axes=DYNAMIC_AXES,
        opset_version=OPSET,
        dynamo=False,
    )

    # Parity on a batch size other than the traced one, so the free axis is exercised too.
    sample = np.random.default_rng(SEED).random((4, 3), dtype=np.float32)
    with torch.no_grad():
        expected = model(torch.from_numpy(sample)).numpy()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    actual = session.run(None, {"input": sample})[0]
    diff = max_abs_diff(expected, actual)
    check_parity("linear", diff, TOLERANCE)

    onnx_model = onnx.load(path)
    onnx_model.doc_string = "The reference article's tiny model: one linear layer, 3 inputs to 1 output"
    stamp_provenance(
        onnx_model,
        framework="torch",
        framework_version=torch.__version__,
        exporter_settings={
            "exporter": "torch.onnx.export(dynamo=False)",
            "opset_version": OPSET,
            "dynamic_axes": DYNAMIC_AXES,
        },
        script=__file__,
        parity_max_abs_diff=diff,
    )
    size = save_checked(onnx_model, path)
    print(f"linear: wrote {path} ({size} bytes), parity max abs diff {diff:.3g}")


if __name__ == "__main__":
    run_main(main)
