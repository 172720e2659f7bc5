"""Reference outputs for the live examples, computed at build time with Python onnxruntime.

The browser widget runs the same model on the same sample input and compares its outputs
with these, within the tolerance of the model's ``example.yml`` (:mod:`.example_spec`).
Pure: no MkDocs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime
from PIL import Image

from ..models.element_types import BY_NAME, ELEMENT_TYPES
from ..models.example_spec import EXAMPLE_FILE, ExampleSpec, data_set_folders
from ..models.facts import ModelFacts, TensorInfo
from ..models.samples import NamedSample, class_names, compare, load_data_set, spec_samples
from .cost import multiply_adds

#: The declared format of reference.json, which Python, the templates and the widget all read.
SCHEMA_PATH = Path(__file__).with_name("reference.schema.json")


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
    # Every sample the reader can pick, the first being the one above: name, label, source,
    # and (for the others) their own inputs and outputs; "expected" when a model zoo shipped
    # outputs: {"max_abs_diff": ..., "pass": ...}.
    samples: tuple[Mapping[str, Any], ...] = ()
    reading: Mapping[str, Any] | None = None  # how the outputs read (example_spec.Reading)
    input_spec: Mapping[str, Any] | None = None  # how a reader makes input (example_spec.InputSpec)
    problems: tuple[str, ...] = ()  # shipped outputs that onnxruntime does not reproduce
    multiply_adds: int = 0  # of one run on the first sample (models.cost)

    def to_json(self) -> str:
        """The declared format of ``reference.json``: :data:`SCHEMA_PATH` (a JSON Schema the
        tests check every built file against, in Python and in node)."""
        return json.dumps(
            {
                "model": self.model,
                "onnxruntime": self.onnxruntime,
                "dims": dict(self.dims),
                "inputs": [tensor.to_dict() for tensor in self.inputs],
                "outputs": [tensor.to_dict() for tensor in self.outputs],
                "tolerance": {"atol": self.atol, "rtol": self.rtol},
                "image": None if self.image is None else dict(self.image),
                "samples": [dict(sample) for sample in self.samples],
                "reading": None if self.reading is None else dict(self.reading),
                "input": None if self.input_spec is None else dict(self.input_spec),
                "cost": {"multiply_adds": self.multiply_adds},
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
        # The shortest decimal that reads back as the same float32/float16/float64. Formatting
        # is slow and sample inputs repeat values (a picture, numbers with three decimals), so
        # each distinct value is formatted once; distinct by bits, or -0.0 would become 0.0.
        bits, where = np.unique(flat.view(f"u{flat.dtype.itemsize}"), return_inverse=True)
        shortest = np.array([float(np.format_float_positional(value, unique=True, trim="-"))
                             for value in bits.view(flat.dtype)])
        return tuple(shortest[where].tolist())
    if flat.dtype.kind in "biu":
        return tuple(flat.tolist())  # Python bools and ints, made in C
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


def _generated_feeds(facts: ModelFacts, spec: ExampleSpec, model_dir: Path,
                     dims: dict[str, int]) -> tuple[dict[str, np.ndarray], dict[str, Any] | None]:
    """The deterministic sample: the shipped picture, seeded numbers for the other inputs."""
    rng = np.random.default_rng(_seed(facts.name))
    feeds: dict[str, np.ndarray] = {}
    image_info: dict[str, Any] | None = None
    if spec.image:
        tensor, pixels, image_dims = _image_input(facts, spec, model_dir)
        feeds[tensor.name] = pixels
        dims.update(image_dims)
        image_info = {"input": tensor.name, "src": spec.image,
                      "height": int(pixels.shape[0]), "width": int(pixels.shape[1])}
    ranges = {r.input: (r.low, r.high) for r in facts.index_ranges}
    for tensor in facts.inputs:
        if tensor.name in feeds:
            continue
        if not tensor.is_tensor:
            raise ValueError(f"{facts.name}: input '{tensor.name}' is a {tensor.elem_type}; "
                             "the live example can only feed tensors")
        for dim in tensor.shape or ():
            if isinstance(dim, str):
                dims.setdefault(dim, spec.dims.get(dim, 1))
        feeds[tensor.name] = _sample(tensor, _shape(tensor, dims, facts.name), rng,
                                     ranges.get(tensor.name))
    return feeds, image_info


def as_tensors(values: Mapping[str, Any], what: str) -> tuple[list[TensorData], list[str]]:
    """Arrays as JSON-ready tensors; what is not a tensor is skipped with a note."""
    out: list[TensorData] = []
    notes: list[str] = []
    for name, value in values.items():
        if not isinstance(value, np.ndarray):
            notes.append(f"output '{name}' skipped: a {type(value).__name__}, not a tensor")
            continue
        try:
            out.append(TensorData(name, _type_name(value), value.shape, _json_values(value)))
        except ValueError as error:
            raise ValueError(f"{what}: '{name}' {error}") from None
    return out, notes


def compute_reference(
    model_path: Path, facts: ModelFacts, spec: ExampleSpec, model_dir: Path
) -> Reference:
    """Run every sample (the named ones, else the generated one) and package them for the widget.

    The first sample is the page's default: its inputs and outputs are the top-level ones.
    """
    dims: dict[str, int] = {}
    named = [*spec_samples(spec, facts),
             *(load_data_set(folder, facts) for folder in data_set_folders(model_dir))]
    image_info = None
    if not named or spec.image:
        feeds, image_info = _generated_feeds(facts, spec, model_dir, dims)
        name = f"the shipped picture ({spec.image})" if spec.image else "generated numbers"
        named.insert(0, NamedSample(name, spec.image or "generated", feeds))
    samples: list[dict[str, Any]] = []
    problems: list[str] = []
    first: tuple[list[TensorData], list[TensorData], list[str]] | None = None
    work = multiply_adds(onnx.load(str(model_path)), named[0].feeds)
    for sample in named:
        results = run_model(model_path, sample.feeds)
        outputs, notes = as_tensors(results, f"{facts.name}: output")
        inputs, _ = as_tensors(dict(sample.feeds), f"{facts.name}: input")
        entry: dict[str, Any] = {"name": sample.name, "label": sample.label, "source": sample.source}
        if sample.expected:
            worst, ok = 0.0, True
            for name, expected in sample.expected.items():
                diff, good = compare(np.asarray(results[name]), expected, spec.atol, spec.rtol)
                worst, ok = max(worst, diff), ok and good
            shipped, _ = as_tensors(dict(sample.expected), f"{sample.source}: output")
            # The browser checks itself against the shipped outputs too, not only against ours.
            entry["expected"] = {"max_abs_diff": worst, "pass": ok,
                                 "outputs": [t.to_dict() for t in shipped]}
            if not ok:
                problems.append(f"{sample.source}: onnxruntime's outputs differ from the shipped "
                                f"output_N.pb by up to {worst:.3g} (atol {spec.atol:g}, rtol "
                                f"{spec.rtol:g})")
        if first is None:
            first = (inputs, outputs, notes)
        else:
            entry["inputs"] = [t.to_dict() for t in inputs]
            entry["outputs"] = [t.to_dict() for t in outputs]
        samples.append(entry)
    assert first is not None
    return Reference(
        model=facts.name,
        onnxruntime=onnxruntime.__version__,
        dims=dims,
        inputs=tuple(first[0]),
        outputs=tuple(first[1]),
        atol=spec.atol,
        rtol=spec.rtol,
        image=image_info,
        notes=tuple(first[2]),
        samples=tuple(samples),
        reading=_reading(spec, facts),
        input_spec=_input_spec(spec, facts),
        problems=tuple(problems),
        multiply_adds=work,
    )


def _reading(spec: ExampleSpec, facts: ModelFacts) -> dict[str, Any] | None:
    """How the outputs read, with the class names resolved and the output tensor named."""
    if spec.output is None:
        return None
    reading = dataclasses.asdict(spec.output)
    outputs = [t.name for t in facts.outputs]
    tensor = spec.output.tensor or (outputs[0] if outputs else None)
    if tensor not in outputs:
        raise ValueError(f"output.tensor names '{tensor}', which is not an output of the model "
                         f"({', '.join(outputs)})")
    if spec.output.score is not None and spec.output.score not in outputs:
        raise ValueError(f"output.score names '{spec.output.score}', which is not an output of "
                         f"the model ({', '.join(outputs)})")
    reading["tensor"] = tensor
    if spec.output.kind == "classes":
        reading["classes"] = list(class_names(facts, spec.output.classes))
    return reading


def _input_spec(spec: ExampleSpec, facts: ModelFacts) -> dict[str, Any] | None:
    """How a reader makes input, with the input tensor named and the form checked."""
    if spec.input is None:
        return None
    inputs = {t.name: t for t in facts.inputs}
    tensor = spec.input.tensor or (next(iter(inputs)) if len(inputs) == 1 else None)
    if tensor not in inputs:
        raise ValueError(f"input.tensor must name one of the model's inputs ({', '.join(inputs)})")
    shape = inputs[tensor].shape or ()
    width = shape[-1] if shape else None
    if spec.input.kind == "form" and isinstance(width, int) and width != len(spec.input.fields):
        raise ValueError(f"input.fields lists {len(spec.input.fields)} fields but input "
                         f"'{tensor}' takes {width} values per row")
    if spec.input.kind == "drawing" and isinstance(width, int) and width != spec.input.grid ** 2:
        raise ValueError(f"input.grid {spec.input.grid} makes {spec.input.grid ** 2} values but "
                         f"input '{tensor}' takes {width} per row")
    found = dataclasses.asdict(spec.input)
    found["tensor"] = tensor
    return found
