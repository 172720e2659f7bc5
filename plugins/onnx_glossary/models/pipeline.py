"""Pipelines: models run one after another on one picture (``example.yml``'s ``pipeline``).

A model's example.yml may say which models run before it, and what feeds each input: the
reader's picture, or an output of an earlier step (``<step>.<output>``). Nothing in the
declaration names a kind of model, so a face detector before a face mesh and a text detector,
a crop and a recogniser are declared alike. :func:`check_pipeline` checks a declaration against
the models' facts without running anything (every name resolves, every input is fed, the
element types agree); :func:`compute_pipeline_reference` runs the declared steps with Python
onnxruntime on the first step's sample picture, the reference the browser's run is checked
against. A step that would be fed an empty tensor (a detector found nothing) is not run, in the
build as in the browser.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common.problems import Problem
from ..common.suggestions import did_you_mean
from .example_spec import FEED_SOURCE_RE, PICTURE_SOURCE, PipelineSpec, Reading
from .facts import ModelFacts, TensorInfo

PIPELINE_FILE = "pipeline.json"


@dataclass(frozen=True)
class Wired:
    """One checked step: every input of its model with what feeds it."""

    model: str
    feeds: Mapping[str, str]  # input -> "picture" or "<step>.<output>"
    reading: Mapping[str, Any] | None  # how its answer reads (the step's own, or its model's)


def is_picture(tensor: TensorInfo) -> bool:
    """A uint8 [height, width, 4] input: it takes a picture as RGBA bytes."""
    shape = tensor.shape
    return (tensor.elem_type == "uint8" and shape is not None and len(shape) == 3
            and (not isinstance(shape[2], int) or shape[2] == 4))


def check_pipeline(owner: str, spec: PipelineSpec, models: Mapping[str, ModelFacts],
                   readings: Mapping[str, Mapping[str, Any] | None],
                   path: str) -> tuple[tuple[Wired, ...] | None, list[Problem]]:
    """The wired steps of ``owner``'s pipeline, or None and every problem (``path:line``).

    ``models``: the facts of every model of the site; ``readings``: each model's own reading
    of its outputs (reference.json's ``reading``), the default of a step's."""
    problems: list[Problem] = []

    def fail(line: int | None, message: str) -> None:
        problems.append(Problem(path, line, message))

    if spec.steps and spec.steps[-1].model != owner:
        fail(spec.steps[-1].line, f"the last step of a pipeline is the model whose example.yml "
             f"declares it: '{owner}', not '{spec.steps[-1].model}'")
    outputs: dict[str, TensorInfo] = {}  # "<step>.<output>" of the steps so far
    wired: list[Wired] = []
    for step in spec.steps:
        facts = models.get(step.model)
        if facts is None:
            fail(step.line, f"the step names the unknown model '{step.model}'"
                 + did_you_mean(step.model, models, ": add models/" + step.model + "/model.onnx"))
            continue
        inputs = {t.name: t for t in facts.inputs}
        feeds: dict[str, str] = {}
        for name, source in step.feeds.items():
            at = step.feed_lines.get(name, step.line)
            tensor = inputs.get(name)
            if tensor is None:
                fail(at, f"feeds.{name}: '{step.model}' has no input '{name}'"
                     + did_you_mean(name, inputs, f" (it has {', '.join(inputs)})"))
                continue
            problem = _source_problem(tensor, source, outputs, step.model)
            if problem:
                fail(at, f"feeds.{name}: {problem}")
            else:
                feeds[name] = source
        for name, tensor in inputs.items():
            if name in feeds or name in step.feeds:
                continue
            if is_picture(tensor):
                feeds[name] = PICTURE_SOURCE
            else:
                fail(step.line, f"input '{name}' of '{step.model}' is fed by nothing: add "
                     f"feeds: {{{name}: <step>.<output>}}")
        reading = (_reading(step.output, facts, step.line, fail) if step.output is not None
                   else readings.get(step.model))
        wired.append(Wired(step.model, feeds, reading))
        for output in facts.outputs:
            outputs[f"{step.model}.{output.name}"] = output
    if wired and PICTURE_SOURCE not in wired[0].feeds.values():
        fail(spec.steps[0].line, f"the first step, '{wired[0].model}', takes no picture: a "
             "pipeline starts from the reader's picture")
    return (None, problems) if problems else (tuple(wired), [])


def _source_problem(tensor: TensorInfo, source: str, outputs: Mapping[str, TensorInfo],
                    model: str) -> str | None:
    """Why ``source`` cannot feed ``tensor``, or None."""
    if source == PICTURE_SOURCE:
        return None if is_picture(tensor) else (
            f"input '{tensor.name}' of '{model}' is {tensor.elem_type}, not a uint8 "
            "[height, width, 4] picture")
    match = FEED_SOURCE_RE.match(source)
    if match is None:
        return f"'{source}' is neither 'picture' nor '<step>.<output>'"
    given = outputs.get(source)
    if given is None:
        earlier = sorted({key.split(".", 1)[0] for key in outputs})
        if match.group(1) not in earlier:
            return (f"'{match.group(1)}' is no earlier step"
                    + (f" (the steps before: {', '.join(earlier)})" if earlier else ""))
        names = [key.split(".", 1)[1] for key in outputs if key.startswith(match.group(1) + ".")]
        return f"'{match.group(1)}' has no output '{match.group(2)}'" + did_you_mean(
            match.group(2), names, f" (it has {', '.join(names)})")
    if given.elem_type != tensor.elem_type:
        return (f"'{source}' is {given.elem_type} but input '{tensor.name}' of '{model}' takes "
                f"{tensor.elem_type}")
    if given.shape is not None and tensor.shape is not None and len(given.shape) != len(tensor.shape):
        return (f"'{source}' has {len(given.shape)} dimensions but input '{tensor.name}' of "
                f"'{model}' takes {len(tensor.shape)}")
    return None


def _reading(output: Reading, facts: ModelFacts, line: int | None,
             fail: Callable[[int | None, str], None]) -> dict[str, Any] | None:
    names = [t.name for t in facts.outputs]
    tensor = output.tensor or (names[0] if names else None)
    unknown = [name for name in (tensor, output.score) if name is not None and name not in names]
    if tensor is None or unknown:
        fail(line, f"output names '{unknown[0] if unknown else tensor}', which is not an output "
             f"of '{facts.name}' ({', '.join(names)})")
        return None
    return {**dataclasses.asdict(output), "tensor": tensor}


def compute_pipeline_reference(steps: tuple[Wired, ...], model_files: Mapping[str, Path],
                               tolerances: Mapping[str, Mapping[str, float]],
                               picture: Path, picture_model: str) -> dict[str, Any]:
    """Python onnxruntime runs the steps on ``picture`` (the first step's sample), each fed
    as declared: the content of pipeline.json (its format: live-example-pipeline.mjs)."""
    import numpy as np
    import onnxruntime
    from PIL import Image

    from .reference import as_tensors, run_model

    with Image.open(picture) as image:
        pixels = np.array(image.convert("RGBA"), dtype=np.uint8)
    values: dict[str, Any] = {}
    done: list[dict[str, Any]] = []
    for step in steps:
        feeds = {name: pixels if source == PICTURE_SOURCE else values[source]
                 for name, source in step.feeds.items()}
        entry: dict[str, Any] = {"model": step.model, "feeds": dict(step.feeds),
                                 "reading": None if step.reading is None else dict(step.reading),
                                 "tolerance": dict(tolerances[step.model])}
        if any(value.size == 0 for value in feeds.values()):
            entry["outputs"] = None  # fed nothing: not run
            done.append(entry)
            continue
        results = run_model(model_files[step.model], feeds)
        tensors, _ = as_tensors(results, f"pipeline step {step.model}")
        entry["outputs"] = [tensor.to_dict() for tensor in tensors]
        values.update({f"{step.model}.{name}": value for name, value in results.items()})
        done.append(entry)
    return {
        "onnxruntime": onnxruntime.__version__,
        "picture": {"model": picture_model, "src": picture.name,
                    "height": int(pixels.shape[0]), "width": int(pixels.shape[1])},
        "steps": done,
    }
