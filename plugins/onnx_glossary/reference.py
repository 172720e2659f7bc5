"""Reference outputs for the live examples, computed at build time with Python onnxruntime.

The browser widget runs the same model on the same sample input and compares its outputs
with these, within the tolerance of the model's ``example.yml`` (:mod:`.example_spec`).
Pure: no MkDocs.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime
from PIL import Image

from .element_types import BY_NAME, ELEMENT_TYPES
from .example_spec import EXAMPLE_FILE, ExampleSpec
from .model_facts import ModelFacts, TensorInfo


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


def _numpy_type(name: str) -> Any:
    element = BY_NAME.get(name)
    if element is None or element.numpy is None:
        raise ValueError(f"element type {name} has no numpy equivalent")
    return object if name == "string" else np.dtype(element.numpy)


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


def _sample(tensor: TensorInfo, shape: tuple[int, ...], rng: np.random.Generator,
            index_range: tuple[int, int] | None = None) -> np.ndarray:
    count = math.prod(shape)
    kind = tensor.elem_type
    if kind.startswith("float"):
        # Three decimals: short in the JSON, and exactly representable after rounding
        # to the element type, so the browser feeds bit-identical values.
        values = np.round(rng.uniform(-1.0, 1.0, count), 3)
        return values.astype(_numpy_type(kind)).reshape(shape)
    if kind == "bool":
        return (np.arange(count) % 2 == 0).reshape(shape)
    if kind == "string":
        return np.array([f"s{i}" for i in range(count)], dtype=object).reshape(shape)
    if kind in BY_NAME and BY_NAME[kind].numpy is not None:
        # Indices into a table must stay inside it (the graph says how big it is).
        low, high = index_range or (0, 10)
        return rng.integers(low, min(high, low + 10), count).astype(_numpy_type(kind)).reshape(shape)
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
    for element in ELEMENT_TYPES:
        if element.numpy not in (None, "str") and array.dtype == np.dtype(element.numpy):
            return element.name
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
        ranges = {r.input: (r.low, r.high) for r in facts.index_ranges}
        feeds[tensor.name] = _sample(tensor, _shape(tensor, dims, facts.name), rng,
                                     ranges.get(tensor.name))

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
