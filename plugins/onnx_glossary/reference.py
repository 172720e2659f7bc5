"""Reference outputs for the live examples, computed at build time with Python onnxruntime.

The browser widget runs the same model on the same sample input and compares its outputs
with these, within the tolerance declared here. Pure: no MkDocs.

`models/<name>/example.yml` (optional) adjusts the sample:

    dims: {batch: 2}               # symbolic dim -> size (default 1)
    tolerance: {atol: 1e-4, rtol: 1e-3}
    image: sample.png              # picture feeding the single uint8 [H, W, 4] input
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime
import yaml
from PIL import Image

from .model_facts import ModelFacts, TensorInfo

EXAMPLE_FILE = "example.yml"
DEFAULT_ATOL = 1e-4
DEFAULT_RTOL = 1e-3

_NUMPY_TYPES = {
    "float32": np.float32,
    "float16": np.float16,
    "float64": np.float64,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
    "bool": np.bool_,
    "string": np.str_,
}


@dataclass(frozen=True)
class ExampleSpec:
    """How to build the sample input of one model; defaults when there is no example.yml."""

    dims: Mapping[str, int] = field(default_factory=dict)
    atol: float = DEFAULT_ATOL
    rtol: float = DEFAULT_RTOL
    image: str | None = None
    source: str | None = None  # the example.yml it came from, for messages


def _fail(path: Path, node: yaml.Node, message: str) -> ValueError:
    return ValueError(f"{path}:{node.start_mark.line + 1}: {message}")


def _number(path: Path, node: yaml.Node, what: str, *, integer: bool) -> float:
    value = yaml.safe_load(yaml.serialize(node)) if isinstance(node, yaml.ScalarNode) else None
    # YAML reads "1e-4" (no dot) as a string; accept it as the number people mean.
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            value = None
    ok = isinstance(value, int) if integer else isinstance(value, int | float)
    if isinstance(value, bool) or not ok or value is None or not math.isfinite(value) or value < 0:
        kind = "a non-negative integer" if integer else "a non-negative number"
        raise _fail(path, node, f"{what} must be {kind}")
    return value


def _mapping(path: Path, node: yaml.Node, what: str) -> list[tuple[yaml.Node, yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        raise _fail(path, node, f"{what} must be a mapping")
    return list(node.value)


def parse_example_spec(path: Path) -> ExampleSpec:
    """Parse and validate an example.yml; ValueError names the file and line."""
    text = path.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as error:
        raise ValueError(f"{path}: not valid YAML: {error}".replace("\n", " ")) from None
    if root is None:
        return ExampleSpec(source=str(path))
    dims: dict[str, int] = {}
    atol, rtol, image = DEFAULT_ATOL, DEFAULT_RTOL, None
    for key_node, value_node in _mapping(path, root, "example.yml"):
        key = key_node.value
        if key == "dims":
            for dim_node, size_node in _mapping(path, value_node, "dims"):
                size = int(_number(path, size_node, f"dims.{dim_node.value}", integer=True))
                if size < 1:
                    raise _fail(path, size_node, f"dims.{dim_node.value} must be at least 1")
                dims[str(dim_node.value)] = size
        elif key == "tolerance":
            for name_node, number_node in _mapping(path, value_node, "tolerance"):
                if name_node.value == "atol":
                    atol = _number(path, number_node, "tolerance.atol", integer=False)
                elif name_node.value == "rtol":
                    rtol = _number(path, number_node, "tolerance.rtol", integer=False)
                else:
                    raise _fail(path, name_node,
                                f"unknown tolerance key '{name_node.value}'; use atol or rtol")
        elif key == "image":
            if not isinstance(value_node, yaml.ScalarNode) or not value_node.value:
                raise _fail(path, value_node, "image must be a file name")
            image = str(value_node.value)
            if Path(image).name != image:
                raise _fail(path, value_node, "image must be a file name in the model folder")
        else:
            raise _fail(path, key_node,
                        f"unknown key '{key}'; expected dims, tolerance or image")
    return ExampleSpec(dims=dims, atol=float(atol), rtol=float(rtol), image=image,
                       source=str(path))


def load_example_spec(model_dir: Path) -> ExampleSpec:
    """The folder's example.yml, or the defaults when it has none."""
    path = model_dir / EXAMPLE_FILE
    return parse_example_spec(path) if path.is_file() else ExampleSpec()


@dataclass(frozen=True)
class TensorData:
    name: str
    type: str
    dims: tuple[int, ...]
    data: tuple[Any, ...]  # flattened row-major, JSON-ready numbers / bools / strings

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "dims": list(self.dims),
                "data": list(self.data)}


@dataclass(frozen=True)
class Reference:
    """One model's sample inputs and the outputs Python onnxruntime computed for them."""

    model: str
    onnxruntime: str
    dims: Mapping[str, int]
    inputs: tuple[TensorData, ...]
    outputs: tuple[TensorData, ...]
    atol: float
    rtol: float
    image: Mapping[str, Any] | None
    notes: tuple[str, ...] = ()  # e.g. outputs skipped because they are not tensors

    def to_json(self) -> str:
        """The format the browser widget reads (see the module docstring of the widget)."""
        return json.dumps(
            {
                "model": self.model,
                "onnxruntime": self.onnxruntime,
                "dims": dict(self.dims),
                "inputs": [tensor.to_dict() for tensor in self.inputs],
                "outputs": [tensor.to_dict() for tensor in self.outputs],
                "tolerance": {"atol": self.atol, "rtol": self.rtol},
                "image": None if self.image is None else dict(self.image),
            },
            allow_nan=False,
        )


def _seed(name: str) -> int:
    # Python's hash() is salted per process; sha256 gives the same sample on every build.
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "little")


def _shape(tensor: TensorInfo, dims: Mapping[str, int], model: str) -> tuple[int, ...]:
    if tensor.shape is None:
        raise ValueError(
            f"{model}: input '{tensor.name}' has no declared shape; "
            "cannot build a sample input for it"
        )
    return tuple(
        dim if isinstance(dim, int) else dims.get(dim, 1) if isinstance(dim, str) else 1
        for dim in tensor.shape
    )


def _sample(tensor: TensorInfo, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    count = math.prod(shape)
    kind = tensor.elem_type
    if kind.startswith("float"):
        # Three decimals: short in the JSON, and exactly representable after rounding
        # to the element type, so the browser feeds bit-identical values.
        values = np.round(rng.uniform(-1.0, 1.0, count), 3)
        return values.astype(_NUMPY_TYPES[kind]).reshape(shape)
    if kind == "bool":
        return (np.arange(count) % 2 == 0).reshape(shape)
    if kind == "string":
        return np.array([f"s{i}" for i in range(count)], dtype=object).reshape(shape)
    if kind in _NUMPY_TYPES:
        return rng.integers(0, 10, count).astype(_NUMPY_TYPES[kind]).reshape(shape)
    raise ValueError(f"input '{tensor.name}' has type {kind}; no sample can be built for it")


def _json_values(array: np.ndarray) -> tuple[Any, ...]:
    flat = array.reshape(-1)
    if flat.dtype.kind == "f":
        if not np.all(np.isfinite(flat)):
            raise ValueError("contains NaN or infinity, which JSON cannot carry")
        # The shortest decimal that reads back as the same float32/float16/float64.
        return tuple(
            float(np.format_float_positional(value, unique=True, trim="-")) for value in flat
        )
    if flat.dtype.kind == "b":
        return tuple(bool(value) for value in flat)
    if flat.dtype.kind in "iu":
        return tuple(int(value) for value in flat)
    return tuple(str(value) for value in flat)


def _type_name(array: np.ndarray) -> str:
    for name, numpy_type in _NUMPY_TYPES.items():
        if array.dtype == numpy_type:
            return name
    if array.dtype.kind in "OU":
        return "string"
    raise ValueError(f"output type {array.dtype} has no onnxruntime-web equivalent")


def run_model(model_path: Path, feeds: Mapping[str, np.ndarray]) -> dict[str, Any]:
    """Run the model on CPU with Python onnxruntime; output name -> value."""
    options = onnxruntime.SessionOptions()
    # Deterministic across machines: one thread, so reductions add in a fixed order.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(model_path), options, providers=["CPUExecutionProvider"]
    )
    names = [output.name for output in session.get_outputs()]
    return dict(zip(names, session.run(names, dict(feeds)), strict=True))


def _image_input(
    facts: ModelFacts, spec: ExampleSpec, model_dir: Path
) -> tuple[TensorInfo, np.ndarray, dict[str, int]]:
    assert spec.image is not None
    where = spec.source or str(model_dir / EXAMPLE_FILE)
    candidates = [
        tensor for tensor in facts.inputs
        if tensor.elem_type == "uint8" and tensor.shape is not None and len(tensor.shape) == 3
        and not (isinstance(tensor.shape[2], int) and tensor.shape[2] != 4)
    ]
    if len(candidates) != 1:
        raise ValueError(
            f"{where}: image needs exactly one uint8 [height, width, 4] input, "
            f"{facts.name} has {len(candidates)}"
        )
    picture = model_dir / spec.image
    if not picture.is_file():
        raise ValueError(f"{where}: image file {picture} not found")
    with Image.open(picture) as image:
        pixels = np.array(image.convert("RGBA"), dtype=np.uint8)
    tensor = candidates[0]
    height, width = pixels.shape[:2]
    dims: dict[str, int] = {}
    assert tensor.shape is not None
    for axis, size in ((0, height), (1, width)):
        dim = tensor.shape[axis]
        if isinstance(dim, int) and dim != size:
            raise ValueError(
                f"{where}: {spec.image} is {width}x{height} but input '{tensor.name}' "
                f"is fixed at {list(tensor.shape)}"
            )
        if isinstance(dim, str):
            dims[dim] = size
    return tensor, pixels, dims


def compute_reference(
    model_path: Path, facts: ModelFacts, spec: ExampleSpec, model_dir: Path
) -> Reference:
    """Build the deterministic sample input, run it, and package both for the widget."""
    rng = np.random.default_rng(_seed(facts.name))
    feeds: dict[str, np.ndarray] = {}
    dims: dict[str, int] = {}
    image_info: dict[str, Any] | None = None
    if spec.image:
        tensor, pixels, image_dims = _image_input(facts, spec, model_dir)
        feeds[tensor.name] = pixels
        dims.update(image_dims)
        image_info = {"input": tensor.name, "src": spec.image,
                      "height": int(pixels.shape[0]), "width": int(pixels.shape[1])}
    for tensor in facts.inputs:
        if tensor.name in feeds:
            continue
        if not tensor.is_tensor:
            raise ValueError(f"{facts.name}: input '{tensor.name}' is a {tensor.elem_type}; "
                             "the live example can only feed tensors")
        for dim in tensor.shape or ():
            if isinstance(dim, str):
                dims.setdefault(dim, spec.dims.get(dim, 1))
        feeds[tensor.name] = _sample(tensor, _shape(tensor, dims, facts.name), rng)

    results = run_model(model_path, feeds)
    notes: list[str] = []
    outputs: list[TensorData] = []
    for name, value in results.items():
        if not isinstance(value, np.ndarray):
            notes.append(f"output '{name}' skipped: a {type(value).__name__}, not a tensor")
            continue
        try:
            outputs.append(TensorData(name, _type_name(value), value.shape, _json_values(value)))
        except ValueError as error:
            raise ValueError(f"{facts.name}: output '{name}' {error}") from None
    inputs = tuple(
        TensorData(name, _type_name(value), value.shape, _json_values(value))
        for name, value in feeds.items()
    )
    return Reference(
        model=facts.name,
        onnxruntime=onnxruntime.__version__,
        dims=dims,
        inputs=inputs,
        outputs=tuple(outputs),
        atol=spec.atol,
        rtol=spec.rtol,
        image=image_info,
        notes=tuple(notes),
    )
