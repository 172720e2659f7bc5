"""Live-example snippets and widget HTML, without a browser: the snippet carries the model's own
names, types and dims; freeDimensionOverrides only names dims the model has; hostile names stay
inert text; and the Python snippet, run as a user would run it, reproduces the reference."""

from __future__ import annotations

import ast
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from onnx_glossary.models.analysis import analyse_model
from onnx_glossary.models.example_spec import load_example_spec, tolerance
from onnx_glossary.models.reference import compute_reference
from onnx_glossary.render.live_example import (
    free_dimension_overrides,
    render_live_example,
    render_snippet_js,
    render_snippet_python,
)

REPO = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")


def reference_for(name: str) -> tuple[object, dict]:
    """Facts and reference.json of a shipped model, computed the way the build does."""
    model_dir = REPO / "models" / name
    facts = analyse_model(model_dir / "model.onnx", name=name)
    spec = load_example_spec(model_dir)
    reference = json.loads(compute_reference(model_dir / "model.onnx", facts, spec, model_dir).to_json())
    return facts, reference


def hostile_model(tmp_path: Path) -> tuple[object, dict, str, str]:
    """A model whose input and dim names try to break out of JS strings, comments and HTML."""
    name = 'x"</script><img src=z onerror=alert(1)>\u2028`${alert(2)}`\n//'
    dim = "b'\"; alert(3); //\n*/"
    graph = helper.make_graph(
        [helper.make_node("Identity", [name], ["out"])],
        "g",
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, [dim, 2])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [dim, 2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    path = tmp_path / "hostile" / "model.onnx"
    path.parent.mkdir()
    onnx.save(model, path)
    facts = analyse_model(path, name='m"<img src=z onerror=alert(4)>')
    reference = {
        "model": "hostile", "onnxruntime": "1.32.0", "dims": {dim: 1},
        "inputs": [{"name": name, "type": "float32", "dims": [1, 2], "data": [1.5, -2.0]}],
        "outputs": [{"name": "out", "type": "float32", "dims": [1, 2], "data": [1.5, -2.0]}],
        "tolerance": {"atol": 0.0001, "rtol": 0.001}, "image": None,
    }
    return facts, reference, name, dim


def test_snippet_uses_the_models_own_names_types_and_dims() -> None:
    facts, reference = reference_for("iris")
    js = render_snippet_js(facts, reference)
    sample = reference["inputs"][0]
    assert sample["name"] == "input" and sample["type"] == "float32"
    assert 'from "onnxruntime-web/webgpu"' not in js  # imported dynamically, by capability
    assert 'import("onnxruntime-web/webgpu")' in js and 'import("onnxruntime-web/wasm")' in js
    assert '"input": new ort.Tensor(' in js
    assert '"float32",\n      Float32Array.from(values["input"]),' in js
    assert f"  \"input\": {json.dumps(sample['dims'])},\n" in js
    # The sample numbers are the reference's, so the browser's outputs can be compared.
    for value in sample["data"]:
        assert json.dumps(value) in js


def test_models_with_ml_operators_skip_webgpu() -> None:
    # onnxruntime-web 1.31's WebGPU build refuses ai.onnx.ml operators (LinearClassifier).
    facts, reference = reference_for("iris")
    assert "ai.onnx.ml" in facts.opsets
    snippet = render_snippet_js(facts, reference)
    picked = snippet.split('export async function pickBackend() {')[1]
    assert picked.split("\n}\n")[0].strip().endswith(
        'return { backend: "wasm", reason: "the model uses ai.onnx.ml operators, which only the '
        'WebAssembly build has", adapter: "not asked" };')
    assert "requestAdapter" not in snippet and "adapterKind" not in snippet
    facts, reference = reference_for("linear")
    assert "navigator.gpu.requestAdapter()" in render_snippet_js(facts, reference)


def test_image_snippet_decodes_the_picture_into_the_image_input() -> None:
    facts, reference = reference_for("edges")
    js = render_snippet_js(facts, reference)
    assert reference["image"]["input"] == "pixels"
    assert 'new URL("./sample.png", import.meta.url)' in js
    assert 'colorSpaceConversion: "none"' in js and 'premultiplyAlpha: "none"' in js
    assert '"pixels": new ort.Tensor(\n      "uint8", picture.data, [picture.height, picture.width, 4],' in js
    # An image of 24576 bytes is decoded, never pasted into the snippet.
    assert "const SAMPLE = " not in js and len(js) < 8000


def test_overrides_name_only_the_models_symbolic_dims() -> None:
    facts, reference = reference_for("linear")
    assert [t.shape for t in facts.inputs] == [("batch", 3)]
    # reference.json may know dims the model does not have (another model, a typo): onnxruntime
    # would silently ignore them, so they must not reach the snippet.
    reference = {**reference, "dims": {"batch": 2, "sequence": 7, "bogus": 1}}
    assert free_dimension_overrides(facts, reference) == {"batch": reference["inputs"][0]["dims"][0]}
    js = render_snippet_js(facts, reference)
    overrides = re.search(r"freeDimensionOverrides: \{\n(.*?)\n    \}", js, re.S)
    assert overrides is not None
    assert re.findall(r'"([^"]+)":', overrides.group(1)) == ["batch"]


def test_fixed_shapes_get_no_overrides(tmp_path: Path) -> None:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])],
    )
    path = tmp_path / "fixed" / "model.onnx"
    path.parent.mkdir()
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), path)
    facts = analyse_model(path, name="fixed")
    reference = {"inputs": [{"name": "x", "type": "float32", "dims": [1, 2], "data": [1, -1]}],
                 "outputs": [], "image": None}
    assert free_dimension_overrides(facts, reference) == {}
    assert "freeDimensionOverrides" not in render_snippet_js(facts, reference)


def test_tolerance_is_the_references_own_or_the_default() -> None:
    assert tolerance({"tolerance": {"atol": 4, "rtol": 0}}) == {"atol": 4.0, "rtol": 0.0}
    assert tolerance({}) == {"atol": 1e-4, "rtol": 1e-3}


@pytest.mark.skipif(NODE is None, reason="needs node to parse JavaScript")
def test_hostile_names_stay_string_literals_in_javascript(tmp_path: Path) -> None:
    facts, reference, name, dim = hostile_model(tmp_path)
    js = render_snippet_js(facts, reference)
    assert "\n//" not in js.split("SAMPLE = {")[1].split("};")[0]  # no raw newline from the name
    assert "</script>" not in js and "\u2028" not in js
    # The file parses as a module, and the names come back exactly from the string literals.
    module = tmp_path / "example.mjs"
    module.write_text(js, encoding="utf-8")
    subprocess.run([NODE, "--check", str(module)], check=True)
    probe = tmp_path / "probe.mjs"
    probe.write_text(
        'import { makeFeeds } from "./example.mjs";\n'
        "class Tensor { constructor(t, d, s) { Object.assign(this, { t, d: Array.from(d), s }); } }\n"
        "console.log(JSON.stringify(await makeFeeds({ Tensor })));\n",
        encoding="utf-8",
    )
    out = subprocess.run([NODE, str(probe)], check=True, capture_output=True, text=True).stdout
    feeds = json.loads(out)
    assert list(feeds) == [name]
    assert feeds[name]["d"] == [1.5, -2.0] and feeds[name]["s"] == [1, 2]
    assert re.search(r"freeDimensionOverrides: \{\n\s+(.*): 1,", js).group(1) == json.dumps(dim)


def test_hostile_names_stay_string_literals_in_python(tmp_path: Path) -> None:
    facts, reference, name, _ = hostile_model(tmp_path)
    code = render_snippet_python(facts, reference)
    tree = ast.parse(code)  # a syntax error here means the name escaped its literal
    feeds = next(n for n in ast.walk(tree) if isinstance(n, ast.Dict))
    assert [ast.literal_eval(key) for key in feeds.keys] == [name]


def test_hostile_names_are_escaped_in_the_widget(tmp_path: Path) -> None:
    facts, reference, _, _ = hostile_model(tmp_path)
    page = str(render_live_example(facts, reference, "./"))
    assert "<img" not in page and "</script>" not in page
    assert "<code>m&#34;&lt;img src=z onerror=alert(4)&gt;</code>" in page  # text, not markup
    assert re.search(r'id="live-example-m-+img-src-z-onerror-alert-4--"', page)


@pytest.mark.parametrize("name", ["linear", "edges"])
def test_widget_shows_the_snippet_text_and_the_test_contract(name: str) -> None:
    facts, reference = reference_for(name)
    page = str(render_live_example(facts, reference, "../../models/" + name + "/"))
    assert re.search(r"<div class=\"live-example\"[^>]*\bdata-live-example\b[^>]*data-state=\"idle\"", page)
    assert 'button type="button" class="md-button md-button--primary" data-action="run" disabled' in page
    assert 'data-example-url="../../models/' + name + '/example.mjs"' in page
    # The highlighted block's text is exactly example.mjs, so the reader sees what runs.
    block = re.search(r'<div class="language-js highlight"><pre><span></span><code>(.*?)</code></pre>',
                      page, re.S)
    assert block is not None
    assert html.unescape(re.sub(r"<[^>]+>", "", block.group(1))) == render_snippet_js(facts, reference)
    assert ('type="file"' in page) == (reference["image"] is not None)


@pytest.mark.parametrize("name", ["linear", "iris", "edges"])
def test_python_snippet_runs_next_to_the_model_and_matches(name: str, tmp_path: Path) -> None:
    facts, reference = reference_for(name)
    model_dir = REPO / "models" / name
    shutil.copy(model_dir / "model.onnx", tmp_path / "model.onnx")
    if reference["image"]:
        shutil.copy(model_dir / reference["image"]["src"], tmp_path / reference["image"]["src"])
    script = tmp_path / "example.py"
    # Print full outputs instead of the first few values, to compare them.
    script.write_text(render_snippet_python(facts, reference).replace(
        "value.ravel()[:8]", "value.ravel().tolist()"), encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout
    printed = {line.split(" ", 1)[0]: line for line in out.splitlines()}
    for expected in reference["outputs"]:
        values = ast.literal_eval(printed[expected["name"]].split(")", 1)[1].strip())
        np.testing.assert_allclose(np.asarray(values, dtype=np.float64),
                                   np.asarray(expected["data"], dtype=np.float64),
                                   atol=reference["tolerance"]["atol"],
                                   rtol=reference["tolerance"]["rtol"])
