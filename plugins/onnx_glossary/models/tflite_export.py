"""Shared plumbing for the export scripts of the MediaPipe models (TensorFlow Lite -> ONNX).

`models/background-removal`, `models/face-detection` and `models/face-landmarks` convert
pretrained `.tflite` files from the `mediapipe` 0.10.14 wheel with tf2onnx and wrap them in
pre- and post-processing written as ONNX graphs. What they share lives here:

- the pinned wheels (MediaPipe's models, scikit-image's sample photos), downloaded with pip
  into a cache folder outside the repository and checked by SHA-256 before every use;
- the conversion, which turns what tf2onnx only logs ("Unsupported ops", then exit 0) into a
  one-line failure, and refuses a graph that onnx's checker or onnxruntime refuses;
- the affine warp (crop, scale, rotate, pad) as an ONNX `GridSample`, the way MediaPipe's
  `ImageToTensorCalculator` samples its input;
- the sample photos in `models/_photos/`.

Importing this module loads only numpy and onnx; TensorFlow and tf2onnx are imported by the
functions that need them, so the site build can import the package without them.
"""

from __future__ import annotations

import hashlib
import logging
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper

from .export_tools import ExportError

#: This project ships IR <= 10 and ai.onnx opset <= 17 (onnxruntime-web 1.30 reads more).
OPSET, IR_VERSION = 17, 8


@dataclass(frozen=True)
class Wheel:
    """One pinned wheel file on PyPI: pip downloads exactly this file on any machine."""

    project: str
    version: str
    filename: str
    sha256: str

    @property
    def url(self) -> str:
        return f"https://pypi.org/project/{self.project}/{self.version}/"

    @property
    def requirement(self) -> str:
        return f"{self.project}=={self.version}"


# The wheels are platform-specific (they hold compiled code we never run); asking pip for this
# one platform makes every machine download the same file, whose SHA-256 is pinned here.
WHEEL_PLATFORM = ("--platform", "manylinux2014_x86_64", "--python-version", "3.11",
                  "--implementation", "cp", "--only-binary=:all:")
MEDIAPIPE = Wheel(
    "mediapipe", "0.10.14",
    "mediapipe-0.10.14-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    "a807328339e7356fda0bb14df12fedbf1d33bdf81649c5f8666b0026b1cc30b4",
)
SCIKIT_IMAGE = Wheel(
    "scikit-image", "0.25.2",
    "scikit_image-0.25.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    "24cc986e1f4187a12aa319f777b36008764e856e5013666a4a83f8df083c2641",
)
#: The licence file inside the mediapipe wheel (Apache-2.0).
MEDIAPIPE_LICENSE = "mediapipe-0.10.14.dist-info/LICENSE"


def cache_root() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "onnx-glossary"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch_wheel(wheel: Wheel, who: str) -> Path:
    """The wheel, downloaded once with pip into the cache; its SHA-256 is checked every time."""
    folder = cache_root() / f"{wheel.project}-{wheel.version}"
    path = folder / wheel.filename
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            done = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                 *WHEEL_PLATFORM, wheel.requirement, "-d", tmp],
                capture_output=True, text=True, check=False,
            )
            got = Path(tmp) / wheel.filename
            if done.returncode != 0 or not got.is_file():
                last = (done.stderr.strip().splitlines() or ["no wheel downloaded"])[-1]
                raise ExportError(f"{who}: pip could not download {wheel.filename}: {last}")
            got.replace(path)
    digest = sha256_bytes(path.read_bytes())
    if digest != wheel.sha256:
        raise ExportError(f"{who}: {path} has SHA-256 {digest}, expected {wheel.sha256}; "
                          "delete it to download again")
    return path


def wheel_member(wheel_path: Path, member: str) -> bytes:
    with zipfile.ZipFile(wheel_path) as archive:
        return archive.read(member)


def extract_member(wheel_path: Path, member: str, target: Path) -> Path:
    """Copy one file out of the wheel (once) and return its path."""
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(target.suffix + ".part")
        with zipfile.ZipFile(wheel_path) as archive, archive.open(member) as source, \
                partial.open("wb") as sink:
            shutil.copyfileobj(source, sink)
        partial.replace(target)
    return target


@dataclass(frozen=True)
class TfliteSource:
    """A `.tflite` file inside the mediapipe wheel, with its pinned SHA-256."""

    member: str
    sha256: str

    @property
    def name(self) -> str:
        return Path(self.member).name


def fetch_tflite(source: TfliteSource, who: str) -> Path:
    """The `.tflite` file out of the checked wheel, its own SHA-256 checked too."""
    wheel = fetch_wheel(MEDIAPIPE, who)
    path = extract_member(wheel, source.member, wheel.parent / "modules" / source.name)
    digest = sha256_bytes(path.read_bytes())
    if digest != source.sha256:
        raise ExportError(f"{who}: {source.member} has SHA-256 {digest}, expected "
                          f"{source.sha256}")
    return path


# -- conversion -----------------------------------------------------------------------------


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _tf2onnx_log() -> Iterator[_Collect]:
    collect = _Collect()
    logger = logging.getLogger("tf2onnx")
    logger.addHandler(collect)
    try:
        yield collect
    finally:
        logger.removeHandler(collect)


def unsupported_ops(messages: list[str]) -> list[str]:
    """The operator names in tf2onnx's "Unsupported ops: Counter({'TFL_X': 1})" lines."""
    import re

    found: list[str] = []
    for message in messages:
        if message.startswith("Unsupported ops"):
            found += [name.removeprefix("TFL_") for name in re.findall(r"'([^']+)'", message)]
    return found


def convert_tflite(path: Path, who: str, *, input_name: str,
                   custom_op_handlers: Mapping[str, tuple[Callable[..., Any], list[Any]]]
                   | None = None) -> onnx.ModelProto:
    """tf2onnx's `from_tflite` at opset 17 with an NCHW input; fails in one line on what
    tf2onnx only logs: an operator it could not convert leaves a graph no runtime loads."""
    import warnings

    import tf2onnx

    with _tf2onnx_log() as log, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tf.lite.Interpreter announces its move to LiteRT
        model, _ = tf2onnx.convert.from_tflite(
            str(path), opset=OPSET, inputs_as_nchw=[input_name],
            custom_op_handlers=dict(custom_op_handlers or {}),
        )
    missing = unsupported_ops(log.messages)
    if missing:
        raise ExportError(f"{who}: tf2onnx cannot convert the TensorFlow Lite operator "
                          f"{', '.join(sorted(set(missing)))} of {path.name}; give it a "
                          "custom_op_handlers entry")
    # tf2onnx imports ai.onnx.ml whether or not a node uses it.
    used = {node.domain for node in model.graph.node} | {""}
    kept = [o for o in model.opset_import if o.domain in used]
    del model.opset_import[:]
    model.opset_import.extend(kept)
    model.ir_version = IR_VERSION
    model.producer_version = tf2onnx.__version__  # "1.17.0 <git hash>"; the hash is None here
    check_loads(model, f"{who}: the converted {path.name}")
    return model


def check_loads(model: onnx.ModelProto, what: str) -> None:
    """onnx's full check and an onnxruntime session, each failure as one line."""
    import onnxruntime as ort

    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as error:  # checker and shape inference raise several types
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ExportError(f"{what} fails onnx's checker: {first}") from None
    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own exception types
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ExportError(f"{what} is refused by onnxruntime: {first}") from None


def tflite_interpreter(path: Path) -> Any:
    """TensorFlow Lite's own interpreter (XNNPACK delegate on, as MediaPipe runs it)."""
    import warnings

    import tensorflow as tf

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tf.lite.Interpreter announces its move to LiteRT
        interpreter = tf.lite.Interpreter(model_path=str(path), num_threads=1)
    interpreter.allocate_tensors()
    return interpreter


def run_tflite(interpreter: Any, nhwc: np.ndarray) -> list[np.ndarray]:
    """Outputs in the interpreter's output order, for one float32 NHWC input."""
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], nhwc.astype(np.float32))
    interpreter.invoke()
    return [np.array(interpreter.get_tensor(d["index"])) for d in interpreter.get_output_details()]


def versions() -> dict[str, str]:
    """The converter stack, for provenance."""
    import tensorflow as tf
    import tf2onnx

    return {"tensorflow": tf.__version__, "tf2onnx": tf2onnx.__version__,
            "onnx": onnx.__version__, "python": platform.python_version()}


# -- ONNX graph pieces ----------------------------------------------------------------------


class Nodes:
    """A small builder: nodes and initializers with a name prefix, for one part of a graph."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    def name(self, hint: str) -> str:
        self._count += 1
        return f"{self.prefix}.{hint}{self._count}"

    def const(self, values: Any, dtype: Any = np.float32, hint: str = "c") -> str:
        array = np.asarray(values, dtype=dtype)
        name = self.name(hint)
        self.initializers.append(onnx.numpy_helper.from_array(array, name))
        return name

    def op(self, op_type: str, inputs: list[str], output: str | None = None,
           **attributes: Any) -> str:
        out = output or self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attributes))
        return out

    def ops(self, op_type: str, inputs: list[str], outputs: list[str], **attributes: Any) -> None:
        self.nodes.append(helper.make_node(op_type, inputs, outputs, **attributes))

    def scalar(self, tensor: str, index: int) -> str:
        """Element `index` of a 1-D tensor, as a 0-D tensor."""
        return self.op("Gather", [tensor, self.const(index, np.int64)], axis=0)


def picture_nchw(b: Nodes, image: str) -> tuple[str, str, str]:
    """RGBA uint8 [H, W, 4] -> (RGB float 0-255 [1, 3, H, W], height float, width float)."""
    rgb = b.op("Slice", [image, b.const([0], np.int64), b.const([3], np.int64),
                         b.const([2], np.int64)])
    floats = b.op("Cast", [rgb], to=TensorProto.FLOAT)
    chw = b.op("Transpose", [floats], perm=[2, 0, 1])
    nchw = b.op("Unsqueeze", [chw, b.const([0], np.int64)])
    shape = b.op("Cast", [b.op("Shape", [image])], to=TensorProto.FLOAT)
    return nchw, b.scalar(shape, 0), b.scalar(shape, 1)


def affine_warp(b: Nodes, picture: str, height: str, width: str, matrix: str,
                out_size: tuple[int, int], padding: str) -> str:
    """Sample `picture` [1, C, H, W] at `matrix` [2, 3] @ (u, v, 1) for every output pixel.

    (u, v) are the output's pixel indices and the result is in the picture's pixel indices,
    the convention of OpenCV's warpAffine/warpPerspective, which MediaPipe's
    ImageToTensorCalculator uses on the CPU: output pixel 0 samples the crop rectangle's
    corner. Bilinear; `padding` "zeros" (BORDER_ZERO) or "border" (BORDER_REPLICATE).
    Returns [1, C, out_h, out_w].

    OpenCV's 8-bit warp also rounds sample positions to 1/32 pixel (INTER_TAB_SIZE) and the
    sampled values to whole numbers. Doing both in numpy brought the selfie mask of `coffee`
    a little closer to MediaPipe's (mean difference 0.0026 -> 0.0016), but a rounding step
    makes the outputs jump where float noise crosses a rounding edge (0.5 px on a face box
    between two runtimes), so the graph samples continuously.
    """
    out_h, out_w = out_size
    u = b.op("Unsqueeze", [b.const(np.arange(out_w, dtype=np.float32)), b.const([0], np.int64)])
    v = b.op("Unsqueeze", [b.const(np.arange(out_h, dtype=np.float32)), b.const([1], np.int64)])
    flat = b.op("Reshape", [matrix, b.const([6], np.int64)])
    a = [b.scalar(flat, i) for i in range(6)]

    def plane(c0: str, c1: str, c2: str, size: str) -> str:
        # picture coordinate of every output pixel, then GridSample's [-1, 1] with
        # align_corners=0: g = (2 x + 1) / size - 1
        coord = b.op("Add", [b.op("Add", [b.op("Mul", [u, c0]), b.op("Mul", [v, c1])]), c2])
        scaled = b.op("Div", [b.op("Add", [b.op("Mul", [coord, b.const(2.0)]), b.const(1.0)]),
                              size])
        return b.op("Unsqueeze", [b.op("Sub", [scaled, b.const(1.0)]), b.const([2], np.int64)])

    grid = b.op("Concat", [plane(a[0], a[1], a[2], width), plane(a[3], a[4], a[5], height)],
                axis=2)
    grid = b.op("Unsqueeze", [grid, b.const([0], np.int64)])
    return b.op("GridSample", [picture, grid], mode="bilinear", padding_mode=padding,
                align_corners=0)


def matrix_from(b: Nodes, entries: list[str]) -> str:
    """Six 0-D tensors (a00, a01, a02, a10, a11, a12) -> a [2, 3] matrix."""
    rows = [b.op("Unsqueeze", [entry, b.const([0], np.int64)]) for entry in entries]
    return b.op("Reshape", [b.op("Concat", rows, axis=0), b.const([2, 3], np.int64)])


def finish_model(graph_nodes: list[onnx.NodeProto], name: str,
                 inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
                 initializers: list[onnx.TensorProto], core: onnx.ModelProto,
                 doc_string: str) -> onnx.ModelProto:
    """One graph: the wrapper's nodes around the converted network's (renamed to core.*)."""
    graph = helper.make_graph(graph_nodes, name, inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              ir_version=IR_VERSION, producer_name="tf2onnx + onnx.helper",
                              producer_version=core.producer_version)
    model.doc_string = doc_string
    return model


def embed_core(core: onnx.ModelProto, prefix: str, feeds: Mapping[str, str]
               ) -> tuple[list[onnx.NodeProto], list[onnx.TensorProto], list[str]]:
    """The converted network's nodes and initializers with every name prefixed, its inputs
    wired to `feeds` (network input name -> tensor), and its output names in order.

    tf2onnx numbers the names it makes up ("const_fold_opt__521") from a counter whose value
    differs from run to run; those numbers are replaced by the order in which the names first
    appear, so that a re-export is byte-identical.
    """
    import re

    graph = core.graph
    made_up = re.compile(r"__\d+")
    rename: dict[str, str] = dict(feeds)
    count = 0

    def canonical(name: str) -> str:
        nonlocal count
        if not name or name in rename:
            return rename.get(name, name)
        if made_up.search(name):
            count += 1
            rename[name] = f"{prefix}.{made_up.sub('', name)}_{count}"
        else:
            rename[name] = f"{prefix}.{name}"
        return rename[name]

    nodes = []
    for index, node in enumerate(graph.node):
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        copy.name = f"{prefix}.{node.op_type}_{index}"
        copy.input[:] = [canonical(name) for name in node.input]
        copy.output[:] = [canonical(name) for name in node.output]
        nodes.append(copy)
    initializers = []
    for init in sorted(graph.initializer, key=lambda t: canonical(t.name)):
        copy = onnx.TensorProto()
        copy.CopyFrom(init)
        copy.name = canonical(init.name)
        initializers.append(copy)
    return nodes, initializers, [canonical(value.name) for value in graph.output]


# -- sample photos --------------------------------------------------------------------------

#: scikit-image's sample photos and their licences, as the docstrings of
#: skimage/data/_fetchers.py in the pinned wheel state them (its data README names none).
PHOTOS = {
    "astronaut": {
        "member": "skimage/data/astronaut.png",
        "sha256": "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5",
        "licence": "No known copyright restrictions, released into the public domain "
                   "(NASA Great Images database: Eileen Collins).",
    },
    "coffee": {
        "member": "skimage/data/coffee.png",
        "sha256": "cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7",
        "licence": "No copyright restrictions. CC0 by the photographer (Rachel Michetti); "
                   "courtesy of Pikolo Espresso Bar.",
    },
    "chelsea": {
        "member": "skimage/data/chelsea.png",
        "sha256": "596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb",
        "licence": "No copyright restrictions. CC0 by the photographer (Stefan van der Walt).",
    },
}
#: The photos are scaled so that their long side is this many pixels: a live example's
#: reference (inputs and outputs as JSON numbers) stays near 1 MB.
PHOTO_LONG_SIDE = 256
#: astronaut-tilted: the scaled astronaut turned this many degrees counter-clockwise, so that
#: the face-landmarks crop has a real rotation to follow.
TILT_DEGREES = 25.0
#: chelsea-small: the cat at a long side of this many pixels, where BlazeFace takes it for a
#: face (at 256 px it does not: the score depends on how the picture was scaled).
SMALL_SIDE = 128
PHOTOS_DIR = Path(__file__).resolve().parents[3] / "models" / "_photos"
PHOTO_NAMES = ("astronaut", "astronaut-tilted", "coffee", "chelsea", "chelsea-small")


def make_photos(who: str) -> dict[str, bytes]:
    """The sample photos as PNG bytes: scikit-image's originals (SHA-256 checked), scaled
    with Pillow's Lanczos filter to a long side of PHOTO_LONG_SIDE, plus the tilted one."""
    import io

    from PIL import Image

    wheel = fetch_wheel(SCIKIT_IMAGE, who)
    scaled: dict[str, Image.Image] = {}
    originals: dict[str, Image.Image] = {}
    for name, photo in PHOTOS.items():
        data = wheel_member(wheel, photo["member"])
        if sha256_bytes(data) != photo["sha256"]:
            raise ExportError(f"{who}: {photo['member']} in {wheel.name} has SHA-256 "
                              f"{sha256_bytes(data)}, expected {photo['sha256']}")
        with Image.open(io.BytesIO(data)) as original:
            originals[name] = original.convert("RGB")
        scaled[name] = _scaled(originals[name], PHOTO_LONG_SIDE)
    scaled["chelsea-small"] = _scaled(originals["chelsea"], SMALL_SIDE)
    scaled["astronaut-tilted"] = scaled["astronaut"].rotate(
        TILT_DEGREES, resample=Image.Resampling.BICUBIC, fillcolor=(0, 0, 0))
    out: dict[str, bytes] = {}
    for name in PHOTO_NAMES:
        buffer = io.BytesIO()
        # Plain PNG, no colour profile or text chunks: the bytes do not depend on the machine.
        scaled[name].save(buffer, format="PNG", optimize=False, compress_level=9)
        out[name] = buffer.getvalue()
    return out


def _scaled(image: Any, long_side: int) -> Any:
    from PIL import Image

    factor = long_side / max(image.size)
    size = (round(image.width * factor), round(image.height * factor))
    return image.resize(size, Image.Resampling.LANCZOS)


def read_photo(name: str) -> np.ndarray:
    """A committed sample photo as RGBA uint8 [height, width, 4]."""
    from PIL import Image

    with Image.open(PHOTOS_DIR / f"{name}.png") as image:
        return np.array(image.convert("RGBA"), dtype=np.uint8)


def photo_sha256(name: str) -> str:
    return sha256_bytes((PHOTOS_DIR / f"{name}.png").read_bytes())


# -- numpy references (independent of the ONNX graphs) ----------------------------------------


def numpy_warp(picture: np.ndarray, matrix: np.ndarray, out_size: tuple[int, int],
               padding: str) -> np.ndarray:
    """The reference of `affine_warp` in numpy, float64: picture [H, W, C] sampled at
    matrix @ (u, v, 1) bilinearly; outside pixels are 0 ("zeros") or the nearest edge pixel
    ("border"). Returns [out_h, out_w, C]."""
    height, width = picture.shape[:2]
    out_h, out_w = out_size
    v, u = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
    x = matrix[0, 0] * u + matrix[0, 1] * v + matrix[0, 2]
    y = matrix[1, 0] * u + matrix[1, 1] * v + matrix[1, 2]
    if padding == "border":
        x, y = np.clip(x, 0, width - 1), np.clip(y, 0, height - 1)
    x0, y0 = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    source = picture.astype(np.float64)

    def at(yy: np.ndarray, xx: np.ndarray) -> np.ndarray:
        inside = ((xx >= 0) & (xx < width) & (yy >= 0) & (yy < height))[..., None]
        return np.where(inside, source[np.clip(yy, 0, height - 1), np.clip(xx, 0, width - 1)], 0.0)

    return ((1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x0 + 1))
            + fy * ((1 - fx) * at(y0 + 1, x0) + fx * at(y0 + 1, x0 + 1)))


def box_iou(a: Any, b: Any) -> float:
    """Intersection over union of two [x0, y0, x1, y1] boxes."""
    ax0, ay0, ax1, ay1 = (float(v) for v in a)
    bx0, by0, bx1, by1 = (float(v) for v in b)
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter
    return inter / union if union > 0 else 0.0


def mask_iou(a: np.ndarray, b: np.ndarray, threshold: float = 0.5) -> float:
    """IoU of the two masks' foregrounds (value > threshold); 1.0 when both are empty."""
    fa, fb = a > threshold, b > threshold
    union = int((fa | fb).sum())
    return float((fa & fb).sum()) / union if union else 1.0


def mediapipe_reference() -> dict[str, Any]:
    """models/_photos/mediapipe_reference.json (written by mediapipe_reference.py)."""
    import json

    path = PHOTOS_DIR / "mediapipe_reference.json"
    reference: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for name, photo in reference["photos"].items():
        if photo["sha256"] != photo_sha256(name):
            raise ExportError(f"{path}: made from another {name}.png; run "
                              "`make mediapipe-reference` and commit it")
    return reference


def mediapipe_mask(name: str) -> np.ndarray:
    """MediaPipe's segmentation mask of a photo, 0-1, from its committed PNG."""
    from PIL import Image

    with Image.open(PHOTOS_DIR / f"{name}.mask.png") as image:
        return np.asarray(image, dtype=np.float64) / 255.0


LICENCE_FILE = "LICENSE-Apache-2.0.txt"


def write_licence(out_dir: Path, who: str) -> Path:
    """The mediapipe wheel's own licence file (Apache-2.0, and a notice for some files of the
    library that none of these models contains), copied unchanged next to the model."""
    path = out_dir / LICENCE_FILE
    path.write_bytes(wheel_member(fetch_wheel(MEDIAPIPE, who), MEDIAPIPE_LICENSE))
    return path


def session(model: onnx.ModelProto) -> Any:
    """An onnxruntime CPU session on a model held in memory."""
    import onnxruntime as ort

    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def source_metadata(source: TfliteSource, original_model: str, sample: str) -> dict[str, str]:
    """The provenance entries every MediaPipe model carries, for `stamp_provenance(extra=)`."""
    return {
        "source_url": MEDIAPIPE.url,
        "source_file": f"{MEDIAPIPE.filename}: {source.member}",
        "source_wheel_sha256": MEDIAPIPE.sha256,
        "source_sha256": source.sha256,
        "license": f"Apache-2.0 (see SOURCE.md and {LICENCE_FILE})",
        "original_model": original_model,
        "sample_photo": sample,
    }
