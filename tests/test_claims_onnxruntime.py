"""What the glossary says Python onnxruntime (1.32.0) does, run on the installed package.

Named ``<term>__<claim>`` like every claim test; glossary/claims.yml says which sentence each one
backs. The original PP-OCRv4 detector (not this site's wrapped copy) comes from the same cached
download that models/text-detection/export.py makes (the rapidocr-onnxruntime wheel from PyPI).
"""

from __future__ import annotations

import collections
import importlib.util
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, defs, helper, numpy_helper

from .claim_models import (
    custom_op,
    image_decoder,
    ort_format,
    string_split,
    top_k,
    two_inputs_sharing_a_name,
    unary,
)
from .model_builders import classifier, ir3_initializers_as_inputs, with_local_function
from .sitebuild import MODELS

CPU = ["CPUExecutionProvider"]
LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
CONVERTED = LIGHT.parent / "pytorch-converted"


def session(model: onnx.ModelProto | Path, options: ort.SessionOptions | None = None) -> ort.InferenceSession:
    source = str(model) if isinstance(model, Path) else model.SerializeToString()
    return ort.InferenceSession(source, options, providers=CPU)


def linear() -> ort.InferenceSession:
    return session(MODELS / "linear" / "model.onnx")


@pytest.fixture(scope="module")
def pp_ocr() -> Path:
    """The original ch_PP-OCRv4_det_infer.onnx, SHA-256 checked (downloaded once, then cached)."""
    spec = importlib.util.spec_from_file_location("text_detection_export",
                                                  MODELS / "text-detection" / "export.py")
    assert spec and spec.loader
    export = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(export)
    path: Path = export.fetch_original()
    return path


def test_onnx_runtime__python_loads_ir_14_and_opsets_27_and_28() -> None:
    assert ort.__version__ == "1.32.0"
    for opset in (27, 28):
        model = unary(opset=opset, ir_version=14)
        result = session(model).run(None, {"x": np.array([[-1, 2, 0], [3, -4, 5]], np.float32)})[0]
        np.testing.assert_array_equal(result, [[0, 2, 0], [3, 0, 5]])


def test_opset__an_opset_6_model_loads_with_a_warning(capfd: pytest.CaptureFixture[str]) -> None:
    result = session(unary(opset=6, ir_version=3)).run(None, {"x": np.array([[-1, 2, 0]] * 2, np.float32)})
    np.testing.assert_array_equal(result[0][0], [0, 2, 0])  # Relu-6 still has a kernel
    assert ("only *guarantees* support for models stamped with opset version 7 or above for opset "
            "domain 'ai.onnx'") in capfd.readouterr().err


def test_test_data_set__opset_6_converted_tests_fail_on_gone_operator_versions() -> None:
    versions = collections.Counter()
    failures: dict[str, str] = {}
    for path in sorted(CONVERTED.glob("*/model.onnx")):
        model = onnx.load(path)
        (opset,) = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
        versions[opset] += 1
        if opset == 6:
            try:
                session(path)
            except Exception as error:
                failures[path.parent.name] = str(error)
    assert versions[6] > sum(versions.values()) / 2, versions  # "many"
    assert any("Could not find an implementation for AveragePool(1)" in m for m in failures.values())


def test_element_type__python_rejects_float64_for_a_float32_input() -> None:
    with pytest.raises(Exception, match=r"Unexpected input data type\. Actual: \(tensor\(double\)\) , "
                                        r"expected: \(tensor\(float\)\)"):
        linear().run(None, {"input": np.random.default_rng(0).random((1, 3))})  # float64


def test_onnx_runtime__inputs_describe_themselves_and_run_returns_a_list() -> None:
    sess = linear()
    (only,) = sess.get_inputs()
    assert (only.name, only.shape, only.type) == ("input", ["batch", 3], "tensor(float)")
    result = sess.run(None, {"input": np.array([[1, 2, 3], [4, 5, 6]], np.float32)})
    assert isinstance(result, list) and len(result) == 1 and result[0].shape == (2, 1)
    assert [r.shape for r in sess.run(["output"], {"input": np.zeros((3, 3), np.float32)})] == [(3, 1)]


def test_execution_provider__cpu_is_always_there_and_get_providers_says_what_ran() -> None:
    assert "CPUExecutionProvider" in ort.get_available_providers()
    assert linear().get_providers() == ["CPUExecutionProvider"]


def test_graph_optimisation__python_levels_and_the_default() -> None:
    levels = sorted(name for name in dir(ort.GraphOptimizationLevel) if name.startswith("ORT_"))
    assert levels == ["ORT_DISABLE_ALL", "ORT_ENABLE_ALL", "ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED",
                      "ORT_ENABLE_LAYOUT"]
    assert ort.SessionOptions().graph_optimization_level == ort.GraphOptimizationLevel.ORT_ENABLE_ALL


def test_graph_optimisation__the_file_changes_only_when_asked(tmp_path: Path) -> None:
    original = MODELS / "linear" / "model.onnx"
    before = original.read_bytes()
    options = ort.SessionOptions()
    session(original, options)
    assert original.read_bytes() == before and not list(tmp_path.iterdir())
    options.optimized_model_filepath = str(tmp_path / "optimised.onnx")
    session(original, options)
    assert (tmp_path / "optimised.onnx").is_file() and original.read_bytes() == before


def optimised(path: Path, level: ort.GraphOptimizationLevel, out: Path) -> onnx.GraphProto:
    options = ort.SessionOptions()
    options.graph_optimization_level = level
    options.optimized_model_filepath = str(out)
    session(path, options)
    return onnx.load(out).graph


def test_graph_optimisation__the_pp_ocr_detector_at_each_level(pp_ocr: Path, tmp_path: Path,
                                                               capfd: pytest.CaptureFixture[str]) -> None:
    level = ort.GraphOptimizationLevel
    disabled = optimised(pp_ocr, level.ORT_DISABLE_ALL, tmp_path / "disabled.onnx")
    assert (len(disabled.node), len(disabled.initializer)) == (330, 342)
    assert not [n for n in disabled.node if n.op_type == "Constant"]
    basic = optimised(pp_ocr, level.ORT_ENABLE_BASIC, tmp_path / "basic.onnx")
    assert len(basic.node) == 328 and {n.domain for n in basic.node} == {""}  # still standard ONNX
    extended = optimised(pp_ocr, level.ORT_ENABLE_EXTENDED, tmp_path / "extended.onnx")
    assert sum(n.op_type == "FusedConv" and n.domain == "com.microsoft" for n in extended.node) == 21
    capfd.readouterr()
    full = optimised(pp_ocr, level.ORT_ENABLE_ALL, tmp_path / "all.onnx")
    assert "may contain hardware specific optimizations" in capfd.readouterr().err
    nchwc = [n for n in full.node if n.domain == "com.microsoft.nchwc"]
    if not nchwc:
        pytest.skip("this CPU gets no NCHWc layout (x86 with AVX2 or better does)")
    assert sum(n.op_type == "Conv" for n in nchwc) == 60
    assert {"ReorderInput", "ReorderOutput"} <= {n.op_type for n in nchwc}
    # The reorder nodes follow the CPU's vector width (395 nodes on the Xeon the page names,
    # 400 on an AMD EPYC with AVX-512, as it says): only that they were added is asserted.
    assert len(full.node) > len(extended.node)


def test_initializer__ir_4_models_warn_about_initialisers_in_inputs_ir_3_do_not(
        capfd: pytest.CaptureFixture[str]) -> None:
    old = ir3_initializers_as_inputs()
    assert [o.name for o in session(old).get_overridable_initializers()] == []
    assert "appears in graph inputs" not in capfd.readouterr().err
    newer = ir3_initializers_as_inputs()
    newer.ir_version = 4
    sess = session(newer)
    assert ("Initializer W appears in graph inputs and will not be treated as constant value/weight"
            in capfd.readouterr().err)
    assert [o.name for o in sess.get_overridable_initializers()] == ["W"]
    x = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(sess.run(None, {"x": x, "W": np.zeros((4, 3), np.float32)})[0], 0)


def test_dynamic_axes__a_shared_name_is_not_enforced() -> None:
    a_out, b_out = session(two_inputs_sharing_a_name()).run(
        None, {"a": np.zeros(2, np.float32), "b": np.zeros(3, np.float32)})
    assert (a_out.shape, b_out.shape) == ((2,), (3,))


def test_free_dimension_overrides__python_by_name_and_another_size_fails() -> None:
    options = ort.SessionOptions()
    options.add_free_dimension_override_by_name("batch", 4)
    sess = session(MODELS / "linear" / "model.onnx", options)
    assert sess.get_inputs()[0].shape == [4, 3]
    with pytest.raises(Exception, match="Got invalid dimensions for input"):
        sess.run(None, {"input": np.zeros((2, 3), np.float32)})
    assert sess.run(None, {"input": np.zeros((4, 3), np.float32)})[0].shape == (4, 1)


def test_free_dimension_overrides__this_sites_text_detector_names_its_axes_height_and_width() -> None:
    path = MODELS / "text-detection" / "model.onnx"
    (image,) = session(path).get_inputs()
    assert (image.shape, image.type) == (["height", "width", 4], "tensor(uint8)")
    options = ort.SessionOptions()
    options.add_free_dimension_override_by_name("p2o.DynamicDimension.2", 64)  # the original's name
    assert session(path, options).get_inputs()[0].shape == ["height", "width", 4]  # matched nothing


def test_operator__cpu_kernels_cover_every_ai_onnx_operator_but_image_decoder() -> None:
    from onnxruntime.capi import onnxruntime_pybind11_state as capi

    kernels: dict[str, set[str]] = collections.defaultdict(set)
    for kernel in capi.get_all_opkernel_def():
        if kernel.provider == "CPUExecutionProvider":
            kernels[kernel.domain or "ai.onnx"].add(kernel.op_name)
    newest = defs.get_all_schemas()
    uncovered = sorted(s.name for s in newest if s.domain == "" and not s.deprecated
                       and s.name not in kernels["ai.onnx"] and s.name != "Constant"
                       and not (s.has_function or s.has_context_dependent_function))
    assert uncovered == ["ImageDecoder"]
    assert {s.name for s in newest if s.domain == "ai.onnx.ml"} <= kernels["ai.onnx.ml"]
    with pytest.raises(Exception, match=r"Could not find an implementation for ImageDecoder\(20\)"):
        session(image_decoder())
    newest_versions = {(k.op_name, k.version_range[0]) for k in capi.get_all_opkernel_def()
                       if k.provider == "CPUExecutionProvider" and k.domain == ""}
    assert ("RoiAlign", 16) in newest_versions and ("RoiAlign", 22) not in newest_versions
    assert defs.get_schema("RoiAlign").since_version == 22  # the newest version has no kernel yet


def test_zipmap__python_returns_one_dict_per_row() -> None:
    label, probabilities = session(classifier(zipmap=True)).run(
        None, {"x": np.array([[1, 2], [2, 1]], np.float32)})
    assert isinstance(probabilities, list) and len(probabilities) == 2
    assert all(isinstance(row, dict) and sorted(row) == [0, 1] for row in probabilities)
    assert abs(sum(probabilities[0].values()) - 1) < 1e-6 and list(label) == [1, 0]


def test_metadata_props__python_reads_them_as_custom_metadata_map() -> None:
    meta = session(MODELS / "digits" / "model.onnx").get_modelmeta().custom_metadata_map
    assert isinstance(meta, dict) and "framework" in meta and all(isinstance(v, str) for v in meta.values())


def test_test_data_set__onnxruntime_reproduces_squeezenet_reference() -> None:
    sess = session(LIGHT / "light_squeezenet.onnx")
    x = np.random.default_rng(0).random((1, 3, 224, 224), dtype=np.float32)
    got = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    reference = numpy_helper.to_array(onnx.load_tensor(LIGHT / "light_squeezenet_output_0.pb"))
    np.testing.assert_allclose(got, reference, rtol=1e-3, atol=1e-7)


def test_top_k__ties_go_to_the_lower_index_and_squeezenet_top_five_are_0_to_4() -> None:
    values, indices = session(top_k(2)).run(None, {"x": np.array([[0.1, 0.7, 0.2, 0.7, 0.3]], np.float32)})
    assert indices.dtype == np.int64 and indices.tolist() == [[1, 3]]
    np.testing.assert_allclose(values, [[0.7, 0.7]])
    scores = session(LIGHT / "light_squeezenet.onnx").run(
        None, {"data_0": np.zeros((1, 3, 224, 224), np.float32)})[0].ravel()
    top5 = np.argsort(-scores, kind="stable")[:5]
    assert top5.tolist() == [0, 1, 2, 3, 4]


def test_softmax__squeezenet_gives_every_class_0_001() -> None:
    scores = session(LIGHT / "light_squeezenet.onnx").run(
        None, {"data_0": np.random.default_rng(1).random((1, 3, 224, 224), dtype=np.float32)})[0]
    assert scores.shape == (1, 1000, 1, 1)
    np.testing.assert_allclose(scores, 0.001, rtol=1e-5)


def test_logits__the_first_digits_image_gives_about_11_8_for_class_0() -> None:
    datasets = pytest.importorskip("sklearn.datasets", reason="needs the export extra (make setup-export)")
    first = datasets.load_digits().data[:1].astype(np.float32)  # a zero, raw values 0-16
    logits, probabilities = session(MODELS / "digits" / "model.onnx").run(
        ["logits", "probabilities"], {"pixels": first})
    assert abs(logits[0, 0] - 11.8) < 0.05
    assert logits[0, 1:].min() > -11.6 and logits[0, 1:].max() < 0.9
    assert round(float(probabilities[0, 0]), 2) == 1.0 and int(np.argmax(logits)) == 0


def test_text_detection__the_original_file(pp_ocr: Path) -> None:
    model = onnx.load(pp_ocr)
    assert abs(pp_ocr.stat().st_size / 1e6 - 4.7) < 0.05
    assert model.ir_version == 8 and [(o.domain, o.version) for o in model.opset_import] == [("", 12)]
    constants = [n for n in model.graph.node if n.op_type == "Constant"]
    assert (len(model.graph.node), len(constants), len(model.graph.initializer)) == (672, 342, 0)
    parameters = sum(numpy_helper.to_array(n.attribute[0].t).size for n in constants)
    assert abs(parameters / 1e6 - 1.17) < 0.005
    (x,) = model.graph.input
    dims = [d.dim_param or d.dim_value for d in x.type.tensor_type.shape.dim]
    assert x.name == "x" and x.type.tensor_type.elem_type == TensorProto.FLOAT and dims[1] == 3
    assert all(str(d).startswith("p2o.DynamicDimension.") for i, d in enumerate(dims) if i != 1)
    assert list(model.metadata_props) == [] and model.graph.node[-1].op_type == "Sigmoid"
    assert sum(n.op_type == "Conv" for n in model.graph.node) == 62
    assert {"Resize", "ConvTranspose", "HardSigmoid"} <= {n.op_type for n in model.graph.node}


def test_text_detection__both_sides_must_be_multiples_of_32(pp_ocr: Path) -> None:
    sess = session(pp_ocr)
    with pytest.raises(Exception, match="23 by 24"):
        sess.run(None, {"x": np.zeros((1, 3, 60, 90), np.float32)})
    (probability,) = sess.run(None, {"x": np.zeros((1, 3, 64, 96), np.float32)})
    assert probability.shape == (1, 1, 64, 96)
    assert probability.min() >= 0 and probability.max() <= 1


def test_shape_inference__pp_ocr_value_info_0_to_671(pp_ocr: Path) -> None:
    model = onnx.load(pp_ocr)
    assert len(model.graph.value_info) == 0
    inferred = onnx.shape_inference.infer_shapes(model).graph.value_info
    assert len(inferred) == 671
    four_d = [v for v in inferred if len(v.type.tensor_type.shape.dim) == 4]
    only_channels = [v for v in four_d
                     if [bool(d.dim_value) for d in v.type.tensor_type.shape.dim] == [False, True, False, False]]
    assert len(only_channels) > len(four_d) / 2  # "most feature maps keep only their channel count"


def test_normalisation__this_sites_text_detector_takes_rgba_bytes_and_normalises_inside() -> None:
    graph = onnx.load(MODELS / "text-detection" / "model.onnx").graph
    (image,) = graph.input
    assert image.type.tensor_type.elem_type == TensorProto.UINT8
    assert [d.dim_param or d.dim_value for d in image.type.tensor_type.shape.dim] == ["height", "width", 4]
    scale = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    assert {"pre.scale", "pre.shift"} <= set(scale)  # x / 127.5 - 1: mean 0.5, std 0.5 after /255
    (probability,) = graph.output
    assert [d.dim_param or d.dim_value for d in probability.type.tensor_type.shape.dim] == ["height", "width"]


def test_quantisation__dequantize_linear_is_scale_times_q_minus_zero_point() -> None:
    graph = helper.make_graph(
        [helper.make_node("DequantizeLinear", ["q", "scale", "zero"], ["x"])], "dq",
        [helper.make_tensor_value_info("q", TensorProto.UINT8, [3])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [numpy_helper.from_array(np.array(0.5, np.float32), "scale"),
         numpy_helper.from_array(np.array(128, np.uint8), "zero")])
    model = helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])
    (x,) = session(model).run(None, {"q": np.array([128, 130, 0], np.uint8)})
    np.testing.assert_array_equal(x, [0.0, 1.0, -64.0])  # 0.0 exactly at the zero point


def test_io_binding__python_binds_inputs_and_outputs() -> None:
    sess = linear()
    binding = sess.io_binding()
    binding.bind_cpu_input("input", np.array([[1, 2, 3]], np.float32))
    binding.bind_output("output")
    sess.run_with_iobinding(binding)
    (bound,) = binding.copy_outputs_to_cpu()
    np.testing.assert_allclose(bound, sess.run(None, {"input": np.array([[1, 2, 3]], np.float32)})[0])


def test_custom_operators__com_microsoft_kernels_and_an_operator_nobody_implements() -> None:
    from onnxruntime.capi import onnxruntime_pybind11_state as capi

    contrib = {k.op_name for k in capi.get_all_opkernel_def()
               if k.provider == "CPUExecutionProvider" and k.domain == "com.microsoft"}
    assert len(contrib) > 80 and {"Gelu", "FusedConv", "Attention", "MatMulNBits"} <= contrib
    (y,) = session(custom_op("com.microsoft", "Gelu")).run(None, {"x": np.array([-1, 0, 1], np.float32)})
    np.testing.assert_allclose(y, [-0.158655, 0, 0.841345], atol=1e-5)
    with pytest.raises(Exception, match=r"Fatal error: my\.domain:MyOp\(-1\) is not a registered function/op"):
        session(custom_op())
    assert callable(ort.SessionOptions().register_custom_ops_library)


def test_custom_operators__a_model_local_function_runs() -> None:
    model = with_local_function()
    assert [(f.domain, f.name) for f in model.functions] == [("local", "Double")]
    (y,) = session(model).run(None, {"x": np.array([1, 2], np.float32)})
    np.testing.assert_array_equal(y, [4, 8])  # Double(Double(x))


def test_ort_format__convert_load_and_compare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from onnxruntime.tools import convert_onnx_models_to_ort as converter

    original = tmp_path / "linear.onnx"
    original.write_bytes((MODELS / "linear" / "model.onnx").read_bytes())
    converted = ort_format(original)
    assert converted.read_bytes()[4:8] == b"ORTM"  # FlatBuffers file identifier
    assert (tmp_path / "linear.required_operators.config").is_file()
    assert (original.stat().st_size, converted.stat().st_size) == (646, 2424)
    sess = ort.InferenceSession(str(converted), providers=CPU)
    assert sess.get_inputs()[0].shape == ["batch", 3]
    x = np.array([[1, 2, 3]], np.float32)
    np.testing.assert_allclose(sess.run(None, {"input": x})[0], linear().run(None, {"input": x})[0], rtol=1e-6)
    with pytest.raises(Exception, match="Error parsing message"):
        onnx.load(converted)
    monkeypatch.setattr(sys, "argv", ["convert_onnx_models_to_ort", "--help"])
    with pytest.raises(SystemExit):
        converter.parse_args()  # what `python -m onnxruntime.tools.convert_onnx_models_to_ort --help` prints
    usage = capsys.readouterr().out
    assert "{Fixed,Runtime}" in usage and "bakes in any platform-specific" in " ".join(usage.split())


def test_inspecting_a_model__onnxruntime_reports_inputs_outputs_and_metadata() -> None:
    sess = session(MODELS / "digits" / "model.onnx")
    assert [(i.name, i.shape) for i in sess.get_inputs()] == [("pixels", ["batch", 64])]
    assert {o.name for o in sess.get_outputs()} == {"logits", "probabilities"}
    meta = sess.get_modelmeta()
    assert meta.producer_name and "framework" in meta.custom_metadata_map


def test_tokenizers__string_split_runs_in_python_onnxruntime() -> None:
    words, count = session(string_split()).run(None, {"x": np.array(["hello onnx world"])})
    assert words.tolist() == [["hello", "onnx", "world"]] and count.tolist() == [3]
    assert {"StringSplit", "StringConcat", "RegexFullMatch"} <= {s.name for s in defs.get_all_schemas() if s.since_version == 20}
    assert not any("token" in s.name.lower() for s in defs.get_all_schemas() if s.domain == "")
