"""``models/<name>/example.yml``: what a model's live example feeds it and how its answer reads.

Optional; without it the sample input is generated (seeded numbers; every symbolic dimension 1)
and outputs are shown as raw tensors. Pure (YAML and the standard library), so the live-example
code reads :data:`DEFAULT_TOLERANCE` from here without loading onnx or numpy. Every key::

    summary: What the model does and what a reader can try, in plain words: the first
             sentence of its page and its line in the models index (required for a model
             with a live example).
    about: More about the model, shown under the summary.
    role: test-file                # a file that tests the site, not an example (default: example)
    reason: Random weights: ...    # with role test-file, why it is one (shown in the index)
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
      rows: 4                      # form: the reader may give 1 to this many rows (a batch)
    samples:                       # named real inputs the reader picks from
      - name: A held-out 7
        values: {pixels: [0, 0, 7, ...]}   # flattened, per input
        label: "7"                 # the true answer, shown beside the model's
    output:                        # how the answer reads
      kind: classes                # one of OUTPUT_KINDS
      tensor: probabilities        # default: the first output
      classes: [setosa, ...]       # default: the model's metadata_props class_names
      softmax: false               # true when the output is logits (the page says so)
      top: 3                       # classes: how many to show
      labels: [temperature]        # values: a name per value
      unit: "°C"                   # values: their unit
      score: face_score            # points: the output of their confidence (0 to 1)...
      threshold: 0.5               # ...below which there are none (default 0.5)
      answer: "Read as {class} · {percent}"   # the answer in words (see ANSWER_FIELDS)
    pipeline:                      # this model after others, on one picture (models/pipeline.py)
      summary: What the chain does, in plain words.
      steps:                       # in order; the last one is this model
        - model: face-detection    # a picture input takes the reader's picture by itself
        - model: face-landmarks
          feeds: {boxes: face-detection.boxes}   # input -> picture | <step>.<output>
          output: {kind: points, tensor: landmarks, answer: "{count}"}  # default: its own
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.problems import Problem
from ..common.schema import Reader
from ..common.yaml_lines import YamlError, key_line, load_yaml

EXAMPLE_FILE = "example.yml"
#: Model-zoo data sets next to a model: test_data_set_N/input_K.pb and output_K.pb.
DATA_SET_RE = re.compile(r"^test_data_set_(\d+)$")

#: How close the browser's outputs must come to the build's: |browser - reference| <=
#: atol + rtol * |reference|, element by element. One definition for the build, the page and
#: the widget.
DEFAULT_TOLERANCE: Mapping[str, float] = {"atol": 1e-4, "rtol": 1e-3}

KEYS = ("summary", "about", "role", "reason", "dims", "tolerance", "image", "input", "samples",
        "output", "pipeline")
ROLES = ("example", "test-file")
INPUT_KINDS = ("drawing", "form", "picture")
OUTPUT_KINDS = ("classes", "heatmap", "picture", "values", "text-lines", "mask", "faces", "points")
#: What an answer's words may name, in braces: ``{class}`` and ``{percent}`` (classes),
#: ``{count}`` (text lines, faces, points), ``{values}`` (values), ``{width}`` and ``{height}`` (a
#: picture), ``{fraction}`` (a mask's share of the picture), ``{score}`` (the best face's, or
#: the points' ``score`` output).
ANSWER_FIELDS = ("class", "percent", "count", "values", "width", "height", "fraction", "score")
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


#: The long side a reader's picture is scaled down to before the model, unless `max_side` says.
DEFAULT_MAX_SIDE = 320


@dataclass(frozen=True)
class InputSpec:
    """How a reader makes their own input."""

    kind: str  # one of INPUT_KINDS
    tensor: str | None = None
    grid: int = 8
    max: float = 16.0
    fields: tuple[FormField, ...] = ()
    max_side: int = DEFAULT_MAX_SIDE
    rows: int = 1  # form: how many rows (a batch) the reader may give


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
    answer: str | None = None  # the answer in words, with ANSWER_FIELDS in braces
    classes: tuple[str, ...] = ()
    softmax: bool = False
    top: int = 3
    labels: tuple[str, ...] = ()
    unit: str = ""
    score: str | None = None  # points: the output holding their confidence, 0 to 1
    threshold: float = 0.5  # points: below it, the points are not drawn


#: What feeds a pipeline step's input: the reader's picture, or an earlier step's output.
PICTURE_SOURCE = "picture"
FEED_SOURCE_RE = re.compile(r"^(?:picture|([a-z0-9]+(?:[-_][a-z0-9]+)*)\.([^.\s]+))$")


@dataclass(frozen=True)
class PipelineStep:
    """One model of a pipeline and what feeds its inputs (input -> ``picture`` or
    ``<step>.<output>``); a picture input left out takes the picture."""

    model: str
    feeds: Mapping[str, str] = field(default_factory=dict)
    output: Reading | None = None  # how its answer reads in the pipeline; default: its own
    line: int | None = None
    feed_lines: Mapping[str, int | None] = field(default_factory=dict)


@dataclass(frozen=True)
class PipelineSpec:
    """Models run one after another on one picture, each fed by the picture or earlier outputs."""

    steps: tuple[PipelineStep, ...]
    summary: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class ExampleSpec:
    """How to build the sample input of one model; defaults when there is no example.yml."""

    dims: Mapping[str, int] = field(default_factory=dict)
    atol: float = DEFAULT_TOLERANCE["atol"]
    rtol: float = DEFAULT_TOLERANCE["rtol"]
    image: str | None = None
    source: str | None = None  # the example.yml it came from, for messages
    summary: str | None = None
    about: str | None = None
    role: str = "example"  # one of ROLES
    reason: str | None = None  # why a test file is one
    summary_line: int | None = None  # where a summary belongs (for the message when it is missing)
    input: InputSpec | None = None
    samples: tuple[Sample, ...] = ()
    output: Reading | None = None
    pipeline: PipelineSpec | None = None


class ExampleSpecError(ValueError):
    """An example.yml with mistakes; ``problems`` holds each, naming ``path:line``."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(problem) for problem in problems))
        self.problems = problems


def parse_example_spec(path: Path, shown: str | None = None) -> ExampleSpec:
    """Parse and validate an example.yml; :class:`ExampleSpecError` lists every mistake.

    ``shown`` is how messages name the file (relative to the project); the path by default.
    """
    spec, problems = read_example_spec(path.read_text(encoding="utf-8"), shown or str(path))
    if spec is None:
        raise ExampleSpecError(problems)
    return ExampleSpec(**{**spec.__dict__, "source": str(path)})


def read_example_spec(text: str, path: str) -> tuple[ExampleSpec | None, list[Problem]]:
    """The spec in ``text`` (an example.yml shown as ``path``), or None and every problem."""
    try:
        root, duplicates = load_yaml(text)
    except YamlError as error:
        return None, [Problem(path, error.line, f"not valid YAML: {error.what}")]
    reader = Reader(path)
    for key, line in duplicates:
        reader.fail(line, f"the key '{key}' appears twice: keep one")
    if root is None:
        return (ExampleSpec(), []) if not reader.problems else (None, reader.problems)
    values = _SpecReader(reader).spec(root)
    if reader.problems or values is None:
        return None, reader.problems
    return values, []


class _SpecReader:
    """Typed values of example.yml's keys, each problem naming its line."""

    def __init__(self, reader: Reader) -> None:
        self.r = reader

    def spec(self, root: Any) -> ExampleSpec | None:
        r = self.r
        top = r.mapping(root, 1, "example.yml", dict.fromkeys(KEYS, False))
        if top is None:
            return None
        at = {key: key_line(top, key, 1) for key in KEYS}
        values: dict[str, Any] = {}
        if "dims" in top:
            values["dims"] = self.dims(top["dims"], at["dims"])
        if "tolerance" in top:
            given = r.mapping(top["tolerance"], at["tolerance"], "tolerance",
                              {"atol": False, "rtol": False})
            for name in ("atol", "rtol"):
                if given is not None and name in given:
                    number = r.number(given[name], key_line(given, name, at["tolerance"]),
                                      f"tolerance.{name}", minimum=0)
                    if number is not None:
                        values[name] = number
        if "image" in top:
            image = r.text(top["image"], at["image"], "image")
            if image is not None and Path(image).name != image:
                r.fail(at["image"], "image must be a file name in the model folder")
            elif image is not None:
                values["image"] = image
        for key in ("summary", "about", "reason"):
            if key in top:
                values[key] = r.text(top[key], at[key], key)
        if "role" in top:
            values["role"] = r.choice(top["role"], at["role"], "role", ROLES)
        if values.get("role") == "test-file" and "reason" not in top:
            r.fail(at["role"], "a test file needs a 'reason': one line on why it is no example")
        if "input" in top:
            values["input"] = self.input(top["input"], at["input"])
        if "samples" in top:
            values["samples"] = self.samples(top["samples"], at["samples"])
        if "output" in top:
            values["output"] = self.reading(top["output"], at["output"])
        if "pipeline" in top:
            values["pipeline"] = self.pipeline(top["pipeline"], at["pipeline"])
        return ExampleSpec(**{k: v for k, v in values.items() if v is not None})

    def count(self, value: Any, line: int | None, what: str, minimum: int = 0) -> int | None:
        number = self.r.number(value, line, what, integer=True, minimum=minimum)
        return None if number is None else int(number)

    def dims(self, value: Any, line: int | None) -> dict[str, int] | None:
        given = self.r.mapping(value, line, "dims")
        if given is None:
            return None
        out = {}
        for dim, size in given.items():
            count = self.count(size, key_line(given, dim, line), f"dims.{dim}", minimum=1)
            if count is not None:
                out[str(dim)] = count
        return out

    def input(self, value: Any, line: int | None) -> InputSpec | None:
        r = self.r
        known = ("kind", "tensor", "grid", "max", "fields", "max_side", "rows")
        spec = r.mapping(value, line, "input", {**dict.fromkeys(known, False), "kind": True})
        if spec is None:
            return None
        at = {key: key_line(spec, key, line) for key in known}
        kind = r.choice(spec["kind"], at["kind"], "input.kind", INPUT_KINDS)
        fields: list[FormField] = []
        if kind == "form":
            if not spec.get("fields"):
                r.fail(at["fields"], "a form input needs 'fields': one per feature")
            for item, item_line in r.items(spec.get("fields") or [], at["fields"], "input.fields"):
                field_ = self.form_field(item, item_line)
                if field_ is not None:
                    fields.append(field_)
        values: dict[str, Any] = {"kind": kind, "fields": tuple(fields)}
        if "tensor" in spec:
            values["tensor"] = r.text(spec["tensor"], at["tensor"], "input.tensor")
        if "grid" in spec:
            values["grid"] = self.count(spec["grid"], at["grid"], "input.grid", minimum=1)
        if "max" in spec:
            values["max"] = r.number(spec["max"], at["max"], "input.max")
        if "max_side" in spec:
            values["max_side"] = self.count(spec["max_side"], at["max_side"], "input.max_side",
                                            minimum=1)
        if "rows" in spec:
            values["rows"] = self.count(spec["rows"], at["rows"], "input.rows", minimum=1)
            if kind != "form":
                r.fail(at["rows"], "input.rows is for a form input: a batch of rows of numbers")
        if kind is None:
            return None
        return InputSpec(**{k: v for k, v in values.items() if v is not None})

    def form_field(self, item: Any, line: int | None) -> FormField | None:
        r = self.r
        entry = r.mapping(item, line, "each field", {"label": True, "unit": False, "min": True,
                                                     "max": True, "step": False})
        if entry is None:
            return None
        label = r.text(entry["label"], line, "a field's label")
        low = r.number(entry["min"], line, "a field's min")
        high = r.number(entry["max"], line, "a field's max")
        step = r.number(entry.get("step", 0.1), line, "a field's step")
        unit = r.text(entry["unit"], line, "a field's unit") if "unit" in entry else ""
        if low is not None and high is not None and not low < high:
            r.fail(line, "a field's min must be below its max")
            return None
        if label is None or low is None or high is None or step is None or unit is None:
            return None
        return FormField(label, low, high, step, unit)

    def samples(self, value: Any, line: int | None) -> tuple[Sample, ...] | None:
        r = self.r
        if not isinstance(value, list) or not value:
            r.fail(line, "samples must be a list of named inputs")
            return None
        out = []
        for item, item_line in r.items(value, line, "samples"):
            entry = r.mapping(item, item_line, "each sample",
                              {"name": True, "values": True, "label": False})
            if entry is None:
                continue
            name = r.text(entry["name"], key_line(entry, "name", item_line), "a sample's name")
            label = (r.text(entry["label"], key_line(entry, "label", item_line), "a sample's label")
                     if "label" in entry else None)
            given = r.mapping(entry["values"], key_line(entry, "values", item_line),
                              "a sample's values")
            values: dict[str, tuple[float, ...]] = {}
            for tensor, numbers in (given or {}).items():
                at = key_line(given, tensor, item_line)
                if not isinstance(numbers, list) or not numbers:
                    r.fail(at, f"values.{tensor} must be a list of numbers")
                    continue
                read = [r.number(n, at, f"each of values.{tensor}") for n in numbers]
                values[str(tensor)] = tuple(n for n in read if n is not None)
            if name is not None and given is not None:
                out.append(Sample(name=name, values=values, label=label))
        return tuple(out)

    def reading(self, value: Any, line: int | None) -> Reading | None:
        r = self.r
        known = ("kind", "tensor", "answer", "classes", "softmax", "top", "labels", "unit", "score",
                 "threshold")
        spec = r.mapping(value, line, "output", {**dict.fromkeys(known, False), "kind": True})
        if spec is None:
            return None
        at = {key: key_line(spec, key, line) for key in known}
        values: dict[str, Any] = {"kind": r.choice(spec["kind"], at["kind"], "output.kind",
                                                   OUTPUT_KINDS)}
        if "tensor" in spec:
            values["tensor"] = r.text(spec["tensor"], at["tensor"], "output.tensor")
        if "classes" in spec:
            values["classes"] = r.texts(spec["classes"], at["classes"], "output.classes")
        if "softmax" in spec:
            values["softmax"] = r.boolean(spec["softmax"], at["softmax"], "output.softmax")
        if "top" in spec:
            values["top"] = self.count(spec["top"], at["top"], "output.top", minimum=1)
        if "labels" in spec:
            values["labels"] = r.texts(spec["labels"], at["labels"], "output.labels")
        if "unit" in spec:
            values["unit"] = r.text(spec["unit"], at["unit"], "output.unit")
        if "score" in spec:
            values["score"] = r.text(spec["score"], at["score"], "output.score")
        if "threshold" in spec:
            values["threshold"] = r.number(spec["threshold"], at["threshold"], "output.threshold",
                                           minimum=0)
        if "answer" in spec:
            values["answer"] = r.text(spec["answer"], at["answer"], "output.answer")
            unknown = sorted(set(re.findall(r"\{([^{}]*)\}", values["answer"] or "")) - set(ANSWER_FIELDS))
            if unknown:
                r.fail(at["answer"], f"output.answer names {{{unknown[0]}}}, which no answer has: "
                       f"use {', '.join('{' + f + '}' for f in ANSWER_FIELDS)}")
        if values["kind"] is None:
            return None
        return Reading(**{k: v for k, v in values.items() if v is not None})


    def pipeline(self, value: Any, line: int | None) -> PipelineSpec | None:
        r = self.r
        spec = r.mapping(value, line, "pipeline", {"summary": False, "steps": True})
        if spec is None:
            return None
        steps_line = key_line(spec, "steps", line)
        steps = []
        for item, item_line in r.items(spec["steps"], steps_line, "pipeline.steps"):
            step = self.step(item, item_line)
            if step is not None:
                steps.append(step)
        if len(steps) < 2 and not r.problems:
            r.fail(steps_line, "a pipeline needs at least 2 steps: the models before this one, "
                   "then this one")
        summary = (r.text(spec["summary"], key_line(spec, "summary", line), "pipeline.summary")
                   if "summary" in spec else None)
        return PipelineSpec(tuple(steps), summary, line)

    def step(self, item: Any, line: int | None) -> PipelineStep | None:
        r = self.r
        entry = r.mapping(item, line, "each step", {"model": True, "feeds": False, "output": False})
        if entry is None:
            return None
        model = r.text(entry["model"], key_line(entry, "model", line), "a step's model")
        feeds: dict[str, str] = {}
        lines: dict[str, int | None] = {}
        if "feeds" in entry:
            at = key_line(entry, "feeds", line)
            given: Any = r.mapping(entry["feeds"], at, "a step's feeds") or {}
            for name, source in given.items():
                where = key_line(given, name, at)
                text = r.text(source, where, f"feeds.{name}")
                if text is not None and not FEED_SOURCE_RE.match(text):
                    r.fail(where, f"feeds.{name} is '{text}': write 'picture' or "
                           "'<step>.<output>' (an earlier step's model and one of its outputs)")
                elif text is not None:
                    feeds[str(name)], lines[str(name)] = text, where
        output = self.reading(entry["output"], key_line(entry, "output", line)) \
            if "output" in entry else None
        if model is None:
            return None
        return PipelineStep(model, feeds, output, line, lines)


def load_example_spec(model_dir: Path, shown: str | None = None) -> ExampleSpec:
    """The folder's example.yml, or the defaults when it has none (raises
    :class:`ExampleSpecError`); ``shown`` names the file in messages."""
    path = model_dir / EXAMPLE_FILE
    return parse_example_spec(path, shown) if path.is_file() else ExampleSpec()


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
