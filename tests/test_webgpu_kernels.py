"""The measured WebGPU table (plugins/onnx_glossary/data/webgpu-kernels.json): it belongs to the
shipped runtime, covers every operator use of the shipped models, reads as the pages say, and
agrees with the browser (headless Chromium, software WebGPU adapter) for every shipped model.

The browser test creates one session per shipped model and runs nothing: onnxruntime-web logs
where each node went while the session is created.
"""

from __future__ import annotations

import json
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper
from onnx_glossary.browser.runtime import ORT_WEB_VERSION, BrowserRuntime, package_version
from onnx_glossary.browser.webgpu_kernels import (
    TABLE,
    WASM_EP,
    WEBGPU_EP,
    WebGpuKernels,
    load_webgpu_kernels,
    use_key,
)
from onnx_glossary.models.analysis import analyse_model
from onnx_glossary.models.facts import MeasuredPlacement
from onnx_glossary.render.pages import placement_sentence, wasm_here

from . import model_builders as build
from .sitebuild import REPO
from .support.placement import Placements, model_cases, model_entry, one_node_cases, shipped_models

TABLE_DATA = json.loads(TABLE.read_text(encoding="utf-8"))
RUNTIME = BrowserRuntime(ORT_WEB_VERSION, 13, 26)


def test_the_table_is_for_the_shipped_runtime() -> None:
    # Bumping onnxruntime-web without running scripts/webgpu_kernels.py fails here (and every
    # page would say "not measured for this runtime").
    assert TABLE_DATA["onnxruntime-web"] == package_version(REPO / "node_modules") == ORT_WEB_VERSION
    assert TABLE_DATA["measured_with"]["import"] == "onnxruntime-web/webgpu"


def test_the_table_covers_every_operator_use_and_every_shipped_model() -> None:
    # A new model, or a changed one, needs the script run again.
    models = shipped_models()
    assert {case.key for case in one_node_cases(models)} == set(TABLE_DATA["ops"])
    assert {name: entry["sha256"] for name, entry in TABLE_DATA["models"].items()} == {
        case.source: model_entry(case, {"error": ""})["sha256"] for case in model_cases(models)}


def test_what_the_table_says_of_an_operator() -> None:
    kernels = WebGpuKernels("9.9.9", uses={
        use_key("ai.onnx", "Cast", 13, ("float32",)): True,
        use_key("ai.onnx", "Cast", 13, ("int64",)): False,
        use_key("ai.onnx", "Round", 11, ("float32",)): False})
    status = kernels.status
    assert status("9.9.9", "", "Cast", 13, [("float32",)]) == ("yes", ())
    assert status("9.9.9", "ai.onnx", "Cast", 13, [("float32",), ("int64",)]) == ("partly", ("int64",))
    assert status("9.9.9", "ai.onnx", "Round", 11, [("float32",)]) == ("no", ("float32",))
    # A use it lacks, another version of the definition, another runtime: nothing is known.
    assert status("9.9.9", "ai.onnx", "Cast", 13, [("float32",), ("float16",)]) == ("not measured", ())
    assert status("9.9.9", "ai.onnx", "Cast", 6, [("float32",)]) == ("not measured", ())
    assert status("9.9.8", "ai.onnx", "Cast", 13, [("float32",)]) == ("not measured", ())
    assert status("9.9.9", "ai.onnx", "Cast", 13, [("?",)]) == ("not measured", ())
    # No kernel is involved: a Constant (an initialiser once loaded), a custom domain.
    assert status("9.9.9", "ai.onnx", "Constant", 13, [()]) == ("not applicable", ())
    assert status("9.9.9", "acme.ops", "Cast", 1, [("float32",)]) == ("not applicable", ())
    assert "not measured for onnxruntime-web 9.9.8" in kernels.basis("9.9.8")
    assert "is measured" in kernels.basis("9.9.9")


def test_without_a_table_nothing_is_measured(tmp_path: Path) -> None:
    kernels = load_webgpu_kernels(tmp_path / "absent.json")
    assert kernels.status(ORT_WEB_VERSION, "ai.onnx", "Gemm", 13, [("float32",) * 3]) == ("not measured", ())
    assert "measured with no runtime" in kernels.basis(ORT_WEB_VERSION)


def test_a_model_page_gets_each_use_from_its_input_types(tmp_path: Path) -> None:
    # float32 -> int64 -> float32: the shipped table has Cast@13 measured for both input types.
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["i"], to=TensorProto.INT64),
         helper.make_node("Cast", ["i"], ["y"], to=TensorProto.FLOAT),
         helper.make_node("Relu", ["d"], ["e"])],
        "casts",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("d", TensorProto.DOUBLE, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("e", TensorProto.DOUBLE, [2])])
    path = build.save(build.model(graph), tmp_path / "casts")
    facts = analyse_model(path, runtime=RUNTIME, webgpu=load_webgpu_kernels())
    ops = {op.op_type: (op.webgpu, op.webgpu_status, op.webgpu_on_wasm) for op in facts.operators}
    assert ops == {"Cast": (None, "partly", ("int64",)),
                   "Relu": (None, "not measured", ())}  # float64 Relu: no shipped model has one
    assert facts.webgpu_placement is None  # not a shipped file


def test_a_shipped_model_carries_its_own_measured_placement() -> None:
    path = REPO / "models" / "face-detection" / "model.onnx"
    facts = analyse_model(path, runtime=RUNTIME, webgpu=load_webgpu_kernels())
    placement = facts.webgpu_placement
    assert placement is not None and placement.listed
    assert placement.providers == TABLE_DATA["models"]["face-detection"]["providers"]
    assert placement.on_wasm == TABLE_DATA["models"]["face-detection"]["op_types"][WASM_EP]
    words = placement_sentence(placement)
    on_webgpu, total = placement.providers[WEBGPU_EP], sum(placement.providers.values())
    assert f"{on_webgpu} of {total} nodes on WebGPU" in words and "NonMaxSuppression" in words
    assert wasm_here(placement) == placement.on_wasm


def test_what_a_page_says_of_a_placement() -> None:
    everything = MeasuredPlacement({WEBGPU_EP: 41}, {})
    assert "all 41 nodes on WebGPU" in placement_sentence(everything)
    assert wasm_here(everything) == {}  # so an operator without a kernel was optimised away
    split = MeasuredPlacement({WEBGPU_EP: 5, WASM_EP: 3}, {"Shape": 2, "Mod": 1}, listed=True)
    assert "5 of 8 nodes on WebGPU, 3 on WebAssembly (Mod, Shape \u00d72)" in placement_sentence(split)
    only_wasm = MeasuredPlacement({WASM_EP: 4}, {})
    assert wasm_here(only_wasm) is None  # which op types: the log does not list them
    refused = MeasuredPlacement({}, {}, "Can't create a session. ERROR_CODE: 6, ERROR_MESSAGE: No Op "
                                "registered for LinearClassifier with domain_version of 1")
    assert "cannot create a session for it (No Op registered for LinearClassifier" in placement_sentence(refused)
    assert wasm_here(refused) is None and placement_sentence(None) == ""


@pytest.mark.browser
def test_every_shipped_model_is_placed_as_the_table_says(tmp_path: Path) -> None:
    cases = list(model_cases(shipped_models()))
    with Placements(cases, tmp_path) as page:
        assert page.adapter() is not None, "no software WebGPU adapter (--enable-unsafe-webgpu)"
        measured = {case.source: model_entry(case, page.of(case)) for case in cases}
    assert measured == TABLE_DATA["models"], "run python scripts/webgpu_kernels.py and commit it"
    # The one-node measurements agree with the whole models: no node of an operator that has
    # no WebGPU kernel for any of its uses in a model is on WebGPU there.
    kernels = load_webgpu_kernels()
    for name, entry in measured.items():
        if not entry.get("listed"):
            continue
        facts = analyse_model(REPO / "models" / name / "model.onnx", runtime=RUNTIME, webgpu=kernels)
        without = {op.op_type for op in facts.operators if op.webgpu_status == "no"}
        assert without.isdisjoint(entry["op_types"].get(WEBGPU_EP, {})), name


def test_the_one_node_models_are_valid_and_keep_their_node() -> None:
    for case in one_node_cases(shipped_models()):
        model = onnx.load_from_string(case.model)
        onnx.checker.check_model(model)
        (node,) = model.graph.node
        assert (node.op_type, case.key.split("/")[1].split("@")[0]) == (case.op_type, case.op_type)
        # The first input is a graph input, so constant folding cannot remove the node.
        assert node.input[0] in {value.name for value in model.graph.input}
