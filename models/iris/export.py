"""Export `iris`: scikit-learn logistic regression on the bundled iris data, via skl2onnx.

Trained on 90 of the 150 rows; the other 60 (stratified) are held out to measure accuracy
with onnxruntime on the exported model.

ZipMap is disabled, so probabilities come out as a plain float32 [N, 3] tensor that
onnxruntime-web can read (a ZipMap output is a sequence of maps, which it cannot).

Run `python models/iris/export.py [--out DIR]`; writes DIR/model.onnx.
"""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import skl2onnx
import sklearn
from onnx_glossary.models.export_tools import (
    ParityError,
    check_parity,
    classifier_metadata,
    max_abs_diff,
    parse_out_dir,
    run_main,
    save_checked,
    stamp_provenance,
)
from skl2onnx import to_onnx
from skl2onnx.common.data_types import FloatTensorType
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

SEED = 0
TARGET_OPSET = 17
# Probabilities in float32 against sklearn's float64: a few float32 ulps is expected.
TOLERANCE = 1e-5
# 60 held-out rows: one row is 1.7 points, under the 2 points a re-export on another machine
# may move the accuracy.
TEST_SPLIT = {"test_size": 0.4, "random_state": SEED, "stratify": True}


def dedupe_opset_imports(model: onnx.ModelProto) -> None:
    """skl2onnx 1.20 lists the default domain twice; keep one entry per domain.

    The checker lets the duplicate pass, but every reader then has to guess which wins.
    """
    versions: dict[str, int] = {}
    for entry in model.opset_import:
        versions[entry.domain] = max(entry.version, versions.get(entry.domain, 0))
    del model.opset_import[:]
    for domain, version in sorted(versions.items()):
        model.opset_import.add(domain=domain, version=version)


def main() -> None:
    out_dir = parse_out_dir(__file__)
    data = load_iris()
    features = data.data.astype(np.float32)
    x_train, x_test, y_train, y_test = train_test_split(
        features, data.target, test_size=TEST_SPLIT["test_size"],
        random_state=TEST_SPLIT["random_state"], stratify=data.target,
    )
    classifier = LogisticRegression(max_iter=1000, random_state=SEED)
    classifier.fit(x_train, y_train)

    options = {id(classifier): {"zipmap": False}}
    onnx_model = to_onnx(
        classifier,
        initial_types=[("input", FloatTensorType([None, 4]))],
        options=options,
        target_opset=TARGET_OPSET,
    )
    # skl2onnx leaves the batch dimension unnamed; name it so pages and
    # freeDimensionOverrides can refer to it.
    onnx_model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "batch"
    for output in onnx_model.graph.output:
        output.type.tensor_type.shape.dim[0].dim_param = "batch"
    dedupe_opset_imports(onnx_model)
    onnx_model.doc_string = "LogisticRegression on the iris data set (scikit-learn)"

    path = out_dir / "model.onnx"
    session = ort.InferenceSession(
        onnx_model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    # Parity and accuracy on the held-out rows (never seen in training).
    labels, probabilities = session.run(["label", "probabilities"], {"input": x_test})
    diff = max_abs_diff(classifier.predict_proba(x_test), probabilities)
    check_parity("iris", diff, TOLERANCE)
    if not np.array_equal(classifier.predict(x_test), labels):
        raise ParityError("iris: onnxruntime predicts other labels than scikit-learn")
    classes = classifier_metadata([str(name) for name in data.target_names], labels, y_test)

    stamp_provenance(
        onnx_model,
        framework="scikit-learn",
        framework_version=sklearn.__version__,
        exporter_settings={
            "exporter": f"skl2onnx {skl2onnx.__version__} to_onnx",
            "target_opset": TARGET_OPSET,
            "options": {"zipmap": False},
            "dynamic_axes": {"input": {"0": "batch"}},
        },
        script=__file__,
        parity_max_abs_diff=diff,
        extra={
            "dataset": f"sklearn.datasets.load_iris (scikit-learn {sklearn.__version__}), "
                       f"{len(x_train)} training rows, {len(x_test)} held-out rows",
            "test_split": json.dumps(TEST_SPLIT, sort_keys=True),
            **classes,
        },
    )
    size = save_checked(onnx_model, path)
    print(f"iris: wrote {path} ({size} bytes), parity max abs diff {diff:.3g}, "
          f"held-out accuracy {classes['heldout_accuracy']}")


if __name__ == "__main__":
    run_main(main)
