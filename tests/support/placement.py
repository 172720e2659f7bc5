"""Where onnxruntime-web's WebGPU build places each node, measured in headless Chromium.

Shared by scripts/webgpu_kernels.py (which writes the committed table
plugins/onnx_glossary/data/webgpu-kernels.json) and tests/test_webgpu_kernels.py (which checks
the table against the browser). A session is created with the session option
``logSeverityLevel: 0`` and nothing is run: onnxruntime-web logs its "Node placements" while
the session is created, and plugins/onnx_glossary/assets/live-example-placement.mjs, the
widget's own parser, reads them in the page.

The one-node models are cut from the shipped models: for every distinct use of an operator
(domain, type, the version of its definition, the element types of its inputs) one node of a
shipped model, with its attributes, the same input types and shapes, and the weights it reads
(initialisers stay initialisers, so that an input an operator needs constant still is). Its
first input is always a graph input, so that constant folding cannot remove the node.
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import onnx
from onnx import ModelProto, NodeProto, TensorProto, TypeProto, helper
from onnx_glossary.browser.webgpu_kernels import WEBGPU_EP, normalise_domain, use_key
from onnx_glossary.models.graph import element_types, input_types

from ..sitebuild import REPO
from .browser import StaticServer, launch, wait_until

DIST = REPO / "node_modules" / "onnxruntime-web" / "dist"
PARSER = REPO / "plugins" / "onnx_glossary" / "assets" / "live-example-placement.mjs"
#: The build the live example uses for WebGPU, and the .wasm it loads from next to itself.
RUNTIME_FILES = ("ort.webgpu.bundle.min.mjs", "ort-wasm-simd-threaded.asyncify.wasm")

#: V8 compiles the 28.7 MB .wasm with its baseline compiler, then again with its optimising
#: one in the background, which on a busy 2-core machine slows every session after it three
#: times over (measured: 13 shipped models in 12 s against 31 to 39 s). Where a node goes does
#: not depend on how fast the code is: baseline code only.
BASELINE_WASM = ("--js-flags=--liftoff-only",)

#: The page: console output captured from before the runtime starts (it binds console.error
#: once, at start-up), then one session at a time, its log parsed by the widget's parser.
HARNESS = """<!doctype html><meta charset="utf-8"><title>placements</title>
<script type="module">
import { parsePlacement } from "./placement.mjs";
const lines = [];
for (const level of ["log", "info", "warn", "error", "debug"]) {
  console[level] = (...args) => { lines.push(args.map(String).join(" ")); };
}
window.consoleLines = lines;  // every console message since the last session began
const ort = await import("./ort/ort.webgpu.bundle.min.mjs");
ort.env.wasm.numThreads = 1;
window.ort = ort;
window.placementOf = async (url, providers, keepLines) => {
  lines.length = 0;
  try {
    const session = await ort.InferenceSession.create(url,
      { executionProviders: providers, logSeverityLevel: 0 });
    await session.release();
  } catch (error) {
    return { error: String(error && error.message || error).split("\\n")[0] };
  }
  return { placement: parsePlacement(lines), ...(keepLines ? { lines: [...lines] } : {}) };
};
window.adapterInfo = async () => {
  const adapter = navigator.gpu && await navigator.gpu.requestAdapter();
  if (!adapter) return null;
  const info = adapter.info || {};
  return { vendor: info.vendor || "", architecture: info.architecture || "",
           description: info.description || "", fallback: Boolean(info.isFallbackAdapter) };
};
window.harnessReady = true;
</script>
"""


@dataclass(frozen=True)
class Case:
    """One model to create a session for: a shipped model, or a one-node model cut from one."""

    key: str  # "model:<name>", or "ai.onnx/Cast@13(int64)" for a one-node model
    model: bytes
    source: str  # the shipped model it is, or that the node was cut from
    opset: int  # the model's opset of the node's domain
    domain: str = ""
    op_type: str = ""
    since: int = 0


def shipped_models(models_dir: Path = REPO / "models") -> dict[str, Path]:
    """Every shipped model (models/<name>/model.onnx), by name."""
    return {path.parent.name: path for path in sorted(models_dir.glob("*/model.onnx"))
            if not path.parent.name.startswith((".", "_"))}


def one_node_cases(models: Mapping[str, Path]) -> Iterator[Case]:
    """One one-node model per distinct use of an operator in the shipped models, keyed as the
    build looks them up (the same functions of onnx_glossary.models.graph); Constant nodes are
    left out (they become initialisers when a session loads: nothing runs them)."""
    seen: set[str] = set()
    for name, path in models.items():
        model = onnx.load(path)
        inferred = onnx.shape_inference.infer_shapes(model)
        types: dict[str, TypeProto] = {v.name: v.type for v in (
            *inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output)}
        names = element_types(model, types)
        initialisers = {t.name: t for t in model.graph.initializer}
        constants = {out: node for node in model.graph.node if node.op_type == "Constant"
                     for out in node.output}
        opsets = {normalise_domain(o.domain): o.version for o in model.opset_import}
        for node in model.graph.node:
            if node.op_type == "Constant":
                continue
            domain = normalise_domain(node.domain)
            since = onnx.defs.get_schema(node.op_type, opsets[domain], node.domain).since_version
            key = use_key(domain, node.op_type, since, input_types(node, names))
            if key in seen:
                continue
            seen.add(key)
            yield Case(key, _cut(model, node, types, initialisers, constants).SerializeToString(),
                       name, opsets[domain], domain, node.op_type, since)


def _cut(model: ModelProto, node: NodeProto, types: Mapping[str, TypeProto],
         initialisers: Mapping[str, TensorProto], constants: Mapping[str, NodeProto]) -> ModelProto:
    """A model of this one node, with the source model's IR version and opsets."""
    inputs, weights = [], []
    for index, value in enumerate(node.input):
        if not value or any(i.name == value for i in inputs) or any(w.name == value for w in weights):
            continue
        constant = initialisers.get(value)
        if constant is None and value in constants:
            constant = onnx.numpy_helper.from_array(
                onnx.numpy_helper.to_array(constants[value].attribute[0].t), value)
        if constant is not None and index > 0:
            weights.append(constant)
            continue
        if constant is not None:
            kind = helper.make_tensor_type_proto(constant.data_type, list(constant.dims))
        else:
            kind = types[value]
        inputs.append(helper.make_value_info(value, kind))
    # An output shape inference did not type (Dropout's unused mask, say) is left dangling.
    outputs = [helper.make_value_info(value, types[value]) for value in node.output if value in types]
    if model.ir_version < 4:  # IR 3 lists every initialiser among the graph's inputs too
        inputs += [helper.make_tensor_value_info(w.name, w.data_type, list(w.dims)) for w in weights]
    graph = helper.make_graph([node], f"one {node.op_type}", inputs, outputs, weights)
    cut = helper.make_model(graph, opset_imports=list(model.opset_import),
                            ir_version=model.ir_version)
    onnx.checker.check_model(cut)
    return cut


def model_cases(models: Mapping[str, Path]) -> Iterator[Case]:
    """The shipped models themselves."""
    for name, path in models.items():
        model = onnx.load(path)
        opset = next((o.version for o in model.opset_import if (o.domain or "ai.onnx") == "ai.onnx"), 0)
        yield Case(f"model:{name}", path.read_bytes(), name, opset)


class Placements:
    """A page of headless Chromium with the software WebGPU adapter, ready to create sessions.

    ``with Placements(cases) as p: p.of(case)`` gives ``{"placement": ...}`` (the parser's
    result) or ``{"error": "first line of the message"}``.
    """

    def __init__(self, cases: Iterable[Case], folder: Path,
                 extra_args: Iterable[str] = BASELINE_WASM) -> None:
        self.cases = list(cases)
        self.folder = folder
        self.extra_args = tuple(extra_args)

    def __enter__(self) -> Placements:
        from playwright.sync_api import sync_playwright

        (self.folder / "ort").mkdir(parents=True, exist_ok=True)
        (self.folder / "models").mkdir(exist_ok=True)
        for name in RUNTIME_FILES:
            shutil.copyfile(DIST / name, self.folder / "ort" / name)
        shutil.copyfile(PARSER, self.folder / "placement.mjs")
        (self.folder / "index.html").write_text(HARNESS, encoding="utf-8")
        self.files: dict[str, str] = {}
        for number, case in enumerate(self.cases):
            file = f"models/{number}.onnx"
            (self.folder / file).write_bytes(case.model)
            self.files[case.key] = file
        self._stack = contextlib.ExitStack()
        server = self._stack.enter_context(StaticServer(self.folder))
        browser = launch(self._stack.enter_context(sync_playwright()), webgpu=True,
                         extra_args=self.extra_args)
        self._stack.callback(browser.close)
        self.browser = browser
        self.version = browser.version
        self.page = browser.new_page()
        self.page.goto(server.url)
        wait_until(self.page, "window.harnessReady === true")
        return self

    def adapter(self) -> dict[str, Any] | None:
        return self.page.evaluate("() => window.adapterInfo()")

    def of(self, case: Case, providers: tuple[str, ...] = ("webgpu",), *,
           lines: bool = False) -> dict[str, Any]:
        """The session's placement; with ``lines``, also every console line it wrote."""
        return self.page.evaluate(
            "([url, providers, keep]) => window.placementOf(url, providers, keep)",
            [self.files[case.key], list(providers), lines])

    def __exit__(self, *exc: object) -> None:
        self._stack.close()


class PlacementError(RuntimeError):
    """The log does not say where a node went."""


def kernel_entry(case: Case, result: dict[str, Any]) -> dict[str, Any]:
    """Whether the one node went to WebGPU, and what the log said."""
    checked = f"one-node model cut from {case.source}, {case.domain} opset {case.opset}"
    if "error" in result:
        return {"webgpu": False, "checked_with": checked, "error": result["error"]}
    placement = result["placement"]
    if placement is None:
        raise PlacementError(f"{case.key}: the session logged no node placements")
    providers = placement["providers"]
    if len(providers) == 1:
        # "All nodes placed on [EP]": the node and whatever the layout pass added around it
        # (Conv gets Transposes to and from NHWC, for one).
        (provider,) = providers
    else:
        found = {n["provider"] for n in placement["nodes"] if n["opType"] == case.op_type}
        if len(found) != 1:
            raise PlacementError(f"{case.key}: cannot tell where the node went: {placement}")
        (provider,) = found
    return {"webgpu": provider == WEBGPU_EP, "placed_on": provider, "checked_with": checked}


def model_entry(case: Case, result: dict[str, Any]) -> dict[str, Any]:
    """A shipped model's placement: nodes per provider, and per op type where the log lists them."""
    entry: dict[str, Any] = {"sha256": hashlib.sha256(case.model).hexdigest()}
    if "error" in result:
        return {**entry, "error": result["error"]}
    placement = result["placement"]
    if placement is None:
        raise PlacementError(f"{case.key}: the session logged no node placements")
    entry["providers"] = dict(sorted(placement["providers"].items()))
    entry["listed"] = placement["listed"]
    if placement["listed"]:
        per_provider: dict[str, dict[str, int]] = {}
        for node in placement["nodes"]:
            types = per_provider.setdefault(node["provider"], {})
            types[node["opType"]] = types.get(node["opType"], 0) + 1
        entry["op_types"] = {ep: dict(sorted(types.items())) for ep, types in sorted(per_provider.items())}
    return entry
