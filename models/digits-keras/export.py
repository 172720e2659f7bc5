"""Export `digits-keras`: a small Keras MLP on scikit-learn's 8x8 digits, converted by tf2onnx.

The TensorFlow twin of models/digits: same data (`load_digits`, no download), same held-out
split, same input (float32 [batch, 64], raw values 0-16, divided by 16 inside the graph) and
the same outputs (logits and softmax probabilities for the classes 0-9), so the same input
UI works. Trained here in a few seconds on CPU (seeded, one thread, deterministic ops).

Runs in the TensorFlow environment (`make setup-tf` creates .venv-tf with the `tf` extra:
tensorflow-cpu, tf2onnx), not in the torch one: EXPORT_VENV below tells
scripts/export_models.py and the tests which Python to use.

Run `.venv-tf/bin/python models/digits-keras/export.py [--out DIR]`; writes DIR/model.onnx.
"""

from __future__ import annotations

import json
import os

# Before TensorFlow is imported: quiet start-up, no oneDNN rewrites.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # oneDNN reorders float sums

import keras
import numpy as np
import onnx
import onnxruntime as ort
import sklearn
import tensorflow as tf
import tf2onnx
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
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

EXPORT_VENV = ".venv-tf"
OPSET = 17
SEED = 0
# Float32 through two small matrix products: a few ulps of logits around 20 is ~1e-5.
TOLERANCE = 1e-5
CLASS_NAMES = [str(digit) for digit in range(10)]
PIXEL_MAX = 16.0  # load_digits pixels are counts 0-16
HIDDEN = 64
# The same held-out rows as models/digits, so the two frameworks' accuracies compare.
TEST_SPLIT = {"test_size": 0.25, "random_state": SEED, "stratify": True}
TRAINING = {"optimizer": "Adam", "lr": 3e-3, "batch_size": 64, "epochs": 40, "seed": SEED,
            "threads": 1}
PREPROCESSING = (
    "input: float32 [batch, 64], an 8x8 grey digit flattened row by row, values 0-16 as in "
    "sklearn.datasets.load_digits (0 = no ink); the graph divides by 16. "
    "output: logits and softmax probabilities for the classes 0-9"
)


def split_digits() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    data = load_digits()
    labels = data.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(
        data.data.astype(np.float32), labels, test_size=TEST_SPLIT["test_size"],
        random_state=TEST_SPLIT["random_state"], stratify=labels,
    )
    return x_train, x_test, y_train, y_test


def build() -> keras.Model:
    pixels = keras.Input(shape=(64,), dtype="float32", name="pixels")
    x = keras.layers.Rescaling(1.0 / PIXEL_MAX, name="scale")(pixels)
    x = keras.layers.Dense(HIDDEN, activation="relu", name="hidden")(x)
    logits = keras.layers.Dense(10, name="logits")(x)
    probabilities = keras.layers.Softmax(name="probabilities")(logits)
    return keras.Model(pixels, [logits, probabilities], name="digits_keras")


def train(x_train: np.ndarray, y_train: np.ndarray) -> keras.Model:
    tf.config.threading.set_intra_op_parallelism_threads(TRAINING["threads"])
    tf.config.threading.set_inter_op_parallelism_threads(TRAINING["threads"])
    tf.config.experimental.enable_op_determinism()
    keras.utils.set_random_seed(SEED)
    model = build()
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=TRAINING["lr"]),
        loss=[keras.losses.SparseCategoricalCrossentropy(from_logits=True), None],
    )
    model.fit(x_train, y_train, batch_size=TRAINING["batch_size"], epochs=TRAINING["epochs"],
              shuffle=True, verbose=0)
    return model


def convert(model: keras.Model) -> onnx.ModelProto:
    """tf2onnx on a tf.function with a free batch axis; names as in models/digits."""

    signature = [tf.TensorSpec([None, 64], tf.float32, name="pixels")]

    @tf.function(input_signature=signature)
    def forward(pixels: tf.Tensor) -> dict[str, tf.Tensor]:
        logits, probabilities = model(pixels, training=False)
        return {"logits": logits, "probabilities": probabilities}

    onnx_model, _ = tf2onnx.convert.from_function(forward, input_signature=signature, opset=OPSET)
    rename = {value.name: value.name.split(":")[0] for value in
              (*onnx_model.graph.input, *onnx_model.graph.output)}
    for value in (*onnx_model.graph.input, *onnx_model.graph.output):
        value.name = rename[value.name]
        value.type.tensor_type.shape.dim[0].dim_param = "batch"
    for node in onnx_model.graph.node:
        node.input[:] = [rename.get(name, name) for name in node.input]
        node.output[:] = [rename.get(name, name) for name in node.output]
    # tf2onnx imports ai.onnx.ml whether or not a node uses it; readers (and the page's
    # choice of backend) would take that for a classic-ML model.
    used = {node.domain for node in onnx_model.graph.node} | {""}
    kept = [o for o in onnx_model.opset_import if o.domain in used]
    del onnx_model.opset_import[:]
    onnx_model.opset_import.extend(kept)
    # "1.17.0 <git hash>"; the hash is None in the PyPI wheel.
    onnx_model.producer_version = tf2onnx.__version__
    # Outputs in the same order as models/digits.
    outputs = sorted(onnx_model.graph.output, key=lambda v: ["logits", "probabilities"].index(v.name))
    del onnx_model.graph.output[:]
    onnx_model.graph.output.extend(outputs)
    return onnx_model


def main() -> None:
    out_dir = parse_out_dir(__file__)
    x_train, x_test, y_train, y_test = split_digits()
    model = train(x_train, y_train)
    onnx_model = convert(model)

    # Parity on the whole held-out split (a batch of 450).
    expected = [np.asarray(t) for t in model(x_test, training=False)]
    session = ort.InferenceSession(onnx_model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    actual = session.run(["logits", "probabilities"], {"pixels": x_test})
    diff = max(max_abs_diff(e, a) for e, a in zip(expected, actual, strict=True))
    check_parity("digits-keras", diff, TOLERANCE)
    predicted = actual[0].argmax(axis=1)
    if not np.array_equal(expected[0].argmax(axis=1), predicted):
        raise ParityError("digits-keras: onnxruntime predicts other classes than Keras")
    classes = classifier_metadata(CLASS_NAMES, predicted, y_test)

    onnx_model.doc_string = ("Keras MLP 64-64-10 on scikit-learn's 8x8 digits, "
                             "trained in TensorFlow, converted by tf2onnx")
    stamp_provenance(
        onnx_model,
        framework="tensorflow/keras",
        framework_version=f"tensorflow {tf.__version__}, keras {keras.__version__}",
        exporter_settings={
            "exporter": f"tf2onnx {tf2onnx.__version__} convert.from_function",
            "opset_version": OPSET,
            "dynamic_axes": {"pixels": {"0": "batch"}, "logits": {"0": "batch"},
                             "probabilities": {"0": "batch"}},
        },
        script=__file__,
        parity_max_abs_diff=diff,
        extra={
            "preprocessing": PREPROCESSING,
            "dataset": f"sklearn.datasets.load_digits (scikit-learn {sklearn.__version__}), "
                       f"{len(x_train)} training rows, {len(x_test)} held-out rows",
            "test_split": json.dumps(TEST_SPLIT, sort_keys=True),
            "training": json.dumps(TRAINING, sort_keys=True),
            **classes,
        },
    )
    path = out_dir / "model.onnx"
    size = save_checked(onnx_model, path)
    print(f"digits-keras: wrote {path} ({size} bytes), parity max abs diff {diff:.3g}, "
          f"held-out accuracy {classes['heldout_accuracy']}")


if __name__ == "__main__":
    run_main(main)
