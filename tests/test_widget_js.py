"""The live-example widget's JavaScript: its node unit tests (tests/js/*.test.mjs) run here, so
``pytest`` and ``make test`` cover them, and the runtime file names reach it from Python."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from onnx_glossary.browser.assets import PACKAGE_ASSETS
from onnx_glossary.browser.runtime import runtime_files
from onnx_glossary.models.analysis import analyse_model
from onnx_glossary.models.example_spec import load_example_spec
from onnx_glossary.models.reference import compute_reference
from onnx_glossary.options import Options
from onnx_glossary.render.live_example import render_live_example, render_snippet_js

from .sitebuild import REPO, widget_attributes

JS_TESTS = sorted((REPO / "tests" / "js").glob("*.test.mjs"))
NODE = shutil.which("node")

#: The site's size budget, from its one default (Options).
BUDGET = Options().size_budget_bytes


def test_there_are_node_tests() -> None:
    assert len(JS_TESTS) >= 2, JS_TESTS


@pytest.mark.parametrize("path", JS_TESTS, ids=[p.name for p in JS_TESTS])
def test_node_unit_tests_pass(path: Path) -> None:
    # Node 20 is part of the set-up (npm); a missing node must fail, not skip, the suite.
    assert NODE, "node is needed for the widget's unit tests (the README's set-up installs it)"
    result = subprocess.run([NODE, "--test", str(path)], cwd=REPO, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout and "# pass 0" not in result.stdout, result.stdout


def test_the_widget_scripts_name_no_runtime_file() -> None:
    scripts = [p for p in PACKAGE_ASSETS.iterdir() if p.suffix in {".js", ".mjs"}]
    assert any(p.name == "live-example-widget.mjs" for p in scripts)
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert [name for name in runtime_files() if name in text] == [], script.name


def test_the_runtime_files_reach_the_widget_as_json() -> None:
    model_dir = REPO / "models" / "linear"
    facts = analyse_model(model_dir / "model.onnx", name="linear", size_budget_bytes=BUDGET)
    reference = json.loads(compute_reference(model_dir / "model.onnx", facts,
                                             load_example_spec(model_dir), model_dir).to_json())
    widget = widget_attributes(str(render_live_example(facts, reference, "./")))
    files = json.loads(widget["data-runtime-files"] or "")
    assert files == {"webgpu": "ort-wasm-simd-threaded.asyncify.wasm",
                     "wasm": "ort-wasm-simd-threaded.wasm"}
    assert set(files.values()) <= set(runtime_files())


def test_the_snippets_pure_helpers_pass_their_node_tests(tmp_path: Path) -> None:
    """drawingToInput, pictureSize and pickBackend, tested in the example.mjs files the build
    writes."""
    assert NODE, "node is needed for the widget's unit tests"
    paths = {}
    for name in ("digits", "text-detection"):
        model_dir = REPO / "models" / name
        facts = analyse_model(model_dir / "model.onnx", name=name, size_budget_bytes=BUDGET)
        reference = json.loads(compute_reference(model_dir / "model.onnx", facts,
                                                 load_example_spec(model_dir), model_dir).to_json())
        path = tmp_path / name / "example.mjs"
        path.parent.mkdir()
        path.write_text(render_snippet_js(facts, reference), encoding="utf-8")
        paths[name] = str(path)
    # text-detection's count (287.8 million multiply-adds a run) is above the backend rule's
    # threshold and digits' far below: both outcomes, on the snippets as the build writes them.
    paths = {"DRAWING_SNIPPET": paths["digits"], "PICTURE_SNIPPET": paths["text-detection"],
             "BIG_SNIPPET": paths["text-detection"]}
    result = subprocess.run([NODE, "--test", str(REPO / "tests" / "js" / "example-snippet.check.mjs")],
                            cwd=REPO, capture_output=True, text=True, timeout=120,
                            env={**os.environ, **paths})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout and "# pass 0" not in result.stdout, result.stdout


def test_every_models_reference_json_has_the_format_the_widget_declares(tmp_path: Path) -> None:
    """reference.json as the build writes it (Reference.to_json) for each model in models/,
    checked by node against the JSDoc typedef (tests/js/reference-format.check.mjs)."""
    assert NODE, "node is needed for the widget's unit tests"
    folders = sorted(p.parent for p in (REPO / "models").glob("*/model.onnx"))
    assert len(folders) >= 5, folders
    written = []
    for folder in folders:
        facts = analyse_model(folder / "model.onnx", name=folder.name, size_budget_bytes=BUDGET)
        reference = compute_reference(folder / "model.onnx", facts, load_example_spec(folder), folder)
        path = tmp_path / folder.name / "reference.json"
        path.parent.mkdir()
        path.write_text(reference.to_json(), encoding="utf-8")
        written.append(str(path))
    result = subprocess.run([NODE, "--test", str(REPO / "tests" / "js" / "reference-format.check.mjs")],
                            cwd=REPO, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "REFERENCE_FILES": "\n".join(written)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"# pass {len(folders) + 1}" in result.stdout and "# fail 0" in result.stdout, result.stdout
