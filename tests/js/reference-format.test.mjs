// @ts-check
// Unit tests of the reference.json format check (reference-format.mjs): a file that conforms
// passes, and each way of departing from the declared format is named.
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { REFERENCE_FORMAT, formatProblems } from "./reference-format.mjs";

/** @import { Reference } from "../../plugins/onnx_glossary/assets/live-example-reference.mjs" */

/** A small reference.json that conforms: two samples, a reading, a form. */
function conforming() {
  /** @type {Reference} */
  const reference = {
    model: "iris",
    onnxruntime: "1.23.2",
    dims: { batch: 1 },
    inputs: [{ name: "input", type: "float32", dims: [1, 4], data: [5.5, 3.5, 1.3, 0.2] }],
    outputs: [{ name: "label", type: "int64", dims: [1], data: [0] }],
    tolerance: { atol: 1e-4, rtol: 1e-3 },
    image: null,
    cost: { multiply_adds: 0 },
    samples: [
      { name: "first", label: "setosa", source: "example.yml" },
      {
        name: "second", label: null, source: "test_data_set_0",
        inputs: [{ name: "input", type: "float32", dims: [1, 4], data: [5.1, 2.5, 3, 1.1] }],
        outputs: [{ name: "label", type: "int64", dims: [1], data: [1] }],
        expected: { max_abs_diff: 0, pass: true, outputs: [] },
      },
    ],
    reading: {
      kind: "classes", tensor: "label", classes: ["setosa"], softmax: false, top: 3, labels: [],
      unit: "", answer: null, score: null, threshold: 0.5,
    },
    input: {
      kind: "form", tensor: "input", grid: 8, max: 16, max_side: 320, rows: 1,
      fields: [{ label: "Sepal length", min: 4.3, max: 7.9, step: 0.1, unit: "cm" }],
    },
  };
  // A plain JSON value from here on, as JSON.parse would give it: the tests break it freely.
  return JSON.parse(JSON.stringify(reference));
}

test("a file that conforms has no problem", () => {
  assert.deepEqual(formatProblems(conforming(), REFERENCE_FORMAT), []);
});

test("an unknown key, a missing one and a wrong kind are each named, with where", () => {
  const reference = conforming();
  reference.colour = "red";
  delete reference.tolerance;
  reference.inputs[0].dims = "1x4";
  assert.deepEqual(formatProblems(reference, REFERENCE_FORMAT), [
    "reference.json: unknown key 'colour'",
    "reference.json.inputs[0].dims: string, not array",
    "reference.json: no key 'tolerance'",
  ]);
});

test("null only where the format allows it; optional keys only where it says so", () => {
  const reference = conforming();
  reference.samples[0].label = null; // allowed: no known answer
  reference.reading = null; // allowed: no reading
  reference.model = null;
  delete reference.samples[1].name;
  delete reference.samples[1].expected; // allowed: no model zoo outputs
  assert.deepEqual(formatProblems(reference, REFERENCE_FORMAT), [
    "reference.json.model: null, not string",
    "reference.json.samples[1]: no key 'name'",
  ]);
});

test("nested objects are checked all the way down", () => {
  const reference = conforming();
  reference.samples[1].expected.outputs = [{ name: "label" }];
  reference.input.fields[0].unit = 2;
  assert.deepEqual(formatProblems(reference, REFERENCE_FORMAT), [
    "reference.json.samples[1].expected.outputs[0]: no key 'type'",
    "reference.json.samples[1].expected.outputs[0]: no key 'dims'",
    "reference.json.samples[1].expected.outputs[0]: no key 'data'",
    "reference.json.input.fields[0].unit: number, not string",
  ]);
});

test("not an object at all", () => {
  assert.deepEqual(formatProblems([], REFERENCE_FORMAT), ["reference.json: array, not an object"]);
});
