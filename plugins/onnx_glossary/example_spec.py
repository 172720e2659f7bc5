"""``models/<name>/example.yml``: how a model's live example builds its sample input.

Optional; without it every symbolic dimension is 1 and the tolerance is the default. Pure (YAML
and the standard library), so the live-example code reads :data:`DEFAULT_TOLERANCE` from here
without loading onnx or numpy::

    dims: {batch: 2}               # symbolic dim -> size (default 1)
    tolerance: {atol: 1e-4, rtol: 1e-3}
    image: sample.png              # picture feeding the single uint8 [H, W, 4] input
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .problems import did_you_mean
from .yaml_lines import LineDict, YamlError, key_line, load_yaml, type_name

EXAMPLE_FILE = "example.yml"

#: How close the browser's outputs must come to the build's: |browser - reference| <=
#: atol + rtol * |reference|, element by element. One definition for the build, the page and
#: the widget.
DEFAULT_TOLERANCE: Mapping[str, float] = {"atol": 1e-4, "rtol": 1e-3}

KEYS = ("dims", "tolerance", "image")


@dataclass(frozen=True)
class ExampleSpec:
    """How to build the sample input of one model; defaults when there is no example.yml."""

    dims: Mapping[str, int] = field(default_factory=dict)
    atol: float = DEFAULT_TOLERANCE["atol"]
    rtol: float = DEFAULT_TOLERANCE["rtol"]
    image: str | None = None
    source: str | None = None  # the example.yml it came from, for messages


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
        else:
            hint = did_you_mean(str(key), KEYS, f"; expected {', '.join(KEYS)}")
            raise _fail(path, line, f"unknown key '{key}'{hint}")
    return ExampleSpec(dims=dims, atol=float(atol), rtol=float(rtol), image=image,
                       source=str(path))


def load_example_spec(model_dir: Path) -> ExampleSpec:
    """The folder's example.yml, or the defaults when it has none."""
    path = model_dir / EXAMPLE_FILE
    return parse_example_spec(path) if path.is_file() else ExampleSpec()


def tolerance(reference: Mapping[str, Any]) -> dict[str, float]:
    """The comparison tolerance a reference.json names, else :data:`DEFAULT_TOLERANCE`."""
    given = reference.get("tolerance") or {}
    return {key: float(given.get(key, default)) for key, default in DEFAULT_TOLERANCE.items()}
