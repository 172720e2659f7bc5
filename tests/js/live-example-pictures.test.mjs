// @ts-check
// Unit tests of greyPixels (live-example-core.mjs): how a one-channel float output is drawn.
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { greyPixels } from "../../plugins/onnx_glossary/assets/live-example-core.mjs";

/**
 * @param {Uint8ClampedArray} pixels
 * @param {number} i
 */
const grey = (pixels, i) => Array.from(pixels.slice(4 * i, 4 * i + 4));

describe("greyPixels", () => {
  test("the smallest value is black, the largest white, the rest in proportion", () => {
    const { pixels, min, max } = greyPixels([-2, 0, 2, 1], 2, 2);
    assert.deepEqual([min, max], [-2, 2]);
    assert.deepEqual(grey(pixels, 0), [0, 0, 0, 255]);
    assert.deepEqual(grey(pixels, 2), [255, 255, 255, 255]);
    assert.deepEqual(grey(pixels, 1), [128, 128, 128, 255]); // 127.5 rounds to 128
    assert.deepEqual(grey(pixels, 3), [191, 191, 191, 255]); // 191.25
  });
  test("a flat picture is mid-grey, not black", () => {
    const { pixels } = greyPixels([3, 3, 3], 1, 3);
    assert.deepEqual(grey(pixels, 2), [128, 128, 128, 255]);
  });
  test("NaN is black and does not stretch the scale", () => {
    const { pixels, min, max } = greyPixels([NaN, 1, 5], 1, 3);
    assert.deepEqual([min, max], [1, 5]);
    assert.deepEqual(grey(pixels, 0), [0, 0, 0, 255]);
    assert.deepEqual(grey(pixels, 2), [255, 255, 255, 255]);
  });
  test("reads only height x width values and returns that many pixels", () => {
    const { pixels, max } = greyPixels([0, 1, 2, 99], 1, 3);
    assert.equal(pixels.length, 12);
    assert.equal(max, 2);
  });
});
