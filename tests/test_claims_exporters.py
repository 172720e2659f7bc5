"""What the glossary says the exporters do: torch 2.13.0's torch.onnx.export and skl2onnx 1.20.0.

They need the export extra (``make setup-export``, which ``make test`` runs). Named
``<term>__<claim>``; glossary/claims.yml says which sentence each one backs.
"""

from __future__ import annotations

import importlib.util
import inspect
import io
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from .sitebuild import MODELS


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch", reason="needs the export extra (make setup-export)")


@pytest.fixture(scope="module")
def skl2onnx():
    return pytest.importorskip("skl2onnx", reason="needs the export extra (make setup-export)")


def legacy_export(torch, **options: object) -> tuple[onnx.ModelProto, list[warnings.WarningMessage]]:
    layer = torch.nn.Linear(3, 1).eval()
    buffer = io.BytesIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.onnx.export(layer, (torch.rand(2, 3),), buffer, dynamo=False, **options)
    return onnx.load_from_string(buffer.getvalue()), caught


def test_torch_onnx_export__defaults_are_dynamo_and_external_data(torch) -> None:
    assert torch.__version__.startswith("2.13.0")
    parameters = inspect.signature(torch.onnx.export).parameters
    assert parameters["dynamo"].default is True and parameters["external_data"].default is True


def test_torch_onnx_export__the_default_call_needs_onnxscript(torch) -> None:
    if importlib.util.find_spec("onnxscript") is not None:
        pytest.skip("onnxscript is installed here, so the default exporter runs")
    with pytest.raises(ModuleNotFoundError, match="No module named 'onnxscript'"):
        torch.onnx.export(torch.nn.Linear(3, 1).eval(), (torch.rand(2, 3),), io.BytesIO())


def test_torch_onnx_export__legacy_default_is_opset_20_ir_9_and_17_gives_ir_8(torch) -> None:
    model, caught = legacy_export(torch)
    assert (model.ir_version, [o.version for o in model.opset_import]) == (9, [20])
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    model, _ = legacy_export(torch, opset_version=17)
    assert (model.ir_version, [o.version for o in model.opset_import]) == (8, [17])


def test_torch_onnx_export__legacy_exporter_invents_names_like_onnx_gemm_0(torch) -> None:
    model, _ = legacy_export(torch, opset_version=17)
    assert [i.name for i in model.graph.input] == ["onnx::Gemm_0"]
    named, _ = legacy_export(torch, opset_version=17, input_names=["input"], output_names=["output"])
    assert [i.name for i in named.graph.input] == ["input"]


def test_torch_onnx_export__without_dynamic_axes_another_batch_fails(torch) -> None:
    model, _ = legacy_export(torch, opset_version=17, input_names=["input"])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    assert sess.get_inputs()[0].shape == [2, 3]
    with pytest.raises(Exception, match="Got invalid dimensions for input"):
        sess.run(None, {"input": np.zeros((3, 3), np.float32)})


@pytest.fixture(scope="module")
def iris_classifier(skl2onnx):
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    features, labels = load_iris(return_X_y=True)
    return LogisticRegression(max_iter=500).fit(features.astype(np.float32), labels), features


def test_skl2onnx__versions_and_newest_opset_22(skl2onnx) -> None:
    import sklearn

    assert (skl2onnx.__version__, sklearn.__version__) == ("1.20.0", "1.9.1")
    assert skl2onnx.__max_supported_opset__ == 22


def test_skl2onnx__without_target_opset_a_logistic_regression_gets_opset_9_and_ml_1(skl2onnx, iris_classifier) -> None:
    classifier, features = iris_classifier
    model = skl2onnx.to_onnx(classifier, features[:1].astype(np.float32))
    assert sorted((o.domain, o.version) for o in model.opset_import) == [("", 9), ("ai.onnx.ml", 1)]
    ops = [n.op_type for n in model.graph.node]
    assert ops[0] == "LinearClassifier" and "Normalizer" in ops and ops[-1] == "ZipMap"


def test_skl2onnx__target_opset_17_lists_the_default_domain_twice(skl2onnx, iris_classifier) -> None:
    from skl2onnx.common.data_types import FloatTensorType

    classifier, _ = iris_classifier
    model = skl2onnx.to_onnx(classifier, initial_types=[("input", FloatTensorType([None, 4]))],
                             options={id(classifier): {"zipmap": False}}, target_opset=17)
    assert sorted((o.domain, o.version) for o in model.opset_import) == [
        ("", 17), ("", 17), ("ai.onnx.ml", 1)]
    onnx.checker.check_model(model)  # accepted
    (probabilities,) = [o for o in model.graph.output if o.name == "probabilities"]
    assert probabilities.type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    assert probabilities.type.tensor_type.shape.dim[1].dim_value == 3
    assert [n.op_type for n in model.graph.node] == ["LinearClassifier", "Normalizer"]
    (batch, features) = model.graph.input[0].type.tensor_type.shape.dim
    assert not batch.dim_value and features.dim_value == 4  # None: a dynamic axis


def test_skl2onnx__float64_data_gives_a_double_input(skl2onnx, iris_classifier) -> None:
    classifier, features = iris_classifier
    model = skl2onnx.to_onnx(classifier, features[:1])  # float64
    assert model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.DOUBLE


def test_skl2onnx__iris_records_its_parity_of_about_1_2e_7() -> None:
    meta = {p.key: p.value for p in onnx.load(MODELS / "iris" / "model.onnx").metadata_props}
    assert abs(float(meta["parity_max_abs_diff"]) - 1.2e-7) < 0.05e-7
