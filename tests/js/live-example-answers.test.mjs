// @ts-check
// Unit tests of the answer in words and the record's one line
// (plugins/onnx_glossary/assets/live-example-answers.mjs). Run by tests/test_widget_js.py.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  answerPercent, answerWords, classesAnswer, counted, fillAnswer, maskFraction, recordSummary,
  threadsText, valuesAnswer,
} from "../../plugins/onnx_glossary/assets/live-example-answers.mjs";

describe("the answer in words", () => {
  test("a classifier: its sentence with the top class and a whole percent", () => {
    const { fields } = classesAnswer([0.01, 0.973, 0.017], [1, 3],
      { classes: ["0", "7", "9"], softmax: false, top: 3 });
    assert.equal(answerWords("classes", "Read as {class} · {percent}", fields), "Read as 7 · 97 %");
    assert.equal(answerWords("classes", null, fields), "7 · 97 %");
  });
  test("logits become probabilities first", () => {
    const { fields } = classesAnswer([0, 10, 0], [1, 3], { classes: ["a", "b", "c"], softmax: true, top: 1 });
    assert.equal(fields.class, "b");
    assert.equal(fields.percent, "100 %");
  });
  test("counts say their noun, and none is a plain sentence", () => {
    assert.equal(answerWords("text-lines", null, { count: counted(3, "line of text", "lines of text") }),
      "3 lines of text found");
    assert.equal(answerWords("faces", null, { count: counted(1, "face", "faces"), score: "0.92" }),
      "1 face, 0.92");
    assert.equal(answerWords("faces", null, { count: "0 faces" }, { none: "No face found" }),
      "No face found");
  });
  test("a batch of numbers: one answer per row", () => {
    const { fields } = valuesAnswer([0.5, -1.25], [2, 1]);
    assert.equal(fillAnswer("{count} rows in, {count} answers out: {values}", fields),
      "2 rows in, 2 answers out: 0.500000 · -1.25000");
  });
  test("an unknown field stays as written; a percentage under 1 is not 0", () => {
    assert.equal(fillAnswer("{class} and {nothing}", { class: "x" }), "x and {nothing}");
    assert.equal(answerPercent(0.001), "< 1 %");
    assert.equal(answerPercent(0), "0 %");
  });
  test("a mask's share is the pixels more likely foreground than not", () => {
    assert.equal(maskFraction([0.9, 0.6, 0.5, 0.1]), 0.5);
    assert.equal(maskFraction([]), 0);
  });
});

describe("the record", () => {
  test("one line sums it up", () => {
    assert.equal(recordSummary({ backend: "wasm", threads: 1, match: true, medianMs: 0.09 }),
      "wasm · 1 thread · matches the build's reference · 0.09 ms a run");
    assert.equal(recordSummary({ backend: "webgpu", threads: 2, match: false, medianMs: 12.34 }),
      "webgpu · 2 threads · DIFFERS from the build's reference · 12.3 ms a run");
    assert.equal(recordSummary({ backend: "wasm", threads: 1, match: null, medianMs: null }),
      "wasm · 1 thread · no reference for your own input · timing…");
  });
  test("one thread is always explained, and an isolated page without SharedArrayBuffer says so", () => {
    assert.match(threadsText({ isolated: false, shared: false, threads: 1 }), /^1 \(.*COOP and COEP/);
    assert.match(threadsText({ isolated: true, shared: false, threads: 1 }),
      /^1 \(the page is cross-origin isolated, but this browser gives it no SharedArrayBuffer/);
    assert.equal(threadsText({ isolated: true, shared: true, threads: 2 }),
      "2 (the page is cross-origin isolated)");
  });
});
