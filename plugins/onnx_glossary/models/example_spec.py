"""``models/<name>/example.yml``: what a model's live example feeds it and how its answer reads.

Optional; without it the sample input is generated (seeded numbers; every symbolic dimension 1)
and outputs are shown as raw tensors. Pure (YAML and the standard library), so the live-example
code reads :data:`DEFAULT_TOLERANCE` from here without loading onnx or numpy. Every key::

    about: A sentence shown at the top of the model page.
    dims: {batch: 2}               # symbolic dim -> size of the generated sample (default 1)
    tolerance: {atol: 1e-4, rtol: 1e-3}
    image: sample.png              # picture feeding the single uint8 [H, W, 4] input
    input:                         # how a reader makes their own input
      kind: drawing                # drawing | form | picture
      tensor: pixels               # default: the model's only input
      grid: 8                      # drawing: the pad is reduced to grid x grid cells...
      max: 16                      # ...each holding 0..max (the ink it covers)
      fields:                      # form: one field per feature, in order
        - {label: Sepal length, unit: cm, min: 4.3, max: 7.9, step: 0.1}
      max_side: 320                # picture: a larger one is scaled down to this long side
    samples:                       # named real inputs the reader picks from
      - name: A held-out 7
        values: {pixels: [0, 0, 7, ...]}   # flattened, per input
        label: "7"                 # the true answer, shown beside the model's
    output:                        # how the answer reads
      kind: classes                # classes | heatmap | picture | values
      tensor: probabilities        # default: the first output
      classes: [setosa, ...]       # default: the model's metadata_props class_names
      softmax: false               # true when the output is logits (the page says so)
      top: 3                       # classes: how many to show
      labels: [temperature]        # values: a name per value
      unit: "°C"                   # values: their unit
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.problems import did_you_mean
from ..common.yaml_lines import LineDict, YamlError, key_line, load_yaml, type_name

EXAMPLE_FILE = "example.yml"
#: Model-zoo data sets next to a model: test_data_set_N/input_K.pb and output_K.pb.
DATA_SET_RE = re.compile(r"^test_data_set_(\d+)$")

#: How close the browser's outputs must come to the build's: |browser - reference| <=
#: atol + rtol * |reference|, element by element. One definition for the build, the page and
#: the widget.
DEFAULT_TOLERANCE: Mapping[str, float] = {"atol": 1e-4, "rtol": 1e-3}

KEYS = ("about", "dims", "tolerance", "image", "input", "samples", "output")
INPUT_KINDS = ("drawing", "form", "picture")
OUTPUT_KINDS = ("classes", "heatmap", "picture", "values")
#: The metadata_props key an exporter writes a classifier's class names into (a JSON array).
CLASS_NAMES_KEY = "class_names"


@dataclass(frozen=True)
class FormField:
    """One feature of a tabular model, as a form field."""

    label: str
    min: float
    max: float
    step: float = 0.1
    unit: str = ""


@dataclass(frozen=True)
class InputSpec:
    """How a reader makes their own input."""

    kind: str  # one of INPUT_KINDS
    tensor: str | None = None
    grid: int = 8
    max: float = 16.0
    fields: tuple[FormField, ...] = ()
    max_side: int = 320


@dataclass(frozen=True)
class Sample:
    """A named real input, with its true answer when known."""

    name: str
    values: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    label: str | None = None
    data_set: str | None = None  # a model-zoo folder (test_data_set_N) it was read from


@dataclass(frozen=True)
class Reading:
    """How an output reads to a person."""

    kind: str  # one of OUTPUT_KINDS
    tensor: str | None = None
    classes: tuple[str, ...] = ()
    softmax: bool = False
    top: int = 3
    labels: tuple[str, ...] = ()
    unit: str = ""


@dataclass(frozen=True)
class ExampleSpec:
    """How to build the sample input of one model; defaults when there is no example.yml."""

    dims: Mapping[str, int] = field(default_factory=dict)
    atol: float = DEFAULT_TOLERANCE["atol"]
    rtol: float = DEFAULT_TOLERANCE["rtol"]
    image: str | None = None
    source: str | None = None  # the example.yml it came from, for messages
    about: str | None = None
    input: InputSpec | None = None
    samples: tuple[Sample, ...] = ()
    output: Reading | None = None


class _Fail(ValueError):
    pass


def _fail(path: Path, line: int | None, message: str) -> _Fail:
    return _Fail(f"{path}:{line}: {message}" if line else f"{path}: {message}")


def _number(path: Path, value: Any, line: int | None, what: str, *, integer: bool) -> float:
    # YAML reads "1e-4" (no dot) as a string; accept it as the number people mean.
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    ok = isinstance(value, int) if integer else isinstance(value, int | float)
    if isinstance(value, bool) or not ok or not math.isfinite(value) or value < 0:
        kind = "a non-negative integer" if integer else "a non-negative number"
        raise _fail(path, line, f"{what} must be {kind}, not {type_name(value)}"
                    if not isinstance(value, int | float) else f"{what} must be {kind}")
    return value


def _mapping(path: Path, value: Any, line: int | None, what: str) -> LineDict:
    if not isinstance(value, LineDict):
        raise _fail(path, line, f"{what} must be a mapping, not {type_name(value)}")
    return value


def parse_example_spec(path: Path) -> ExampleSpec:
    """Parse and validate an example.yml; ValueError names the file and line."""
    try:
        root, duplicates = load_yaml(path.read_text(encoding="utf-8"))
    except YamlError as error:
        raise ValueError(f"{path}:{error.line}: not valid YAML: {error.what}") from None
    if duplicates:
        key, first = duplicates[0]
        raise _fail(path, first, f"the key '{key}' appears twice: keep one")
    if root is None:
        return ExampleSpec(source=str(path))
    root = _mapping(path, root, 1, "example.yml")
    dims: dict[str, int] = {}
    atol, rtol, image = DEFAULT_TOLERANCE["atol"], DEFAULT_TOLERANCE["rtol"], None
    extra: dict[str, Any] = {}
    reader = _Reader(path)
    for key, value in root.items():
        line = key_line(root, key)
        if key == "dims":
            for dim, size in _mapping(path, value, line, "dims").items():
                size_line = key_line(value, dim, line)
                count = int(_number(path, size, size_line, f"dims.{dim}", integer=True))
                if count < 1:
                    raise _fail(path, size_line, f"dims.{dim} must be at least 1")
                dims[str(dim)] = count
        elif key == "tolerance":
            for name, number in _mapping(path, value, line, "tolerance").items():
                name_line = key_line(value, name, line)
                if name == "atol":
                    atol = _number(path, number, name_line, "tolerance.atol", integer=False)
                elif name == "rtol":
                    rtol = _number(path, number, name_line, "tolerance.rtol", integer=False)
                else:
                    raise _fail(path, name_line, f"unknown tolerance key '{name}'; use atol or rtol")
        elif key == "image":
            if not isinstance(value, str) or not value:
                raise _fail(path, line, "image must be a file name")
            if Path(value).name != value:
                raise _fail(path, line, "image must be a file name in the model folder")
            image = value
        elif key == "about":
            extra["about"] = reader.text(value, line, "about")
        elif key == "input":
            extra["input"] = reader.input(value, line)
        elif key == "samples":
            extra["samples"] = reader.samples(value, line)
        elif key == "output":
            extra["output"] = reader.reading(value, line)
        else:
            hint = did_you_mean(str(key), KEYS, f"; expected {', '.join(KEYS)}")
            raise _fail(path, line, f"unknown key '{key}'{hint}")
    return ExampleSpec(dims=dims, atol=float(atol), rtol=float(rtol), image=image,
                       source=str(path), **extra)


class _Reader:
    """Typed values of the nested keys, each error naming the file and line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def text(self, value: Any, line: int | None, what: str) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            # YAML reads yes/no/on/off as true/false: the fix is quoting.
            hint = ": put it in quotes" if isinstance(value, bool) else ""
            raise _fail(self.path, line, f"{what} must be text, not {type_name(value)}{hint}")
        return value.strip()

    def number(self, value: Any, line: int | None, what: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise _fail(self.path, line, f"{what} must be a number, not {type_name(value)}")
        return float(value)

    def texts(self, value: Any, line: int | None, what: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise _fail(self.path, line, f"{what} must be a list, not {type_name(value)}")
        lines = getattr(value, "item_lines", [line] * len(value))
        return tuple(self.text(item, at, f"each item of {what}")
                     for item, at in zip(value, lines, strict=True))

    def keys(self, value: Any, line: int | None, what: str, known: tuple[str, ...]) -> LineDict:
        mapping = _mapping(self.path, value, line, what)
        for key in mapping:
            if key not in known:
                hint = did_you_mean(str(key), known, f"; expected {', '.join(known)}")
                raise _fail(self.path, key_line(mapping, key, line), f"unknown key '{key}' in {what}{hint}")
        return mapping

    def kind(self, mapping: LineDict, line: int | None, what: str, kinds: tuple[str, ...]) -> str:
        kind = mapping.get("kind")
        if kind not in kinds:
            raise _fail(self.path, key_line(mapping, "kind", line),
                        f"{what}.kind must be one of {', '.join(kinds)}")
        return str(kind)

    def input(self, value: Any, line: int | None) -> InputSpec:
        known = ("kind", "tensor", "grid", "max", "fields", "max_side")
        spec = self.keys(value, line, "input", known)
        kind = self.kind(spec, line, "input", INPUT_KINDS)
        at = {key: key_line(spec, key, line) for key in known}
        fields = []
        if kind == "form":
            items = spec.get("fields")
            if not isinstance(items, list) or not items:
                raise _fail(self.path, at["fields"], "a form input needs 'fields': one per feature")
            for item, item_line in zip(items, getattr(items, "item_lines", [line] * len(items)),
                                       strict=True):
                entry = self.keys(item, item_line, "each field", ("label", "unit", "min", "max", "step"))
                low = self.number(entry.get("min"), item_line, "a field's min")
                high = self.number(entry.get("max"), item_line, "a field's max")
                if not low < high:
                    raise _fail(self.path, item_line, "a field's min must be below its max")
                fields.append(FormField(
                    self.text(entry.get("label"), item_line, "a field's label"), low, high,
                    self.number(entry.get("step", 0.1), item_line, "a field's step"),
                    self.text(entry["unit"], item_line, "a field's unit") if "unit" in entry else ""))
        return InputSpec(
            kind=kind,
            tensor=self.text(spec["tensor"], at["tensor"], "input.tensor") if "tensor" in spec else None,
            grid=int(_number(self.path, spec.get("grid", 8), at["grid"], "input.grid", integer=True)),
            max=self.number(spec.get("max", 16.0), at["max"], "input.max"),
            fields=tuple(fields),
            max_side=int(_number(self.path, spec.get("max_side", 320), at["max_side"],
                                 "input.max_side", integer=True)),
        )

    def samples(self, value: Any, line: int | None) -> tuple[Sample, ...]:
        if not isinstance(value, list) or not value:
            raise _fail(self.path, line, "samples must be a list of named inputs")
        out = []
        for item, item_line in zip(value, getattr(value, "item_lines", [line] * len(value)), strict=True):
            entry = self.keys(item, item_line, "each sample", ("name", "values", "label"))
            values: dict[str, tuple[float, ...]] = {}
            given = _mapping(self.path, entry.get("values"), item_line, "a sample's values")
            for name, numbers in given.items():
                at = key_line(given, name, item_line)
                if not isinstance(numbers, list) or not numbers:
                    raise _fail(self.path, at, f"values.{name} must be a list of numbers")
                values[str(name)] = tuple(self.number(n, at, f"each of values.{name}") for n in numbers)
            out.append(Sample(
                name=self.text(entry.get("name"), item_line, "a sample's name"),
                values=values,
                label=self.text(entry["label"], item_line, "a sample's label") if "label" in entry else None))
        return tuple(out)

    def reading(self, value: Any, line: int | None) -> Reading:
        known = ("kind", "tensor", "classes", "softmax", "top", "labels", "unit")
        spec = self.keys(value, line, "output", known)
        at = {key: key_line(spec, key, line) for key in known}
        softmax = spec.get("softmax", False)
        if not isinstance(softmax, bool):
            raise _fail(self.path, at["softmax"], "output.softmax must be true or false")
        return Reading(
            kind=self.kind(spec, line, "output", OUTPUT_KINDS),
            tensor=self.text(spec["tensor"], at["tensor"], "output.tensor") if "tensor" in spec else None,
            classes=self.texts(spec["classes"], at["classes"], "output.classes") if "classes" in spec else (),
            softmax=softmax,
            top=int(_number(self.path, spec.get("top", 3), at["top"], "output.top", integer=True)),
            labels=self.texts(spec["labels"], at["labels"], "output.labels") if "labels" in spec else (),
            unit=self.text(spec["unit"], at["unit"], "output.unit") if "unit" in spec else "",
        )


def load_example_spec(model_dir: Path) -> ExampleSpec:
    """The folder's example.yml, or the defaults when it has none."""
    path = model_dir / EXAMPLE_FILE
    return parse_example_spec(path) if path.is_file() else ExampleSpec()


def data_set_folders(model_dir: Path) -> list[Path]:
    """``test_data_set_N`` folders, in the order of N."""
    found = [(int(m.group(1)), p) for p in model_dir.iterdir()
             if p.is_dir() and (m := DATA_SET_RE.match(p.name))]
    return [path for _, path in sorted(found)]


def data_set_files(model_dir: Path) -> list[Path]:
    """Every file the data sets consist of (the analysis cache hashes them)."""
    return [pb for folder in data_set_folders(model_dir) for pb in sorted(folder.glob("*.pb"))]


def tolerance(reference: Mapping[str, Any]) -> dict[str, float]:
    """The comparison tolerance a reference.json names, else :data:`DEFAULT_TOLERANCE`."""
    given = reference.get("tolerance") or {}
    return {key: float(given.get(key, default)) for key, default in DEFAULT_TOLERANCE.items()}
