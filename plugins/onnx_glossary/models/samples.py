"""Named sample inputs of a model: from its ``example.yml`` and from model-zoo data sets.

A model-zoo folder ships ``test_data_set_N/input_K.pb`` and ``output_K.pb`` next to the model:
serialized ``TensorProto`` files holding the inputs and the outputs its authors expect, as the
ONNX model zoo and the onnx package's own test models do. Pure: onnx and numpy, no MkDocs.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper

from ..models.element_types import BY_NAME
from ..models.example_spec import CLASS_NAMES_KEY, ExampleSpec
from ..models.facts import ModelFacts, TensorInfo

_PB_RE = re.compile(r"^(input|output)_(\d+)\.pb$")


@dataclass(frozen=True)
class NamedSample:
    """Feeds for one run, with what is known about the right answer."""

    name: str
    source: str  # "example.yml", "test_data_set_0", "generated", or the picture's file name
    feeds: Mapping[str, np.ndarray]
    label: str | None = None  # the true answer, for a person
    expected: Mapping[str, np.ndarray] | None = None  # outputs a model zoo ships


def _read_tensor(path: Path) -> tuple[str, np.ndarray]:
    tensor = onnx.TensorProto()
    try:
        tensor.ParseFromString(path.read_bytes())
        return tensor.name, numpy_helper.to_array(tensor)
    except Exception as error:  # protobuf and numpy raise several unrelated types here
        raise ValueError(f"{path.name} is not a serialized TensorProto ({error}); "
                         "re-save it with onnx.numpy_helper.from_array") from None


def load_data_set(folder: Path, facts: ModelFacts) -> NamedSample:
    """Inputs and expected outputs of one data set, matched to the model by name, else order."""
    inputs: dict[int, tuple[str, np.ndarray]] = {}
    outputs: dict[int, tuple[str, np.ndarray]] = {}
    for pb in folder.glob("*.pb"):
        match = _PB_RE.match(pb.name)
        if match:
            (inputs if match.group(1) == "input" else outputs)[int(match.group(2))] = _read_tensor(pb)
    return NamedSample(
        name=folder.name.replace("_", " "),
        source=folder.name,
        feeds=_by_name(inputs, facts.inputs, f"{folder.name}: input"),
        expected=_by_name(outputs, facts.outputs, f"{folder.name}: output") or None,
    )


def _by_name(found: Mapping[int, tuple[str, np.ndarray]], tensors: tuple[TensorInfo, ...],
             what: str) -> dict[str, np.ndarray]:
    names = [t.name for t in tensors]
    out: dict[str, np.ndarray] = {}
    for index in sorted(found):
        name, array = found[index]
        if name not in names:
            if index >= len(names):
                raise ValueError(f"{what}_{index}.pb has no matching tensor: the model has "
                                 f"{len(names)}")
            name = names[index]
        out[name] = array
    return out


def spec_samples(spec: ExampleSpec, facts: ModelFacts) -> list[NamedSample]:
    """The named samples of ``example.yml``, as arrays of each input's type and shape."""
    by_name = {t.name: t for t in facts.inputs}
    out = []
    for sample in spec.samples:
        feeds: dict[str, np.ndarray] = {}
        for name, values in sample.values.items():
            tensor = by_name.get(name)
            if tensor is None:
                raise ValueError(f"sample '{sample.name}' gives values for '{name}', which is not "
                                 f"an input of the model ({', '.join(by_name)})")
            feeds[name] = _shaped(tensor, values, sample.name)
        out.append(NamedSample(sample.name, "example.yml", feeds, sample.label))
    return out


def _shaped(tensor: TensorInfo, values: tuple[float, ...], sample: str) -> np.ndarray:
    """Flattened values in the input's shape; one free axis (the batch) takes what is left."""
    element = BY_NAME.get(tensor.elem_type)
    if element is None or element.numpy in (None, "str"):
        raise ValueError(f"sample '{sample}': input '{tensor.name}' is {tensor.elem_type}, "
                         "which example.yml cannot give")
    shape = list(tensor.shape or (len(values),))
    fixed = math.prod(d for d in shape if isinstance(d, int))
    free = [i for i, d in enumerate(shape) if not isinstance(d, int)]
    if len(values) % max(fixed, 1) or len(free) > 1 or (not free and len(values) != fixed):
        raise ValueError(f"sample '{sample}': {len(values)} values do not fill input "
                         f"'{tensor.name}' of shape {shape}")
    sizes = [d if isinstance(d, int) else len(values) // fixed for d in shape]
    return np.array(values, dtype=np.dtype(element.numpy)).reshape(sizes)


def compare(actual: np.ndarray, expected: np.ndarray, atol: float, rtol: float) -> tuple[float, bool]:
    """Max absolute difference and whether every element is within atol + rtol * |expected|."""
    if actual.shape != expected.shape:
        return math.inf, False
    if actual.size == 0:
        return 0.0, True
    a = actual.astype(np.float64)
    b = expected.astype(np.float64)
    diff = np.abs(a - b)
    return float(diff.max()), bool(np.all(diff <= atol + rtol * np.abs(b)))


def class_names(facts: ModelFacts, given: tuple[str, ...]) -> tuple[str, ...]:
    """The class names of a classifier: example.yml's, else its metadata_props ``class_names``."""
    if given:
        return given
    text = facts.metadata.get(CLASS_NAMES_KEY)
    try:
        names: Any = json.loads(text) if text else []
    except ValueError:
        names = []
    return tuple(str(n) for n in names) if isinstance(names, list) else ()
