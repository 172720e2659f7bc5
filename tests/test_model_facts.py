"""analyse_model on built models, the committed models, onnx's own test models, bad files."""

from __future__ import annotations

import hashlib
import json
import math
import shutil
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper
from onnx_glossary.browser.runtime import BrowserRuntime, browser_runtime
from onnx_glossary.browser.webgpu_kernels import load_webgpu_kernels
from onnx_glossary.common.problems import Finding
from onnx_glossary.models.acceptance import earliest_ort
from onnx_glossary.models.analysis import ModelError, analyse_model
from onnx_glossary.models.facts import ModelFacts, from_json_dict, to_json_dict
from onnx_glossary.options import Options

from . import model_builders as build
from .sitebuild import LIGHT, MODELS, REPO

LIGHT_MODELS = sorted(LIGHT.glob("light_*.onnx"))
RUNTIME = BrowserRuntime("1.31.1", 13, 26)

#: The site's size budget, from its one default (Options).
BUDGET = Options().size_budget_bytes


def messages(facts: ModelFacts) -> list[str]:
    return [finding.message for finding in facts.findings]


@pytest.fixture(scope="module")
def webgpu():
    return load_webgpu_kernels()


def analyse(model: onnx.ModelProto, tmp_path: Path, **kwargs) -> ModelFacts:
    kwargs.setdefault("size_budget_bytes", BUDGET)
    return analyse_model(build.save(model, tmp_path / "m"), runtime=RUNTIME, **kwargs)


# -- built models -----------------------------------------------------------------------


def test_linear_facts(tmp_path, webgpu):
    facts = analyse(build.linear(), tmp_path, webgpu=webgpu)
    assert facts.name == "m"
    assert facts.parameter_count == 4
    assert facts.weight_bytes == 16
    assert facts.opsets == {"ai.onnx": 17}
    assert [(t.name, t.elem_type, t.shape) for t in facts.inputs] == [
        ("x", "float32", ("batch", 3))
    ]
    assert [(a.tensor, a.axis, a.dim, a.role) for a in facts.dynamic_axes] == [
        ("x", 0, "batch", "input"), ("y", 0, "batch", "output")
    ]
    (gemm,) = facts.operators
    assert (gemm.domain, gemm.op_type, gemm.count, gemm.since_version) == ("ai.onnx", "Gemm", 1, 13)
    assert gemm.spec_url == "https://onnx.ai/onnx/operators/onnx__Gemm.html"
    assert (gemm.webgpu, gemm.webgpu_status) == (True, "yes")  # measured: a one-node Gemm
    assert facts.runs_in_browser
    assert facts.acceptance == "IR 8 ≤ 13 and ai.onnx opset 17 ≤ 26"
    assert facts.earliest_ort == "1.12"
    assert facts.shape_inference_ok
    assert facts.findings == ()


def test_ir3_initializers_listed_as_inputs_are_not_inputs(tmp_path):
    facts = analyse(build.ir3_initializers_as_inputs(), tmp_path)
    assert [t.name for t in facts.inputs] == ["x"]
    assert facts.ir_version == 3
    assert facts.parameter_count == 12
    assert facts.earliest_ort == "0.3"
    assert any("fixed shape [2, 4]" in w for w in messages(facts))


def test_symbolic_dims_and_non_float_inputs(tmp_path):
    facts = analyse(build.mixed_inputs(), tmp_path)
    types = {t.name: (t.elem_type, t.shape) for t in facts.inputs}
    assert types == {
        "ids": ("int64", ("batch", "sequence")),
        "mask": ("bool", ("batch", "sequence")),
        "raw": ("uint8", ("height", "width", 4)),
    }
    input_dims = {(a.tensor, a.axis, a.dim) for a in facts.dynamic_axes if a.role == "input"}
    assert input_dims == {
        ("ids", 0, "batch"), ("ids", 1, "sequence"), ("mask", 0, "batch"),
        ("mask", 1, "sequence"), ("raw", 0, "height"), ("raw", 1, "width"),
    }
    assert facts.outputs[1].shape == ()  # a scalar is a fixed, empty shape
    assert not any("fixed shape" in w for w in messages(facts))


def test_unnamed_free_axis_is_flagged(tmp_path):
    built = build.linear()
    built.graph.input[0].type.tensor_type.shape.dim[0].Clear()
    facts = analyse(built, tmp_path)
    assert facts.inputs[0].shape == (None, 3)
    axes = [(a.tensor, a.axis, a.dim, a.role) for a in facts.dynamic_axes]
    assert ("x", 0, None, "input") in axes
    assert any("axis 0 is free but unnamed" in w for w in messages(facts))


def test_ml_operators(tmp_path, webgpu):
    facts = analyse(build.classifier(zipmap=False), tmp_path, webgpu=webgpu)
    assert facts.opsets == {"ai.onnx": 17, "ai.onnx.ml": 1}
    (op,) = facts.operators
    assert (op.domain, op.op_type, op.since_version) == ("ai.onnx.ml", "LinearClassifier", 1)
    assert op.spec_url == "https://onnx.ai/onnx/operators/onnx_aionnxml_LinearClassifier.html"
    assert (op.webgpu, op.webgpu_status) == (False, "no")  # no ML kernels in the WebGPU build
    assert facts.parameter_count == 6  # coefficients + intercepts live in attributes
    assert facts.runs_in_browser


def test_zipmap_output_is_flagged(tmp_path):
    facts = analyse(build.classifier(zipmap=True), tmp_path)
    probabilities = facts.outputs[1]
    assert probabilities.elem_type == "sequence<map<int64,float32>>"
    assert probabilities.is_tensor is False
    assert probabilities.shape is None
    (refusal,) = facts.refusals
    assert refusal.message.startswith("'probabilities' is a sequence<map<int64,float32>>")
    assert "ZipMap disabled" in refusal.fix
    assert not facts.runs_in_browser
    assert facts.acceptance == ""


def test_if_subgraph_nodes_are_counted(tmp_path, webgpu):
    facts = analyse(build.with_if(), tmp_path, webgpu=webgpu)
    counts = {op.op_type: op.count for op in facts.operators}
    assert counts == {"If": 1, "Add": 1, "Relu": 1, "Neg": 1}
    assert facts.node_count == 4


def test_local_functions_are_counted(tmp_path, webgpu):
    facts = analyse(build.with_local_function(), tmp_path, webgpu=webgpu)
    uses = {(op.domain, op.op_type): op for op in facts.operators}
    assert uses[("local", "Double")].count == 2
    assert uses[("local", "Double")].since_version is None
    assert (uses[("local", "Double")].webgpu, uses[("local", "Double")].webgpu_status) == (None, "not applicable")
    assert uses[("ai.onnx", "Add")].count == 1
    assert facts.node_count == 3
    assert facts.runs_in_browser  # a local function's domain needs no custom op library


def test_fixed_input_size_warning(tmp_path):
    facts = analyse(build.ir3_initializers_as_inputs(), tmp_path)
    assert Finding("note", "Input 'x' has a fixed shape [2, 4]: it takes inputs of that size only") \
        in facts.findings


@pytest.mark.parametrize(
    ("ir_version", "opset", "expected"),
    [
        (14, 17, "IR version 14 is newer than the 13 that onnxruntime-web 1.31.1 reads"),
        (13, 27, "ai.onnx opset 27 is newer than the 26 that onnxruntime-web 1.31.1 accepts"),
    ],
)
def test_newer_than_browser_runtime_is_flagged_not_raised(tmp_path, ir_version, opset, expected):
    facts = analyse(build.linear(opset=opset, ir_version=ir_version), tmp_path)
    assert facts.ir_version == ir_version
    assert facts.opsets["ai.onnx"] == opset
    assert facts.runs_in_browser is False
    (refusal,) = facts.refusals
    assert refusal.message == expected
    # The fix names the stamp that the shipped runtime accepts.
    assert "ir_version=10" in refusal.fix and 'make_opsetid("", 17)' in refusal.fix
    assert facts.earliest_ort.startswith("newer than 1.20")


def test_browser_runtime_version_comes_from_node_modules():
    assert browser_runtime(REPO / "node_modules").version == json.loads(
        (REPO / "node_modules/onnxruntime-web/package.json").read_text()
    )["version"]
    assert browser_runtime(Path("/nonexistent")).version == "1.31.1"


def test_earliest_ort_table():
    assert earliest_ort({"ai.onnx": 17}, 8) == "1.12"
    assert earliest_ort({"ai.onnx": 21}, 10) == "1.18"
    assert earliest_ort({"ai.onnx": 17}, 9) == "1.16"  # IR 9 arrived later than opset 17
    assert earliest_ort({"ai.onnx": 13, "ai.onnx.ml": 3}, 7) == "1.12"


def test_facts_round_trip_through_json(tmp_path, webgpu):
    facts = analyse(build.mixed_inputs(), tmp_path, webgpu=webgpu)
    assert from_json_dict(ModelFacts, json.loads(json.dumps(to_json_dict(facts)))) == facts


def test_external_data_is_reported(tmp_path):
    folder = tmp_path / "ext"
    folder.mkdir()
    built = build.linear()
    path = folder / "model.onnx"
    onnx.save_model(built, path, save_as_external_data=True, location="model.onnx.data",
                    size_threshold=0)
    facts = analyse_model(path, runtime=RUNTIME, size_budget_bytes=BUDGET)
    assert facts.external_data
    assert facts.weight_bytes == 16
    assert any("external data (model.onnx.data)" in w for w in messages(facts))


# -- the committed example models -------------------------------------------------------


def _initializer_parameters(path: Path) -> int:
    return sum(numpy_helper.to_array(t).size for t in onnx.load(path).graph.initializer)


@pytest.mark.parametrize("name", ["linear", "edges", "edges-int8", "iris", "digits", "digits-int8"])
def test_committed_models(name, webgpu):
    path = MODELS / name / "model.onnx"
    facts = analyse_model(path, webgpu=webgpu, runtime=RUNTIME, size_budget_bytes=BUDGET)
    assert facts.name == name
    assert facts.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert facts.file_size == path.stat().st_size < 1_000_000
    assert facts.runs_in_browser and facts.shape_inference_ok
    assert not facts.external_data
    for key in ("framework", "framework_version", "exporter_settings", "export_script_sha256",
                "parity_max_abs_diff"):
        assert facts.metadata[key]
    assert facts.operators == tuple(sorted(facts.operators, key=lambda o: (
        o.domain != "ai.onnx", o.domain, o.op_type)))


def test_linear_model_matches_the_article():
    facts = analyse_model(MODELS / "linear" / "model.onnx", runtime=RUNTIME, size_budget_bytes=BUDGET)
    assert facts.parameter_count == 4 == _initializer_parameters(MODELS / "linear/model.onnx")
    assert facts.opsets == {"ai.onnx": 17}
    assert facts.ir_version == 8
    assert [(t.name, t.elem_type, t.shape) for t in facts.inputs] == [
        ("input", "float32", ("batch", 3))]
    assert [(t.name, t.elem_type, t.shape) for t in facts.outputs] == [
        ("output", "float32", ("batch", 1))]
    assert facts.metadata["framework"] == "torch"
    assert facts.metadata["framework_version"].startswith("2.13.0")
    assert json.loads(facts.metadata["exporter_settings"])["opset_version"] == 17
    assert float(facts.metadata["parity_max_abs_diff"]) <= 1e-5


def test_edges_model_takes_and_returns_rgba():
    facts = analyse_model(MODELS / "edges" / "model.onnx", runtime=RUNTIME, size_budget_bytes=BUDGET)
    assert [(t.name, t.elem_type, t.shape) for t in facts.inputs] == [
        ("pixels", "uint8", ("height", "width", 4))]
    assert [(t.name, t.elem_type, t.shape) for t in facts.outputs] == [
        ("image", "uint8", ("height", "width", 4))]
    assert "Conv" in {op.op_type for op in facts.operators}
    assert "RGB" in facts.metadata["preprocessing"]
    assert facts.parameter_count == _initializer_parameters(MODELS / "edges/model.onnx")


def test_quantised_model_records_its_origin():
    facts = analyse_model(MODELS / "edges-int8" / "model.onnx", runtime=RUNTIME, size_budget_bytes=BUDGET)
    ops = {op.op_type for op in facts.operators}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    assert {op.domain for op in facts.operators} == {"ai.onnx"}  # no com.microsoft ops
    meta = facts.metadata
    assert meta["quantized_from"] == "edges"
    assert int(meta["float_model_bytes"]) == (MODELS / "edges/model.onnx").stat().st_size
    assert float(meta["max_abs_diff_vs_float"]) <= 32


def test_digits_model_takes_raw_dataset_pixels():
    facts = analyse_model(MODELS / "digits" / "model.onnx", runtime=RUNTIME, size_budget_bytes=BUDGET)
    assert [(t.name, t.elem_type, t.shape) for t in facts.inputs] == [
        ("pixels", "float32", ("batch", 64))]
    assert [(t.name, t.elem_type, t.shape) for t in facts.outputs] == [
        ("logits", "float32", ("batch", 10)), ("probabilities", "float32", ("batch", 10))]
    ops = {op.op_type for op in facts.operators}
    assert {"Div", "MatMul", "Relu", "Softmax"} <= ops
    assert "Gemm" not in ops  # MatMul + Add, so that quantize_dynamic can quantise it
    assert facts.opsets == {"ai.onnx": 17}
    assert facts.ir_version == 8
    # 64*256 + 256 + 256*128 + 128 + 128*10 + 10 weights and biases
    assert facts.parameter_count == 50_826 == _initializer_parameters(MODELS / "digits/model.onnx")
    meta = facts.metadata
    assert meta["framework"] == "torch"
    assert float(meta["parity_max_abs_diff"]) <= 1e-5
    assert float(meta["test_accuracy"]) >= 0.95
    assert json.loads(meta["test_split"]) == {"random_state": 0, "stratify": True,
                                              "test_size": 0.25}


def test_quantised_digits_is_smaller_than_its_float_original():
    facts = analyse_model(MODELS / "digits-int8" / "model.onnx", runtime=RUNTIME, size_budget_bytes=BUDGET)
    ops = {op.op_type for op in facts.operators}
    assert {"DynamicQuantizeLinear", "MatMulInteger"} <= ops
    assert "MatMul" not in ops  # every weight matrix was quantised
    assert {op.domain for op in facts.operators} == {"ai.onnx"}  # no com.microsoft ops
    assert [(t.name, t.elem_type, t.shape) for t in facts.inputs] == [
        ("pixels", "float32", ("batch", 64))]
    meta = facts.metadata
    float_size = (MODELS / "digits/model.onnx").stat().st_size
    assert meta["quantized_from"] == "digits"
    assert int(meta["float_model_bytes"]) == float_size
    assert facts.file_size * 3 < float_size  # int8 weights: about a quarter of the bytes
    assert float(meta["max_abs_diff_vs_float"]) <= 0.5
    assert float(meta["test_accuracy"]) >= float(meta["float_test_accuracy"]) - 0.01
    float_meta = analyse_model(MODELS / "digits" / "model.onnx", runtime=RUNTIME, size_budget_bytes=BUDGET).metadata
    assert meta["float_test_accuracy"] == float_meta["test_accuracy"]
    assert meta["float_model_sha256"] == hashlib.sha256(
        (MODELS / "digits/model.onnx").read_bytes()).hexdigest()


def test_iris_model_is_ml_without_zipmap():
    facts = analyse_model(MODELS / "iris" / "model.onnx", runtime=RUNTIME, size_budget_bytes=BUDGET)
    assert facts.opsets["ai.onnx.ml"] >= 1
    assert "ZipMap" not in {op.op_type for op in facts.operators}
    assert all(t.is_tensor for t in facts.outputs)
    assert [(t.name, t.elem_type, t.shape) for t in facts.inputs] == [
        ("input", "float32", ("batch", 4))]
    assert facts.parameter_count == 15  # 3 classes x 4 coefficients + 3 intercepts


# -- onnx's own test models -------------------------------------------------------------


@pytest.mark.parametrize("path", LIGHT_MODELS, ids=lambda p: p.stem)
def test_onnx_light_models(path, webgpu):
    model = onnx.load(path)
    initializers = {t.name for t in model.graph.initializer}
    facts = analyse_model(path, webgpu=webgpu, runtime=RUNTIME, size_budget_bytes=BUDGET)
    assert facts.inputs and not {t.name for t in facts.inputs} & initializers
    assert len(facts.inputs) == len(model.graph.input) - len(initializers)
    assert facts.operators and facts.parameter_count > 0
    assert facts.node_count == len(model.graph.node)
    assert facts.parameter_count == sum(math.prod(t.dims) for t in model.graph.initializer)
    assert facts.opsets == {"ai.onnx": 9} and facts.ir_version == 3
    assert facts.runs_in_browser
    assert any("fixed shape [1, 3, 224, 224]" in w for w in messages(facts))


def test_light_models_exist():
    assert len(LIGHT_MODELS) >= 5, f"onnx test models not found in {LIGHT}"


# -- bad files --------------------------------------------------------------------------


def _expect_model_error(path: Path, *fragments: str, **kwargs) -> str:
    with pytest.raises(ModelError) as caught:
        analyse_model(path, runtime=RUNTIME, **{"size_budget_bytes": BUDGET, **kwargs})
    message = str(caught.value)
    assert str(path) in message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message
    return message


def test_empty_file(tmp_path):
    path = tmp_path / "model.onnx"
    path.write_bytes(b"")
    _expect_model_error(path, "empty")


def test_missing_file(tmp_path):
    _expect_model_error(tmp_path / "model.onnx", "not found")


def test_truncated_file(tmp_path):
    data = (MODELS / "edges" / "model.onnx").read_bytes()
    path = tmp_path / "model.onnx"
    path.write_bytes(data[: len(data) // 2])
    _expect_model_error(path, "truncated")


@pytest.mark.parametrize(
    "content",
    [
        np.random.default_rng(1).bytes(300),
        b"This is a README, not a model.\nIt has two lines.\n",
        b"version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n",
    ],
    ids=["random-bytes", "text", "lfs-pointer"],
)
def test_not_protobuf(tmp_path, content):
    path = tmp_path / "model.onnx"
    path.write_bytes(content)
    _expect_model_error(path)


@pytest.mark.parametrize("kind", ["tensor", "graph"])
def test_protobuf_that_is_not_a_model(tmp_path, kind):
    path = tmp_path / "model.onnx"
    if kind == "tensor":
        message = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "t")
    else:
        message = build.linear().graph
    path.write_bytes(message.SerializeToString())
    _expect_model_error(path)


def test_checker_failure(tmp_path):
    path = build.save(build.fails_checker(), tmp_path)
    _expect_model_error(path, "fails the ONNX checker", "nowhere")


def test_missing_external_data(tmp_path):
    path = tmp_path / "model.onnx"
    onnx.save_model(build.linear(), path, save_as_external_data=True, location="weights.bin",
                    size_threshold=0)
    (tmp_path / "weights.bin").unlink()
    _expect_model_error(path, "weights.bin", "missing")


def test_external_data_outside_the_folder(tmp_path):
    built = build.linear()
    folder = tmp_path / "inner"
    folder.mkdir()
    onnx.save_model(built, folder / "model.onnx", save_as_external_data=True, location="w.bin",
                    size_threshold=0)
    shutil.move(folder / "w.bin", tmp_path / "w.bin")
    loaded = onnx.load(folder / "model.onnx", load_external_data=False)
    for tensor in loaded.graph.initializer:
        for entry in tensor.external_data:
            if entry.key == "location":
                entry.value = "../w.bin"
    (folder / "model.onnx").write_bytes(loaded.SerializeToString())
    _expect_model_error(folder / "model.onnx", "outside")


def test_over_size_budget(tmp_path):
    path = build.save(build.linear(), tmp_path)
    _expect_model_error(path, "size budget", size_budget_bytes=100)


def test_external_data_counts_towards_size_budget(tmp_path):
    path = tmp_path / "model.onnx"
    onnx.save_model(build.linear(), path, save_as_external_data=True, location="w.bin",
                    size_threshold=0)
    budget = path.stat().st_size + 1  # the .onnx alone fits, with its data it does not
    _expect_model_error(path, "size budget", size_budget_bytes=budget)


def test_custom_domain_is_refused_by_the_browser(tmp_path, webgpu):
    graph = onnx.helper.make_graph(
        [onnx.helper.make_node("Mystery", ["x"], ["y"], domain="acme.ops")],
        "custom",
        [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])],
        [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])],
    )
    facts = analyse(build.model(graph, extra_opsets={"acme.ops": 1}), tmp_path, webgpu=webgpu)
    (op,) = facts.operators
    assert (op.domain, op.since_version, op.spec_url, op.webgpu) == ("acme.ops", None, None, None)
    assert not facts.runs_in_browser
    assert any("domain 'acme.ops'" in f.message for f in facts.refusals)


def test_duplicate_opset_import_is_warned(tmp_path):
    built = build.linear()
    built.opset_import.add(domain="", version=15)
    facts = analyse(built, tmp_path)
    assert facts.opsets == {"ai.onnx": 17}
    assert any("opset_import lists ai.onnx twice" in w for w in messages(facts))
