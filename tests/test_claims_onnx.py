"""What the glossary says the onnx package (1.23.2) does, run on the installed package.

Each test is named after the term and the claim it backs (``<term>__<claim>``); glossary/claims.yml
lists which sentence each one checks. A version bump that changes the behaviour fails here, so
the page is corrected instead of left wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, defs, helper, numpy_helper, shape_inference, version_converter

from .claim_models import unary
from .model_builders import classifier
from .sitebuild import MODELS

TEST_DATA = Path(onnx.__file__).parent / "backend" / "test" / "data"


def since_versions(op: str, domain: str = "") -> list[int]:
    return sorted({s.since_version for s in defs.get_all_schemas_with_history()
                   if s.name == op and s.domain == domain})


def domain_operators(domain: str) -> dict[str, bool]:
    """Operator name -> deprecated, for the newest definition of each operator of ``domain``."""
    return {s.name: s.deprecated for s in defs.get_all_schemas() if s.domain == domain}


def test_onnx__helpers_stamp_ir_14_and_opset_28() -> None:
    model = helper.make_model(unary().graph)
    assert model.ir_version == 14
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 28)]
    assert onnx.__version__ == "1.23.2"


def test_opset__newest_in_onnx_1_23_2_is_ai_onnx_28_and_ai_onnx_ml_5() -> None:
    assert defs.onnx_opset_version() == 28
    assert max(s.since_version for s in defs.get_all_schemas_with_history()
               if s.domain == "ai.onnx.ml") == 5
    assert helper.VERSION_TABLE[-1][:4] == ("1.23.0", 14, 28, 5)


def test_opset__default_domain_is_written_as_an_empty_string() -> None:
    model = onnx.load(MODELS / "iris" / "model.onnx")
    assert sorted(o.domain for o in model.opset_import) == ["", "ai.onnx.ml"]


def test_protocol_buffers__a_saved_model_starts_08_0e() -> None:
    data = helper.make_model(unary().graph).SerializeToString()
    assert data[:2] == bytes([0x08, 0x0E])  # field 1 (ir_version), varint 14


def test_operator__about_200_ai_onnx_and_19_ai_onnx_ml_operators() -> None:
    standard = domain_operators("")
    assert 190 <= len(standard) <= 210, len(standard)
    ml = domain_operators("ai.onnx.ml")
    assert len(ml) == 19
    assert sorted(name for name, deprecated in ml.items() if deprecated) == [
        "TreeEnsembleClassifier", "TreeEnsembleRegressor"]
    assert {"TreeEnsemble", "LinearClassifier", "ZipMap"} <= set(ml)


def test_element_type__codes_and_the_types_of_onnx_1_23_2() -> None:
    codes = dict(TensorProto.DataType.items())
    assert [codes[n] for n in ("FLOAT", "UINT8", "INT64", "FLOAT16", "DOUBLE", "BFLOAT16")] == [
        1, 2, 7, 10, 11, 16]
    assert sorted(v for v in codes.values() if v) == list(range(1, 29))
    assert {"INT4", "INT2", "FLOAT8E4M3FN", "FLOAT6E2M3", "FLOAT4E2M1"} <= set(codes)


def test_float16__limits_of_ieee_binary16() -> None:
    info = np.finfo(np.float16)
    assert (info.nexp, info.nmant) == (5, 10)
    assert float(info.max) == 65504 and float(info.eps) == 2**-10
    assert abs(float(info.tiny) - 6.1e-5) < 1e-6
    with np.errstate(over="ignore"):
        rounded = np.array([65519, 65520, 2049], np.float32).astype(np.float16)
    assert float(rounded[0]) == 65504 and np.isinf(rounded[1]) and float(rounded[2]) == 2048


def test_softmax__versions_and_the_axis_default() -> None:
    assert since_versions("Softmax") == [1, 11, 13]
    assert defs.get_schema("Softmax", 13).attributes["axis"].default_value.i == -1
    assert defs.get_schema("Softmax", 11).attributes["axis"].default_value.i == 1


def test_softmax__exp_89_is_infinity_in_float32() -> None:
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float32(89)))
    assert np.isfinite(np.exp(np.float32(88)))


def test_top_k__versions_k_as_input_and_defaults() -> None:
    assert since_versions("TopK") == [1, 10, 11, 24]
    assert "k" in defs.get_schema("TopK", 1).attributes
    assert [i.name for i in defs.get_schema("TopK", 10).inputs] == ["X", "K"]
    attributes = defs.get_schema("TopK", 11).attributes
    assert {k: attributes[k].default_value.i for k in ("axis", "largest", "sorted")} == {
        "axis": -1, "largest": 1, "sorted": 1}
    assert [o.name for o in defs.get_schema("TopK", 11).outputs] == ["Values", "Indices"]
    assert "ArgMax" in domain_operators("")


def test_opset__relu_definition_from_14_serves_opset_17() -> None:
    assert since_versions("Relu") == [1, 6, 13, 14]
    assert defs.get_schema("Relu", 17).since_version == 14


def test_opset__clip_took_inputs_from_11_and_squeeze_axes_from_13() -> None:
    assert {"min", "max"} <= set(defs.get_schema("Clip", 6).attributes)
    assert [i.name for i in defs.get_schema("Clip", 11).inputs] == ["input", "min", "max"]
    assert "axes" in defs.get_schema("Squeeze", 11).attributes
    assert [i.name for i in defs.get_schema("Squeeze", 13).inputs] == ["data", "axes"]


def test_zipmap__version_1_and_its_label_attributes() -> None:
    assert since_versions("ZipMap", "ai.onnx.ml") == [1]
    assert {"classlabels_strings", "classlabels_int64s"} <= set(
        defs.get_schema("ZipMap", 1, "ai.onnx.ml").attributes)


def linear_example() -> onnx.ModelProto:
    return onnx.load(MODELS / "linear" / "model.onnx")


def test_version_converter__linear_goes_up_to_21_and_26() -> None:
    for target in (21, 26):
        converted = version_converter.convert_version(linear_example(), target)
        onnx.checker.check_model(converted)
        assert [o.version for o in converted.opset_import if o.domain == ""] == [target]


def test_version_converter__linear_down_to_12_has_no_adapter_for_gemm() -> None:
    assert since_versions("Gemm")[-1] == 13
    with pytest.raises(Exception, match=r"No Adapter From Version \$13 for Gemm"):
        version_converter.convert_version(linear_example(), 12)


def test_version_converter__the_ir_version_is_not_changed() -> None:
    original = linear_example()
    assert original.ir_version == 8
    assert version_converter.convert_version(original, 21).ir_version == 8
    stamped = helper.make_model(unary().graph)  # IR 14
    assert version_converter.convert_version(stamped, 26).ir_version == 14


def test_version_converter__ai_onnx_ml_is_left_as_it_is() -> None:
    model = classifier(zipmap=False)
    model.opset_import[0].version = 9
    converted = version_converter.convert_version(model, 15)
    assert sorted((o.domain, o.version) for o in converted.opset_import) == [
        ("", 15), ("ai.onnx.ml", 1)]


def test_shape_inference__squeezenet_value_info_0_to_104_for_105_nodes() -> None:
    model = onnx.load(MODELS / "squeezenet" / "model.onnx")
    assert (len(model.graph.node), len(model.graph.value_info)) == (105, 0)
    assert len(shape_inference.infer_shapes(model).graph.value_info) == 104


def test_shape_inference__the_call_and_its_defaults() -> None:
    import inspect

    parameters = inspect.signature(shape_inference.infer_shapes).parameters
    assert {name: p.default for name, p in parameters.items() if name != "model"} == {
        "check_type": False, "strict_mode": False, "data_prop": False}
    assert callable(shape_inference.infer_shapes_path)


def test_shape_inference__strict_mode_raises_on_incompatible_shapes_not_on_unknown_dims() -> None:
    add = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["c"])], "add",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [4, 5])],
        [helper.make_tensor_value_info("c", TensorProto.FLOAT, None)])
    incompatible = helper.make_model(add, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])
    assert len(shape_inference.infer_shapes(incompatible).graph.value_info) == 0  # silent
    with pytest.raises(shape_inference.InferenceError, match="Incompatible dimensions"):
        shape_inference.infer_shapes(incompatible, strict_mode=True)
    nonzero = helper.make_graph(
        [helper.make_node("NonZero", ["a"], ["idx"]), helper.make_node("Relu", ["b"], ["r"])],
        "unknown", [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["n"]),
                    helper.make_tensor_value_info("b", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("idx", TensorProto.INT64, None),
         helper.make_tensor_value_info("r", TensorProto.FLOAT, None)])
    unknown = helper.make_model(nonzero, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])
    inferred = shape_inference.infer_shapes(unknown, strict_mode=True)  # no error
    dims = inferred.graph.output[0].type.tensor_type.shape.dim
    assert dims[0].dim_value == 1 and not dims[1].dim_value  # data-dependent: stays unknown


def test_shape_inference__data_prop_recovers_sizes_through_shape_arithmetic() -> None:
    one = numpy_helper.from_array(np.array([1], np.int64), "one")
    graph = helper.make_graph(
        [helper.make_node("Shape", ["x"], ["s"]),
         helper.make_node("Gather", ["s", "one"], ["w"], axis=0),
         helper.make_node("Concat", ["w", "w"], ["new_shape"], axis=0),
         helper.make_node("ConstantOfShape", ["new_shape"], ["y"])], "shape_chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [one])
    model = helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])

    def output_dims(**kwargs: bool) -> list[int]:
        shape = shape_inference.infer_shapes(model, **kwargs).graph.output[0].type.tensor_type.shape
        return [d.dim_value for d in shape.dim]

    assert output_dims() == [0, 0]  # rank known, sizes not
    assert output_dims(data_prop=True) == [5, 5]


def test_external_data__1024_byte_threshold_and_the_location_record(tmp_path: Path) -> None:
    small = numpy_helper.from_array(np.zeros(64, np.float32), "small")  # 256 bytes
    large = numpy_helper.from_array(np.zeros(256, np.float32), "large")  # 1024 bytes
    graph = helper.make_graph(
        [helper.make_node("Add", ["small", "x"], ["y"]), helper.make_node("Identity", ["large"], ["z"])],
        "split", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [256])], [small, large])
    model = helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save_model(model, tmp_path / "model.onnx", save_as_external_data=True,
                    location="model.onnx.data")
    saved = onnx.load(tmp_path / "model.onnx", load_external_data=False)
    by_name = {t.name: t for t in saved.graph.initializer}
    assert by_name["small"].data_location == TensorProto.DEFAULT
    assert by_name["large"].data_location == TensorProto.EXTERNAL
    record = {e.key: e.value for e in by_name["large"].external_data}
    assert record["location"] == "model.onnx.data" and {"offset", "length"} <= set(record)
    assert list(by_name["large"].dims) == [256]  # shape and type stay in the model


def test_external_data__load_reads_the_side_file_and_saves_back_to_one_file(tmp_path: Path) -> None:
    weight = numpy_helper.from_array(np.arange(512, dtype=np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Identity", ["w"], ["y"])], "g", [],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [512])], [weight])
    model = helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save_model(model, tmp_path / "split.onnx", save_as_external_data=True, location="split.data")
    loaded = onnx.load(tmp_path / "split.onnx")  # reads split.data from the same folder
    onnx.save_model(loaded, tmp_path / "single.onnx", save_as_external_data=False)
    single = onnx.load(tmp_path / "single.onnx", load_external_data=False)
    assert single.graph.initializer[0].data_location == TensorProto.DEFAULT
    np.testing.assert_array_equal(numpy_helper.to_array(single.graph.initializer[0]),
                                  np.arange(512, dtype=np.float32))


def test_test_data_set__140_folders_and_the_light_models() -> None:
    assert len(list(TEST_DATA.glob("**/test_data_set_*"))) == 140
    light = sorted(p.name for p in (TEST_DATA / "light").glob("light_*.onnx"))
    assert "light_squeezenet.onnx" in light and "light_resnet50.onnx" in light
    assert all((TEST_DATA / "light" / name.replace(".onnx", "_output_0.pb")).is_file() for name in light)


def test_test_data_set__squeezenet_tolerances_and_its_flat_reference() -> None:
    tolerances = json.loads((TEST_DATA / "real" / "test_squeezenet" / "data.json").read_text())
    assert (tolerances["rtol"], tolerances["atol"]) == (1e-3, 1e-7)
    reference = numpy_helper.to_array(onnx.load_tensor(TEST_DATA / "light" / "light_squeezenet_output_0.pb"))
    assert reference.dtype == np.float32 and reference.shape == (1, 1000, 1, 1)
    np.testing.assert_allclose(reference, 0.001, rtol=1e-5)


def test_initializer__ir_3_test_models_list_initialisers_as_inputs() -> None:
    model = onnx.load(MODELS / "squeezenet" / "model.onnx")
    assert model.ir_version == 3 and [o.version for o in model.opset_import] == [9]
    inputs = {i.name for i in model.graph.input}
    initialisers = {t.name for t in model.graph.initializer}
    assert initialisers and initialisers <= inputs and len(inputs - initialisers) == 1


def test_initializer__linear_example_holds_four_parameters() -> None:
    graph = linear_example().graph
    assert sorted(list(t.dims) for t in graph.initializer) == [[1], [1, 3]]
    assert sum(numpy_helper.to_array(t).size for t in graph.initializer) == 4
    assert [n.op_type for n in graph.node] == ["Gemm"]
    assert [[d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]
            for v in (*graph.input, *graph.output)] == [["batch", 3], ["batch", 1]]


def test_metadata_props__set_model_props_and_the_digits_keys() -> None:
    model = helper.make_model(unary().graph)
    helper.set_model_props(model, {"licence": "MIT", "labels": '["a", "b"]'})
    assert {p.key: p.value for p in model.metadata_props} == {"licence": "MIT", "labels": '["a", "b"]'}
    digits = {p.key for p in onnx.load(MODELS / "digits" / "model.onnx").metadata_props}
    assert {"framework", "exporter_settings", "parity_max_abs_diff", "preprocessing", "dataset",
            "test_accuracy"} <= digits


def test_normalisation__digits_divides_by_a_constant_16() -> None:
    graph = onnx.load(MODELS / "digits" / "model.onnx").graph
    ops = [n.op_type for n in graph.node]
    assert "Sub" not in ops and ops.count("Div") == 1
    (div,) = [n for n in graph.node if n.op_type == "Div"]
    (constant,) = [n for n in graph.node if n.output[0] == div.input[1]]
    assert constant.op_type == "Constant"
    assert float(numpy_helper.to_array(constant.attribute[0].t)) == 16.0
    assert div.input[1] not in {t.name for t in graph.initializer}


def test_ir_version__field_1_and_the_release_table() -> None:
    assert onnx.ModelProto.DESCRIPTOR.fields_by_name["ir_version"].number == 1
    assert onnx.IR_VERSION == 14
    releases = {release: (ir, opset) for release, ir, opset, *_ in helper.VERSION_TABLE}
    assert releases["1.16.0"] == (10, 21) and releases["1.18.0"][0] == 11
    assert releases["1.19.0"][0] == 12 and releases["1.20.0"][0] == 13 and releases["1.23.0"][0] == 14


def test_ir_version__the_checker_compares_neither_opset_nor_types_with_it() -> None:
    relu = unary(opset=17, ir_version=3)  # an IR 3 file with an opset 17 graph
    onnx.checker.check_model(relu)
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])], "fp4",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT4E2M1, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT4E2M1, [2])])
    onnx.checker.check_model(helper.make_model(graph, ir_version=10,
                                               opset_imports=[helper.make_opsetid("", 23)]))
    lowered = helper.make_model(unary().graph)  # IR 14 by default
    lowered.ir_version = 10
    onnx.checker.check_model(lowered)


def test_inspecting_a_model__printable_graph_lists_nodes_as_text() -> None:
    graph = linear_example().graph
    with pytest.deprecated_call(match=r"Deprecated since 1\.19\. Consider using onnx\.printer\.to_text\(\) instead"):
        old = helper.printable_graph(graph)
    assert "graph main_graph (" in old and "%output = Gemm[" in old
    text = onnx.printer.to_text(graph)
    assert text.startswith("main_graph (float[batch,3] input) => (float[batch,1] output)")
    assert '["/Gemm"] output = Gemm <alpha: float = 1, beta: float = 1, transB: int = 1> (input, weight, bias)' in text
    reread = onnx.parser.parse_graph(text)
    assert [n.op_type for n in reread.node] == ["Gemm"] and len(reread.initializer) == 2
    onnx.checker.check_model(linear_example())  # the onnx FAQ's load-and-check


def test_inspecting_a_model__extract_model_and_update_model_dims(tmp_path: Path) -> None:
    from onnx.tools import update_model_dims

    source = MODELS / "digits" / "model.onnx"
    graph = onnx.load(source).graph
    (relu,) = [n for n in graph.node if n.op_type == "Relu"][:1]
    onnx.utils.extract_model(str(source), str(tmp_path / "part.onnx"), [graph.input[0].name], [relu.output[0]])
    part = onnx.load(tmp_path / "part.onnx")
    assert part.graph.node[-1].op_type == "Relu" and len(part.graph.node) < len(graph.node)
    pinned = update_model_dims.update_inputs_outputs_dims(
        onnx.load(MODELS / "linear" / "model.onnx"), {"input": [4, 3]}, {"output": [4, 1]})
    assert [d.dim_value for d in pinned.graph.input[0].type.tensor_type.shape.dim] == [4, 3]


def test_onnx_checker__a_name_produced_twice_fails_the_check(tmp_path: Path) -> None:
    twice = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Relu", ["x"], ["y"])], "twice",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    with pytest.raises(onnx.checker.ValidationError,
                       match=r"Graph must be in single static assignment \(SSA\) form, however 'y' "
                             r"has been used as output names multiple times\."):
        onnx.checker.check_model(helper.make_model(twice, ir_version=10,
                                                   opset_imports=[helper.make_opsetid("", 17)]))
    with pytest.raises(onnx.checker.ValidationError,
                       match="model with IR version >= 3 must specify opset_import for ONNX"):
        onnx.checker.check_model(helper.make_model(unary().graph, ir_version=10, opset_imports=[]))
    unsorted = helper.make_graph(
        [helper.make_node("Relu", ["r"], ["y"]), helper.make_node("Relu", ["x"], ["r"])], "unsorted",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    with pytest.raises(onnx.checker.ValidationError, match="Nodes in a graph must be topologically sorted"):
        onnx.checker.check_model(helper.make_model(unsorted, ir_version=10,
                                                   opset_imports=[helper.make_opsetid("", 17)]))
    onnx.save(linear_example(), tmp_path / "linear.onnx")
    onnx.checker.check_model(str(tmp_path / "linear.onnx"))  # a path works as well as a ModelProto


def test_onnx_checker__full_check_adds_strict_shape_inference_and_custom_domains_pass() -> None:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Add", ["y", "z"], ["w"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("w", TensorProto.FLOAT, [2])])
    model = helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)  # the default check accepts [2] + [3]
    with pytest.raises(shape_inference.InferenceError, match="Incompatible dimensions"):
        onnx.checker.check_model(model, full_check=True)
    custom = helper.make_graph(
        [helper.make_node("MyOp", ["x"], ["y"], domain="my.domain")], "custom",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    declared = helper.make_model(custom, ir_version=10, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("my.domain", 1)])
    onnx.checker.check_model(declared, full_check=True)


def test_quantisation__8_bit_weights_are_4_times_smaller_than_float32() -> None:
    """digits-int8 is digits quantised: each 8-bit weight tensor has a quarter of the float32
    tensor's bytes; the file, with its float biases and scales, shrinks a little less."""
    floats = {t.name: numpy_helper.to_array(t) for t in onnx.load(MODELS / "digits" / "model.onnx").graph.initializer}
    quantised = {t.name.removesuffix("_quantized"): numpy_helper.to_array(t)
                 for t in onnx.load(MODELS / "digits-int8" / "model.onnx").graph.initializer
                 if t.name.endswith("_quantized")}
    assert sorted(quantised) == ["fc1.weight", "fc2.weight", "fc3.weight"]
    for name, q in quantised.items():
        assert q.dtype.itemsize == 1 and q.size == floats[name].size
        assert floats[name].nbytes == 4 * q.nbytes
    ratio = (MODELS / "digits" / "model.onnx").stat().st_size / (MODELS / "digits-int8" / "model.onnx").stat().st_size
    assert 3.0 < ratio < 4.0
