"""A hand-assembled site holding live examples, without MkDocs.

It lays out exactly what the real build lays out for a model page (import map in <head>, the
widget, example.mjs, reference.json, model.onnx, the picture, the self-hosted runtime) so the
widget can be tested on models the real site would never ship, such as one the runtime refuses.
The reference outputs come from Python onnxruntime, as in the real build.
"""

from __future__ import annotations

import html
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime
import yaml
from onnx_glossary.live_example import render_live_example, render_snippet_js
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
ORT_DIST = ROOT / "node_modules" / "onnxruntime-web" / "dist"
ORT_FILES = (
    "ort.webgpu.bundle.min.mjs",
    "ort-wasm-simd-threaded.asyncify.wasm",
    "ort.wasm.bundle.min.mjs",
    "ort-wasm-simd-threaded.wasm",
)
ASSETS = ROOT / "plugins" / "onnx_glossary" / "assets"

_ONNX_TYPES = {
    onnx.TensorProto.FLOAT: "float32",
    onnx.TensorProto.DOUBLE: "float64",
    onnx.TensorProto.UINT8: "uint8",
    onnx.TensorProto.INT8: "int8",
    onnx.TensorProto.INT32: "int32",
    onnx.TensorProto.INT64: "int64",
    onnx.TensorProto.BOOL: "bool",
    onnx.TensorProto.STRING: "string",
}


@dataclass(frozen=True)
class Tensor:
    name: str
    elem_type: str
    shape: tuple[int | str | None, ...] | None


@dataclass(frozen=True)
class Facts:
    """The few model facts the live example reads (the real build uses ModelFacts)."""

    name: str
    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]
    opsets: dict[str, int]


def read_facts(name: str, model: onnx.ModelProto) -> Facts:
    initializers = {init.name for init in model.graph.initializer}

    def tensor(value: onnx.ValueInfoProto) -> Tensor:
        kind = value.type.tensor_type
        shape = (
            tuple(d.dim_param or (d.dim_value if d.HasField("dim_value") else None)
                  for d in kind.shape.dim)
            if kind.HasField("shape")
            else None
        )
        return Tensor(value.name, _ONNX_TYPES.get(kind.elem_type, "unknown"), shape)

    return Facts(
        name,
        tuple(tensor(v) for v in model.graph.input if v.name not in initializers),
        tuple(tensor(v) for v in model.graph.output),
        {o.domain or "ai.onnx": o.version for o in model.opset_import},
    )


def compute_reference(name: str, model_path: Path, facts: Facts, example: dict) -> dict[str, Any]:
    """reference.json as the build writes it: sample inputs and Python onnxruntime outputs."""
    dims = dict(example.get("dims") or {})
    image = None
    feeds: dict[str, np.ndarray] = {}
    rng = np.random.default_rng(0)
    for tensor in facts.inputs:
        if example.get("image"):
            pixels = np.asarray(Image.open(model_path.parent / example["image"]).convert("RGBA"))
            feeds[tensor.name] = pixels
            height, width = pixels.shape[:2]
            image = {"input": tensor.name, "src": example["image"], "height": height,
                     "width": width}
            assert tensor.shape is not None
            for declared, size in zip(tensor.shape, pixels.shape, strict=True):
                if isinstance(declared, str):
                    dims[declared] = int(size)
            continue
        assert tensor.shape is not None
        shape = []
        for d in tensor.shape:
            if isinstance(d, str):
                dims.setdefault(d, 1)
                shape.append(dims[d])
            else:
                shape.append(d or 1)
        feeds[tensor.name] = rng.random(shape).astype(tensor.elem_type)
    session = onnxruntime.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    results = session.run(None, feeds)
    return {
        "model": name,
        "onnxruntime": onnxruntime.__version__,
        "dims": dims,
        "inputs": [
            {"name": k, "type": str(v.dtype), "dims": list(v.shape), "data": v.ravel().tolist()}
            for k, v in feeds.items()
        ],
        "outputs": [
            {"name": o.name, "type": str(v.dtype), "dims": list(v.shape),
             "data": v.ravel().tolist()}
            for o, v in zip(session.get_outputs(), results, strict=True)
        ],
        "tolerance": example.get("tolerance") or {"atol": 0.0001, "rtol": 0.001},
        "image": image,
    }


def page(title: str, base: str, body: str, *, live: bool = True) -> str:
    """A page shaped like the real ones: the import map in <head>, the script at the end."""
    imports = {
        "onnxruntime-web/webgpu": f"{base}/assets/ort/ort.webgpu.bundle.min.mjs",
        "onnxruntime-web/wasm": f"{base}/assets/ort/ort.wasm.bundle.min.mjs",
    }
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>{html.escape(title)}</title>
<script type="importmap">{json.dumps({"imports": imports})}</script>
<link rel="stylesheet" href="{base}/assets/onnx_glossary/live-example.css">
</head><body>
<h1>{html.escape(title)}</h1>
{body}
{'<script src="' + base + '/assets/onnx_glossary/live-example.js"></script>' if live else ""}
</body></html>
"""


def add_model(site: Path, name: str, model_dir: Path, *, model_file: Path | None = None) -> Facts:
    """Publish one model folder as ``site/models/<name>/`` with its page."""
    out = site / "models" / name
    out.mkdir(parents=True, exist_ok=True)
    model_path = model_file or model_dir / "model.onnx"
    example_file = model_dir / "example.yml"
    example = yaml.safe_load(example_file.read_text()) if example_file.exists() else {}
    facts = read_facts(name, onnx.load(model_path))
    reference = compute_reference(name, model_path, facts, example or {})
    shutil.copy(model_path, out / "model.onnx")
    if reference["image"]:
        shutil.copy(model_dir / reference["image"]["src"], out / reference["image"]["src"])
    (out / "reference.json").write_text(json.dumps(reference))
    (out / "example.mjs").write_text(render_snippet_js(facts, reference), encoding="utf-8")
    widget = render_live_example(facts, reference, "./")
    (out / "index.html").write_text(page(name, "../..", widget), encoding="utf-8")
    return facts


def build_site(site: Path, models: dict[str, Path]) -> Path:
    """Runtime, assets, one page per model and a home page linking to them."""
    (site / "assets" / "ort").mkdir(parents=True, exist_ok=True)
    for file in ORT_FILES:
        shutil.copy(ORT_DIST / file, site / "assets" / "ort" / file)
    shutil.copytree(ASSETS, site / "assets" / "onnx_glossary", dirs_exist_ok=True)
    for name, model_dir in models.items():
        add_model(site, name, model_dir)
    links = "".join(f'<li><a href="models/{n}/">{html.escape(n)}</a></li>' for n in models)
    (site / "index.html").write_text(page("Home", ".", f"<ul>{links}</ul>"), encoding="utf-8")
    return site


def model_dirs() -> dict[str, Path]:
    """The project's example models that have a model.onnx."""
    return {p.parent.name: p.parent for p in sorted((ROOT / "models").glob("*/model.onnx"))}
