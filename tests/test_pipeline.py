"""Pipelines declared in example.yml (issue 22), checked without running anything: a text
detector, a crop and a recogniser chain like the face detector and the face mesh, with no key
that names a kind of model; each mistake is one problem naming example.yml and its line."""

from __future__ import annotations

from pathlib import Path

import onnx
from onnx import TensorProto, helper
from onnx_glossary.common.problems import Problem
from onnx_glossary.models.analysis import analyse_model
from onnx_glossary.models.example_spec import PICTURE_SOURCE, load_example_spec
from onnx_glossary.models.pipeline import check_pipeline

from .sitebuild import REPO, YML_WITH_MODELS, build_site, term, write_project

PICTURE = helper.make_tensor_value_info("image", TensorProto.UINT8, ["height", "width", 4])


def _model(inputs: list[onnx.ValueInfoProto], output: str, elem: int, shape: list[object],
           node: onnx.NodeProto) -> onnx.ModelProto:
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info(output, elem, shape)])
    return helper.make_model(graph, ir_version=10, opset_imports=[helper.make_opsetid("", 17)])


def _ocr_site(root: Path, pipeline: str) -> Path:
    """models/ with a text detector (picture -> map), a crop (picture and map -> crops) and a
    recogniser (crops -> scores) whose example.yml declares ``pipeline``."""
    models = {
        "text-detection": _model([PICTURE], "probability", TensorProto.FLOAT, ["height", "width", 4],
                                 helper.make_node("Cast", ["image"], ["probability"], to=TensorProto.FLOAT)),
        "text-crop": _model([PICTURE, helper.make_tensor_value_info("probability", TensorProto.FLOAT,
                                                                    ["height", "width", 4])],
                            "crops", TensorProto.FLOAT, ["height", "width", 4],
                            helper.make_node("Identity", ["probability"], ["crops"])),
        "text-recogniser": _model([helper.make_tensor_value_info("crops", TensorProto.FLOAT,
                                                                 ["rows", "width", 4])],
                                  "scores", TensorProto.FLOAT, ["rows", "width", 4],
                                  helper.make_node("Identity", ["crops"], ["scores"])),
    }
    for name, model in models.items():
        (root / name).mkdir(parents=True)
        onnx.save(model, root / name / "model.onnx")
    (root / "text-recogniser" / "example.yml").write_text(pipeline, encoding="utf-8")
    return root


def _check(root: Path):  # type: ignore[no-untyped-def]
    facts = {folder.name: analyse_model(folder / "model.onnx", name=folder.name)
             for folder in sorted(root.iterdir())}
    spec = load_example_spec(root / "text-recogniser", "models/text-recogniser/example.yml")
    assert spec.pipeline is not None
    return check_pipeline("text-recogniser", spec.pipeline, facts, {},
                          "models/text-recogniser/example.yml")


def _refused(root: Path, declaration: str) -> list[Problem]:
    steps, problems = _check(_ocr_site(root, declaration))
    assert steps is None
    return problems


OCR = """\
summary: Reads a line of text.
pipeline:
  steps:
    - model: text-detection
    - model: text-crop
      feeds: {probability: text-detection.probability}
    - model: text-recogniser
      feeds: {crops: text-crop.crops}
      output: {kind: values, tensor: scores}
"""


def test_a_text_detector_a_crop_and_a_recogniser_chain_as_declared(tmp_path: Path) -> None:
    steps, problems = _check(_ocr_site(tmp_path, OCR))
    assert problems == []
    assert steps is not None
    assert [(s.model, dict(s.feeds)) for s in steps] == [
        ("text-detection", {"image": PICTURE_SOURCE}),
        ("text-crop", {"probability": "text-detection.probability", "image": PICTURE_SOURCE}),
        ("text-recogniser", {"crops": "text-crop.crops"}),
    ]
    assert steps[-1].reading is not None and steps[-1].reading["tensor"] == "scores"


WRONG = """\
pipeline:
  steps:
    - model: text-detection
    - model: text-crop
      feeds: {probability: text-detection.probabilty}
    - model: text-recognizer
    - model: text-recogniser
"""


def test_each_mistake_of_a_declaration_is_one_problem_on_its_line(tmp_path: Path) -> None:
    assert [str(p) for p in _refused(tmp_path, WRONG)] == [
        "models/text-recogniser/example.yml:5: feeds.probability: 'text-detection' has no output "
        "'probabilty': did you mean 'probability'?",
        "models/text-recogniser/example.yml:6: the step names the unknown model 'text-recognizer': "
        "did you mean 'text-recogniser'?",
        "models/text-recogniser/example.yml:7: input 'crops' of 'text-recogniser' is fed by "
        "nothing: add feeds: {crops: <step>.<output>}",
    ]


def test_a_feed_of_another_type_and_a_pipeline_of_another_model_are_refused(tmp_path: Path) -> None:
    wrong = """\
pipeline:
  steps:
    - model: text-detection
    - model: text-crop
      feeds: {probability: picture, image: text-detection.probability}
"""
    problems = _refused(tmp_path, wrong)
    assert [p.line for p in problems] == [4, 5, 5]
    assert "the last step of a pipeline is the model whose example.yml declares it" in problems[0].message
    assert "not a uint8 [height, width, 4] picture" in problems[1].message
    assert "'text-detection.probability' is float32 but input 'image' of 'text-crop' takes uint8" \
        in problems[2].message


def test_a_site_warns_of_a_wrong_declaration_on_its_line_and_of_its_embed(tmp_path: Path) -> None:
    models = _ocr_site(tmp_path / "models", WRONG)
    config = write_project(tmp_path, {"t": term("T")},
                           docs={"index.md": "# Home\n\n[[pipeline: text-recogniser]]\n"},
                           yml=YML_WITH_MODELS.format(node_modules=REPO / "node_modules", extra=""))
    built = build_site(config)
    assert models.is_dir() and not built.aborted
    ours = [w for w in built.warnings if "pipeline" in w or "example.yml" in w]
    assert any("models/text-recogniser/example.yml:5: feeds.probability: 'text-detection' has no "
               "output 'probabilty'" in w for w in ours), ours
    assert any("docs/index.md:3: [[pipeline: text-recogniser]]: models/text-recogniser/example.yml "
               "declares no pipeline" in w for w in ours), ours
