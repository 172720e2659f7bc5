"""Model pages in real MkDocs builds: facts checked against independent computation, bad
models, the analysis cache, untrusted strings from model files, and embeds."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper

from . import model_builders as mb
from .sitebuild import REPO, YML_WITH_MODELS, Built, build_site, project, term, write_project

MODELS = sorted(p.parent.name for p in (REPO / "models").glob("*/model.onnx"))
# ---------------------------------------------------------------------------------------------
# The real models, built into a real site.


@pytest.fixture(scope="module")
def real(real_site: Built) -> Built:
    return real_site


def cell(html: str, row: str) -> str:
    # A label may link to its glossary term: <th><a class="gl-term" ...>label</a></th>
    match = re.search(rf'<th scope="row">(?:<a [^>]*>)?{re.escape(row)}(?:</a>)?</th>'
                      r'<td>(.*?)</td>', html, re.S)
    assert match, f"no row {row!r}"
    return re.sub(r"<[^>]+>", "", match.group(1))


@pytest.mark.parametrize("name", MODELS)
def test_model_page_facts_match_the_file(real: Built, name: str) -> None:
    path = REPO / "models" / name / "model.onnx"
    data = path.read_bytes()
    model = onnx.load_from_string(data)
    html = real.page(f"models/{name}")
    # Exact bytes always; "933 bytes (933 bytes)" never.
    size = cell(html, "File size")
    assert f"{len(data):,} bytes" in size and size.count("bytes") == 1
    assert cell(html, "SHA-256") == hashlib.sha256(data).hexdigest()
    assert cell(html, "IR version") == str(model.ir_version)
    opsets = {(o.domain or "ai.onnx"): o.version for o in model.opset_import}
    for domain, version in opsets.items():
        assert f"{domain} {version}" in cell(html, "Opset imports")
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for tensor in session.get_inputs():
        assert f"{tensor.name}:" in cell(html, "Inputs")
    initializers = sum(int(np.prod(t.dims)) for t in model.graph.initializer)
    if model.domain != "ai.onnx.ml" and not any(o.domain == "ai.onnx.ml" for o in model.opset_import):
        assert cell(html, "Parameters").startswith(f"{initializers:,} ")
    nodes = len(model.graph.node)
    assert cell(html, "Nodes").startswith(f"{nodes:,},")
    for prop in model.metadata_props:  # provenance is shown, escaped (long keys break at joints)
        assert f"<code>{prop.key}</code>" in html.replace("<wbr>", "")
    # Every operator is listed with its count and a link to its specification.
    counts: dict[str, int] = {}
    for node in model.graph.node:
        counts[node.op_type] = counts.get(node.op_type, 0) + 1
    operators = html.split('id="operators"')[1].split('id="opset"')[0]
    for op_type, count in counts.items():
        # Camel-case joints carry <wbr> so a narrow column breaks between words.
        shown = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "<wbr>", op_type)
        assert re.search(rf'>{shown}</a></td><td>{count}</td>', operators), op_type
    # The WebGPU column is measured (data/webgpu-kernels.json) for every use in a shipped model,
    # and the page says so, and what the runtime did with this very file.
    assert "The WebGPU column is measured" in operators and "onnxruntime-web 1.31.1" in operators
    assert "not measured for this runtime" not in operators
    assert "Measured for this file" in operators
    verdict = html.split('class="admonition ')[1].split("</div>")[0]
    assert 'data-verdict="runs' in verdict
    assert "Runs in onnxruntime-web 1.31.1" in re.sub(r"<[^>]+>", "", verdict)  # the name links its term
    # The limits the runtime checks are a fact of the table, not the page's first words.
    assert cell(html, "onnxruntime-web 1.31.1 reads it").startswith(f"IR {model.ir_version} ≤ 13")
    assert f"IR {model.ir_version} ≤ 13" not in verdict
    # The page opens with the model's summary, in plain words, before its live example.
    spec = (REPO / "models" / name / "example.yml").read_text(encoding="utf-8")
    lead = html.split('class="gl-model-lead"')[1].split("</div>")[0]
    if "role: test-file" in spec:
        assert "A test file, not an example" in lead
    else:
        assert 'class="gl-summary"' in lead
        assert html.index('class="gl-model-lead"') < html.index("data-live-example")


def test_linear_model_page(real: Built) -> None:
    html = real.page("models/linear")
    assert '<meta name="description" content="The ONNX model linear: inputs input (float32); ' \
           'opsets ai.onnx 17; 1 node; runs in onnxruntime-web 1.31.1.">' in html
    assert cell(html, "Parameters").startswith("4 ")
    assert "batch is free: axis 0 of input &#39;input&#39;, axis 0 of output &#39;output&#39;" in html
    assert cell(html, "Inputs") == "input: float32 [batch, 3]"
    assert cell(html, "Earliest onnxruntime release") == "1.12"
    reference = json.loads((real.site / "models/linear/reference.json").read_text())
    session = onnxruntime.InferenceSession(str(REPO / "models/linear/model.onnx"))
    x = np.array(reference["inputs"][0]["data"], np.float32).reshape(reference["inputs"][0]["dims"])
    expected = session.run(None, {"input": x})[0]
    assert np.allclose(expected.ravel(), reference["outputs"][0]["data"], atol=1e-6)
    assert (real.site / "models/linear/model.onnx").read_bytes() == \
        (REPO / "models/linear/model.onnx").read_bytes()


def test_quantised_model_is_shown_beside_its_original(real: Built) -> None:
    html = real.page("models/digits-int8")
    section = html.split('id="quantisation"')[1].split("</table>")[0]
    float_size = (REPO / "models/digits/model.onnx").stat().st_size
    int8_size = (REPO / "models/digits-int8/model.onnx").stat().st_size
    assert 'href="../digits/"' in section
    assert f"{round(100 * int8_size / float_size)}% of the float file" in section
    assert "How far it strays from the float model" in html


def test_operator_index_links_every_operator_to_its_models(real: Built) -> None:
    html = real.page("models/operators")
    for name in MODELS:
        model = onnx.load(str(REPO / "models" / name / "model.onnx"))
        for node in model.graph.node:
            domain = node.domain or "ai.onnx"
            row = re.search(rf'<tr id="{re.escape(domain)}-{node.op_type}">(.*?)</tr>', html, re.S)
            assert row, (name, node.op_type)
            assert f'href="../{name}/#operators"' in row.group(1)


def test_terms_embed_model_cards(real: Built) -> None:
    html = real.page("glossary/onnx")
    card = html.split('class="gl-model-card"')[1]
    assert 'href="../../models/linear/"' in card
    assert "<code>input</code>: float32 [batch, 3]" in card
    page = real.page("models/linear")
    assert 'href="../../glossary/onnx/"' in page.split('id="glossary"')[1]


def test_models_index_lists_every_model(real: Built) -> None:
    html = real.page("models")
    for name in MODELS:
        assert f'<a href="{name}/">{name}</a>' in html


# ---------------------------------------------------------------------------------------------
# Bad models: one warning each naming the file, --strict fails, everything else builds.


def _external_missing() -> onnx.ModelProto:
    built = mb.linear()
    tensor = built.graph.initializer[0]
    tensor.data_location = TensorProto.EXTERNAL
    tensor.ClearField("raw_data")
    tensor.ClearField("float_data")
    tensor.external_data.add(key="location", value="weights.bin")
    return built


BAD: dict[str, tuple[bytes | onnx.ModelProto, str]] = {
    "empty": (b"", "empty"),
    "truncated": (mb.linear().SerializeToString()[:60], "truncated"),
    "text": (b"this is not a model\n", "not a readable ONNX file"),
    "tensor": (numpy_helper.from_array(np.ones(3, np.float32), "w").SerializeToString(), "not a model"),
    "checker": (mb.fails_checker(), "checker"),
    "too-new": (mb.linear(ir_version=14, opset=27), "does not run in onnxruntime-web 1.31.1: IR version 14"),
    "external": (_external_missing(), "weights.bin"),
}


@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Built]:
    root = tmp_path_factory.mktemp("bad")
    config = project(root, {"good": mb.linear(), **{k: v for k, (v, _) in BAD.items()}})
    return root, build_site(config)


@pytest.mark.parametrize("name", sorted(BAD))
def test_each_bad_model_is_one_warning_naming_the_file(bad: tuple[Path, Built], name: str) -> None:
    _, built = bad
    mine = [w for w in built.ours() if w.startswith(f"models/{name}/model.onnx: ")]
    assert len(mine) == 1, built.ours()
    assert BAD[name][1].lower() in mine[0].lower()
    assert "Traceback" not in "".join(built.warnings)


def test_bad_models_leave_everything_else_built(bad: tuple[Path, Built]) -> None:
    _, built = bad
    assert not built.aborted
    assert (built.site / "models/good/index.html").exists()
    assert (built.site / "glossary/t/index.html").exists()
    assert not (built.site / "models/truncated/index.html").exists()
    # A model the browser runtime refuses still gets its page, saying why.
    too_new = built.page("models/too-new")
    assert 'data-verdict="does-not-run"' in too_new
    assert "Does not run in onnxruntime-web 1.31.1" in too_new
    assert "ai.onnx opset 27 is newer than the 26" in too_new
    assert "ir_version=10" in too_new  # the page says how to fix it
    assert "data-live-example" not in too_new


def test_bad_models_fail_strict(bad: tuple[Path, Built]) -> None:
    root, _ = bad
    strict = build_site(root / "mkdocs.yml", strict=True, site_dir=root / "strict")
    assert strict.aborted


def test_model_over_the_size_budget(tmp_path: Path) -> None:
    config = project(tmp_path, {"big": mb.linear()}, extra="      model_size_budget_mb: 0.0001")
    built = build_site(config)
    [warning] = built.ours()
    assert warning.startswith("models/big/model.onnx: ")
    assert "over the size budget of 100" in warning


def test_folder_without_a_model(tmp_path: Path) -> None:
    config = project(tmp_path, {"good": mb.linear()})
    (tmp_path / "models/pending").mkdir()
    built = build_site(config)
    assert built.ours() == ["models/pending: no model.onnx in this folder: export it (make models) "
                            "or remove the folder"]


def test_build_never_writes_into_models(bad: tuple[Path, Built]) -> None:
    root, _ = bad
    files = sorted(p.relative_to(root / "models").as_posix() for p in (root / "models").rglob("*")
                   if p.is_file())
    assert files == sorted(f"{name}/model.onnx" for name in [*BAD, "good"])


# ---------------------------------------------------------------------------------------------
# Cache, untrusted strings, embeds.


def test_warm_build_reanalyses_no_unchanged_model(tmp_path: Path) -> None:
    config = project(tmp_path, {"a": mb.linear(), "b": mb.mixed_inputs()})
    cold = build_site(config, site_dir=tmp_path / "s1")
    assert cold.plugin.analysis_cache.misses == 2
    warm = build_site(config, site_dir=tmp_path / "s2")
    assert warm.plugin.analysis_cache.misses == 0
    # Same plugin object, as under `mkdocs serve`: a changed model is analysed again, alone.
    changed = mb.linear()
    changed.doc_string = "changed"
    mb.save(changed, tmp_path / "models/a")
    again = build_site(config, site_dir=tmp_path / "s3")
    assert again.plugin.analysis_cache.misses == 1
    assert "changed" in again.page("models/a")
    assert (tmp_path / "s1/models/a/index.html").read_text() != again.page("models/a")


HOSTILE = '<img src=x onerror="alert(1)">'


def _hostile_model() -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["<b>in</b>"], ["out\"><script>x()</script>"])],
        "g",
        [helper.make_tensor_value_info("<b>in</b>", TensorProto.FLOAT, ["n<i>", 2])],
        [helper.make_tensor_value_info("out\"><script>x()</script>", TensorProto.FLOAT, ["n<i>", 2])],
    )
    built = mb.model(graph)
    built.doc_string = HOSTILE
    built.producer_name = "<script>alert(2)</script>"
    helper.set_model_props(built, {"note": HOSTILE, "<key>": "`code` *md* [x](javascript:alert(3))"})
    return built


def test_untrusted_model_strings_are_escaped(tmp_path: Path) -> None:
    config = project(tmp_path, {"hostile": _hostile_model()},
                     terms={"t": term("T", extra="models: [hostile]\n")})
    built = build_site(config)
    assert not built.aborted
    for page in ("models/hostile", "models/operators", "models", "glossary/t"):
        html = built.page(page)
        assert "<img src=x" not in html and "<script>alert" not in html and "<script>x()" not in html
        assert "<b>in</b>" not in html
        assert "javascript:alert" not in html.replace("[x](javascript:alert(3))", "")
    html = built.page("models/hostile")
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in html or "&lt;img src=x" in html
    # The generated module stays valid JavaScript whatever the names hold.
    checked = subprocess.run(["node", "--check", str(built.site / "models/hostile/example.mjs")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_docs_pages_embed_cards_and_live_examples(tmp_path: Path) -> None:
    config = project(tmp_path, {"lin": mb.linear()}, docs={
        "index.md": "# Home\n",
        "guide/use.md": "# Use\n\nText.\n\n[[model-card: lin]]\n\n[[live-example: lin]]\n\n"
                        "[[model-card: nope]]\n",
    })
    built = build_site(config)
    html = built.page("guide/use")
    assert 'class="gl-model-card"' in html and 'href="../../models/lin/"' in html
    assert "data-live-example" in html
    assert '"../../models/lin/example.mjs"' in html or "../../models/lin/example.mjs" in html
    assert built.ours() == ["docs/guide/use.md:9: [[model-card: nope]] names the unknown model "
                            "'nope': add models/nope/model.onnx or fix the name"]


def test_models_dir_copy_is_not_needed_for_pages(tmp_path: Path) -> None:
    """The site build reads only model.onnx: no export script, no torch."""
    folder = tmp_path / "models" / "linear"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "models/linear/model.onnx", folder)
    config = write_project(tmp_path, {"t": term("T")},
                           yml=YML_WITH_MODELS.format(node_modules=REPO / "node_modules", extra=""))
    built = build_site(config)
    assert built.ours() == []
    assert "example.mjs" in built.page("models/linear")


def test_embed_in_a_term_body_names_the_term_file_line(tmp_path: Path) -> None:
    body = "Intro.\n\n[[live-example: gone]]\n"
    config = project(tmp_path, {"lin": mb.linear()}, terms={"t": term("T", body=body)})
    built = build_site(config)
    assert built.ours() == ["glossary/t.md:12: [[live-example: gone]] names the unknown model "
                            "'gone': add models/gone/model.onnx or fix the name"]


def test_docs_page_front_matter_is_counted_in_lines(tmp_path: Path) -> None:
    config = project(tmp_path, {"lin": mb.linear()}, docs={
        "index.md": "---\ntitle: Home\n---\n# Home\n\n[[model-card: gone]]\n"})
    built = build_site(config)
    assert built.ours() == ["docs/index.md:6: [[model-card: gone]] names the unknown model "
                            "'gone': add models/gone/model.onnx or fix the name"]


def test_fixed_input_size_is_said_plainly_without_failing_strict(tmp_path: Path) -> None:
    fixed = mb.linear()
    for tensor in (*fixed.graph.input, *fixed.graph.output):
        tensor.type.tensor_type.shape.dim[0].dim_value = 1  # replaces the symbolic 'batch'
    config = project(tmp_path, {"fixed": fixed})
    built = build_site(config, strict=True)
    assert not built.aborted, built.warnings
    html = built.page("models/fixed")
    assert 'data-verdict="runs-with-notes"' in html
    warnings = html.split("What to know before you use it")[1].split("</div>")[0]
    assert "fixed shape [1, 3]: it takes inputs of that size only" in warnings
    assert cell(html, "Dynamic axes") == "none: every input has a fixed size"


def test_quantised_difference_says_what_was_compared_and_in_which_unit(real_site) -> None:
    """The int8 pages say what the export script compared, on what input, in which unit, and
    round the number (the metadata holds 6 significant digits)."""
    text = re.sub(r"<[^>]+>", "", real_site.page("models/digits-int8"))
    sentence = re.search(r"How far it strays from the float model:[^\n]*", text)
    assert sentence is not None
    assert "every held-out row of its test split" in sentence.group(0)
    assert re.search(r"largest difference was [0-9.]+ in the float values of (the outputs )?logits and "
                     r"probabilities", sentence.group(0)), sentence.group(0)
    text = re.sub(r"<[^>]+>", "", real_site.page("models/edges-int8"))
    assert re.search(r"the sample picture,? sample\.png", text)
    assert re.search(r"largest difference was \d+ (steps of the 8-bit output image \(0 to 255\)|grey levels "
                     r"out of 255)", text)


def test_no_code_comment_sends_readers_outside_the_repository() -> None:
    """Facts the code relies on are stated where they are used."""
    cited = [str(p.relative_to(REPO)) for folder in ("models", "plugins", "scripts", "tests")
             for p in (REPO / folder).rglob("*.py")
             if "PLATFORM" + ".md" in p.read_text(encoding="utf-8")]
    assert cited == []


def test_the_models_index_shows_examples_apart_from_test_files(real: Built) -> None:
    """Every model has a card with its summary and its answer's thumbnail; a model whose
    example.yml says it is a test file is listed apart, with its reason."""
    html = real.page("models")
    examples, tests = html.split('id="test-files"')
    for name in MODELS:
        spec = (REPO / "models" / name / "example.yml").read_text(encoding="utf-8")
        card = f'href="{name}/"'
        assert (card in tests) == ("role: test-file" in spec), name
        assert any((real.site / "models" / name).glob("answer.*")), name
    assert re.search(r'<img class="gl-answer-thumb" src="digits/answer.svg" alt="Its answer on the '
                     r'sample: 7 · 97 %"', examples)


def test_a_live_model_without_a_summary_is_a_warning_on_its_example_yml(tmp_path: Path) -> None:
    config = project(tmp_path, {"lin": mb.linear(), "bare": mb.linear()})
    (tmp_path / "models" / "lin" / "example.yml").write_text("dims:\n  batch: 2\n")
    built = build_site(config)
    assert [w for w in built.ours() if "summary" in w] == [
        "models/lin/example.yml:1: no 'summary': write one plain sentence saying what the model "
        "does and what a reader can try; it opens the model's page and its line in the index"]
    (tmp_path / "models" / "lin" / "example.yml").write_text("summary: Adds.\nrole: test-file\n")
    built = build_site(config)
    assert "models/lin/example.yml:2: a test file needs a 'reason': one line on why it is no " \
           "example" in built.ours()
