// Unit tests of the widget's input sources (plugins/onnx_glossary/assets/live-example-inputs.mjs)
// on a stand-in for the widget's DOM: only querySelector('[data-le="…"]') is used.
import assert from "node:assert/strict";
import { test } from "node:test";

import { currentInput } from "../../plugins/onnx_glossary/assets/live-example-inputs.mjs";

function widget(parts) {
  return {
    querySelector(selector) {
      const name = /^\[data-le="(.+)"\]$/.exec(selector)[1];
      return parts[name] || null;
    },
  };
}

const picture = { name: "mine.png" };

test("the shipped sample, with its reference, when the widget has no picker", () => {
  const input = currentInput(widget({}));
  assert.deepEqual([input.source, input.args, input.hasReference], ["sample", [], true]);
});

test("the reader's picture when 'your own' is checked and a file is chosen", () => {
  const input = currentInput(widget({ "use-file": { checked: true }, file: { files: [picture] } }));
  assert.equal(input.source, "file");
  assert.deepEqual(input.args, [picture]);
  assert.equal(input.hasReference, false);
  assert.equal(input.noReference.check, "No reference exists for your own picture: nothing to compare.");
});

test("a chosen file is ignored while 'the shipped picture' is selected", () => {
  const input = currentInput(widget({ "use-file": { checked: false }, file: { files: [picture] } }));
  assert.equal(input.source, "sample");
});

test("'your own' without a file falls back to the sample", () => {
  const input = currentInput(widget({ "use-file": { checked: true }, file: { files: [] } }));
  assert.equal(input.source, "sample");
});
