"""Export `edges`: a pencil-sketch filter (blur + Sobel edge magnitude) on raw RGBA pixels.

The graph takes what a browser canvas gives (uint8 RGBA, height x width x 4) and returns
what a canvas takes (the same), so the page needs no JavaScript preprocessing. It also
writes the sample picture `sample.png` that the model page feeds it.

Run `python models/edges/export.py [--out DIR]`; writes DIR/model.onnx and DIR/sample.png.
"""

from __future__ import annotations

import warnings
from pathlib import Path

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
from PIL import Image, ImageDraw
from torch import nn

OPSET = 17
SAMPLE_SIZE = (96, 64)  # width, height: small enough to keep the reference JSON small
# The output is uint8: float rounding in a different kernel order may tip a value that
# lies on x.5 to the next integer, so one grey level is the honest bound.
TOLERANCE = 1.0
EDGE_GAIN = 4.0  # Sobel magnitude of a 0-1 image rarely exceeds ~1; gain makes lines dark
DYNAMIC_AXES = {"pixels": {0: "height", 1: "width"}, "image": {0: "height", 1: "width"}}
PREPROCESSING = (
    "input: uint8 RGBA HWC 0-255 (canvas ImageData); graph casts to float32, scales to 0-1, "
    "drops alpha (channel order RGB), converts to NCHW with batch 1. "
    "output: uint8 RGBA HWC 0-255, alpha 255"
)


class Edges(nn.Module):
    """Grey -> Gaussian blur -> Sobel magnitude -> dark lines on white, as RGBA."""

    def __init__(self) -> None:
        super().__init__()
        # ITU-R BT.601 luma weights: the usual perceptual grey.
        self.to_grey = nn.Conv2d(3, 1, kernel_size=1, bias=False)
        self.to_grey.weight.data = torch.tensor([0.299, 0.587, 0.114]).reshape(1, 3, 1, 1)
        # 5x5 binomial blur: Sobel on an unblurred photo mostly finds noise.
        row = torch.tensor([1.0, 4.0, 6.0, 4.0, 1.0])
        blur = torch.outer(row, row) / 256.0
        self.blur = nn.Conv2d(1, 1, kernel_size=5, padding=2, bias=False, padding_mode="replicate")
        self.blur.weight.data = blur.reshape(1, 1, 5, 5)
        sobel_x = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
        self.sobel = nn.Conv2d(1, 2, kernel_size=3, padding=1, bias=False, padding_mode="replicate")
        self.sobel.weight.data = torch.stack([sobel_x, sobel_x.T]).reshape(2, 1, 3, 3)
        for parameter in self.parameters():
            parameter.requires_grad_(False)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        rgb = pixels[:, :, :3].to(torch.float32) / 255.0
        x = rgb.permute(2, 0, 1).unsqueeze(0)  # HWC -> NCHW, batch 1
        gradients = self.sobel(self.blur(self.to_grey(x)))
        magnitude = torch.sqrt((gradients * gradients).sum(dim=1, keepdim=True))
        paper = 1.0 - torch.clamp(magnitude * EDGE_GAIN, 0.0, 1.0)
        grey = paper[0, 0]  # H x W
        # Round before the cast: ONNX Cast truncates, and a float -> uint8 cast of an
        # out-of-range value is undefined, hence the clamp above.
        level = torch.round(grey * 255.0)
        alpha = torch.full_like(level, 255.0)
        rgba = torch.stack([level, level, level, alpha], dim=-1)
        return rgba.to(torch.uint8)


def make_sample(width: int, height: int) -> Image.Image:
    """A synthetic scene (gradient sky, sun, hills, house) with clear edges, fully opaque."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    sky = np.stack(
        [90 + 100 * y / height, 140 + 80 * y / height, 230 - 40 * x / width], axis=-1
    ).clip(0, 255)
    image = Image.fromarray(sky.astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(image)
    draw.ellipse((width * 0.68, height * 0.08, width * 0.88, height * 0.38), fill=(250, 210, 60))
    draw.polygon(
        [(0, height * 0.75), (width * 0.35, height * 0.45), (width * 0.7, height * 0.8),
         (width, height * 0.6), (width, height), (0, height)],
        fill=(60, 140, 70),
    )
    draw.rectangle((width * 0.2, height * 0.55, width * 0.42, height * 0.85), fill=(200, 70, 60))
    draw.polygon(
        [(width * 0.17, height * 0.56), (width * 0.31, height * 0.38),
         (width * 0.45, height * 0.56)],
        fill=(110, 60, 40),
    )
    draw.rectangle((width * 0.28, height * 0.68, width * 0.33, height * 0.85), fill=(60, 40, 30))
    return image.convert("RGBA")


def save_sample(image: Image.Image, path: Path) -> None:
    # Plain PNG, no colour profile or text chunks, so the bytes do not depend on the machine.
    image.save(path, format="PNG", optimize=False, compress_level=9)


def main() -> None:
    # Known exporter notices: the legacy-exporter deprecation, and Slice constant folding
    # being skipped (the slice depends on the input, there is nothing to fold).
    warnings.filterwarnings("ignore", "You are using the legacy TorchScript", DeprecationWarning)
    warnings.filterwarnings("ignore", "Constant folding - Only steps=1", UserWarning)
    out_dir = parse_out_dir(__file__)
    sample_path = out_dir / "sample.png"
    save_sample(make_sample(*SAMPLE_SIZE), sample_path)
    pixels = np.array(Image.open(sample_path).convert("RGBA"), dtype=np.uint8)

    model = Edges().eval()
    path = out_dir / "model.onnx"
    # Trace on a size different from the sample so a hard-coded shape would show in parity.
    trace_input = torch.zeros((24, 40, 4), dtype=torch.uint8)
    torch.onnx.export(
        model,
        (trace_input,),
        str(path),
        input_names=["pixels"],
        output_names=["image"],
        dynamic_axes=DYNAMIC_AXES,
        opset_version=OPSET,
        dynamo=False,
    )

    with torch.no_grad():
        expected = model(torch.from_numpy(pixels)).numpy()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    actual = session.run(None, {"pixels": pixels})[0]
    diff = max_abs_diff(expected, actual)
    check_parity("edges", diff, TOLERANCE)

    onnx_model = onnx.load(path)
    onnx_model.doc_string = "Pencil sketch: blur + Sobel edge magnitude, RGBA in, RGBA out"
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
        extra={"preprocessing": PREPROCESSING},
    )
    size = save_checked(onnx_model, path)
    print(f"edges: wrote {path} ({size} bytes) and {sample_path.name}, "
          f"parity max abs diff {diff:.3g}")


if __name__ == "__main__":
    run_main(main)
