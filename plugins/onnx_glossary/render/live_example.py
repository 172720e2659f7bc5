"""Live examples: the JavaScript and Python snippets for a model, and the widget that runs one.

Pure module (no MkDocs imports). The build writes :func:`render_snippet_js` to
``models/<name>/example.mjs``; the widget rendered by :func:`render_live_example` imports that
very file, so the code a reader sees is the code that ran in their browser.

Everything read from a model (names, symbolic dimensions) is untrusted text. In the snippets it
is only ever emitted as a JavaScript/Python string literal (see :class:`Code`); in the widget it
goes through Jinja's autoescaping.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ..browser.runtime import BUNDLES, EXTRA_WEBGPU_GZIP_MB, WASM_ONLY_DOMAINS, WEBGPU_MIN_MULTIPLY_ADDS
from ..models.element_types import BY_NAME
from ..models.example_spec import DEFAULT_MAX_SIDE, tolerance
from ..render.environment import environment, shape_text
from .sweep import sweep_spec
from .thumbnails import preview_name

#: Inputs with at most this many elements are written into the snippet; larger ones are read
#: from reference.json next to the model (a page of numbers helps nobody).
INLINE_LIMIT = 2048

# Read-only protocols, so frozen dataclasses (ModelFacts, TensorInfo) satisfy them.
class _Tensor(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def elem_type(self) -> str: ...
    @property
    def shape(self) -> Sequence[int | str | None] | None: ...


class _Facts(Protocol):
    """What this module reads from :class:`onnx_glossary.model_facts.ModelFacts`."""

    @property
    def name(self) -> str: ...
    @property
    def inputs(self) -> Sequence[_Tensor]: ...
    @property
    def file_size(self) -> int: ...


class Code(str):
    """Text already encoded as a literal of the target language, safe to splice into a snippet."""


def js(value: Any) -> Code:
    """A JavaScript literal for a JSON-able value.

    ``ensure_ascii`` escapes U+2028/U+2029 and every other non-ASCII character, so a hostile
    name cannot end a line, a string or a comment; ``<`` is escaped too, so the text stays
    inert even if someone pastes it into an inline ``<script>``.
    """
    return Code(json.dumps(value, ensure_ascii=True, allow_nan=False).replace("<", "\\u003c"))


def py(value: Any) -> Code:
    """A Python literal. Strings are written as JSON strings (ASCII-only, double-quoted), which
    Python reads back unchanged; numbers and booleans with ``repr``."""
    if isinstance(value, str):
        return js(value)
    if isinstance(value, list | tuple):
        items = [py(item) for item in value]
        if isinstance(value, tuple) and len(items) == 1:
            return Code(f"({items[0]},)")
        inner = ", ".join(items)
        return Code(f"[{inner}]" if isinstance(value, list) else f"({inner})")
    return Code(repr(value))


def _wrapped(values: Sequence[Any], encode: Any, indent: str, width: int = 78) -> Code:
    """A list literal packed into lines of at most ``width`` characters (a readable code block)."""
    items = [encode(v) for v in values]
    one_line = "[" + ", ".join(items) + "]"
    if len(indent) + len(one_line) + 12 <= width:
        return Code(one_line)
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(indent) + 2 + len(line) + len(item) + 2 > width:
            lines.append(line)
            line = ""
        line += item + ", "
    lines.append(line)
    body = "\n".join(indent + "  " + text.rstrip() for text in lines)
    return Code("[\n" + body + "\n" + indent + "]")


def _only_code(value: Any) -> Any:
    # Jinja `finalize` hook of the snippet environment: a plain str reaching a snippet template
    # would be unescaped model text, so refuse it instead of emitting it.
    if isinstance(value, str) and not isinstance(value, Code):
        raise TypeError(f"snippet templates only accept encoded Code, got raw text {value!r}")
    return value


@cache
def _code_env() -> Environment:
    env = Environment(
        loader=PackageLoader("onnx_glossary", "templates"),
        autoescape=False,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_only_code,
    )
    env.filters["js"] = js
    env.filters["py"] = py
    # For expressions built in a template from parts that are already Code (never model text).
    env.filters["safe_code"] = Code
    return env


def free_dimension_overrides(facts: _Facts, reference: Mapping[str, Any]) -> dict[str, int]:
    """Symbolic input dimensions of the model pinned to the sample's sizes.

    Only names the model itself declares are returned: onnxruntime silently ignores an unknown
    name, so a wrong one would look fine and do nothing. A name used with two different sample
    sizes cannot be pinned and is left out.
    """
    sample_dims = {entry["name"]: entry["dims"] for entry in reference.get("inputs", [])}
    sizes: dict[str, set[int]] = {}
    for tensor in facts.inputs:
        dims = sample_dims.get(tensor.name)
        if dims is None or tensor.shape is None or len(dims) != len(tensor.shape):
            continue
        for declared, size in zip(tensor.shape, dims, strict=True):
            if isinstance(declared, str) and declared:
                sizes.setdefault(declared, set()).add(int(size))
    return {name: next(iter(found)) for name, found in sorted(sizes.items()) if len(found) == 1}


def _inputs(facts: _Facts, reference: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per model input: literal name, type, sample dims, and where its sample data comes from."""
    samples = {entry["name"]: entry for entry in reference.get("inputs", [])}
    image = reference.get("image") or {}
    result = []
    for tensor in facts.inputs:
        sample = samples.get(tensor.name)
        if sample is None:
            raise ValueError(f"reference.json has no sample for input {tensor.name!r}")
        elem_type = str(sample.get("type") or tensor.elem_type)
        dims = [int(d) for d in sample["dims"]]
        count = math.prod(dims)
        source = "image" if tensor.name == image.get("input") else (
            "inline" if count <= INLINE_LIMIT else "reference"
        )
        element = BY_NAME.get(elem_type)
        array = element.js_array if element and element.js_array else ""
        convert = element.js_convert if element else None
        result.append(
            {
                "name": js(tensor.name),
                "py_name": py(tensor.name),
                "type": js(elem_type),
                "py_dtype": py("object" if elem_type == "string" else elem_type),
                "is_string": elem_type == "string",
                "array": Code(array),
                "convert": Code(convert) if convert else None,
                "dims": js(dims),
                "py_shape": py(tuple(dims)),
                "source": source,
                "data": _wrapped(sample["data"], js, "  ") if source == "inline" else None,
                "py_data": _wrapped(sample["data"], py, "    ") if source == "inline" else None,
            }
        )
    return result


def _drawing(reference: Mapping[str, Any]) -> dict[str, Code] | None:
    """A drawing pad's reduction (example_spec.InputSpec: grid x grid cells of 0..max)."""
    spec = reference.get("input") or {}
    if spec.get("kind") != "drawing":
        return None
    grid = int(spec.get("grid", 8))
    maximum = float(spec.get("max", 16))
    dims = next((entry["dims"] for entry in reference.get("inputs", [])
                 if entry["name"] == spec.get("tensor")), [1, grid * grid])
    return {
        "tensor": js(str(spec.get("tensor"))),
        "grid": js(grid),
        "max": js(int(maximum) if maximum.is_integer() else maximum),
        "side": js(grid * 4),
        "dims": js([int(d) for d in dims]),
    }


def _picture_free(facts: _Facts, reference: Mapping[str, Any]) -> dict[str, Code] | None:
    """For a picture input whose height and width are symbolic: the long side it is scaled to."""
    image = reference.get("image")
    if not image:
        return None
    tensor = next((t for t in facts.inputs if t.name == image.get("input")), None)
    shape = tensor.shape if tensor is not None else None
    if not shape or len(shape) < 2 or isinstance(shape[0], int) or isinstance(shape[1], int):
        return None
    spec = reference.get("input") or {}
    return {"max_side": js(int(spec.get("max_side", DEFAULT_MAX_SIDE)))}


def _work(reference: Mapping[str, Any]) -> dict[str, Code]:
    """The backend rule's quantities, as literals for the snippet."""
    count = int((reference.get("cost") or {}).get("multiply_adds", 0))
    return {"count": js(count), "threshold": js(WEBGPU_MIN_MULTIPLY_ADDS),
            "text": Code(f"{count:,}"), "threshold_text": Code(f"{WEBGPU_MIN_MULTIPLY_ADDS:,}"),
            "extra_mb": Code(f"{EXTRA_WEBGPU_GZIP_MB:.1f}")}


def wasm_only(facts: _Facts) -> bool:
    """Whether only the WebAssembly build can run the model (it uses ai.onnx.ml operators)."""
    return bool(WASM_ONLY_DOMAINS & set(getattr(facts, "opsets", None) or {}))


def _snippet_context(facts: _Facts, reference: Mapping[str, Any]) -> dict[str, Any]:
    image = reference.get("image")
    inputs = _inputs(facts, reference)
    return {
        "model": js(facts.name),
        "py_model": py(facts.name),
        "wasm_only": wasm_only(facts),
        "work": _work(reference),
        "inputs": inputs,
        "overrides": [
            {"name": js(name), "size": js(size)}
            for name, size in free_dimension_overrides(facts, reference).items()
        ],
        "image": image
        and {
            "src": js("./" + str(image["src"])),
            "py_src": py(str(image["src"])),
            "width": js(int(image["width"])),
            "height": js(int(image["height"])),
        },
        "needs_reference": any(entry["source"] == "reference" for entry in inputs),
        "drawing": _drawing(reference),
        "picture_free": _picture_free(facts, reference),
    }


def render_snippet_js(facts: _Facts, reference: Mapping[str, Any]) -> str:
    """The text of ``example.mjs``: what the reader sees and what the widget imports and runs."""
    template = _code_env().get_template("example.mjs.jinja")
    return template.render(_snippet_context(facts, reference))


def render_snippet_python(facts: _Facts, reference: Mapping[str, Any]) -> str:
    """The same example with Python onnxruntime, run next to ``model.onnx``."""
    template = _code_env().get_template("example.py.jinja")
    return template.render(_snippet_context(facts, reference))


def _highlight(code: str, language: str) -> Markup:
    """Pygments HTML shaped like Material's code blocks (copy button, palette colours)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name

    # stripnl=False keeps leading/trailing blank lines, so the block's text equals the file.
    lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    body = highlight(code, lexer, HtmlFormatter(nowrap=True))
    return Markup(
        f'<div class="language-{language} highlight"><pre><span></span><code>{body}</code></pre></div>'
    )


#: Per input kind: what the reader's own input is called on the page.
OWN_INPUT = {"drawing": "your own drawing", "form": "your own numbers", "picture": "your own picture"}


def _first_row(reference: Mapping[str, Any], sample: Mapping[str, Any], tensor: str | None,
               count: int) -> list[float] | None:
    """The first ``count`` numbers a sample feeds ``tensor`` (sample 0's are the top level)."""
    inputs = sample.get("inputs") or reference.get("inputs") or []
    entry = next((e for e in inputs if e.get("name") == tensor), None)
    if entry is None or count <= 0:
        return None
    values = entry.get("data") or []
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values[:count]):
        return None
    return [float(v) for v in values[:count]]


def _number_text(value: float) -> str:
    return f"{value:.6g}"


def widget_context(
    facts: _Facts, reference: Mapping[str, Any], model_base_url: str,
    cache: Mapping[str, Any] | None = None, wasm_sizes: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """Values for ``templates/live_example.html`` (plain text; the template escapes them).

    ``cache``: the content hashes that key the persistent cache (``model``, ``reference`` and
    ``wasm`` per backend); None when the site keeps nothing. ``wasm_sizes``: the bytes of each
    backend's .wasm, which the widget says a Run downloads; None when unknown.
    """
    base = model_base_url if model_base_url.endswith("/") else model_base_url + "/"
    image = reference.get("image")
    tol = tolerance(reference)
    input_ui = dict(reference.get("input") or {}) or None
    if input_ui is None and image:
        input_ui = {"kind": "picture", "tensor": image.get("input")}
    # Values a sample feeds the form or the pad, so picking it shows them before Run.
    kind = (input_ui or {}).get("kind")
    row = (len(input_ui.get("fields") or []) if kind == "form"
           else int(input_ui.get("grid", 8)) ** 2 if kind == "drawing" else 0) if input_ui else 0
    # A form that takes a batch shows every row of a sample, up to its number of rows.
    rows = max(1, int((input_ui or {}).get("rows", 1))) if kind == "form" else 1
    samples: list[dict[str, Any]] = []
    for i, s in enumerate(reference.get("samples") or []):
        values = _first_row(reference, s, (input_ui or {}).get("tensor"), row * rows)
        whole = values and row and len(values) % row == 0 and (rows > 1 or len(values) == row)
        samples.append({"index": i, "name": str(s.get("name", "")),
                        "label": None if s.get("label") is None else str(s["label"]),
                        "values": values if whole else None})
    if kind == "form" and input_ui:
        fields = input_ui.get("fields") or []
        first: list[float] = (samples[0]["values"] if samples and samples[0]["values"] else
                              [float(f["min"]) for f in fields])
        input_ui["fields"] = [
            {**f, "min": _number_text(float(f["min"])), "max": _number_text(float(f["max"])),
             "step": _number_text(float(f.get("step", 0.1)))} for f in fields]
        input_ui["row_values"] = [[_number_text(v) for v in first[at:at + len(fields)]]
                                  for at in range(0, len(first), len(fields))] if fields else []
    return {
        "name": facts.name,
        "dom_id": "live-example-" + "".join(c if c.isalnum() else "-" for c in facts.name),
        "example_url": base + "example.mjs",
        "reference_url": base + "reference.json",
        "model_url": base + "model.onnx",
        "image": image
        and {
            "input": str(image["input"]),
            "url": base + str(image["src"]),
            "preview": base + preview_name(str(image["src"])),
            "width": int(image["width"]),
            "height": int(image["height"]),
        },
        "atol": f"{tol['atol']:g}",
        "rtol": f"{tol['rtol']:g}",
        "inputs": [
            {"name": t.name, "type": t.elem_type, "shape": shape_text(t.shape)}
            for t in facts.inputs
        ],
        "overrides": free_dimension_overrides(facts, reference),
        # The tools of the folded record: both backends side by side, and the shape sweep.
        "both": not wasm_only(facts),
        "sweep": sweep_spec(facts, reference),
        # The .wasm each backend's bundle loads: the widget downloads it with progress.
        "runtime_files": {backend: bundle.wasm for backend, bundle in BUNDLES.items()},
        "cache": dict(cache) if cache else None,
        # What a Run downloads, shown before it: the model, and the runtime of each backend.
        "download_sizes": {"model": facts.file_size, "runtime": dict(wasm_sizes or {})},
        # Named real inputs (the first is the default), how the reader makes input, and how
        # the answer reads: see example_spec. Shown before Run, so read from the reference here.
        "samples": samples,
        "input_ui": input_ui,
        "own_input": OWN_INPUT.get(kind or "", ""),
        "reading": reference.get("reading"),
        "code_js": _highlight(render_snippet_js(facts, reference), "js"),
        "code_python": _highlight(render_snippet_python(facts, reference), "python"),
    }


def render_live_example(
    facts: _Facts, reference: Mapping[str, Any], model_base_url: str, env: Environment | None = None,
    cache: Mapping[str, Any] | None = None, wasm_sizes: Mapping[str, int] | None = None,
    compact: bool = False,
) -> Markup:
    """The widget's HTML for a page; ``model_base_url`` leads from that page to the model folder.

    ``compact``: the variant of model cards (the template folds its code away)."""
    template = (env or environment()).get_template("live_example.html")  # autoescape on
    return Markup(template.render(widget_context(facts, reference, model_base_url, cache,
                                                 wasm_sizes), compact=compact))
