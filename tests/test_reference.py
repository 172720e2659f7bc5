"""example.yml parsing and the reference outputs the browser widget compares against."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper
from onnx_glossary.browser.runtime import BrowserRuntime
from onnx_glossary.models.analysis import analyse_model
from onnx_glossary.models.example_spec import ExampleSpec, load_example_spec, parse_example_spec
from onnx_glossary.models.reference import compute_reference, run_model
from PIL import Image

from . import model_builders as build
from .sitebuild import LIGHT, MODELS

RUNTIME = BrowserRuntime()


def write_spec(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "example.yml"
    path.write_text(text, encoding="utf-8")
    return path


# -- example.yml ------------------------------------------------------------------------


def test_spec_defaults_without_file(tmp_path):
    assert load_example_spec(tmp_path) == ExampleSpec()
    assert (ExampleSpec().atol, ExampleSpec().rtol) == (1e-4, 1e-3)


def test_spec_full(tmp_path):
    path = write_spec(tmp_path, "dims:\n  batch: 2\n  seq: 5\ntolerance: {atol: 1e-5, rtol: 0}\n"
                                "image: sample.png\n")
    spec = parse_example_spec(path)
    assert dict(spec.dims) == {"batch": 2, "seq": 5}
    assert (spec.atol, spec.rtol, spec.image) == (1e-5, 0.0, "sample.png")


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("dims:\n  batch: 2\ncolour: red\n", 3, "unknown key 'colour'"),
        ("dims:\n  batch: two\n", 2, "dims.batch must be an integer, not text"),
        ("dims:\n  batch: 0\n", 2, "at least 1"),
        ("dims: [1, 2]\n", 1, "dims must be a mapping"),
        ("tolerance:\n  atol: -1\n", 2, "tolerance.atol must be at least 0"),
        ("tolerance:\n  atol: 1\n  tol: 2\n", 3, "unknown key 'tol' in tolerance"),
        ("image: [a.png]\n", 1, "image must be text, not a list"),
        ("image: ../secret.png\n", 1, "in the model folder"),
    ],
)
def test_spec_errors_name_file_and_line(tmp_path, text, line, fragment):
    path = write_spec(tmp_path, text)
    with pytest.raises(ValueError) as caught:
        parse_example_spec(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert fragment in str(caught.value)


def test_spec_invalid_yaml(tmp_path):
    with pytest.raises(ValueError, match="not valid YAML"):
        parse_example_spec(write_spec(tmp_path, "dims: {batch: 2\n"))


def test_committed_specs_parse():
    for path in MODELS.glob("*/example.yml"):
        parse_example_spec(path)


# -- references -------------------------------------------------------------------------


def reference_for(model: onnx.ModelProto, tmp_path: Path, spec: ExampleSpec | None = None):
    path = build.save(model, tmp_path / "m")
    facts = analyse_model(path, runtime=RUNTIME)
    return compute_reference(path, facts, spec or ExampleSpec(), path.parent)


def test_linear_reference_matches_numpy(tmp_path):
    built = build.linear()
    reference = reference_for(built, tmp_path, ExampleSpec(dims={"batch": 2}))
    data = json.loads(reference.to_json())
    assert list(data) == ["model", "onnxruntime", "dims", "inputs", "outputs", "tolerance", "image",
                          "samples", "reading", "input", "cost"]
    assert data["cost"] == {"multiply_adds": 2 * 3}  # a batch of 2, one weight of 3 each
    assert data["samples"] == [{"name": "generated numbers", "label": None, "source": "generated"}]
    assert data["dims"] == {"batch": 2}
    assert data["tolerance"] == {"atol": 1e-4, "rtol": 1e-3}
    assert data["image"] is None
    (x,) = data["inputs"]
    assert (x["name"], x["type"], x["dims"]) == ("x", "float32", [2, 3])
    weights = {t.name: numpy_helper.to_array(t) for t in built.graph.initializer}
    inputs = np.array(x["data"], np.float32).reshape(2, 3)
    expected = inputs @ weights["W"].T + weights["b"]
    (y,) = data["outputs"]
    assert (y["name"], y["type"], y["dims"]) == ("y", "float32", [2, 1])
    np.testing.assert_allclose(np.array(y["data"], np.float32).reshape(2, 1), expected, rtol=1e-6)


def test_reference_is_deterministic(tmp_path):
    first = reference_for(build.linear(), tmp_path / "a").to_json()
    second = reference_for(build.linear(), tmp_path / "b").to_json()
    assert first == second


def test_float_json_values_read_back_exactly(tmp_path):
    reference = reference_for(build.linear(), tmp_path, ExampleSpec(dims={"batch": 8}))
    output = reference.outputs[0]
    ran = run_model(tmp_path / "m" / "model.onnx",
                    {"x": np.array(reference.inputs[0].data, np.float32).reshape(8, 3)})
    assert np.array_equal(np.array(output.data, np.float32), ran["y"].reshape(-1))


def test_non_float_inputs(tmp_path):
    reference = reference_for(build.mixed_inputs(), tmp_path,
                              ExampleSpec(dims={"batch": 2, "sequence": 3, "height": 2}))
    data = json.loads(reference.to_json())
    inputs = {item["name"]: item for item in data["inputs"]}
    assert data["dims"] == {"batch": 2, "sequence": 3, "height": 2, "width": 1}
    assert inputs["ids"]["type"] == "int64" and inputs["ids"]["dims"] == [2, 3]
    assert all(isinstance(v, int) and 0 <= v < 10 for v in inputs["ids"]["data"])
    assert inputs["mask"]["data"] == [True, False, True, False, True, False]
    assert inputs["raw"]["type"] == "uint8" and inputs["raw"]["dims"] == [2, 1, 4]
    masked = {item["name"]: item for item in data["outputs"]}["masked"]["data"]
    expected = [i if m else 0 for i, m in zip(inputs["ids"]["data"], inputs["mask"]["data"],
                                              strict=True)]
    assert masked == expected


def test_non_tensor_outputs_are_skipped_with_a_note(tmp_path):
    reference = reference_for(build.classifier(zipmap=True), tmp_path)
    assert [o.name for o in reference.outputs] == ["label"]
    assert len(reference.notes) == 1 and "probabilities" in reference.notes[0]


def test_image_reference_uses_the_picture():
    folder = MODELS / "edges"
    facts = analyse_model(folder / "model.onnx", runtime=RUNTIME)
    spec = load_example_spec(folder)
    reference = compute_reference(folder / "model.onnx", facts, spec, folder)
    data = json.loads(reference.to_json())
    with Image.open(folder / "sample.png") as image:
        pixels = np.array(image.convert("RGBA"))
        assert image.info.get("icc_profile") is None
    height, width = pixels.shape[:2]
    assert data["image"] == {"input": "pixels", "src": "sample.png", "height": height,
                             "width": width}
    assert data["dims"] == {"height": height, "width": width}
    assert data["inputs"][0]["data"] == pixels.reshape(-1).tolist()
    output = np.array(data["outputs"][0]["data"]).reshape(height, width, 4)
    assert (output[..., 3] == 255).all()
    assert output[..., 0].min() < 128 < output[..., 0].max()  # lines drawn on paper
    assert data["tolerance"]["atol"] == spec.atol


def test_image_on_a_model_without_pixels_input(tmp_path):
    with pytest.raises(ValueError, match="exactly one uint8"):
        reference_for(build.linear(), tmp_path, ExampleSpec(image="x.png", source="e.yml"))


def test_light_model_matches_its_shipped_output():
    # onnx ships no input .pb for its light models: its runner feeds arange(n) / n
    # (onnx.backend.test.runner.Runner.generate_dummy_data), so do the same here.
    model_path = LIGHT / "light_squeezenet.onnx"
    facts = analyse_model(model_path, runtime=RUNTIME)
    (tensor,) = facts.inputs
    shape = tuple(int(d) for d in tensor.shape)
    count = int(np.prod(shape))
    feeds = {tensor.name: (np.arange(count).reshape(shape) / count).astype(np.float32)}
    expected = numpy_helper.to_array(
        onnx.load_tensor(str(LIGHT / "light_squeezenet_output_0.pb")))
    actual = run_model(model_path, feeds)[facts.outputs[0].name]
    np.testing.assert_allclose(actual, expected, rtol=1e-3, atol=1e-5)


def test_light_model_reference_shapes():
    model_path = LIGHT / "light_squeezenet.onnx"
    facts = analyse_model(model_path, runtime=RUNTIME)
    reference = compute_reference(model_path, facts, ExampleSpec(), model_path.parent)
    assert reference.inputs[0].dims == (1, 3, 224, 224)
    assert reference.outputs[0].dims == (1, 1000, 1, 1)


# -- named samples, model-zoo data sets, readings -----------------------------------------


def test_spec_samples_input_and_output(tmp_path):
    spec = parse_example_spec(write_spec(tmp_path, (
        "about: A model.\n"
        "input:\n  kind: form\n  fields:\n    - {label: a, unit: cm, min: 0, max: 1}\n"
        "samples:\n  - name: one\n    label: p\n    values: {x: [1, 2, 3]}\n"
        "output:\n  kind: classes\n  classes: [p, q]\n  softmax: true\n  top: 2\n")))
    assert spec.about == "A model."
    assert spec.input is not None and spec.input.fields[0].unit == "cm"
    assert spec.samples[0].values == {"x": (1.0, 2.0, 3.0)} and spec.samples[0].label == "p"
    assert spec.output is not None and (spec.output.classes, spec.output.softmax) == (("p", "q"), True)


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("input:\n  kind: voice\n", 2, "input.kind must be one of drawing, form, picture"),
        ("input:\n  kind: form\n", 1, "a form input needs 'fields'"),
        ("output:\n  kind: classes\n  sofmax: true\n", 3, "did you mean 'softmax'?"),
        ("samples:\n  - name: a\n    values: {x: [1, two]}\n", 3, "each of values.x must be a number"),
        ("samples: []\n", 1, "samples must be a list of named inputs"),
        ("samples:\n  - name: a\n    label: yes\n    values: {x: [1]}\n", 3, "not true/false: put it in quotes"),
    ],
)
def test_new_keys_name_file_and_line(tmp_path, text, line, fragment):
    path = write_spec(tmp_path, text)
    with pytest.raises(ValueError) as caught:
        parse_example_spec(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert fragment in str(caught.value)


def test_named_samples_come_first_with_their_own_outputs(tmp_path):
    spec = ExampleSpec(samples=parse_example_spec(write_spec(tmp_path, (
        "samples:\n  - name: ones\n    values: {x: [1, 1, 1]}\n"
        "  - name: two rows\n    label: b\n    values: {x: [1, 2, 3, 4, 5, 6]}\n"))).samples)
    reference = reference_for(build.linear(), tmp_path, spec)
    data = json.loads(reference.to_json())
    assert [s["name"] for s in data["samples"]] == ["ones", "two rows"]
    assert data["inputs"][0]["data"] == [1, 1, 1] and data["inputs"][0]["dims"] == [1, 3]
    second = data["samples"][1]
    assert second["inputs"][0]["dims"] == [2, 3] and second["outputs"][0]["dims"] == [2, 1]


def test_model_zoo_data_set_is_checked_against_its_shipped_outputs(tmp_path):
    model = build.linear()
    folder = tmp_path / "m"
    path = build.save(model, folder)
    x = np.array([[0.5, -1.0, 2.0]], np.float32)
    (expected,) = run_model(path, {"x": x}).values()
    data_set = folder / "test_data_set_0"
    data_set.mkdir()
    (data_set / "input_0.pb").write_bytes(numpy_helper.from_array(x).SerializeToString())
    (data_set / "output_0.pb").write_bytes(numpy_helper.from_array(expected).SerializeToString())
    facts = analyse_model(path, runtime=RUNTIME)
    good = compute_reference(path, facts, ExampleSpec(), folder)
    (sample,) = good.samples
    assert sample["source"] == "test_data_set_0" and sample["expected"]["pass"] is True
    assert good.problems == ()
    # Shipped outputs that the model does not produce are caught, not trusted.
    (data_set / "output_0.pb").write_bytes(numpy_helper.from_array(expected + 1).SerializeToString())
    bad = compute_reference(path, facts, ExampleSpec(), folder)
    assert bad.samples[0]["expected"]["pass"] is False
    assert "differ from the shipped output_N.pb by up to 1" in bad.problems[0]


def test_gather_indices_stay_inside_their_table(tmp_path):
    table = numpy_helper.from_array(np.arange(15, dtype=np.float32).reshape(5, 3), "table")
    graph = onnx.helper.make_graph(
        [onnx.helper.make_node("Gather", ["table", "ids"], ["y"])], "lookup",
        [onnx.helper.make_tensor_value_info("ids", onnx.TensorProto.INT64, ["n"])],
        [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["n", 3])],
        [table])
    spec = ExampleSpec(dims={"n": 40})
    path = build.save(build.model(graph), tmp_path / "g")
    facts = analyse_model(path, runtime=RUNTIME)
    assert [(r.input, r.low, r.high) for r in facts.index_ranges] == [("ids", 0, 5)]
    ids = json.loads(compute_reference(path, facts, spec, path.parent).to_json())["inputs"][0]["data"]
    assert len(ids) == 40 and set(ids) <= set(range(5)) and len(set(ids)) > 1


def test_reading_resolves_class_names_from_metadata(tmp_path):
    model = build.linear()
    model.metadata_props.add(key="class_names", value='["only"]')
    spec = parse_example_spec(write_spec(tmp_path, "output:\n  kind: classes\n"))
    reference = reference_for(model, tmp_path, spec)
    assert reference.reading is not None
    assert (reference.reading["tensor"], reference.reading["classes"]) == ("y", ["only"])


def test_every_built_reference_follows_the_declared_format(real_site) -> None:
    """reference.json has one declared format (a JSON Schema), which every built file meets."""
    import jsonschema
    from onnx_glossary.models.reference import SCHEMA_PATH

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    built = sorted((real_site.site / "models").glob("*/reference.json"))
    assert len(built) >= 8
    for path in built:
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert errors == [], path
    # The schema is strict: a key the format does not declare is refused.
    assert list(validator.iter_errors({**json.loads(built[0].read_text()), "extra": 1}))


def test_multiply_adds_count_convolutions_and_matrix_products_at_the_sample_size() -> None:
    from onnx import TensorProto, helper, numpy_helper
    from onnx_glossary.models.cost import multiply_adds

    weight = numpy_helper.from_array(np.ones((8, 3, 3, 3), np.float32), "w")
    project = numpy_helper.from_array(np.ones((8 * 6 * 6, 10), np.float32), "p")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["c"]),  # 3x3 kernel, no padding: 8x8 -> 6x6
         helper.make_node("Flatten", ["c"], ["f"]),
         helper.make_node("MatMul", ["f", "p"], ["y"]),
         helper.make_node("Relu", ["y"], ["out"])],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, 8, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["n", 10])], [weight, project])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    for batch in (1, 4):
        feeds = {"x": np.zeros((batch, 3, 8, 8), np.float32)}
        conv = batch * 8 * 6 * 6 * (3 * 3 * 3)
        matmul = batch * 10 * (8 * 6 * 6)
        assert multiply_adds(model, feeds) == conv + matmul
