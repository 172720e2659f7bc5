// @ts-check
// Unit tests of the widget's input sources (plugins/onnx_glossary/assets/live-example-inputs.mjs)
// on a stand-in for the widget's DOM: only querySelector('[data-le="…"]') and the checked
// sample radio are used.
import assert from "node:assert/strict";
import { test } from "node:test";

import { currentInput, feedArgs } from "../../plugins/onnx_glossary/assets/live-example-inputs.mjs";

/**
 * A widget root whose parts (data-le="name") are the given stand-ins; `fields` are the form's.
 * @param {Record<string, object>} parts
 * @param {{kind?: string, sample?: number | null, tensor?: string}} [options]
 * @returns {HTMLElement}
 */
function widget(parts, { kind = "picture", sample = null, tensor = "x" } = {}) {
  const stub = {
    dataset: { inputKind: kind, inputTensor: tensor },
    /** @param {string} selector */
    querySelector(selector) {
      if (selector === "input[data-le-sample]:checked") {
        return sample === null ? null : { dataset: { leSample: String(sample) } };
      }
      const match = /^\[data-le="(.+)"\]$/.exec(selector);
      return (match && parts[match[1]]) || null;
    },
    /** @param {string} selector */
    querySelectorAll(selector) {
      return selector === "input[data-le-field]" ? parts.fields || [] : [];
    },
  };
  // Node has no DOM: the stand-in has only the members the module uses (dataset,
  // querySelector, querySelectorAll) and parts with only theirs, so it passes as the root.
  return /** @type {HTMLElement} */ (/** @type {unknown} */ (stub));
}

const picture = { name: "mine.png" };
const reference = {
  inputs: [{ name: "x", dims: [2, 3], data: [1, 2, 3, 4, 5, 6] }],
  samples: [{ name: "a" }, { name: "b", inputs: [{ name: "x", dims: [2, 3], data: [6, 5, 4, 3, 2, 1] }] },
            { name: "c", inputs: [{ name: "x", dims: [1, 3], data: [7, 8, 9] }] }],
};

test("sample 0, with its reference, when the widget has no picker", () => {
  const input = currentInput(widget({}));
  assert.deepEqual(input, { source: "sample", index: 0, hasReference: true, noReference: null });
  assert.deepEqual(feedArgs(widget({}), input, {}, reference), { args: [], pinned: true });
});

test("the picked sample: its own values and dims; pinned only when its sizes are sample 0's", () => {
  const root = widget({}, { sample: 1 });
  const input = currentInput(root);
  assert.deepEqual(input, { source: "sample", index: 1, hasReference: true, noReference: null });
  assert.deepEqual(feedArgs(root, input, {}, reference),
    { args: [{ x: [6, 5, 4, 3, 2, 1] }, { x: [2, 3] }], pinned: true });
  const other = feedArgs(root, { source: "sample", index: 2, hasReference: true, noReference: null },
                         {}, reference);
  assert.deepEqual(other, { args: [{ x: [7, 8, 9] }, { x: [1, 3] }], pinned: false });
});

test("the reader's picture when 'your own' is checked and a file is chosen", () => {
  const root = widget({ "use-own": { checked: true }, file: { files: [picture] } });
  const input = currentInput(root);
  assert.equal(input.source, "own");
  assert.equal(input.hasReference, false);
  assert.equal(input.noReference?.check, "No reference exists for your own picture: nothing to compare.");
  assert.deepEqual(feedArgs(root, input, {}, reference), { args: [picture], pinned: false });
});

test("a chosen file is ignored while a sample is selected", () => {
  const input = currentInput(widget({ "use-own": { checked: false }, file: { files: [picture] } }));
  assert.equal(input.source, "sample");
});

test("'your own picture' without a file falls back to the sample", () => {
  const input = currentInput(widget({ "use-own": { checked: true }, file: { files: [] } }));
  assert.equal(input.source, "sample");
});

test("the form's numbers: one row, unpinned when the sample had two", () => {
  const fields = [{ value: "0.5" }, { value: " -1 " }, { value: "2" }];
  const root = widget({ "use-own": { checked: true }, fields }, { kind: "form" });
  const input = currentInput(root);
  assert.equal(input.noReference?.check, "No reference exists for your numbers: nothing to compare.");
  assert.deepEqual(feedArgs(root, input, {}, reference),
    { args: [{ x: [0.5, -1, 2] }, { x: [1, 3] }], pinned: false });
});

test("an empty form field is a readable error", () => {
  const label = { textContent: " Sepal length (cm) " };
  const fields = [{ value: "", closest: () => label }];
  const root = widget({ "use-own": { checked: true }, fields }, { kind: "form" });
  assert.throws(() => feedArgs(root, currentInput(root), {}, reference), /Enter a number for Sepal length \(cm\)/);
});

test("a drawing goes through example.mjs's drawingToInput; an empty pad is an error", () => {
  /** @type {{drawn?: string}} */
  const padData = { drawn: "true" };
  const pad = { dataset: padData, width: 2, height: 1,
                getContext: () => ({ getImageData: () => ({ data: [0, 0, 0, 255, 0, 0, 0, 0], width: 2, height: 1 }) }) };
  const root = widget({ "use-own": { checked: true }, pad }, { kind: "drawing" });
  const input = currentInput(root);
  assert.equal(input.noReference?.check, "No reference exists for your drawing: nothing to compare.");
  const example = { drawingToInput: (/** @type {ImageData} */ image) => [image.width, image.height, 0] };
  assert.deepEqual(feedArgs(root, input, example, reference),
    { args: [{ x: [2, 1, 0] }, { x: [1, 3] }], pinned: false });
  delete padData.drawn;
  assert.throws(() => feedArgs(root, input, example, reference), /drawing pad is empty/);
});
