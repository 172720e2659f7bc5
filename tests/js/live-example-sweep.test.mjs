// @ts-check
// Unit tests of the shape sweep's and the side-by-side table's pure parts
// (plugins/onnx_glossary/assets/live-example-sweep.mjs, -both.mjs): the input resized along its
// free dims, the sentence that reads the sweep's numbers, the cells of a backend's row.
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { rowCells } from "../../plugins/onnx_glossary/assets/live-example-both.mjs";
import {
  resized, sizeText, slowFirst, sweepReading,
} from "../../plugins/onnx_glossary/assets/live-example-sweep.mjs";

/** @typedef {import("../../plugins/onnx_glossary/assets/live-example-sweep.mjs").SweepSpec} SweepSpec */

/** @type {SweepSpec} */
const ROWS = { input: "input", axes: [0], dims: ["batch"], sizes: [1, 2, 4, 8, 16], unit: "rows" };
/** @type {SweepSpec} */
const PICTURE = { input: "image", axes: [0, 1], dims: ["height", "width"], sizes: [2, 4], unit: "px" };

describe("the input at each size", () => {
  test("rows repeat along a batch axis; the other dims stay", () => {
    const two = Float32Array.from([1, 2, 3, 4, 5, 6]);  // [2, 3]
    const made = resized(two, [2, 3], [0], 4, (n) => new Float32Array(n));
    assert.deepEqual(made.dims, [4, 3]);
    assert.deepEqual(Array.from(made.values), [1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6]);
    assert.ok(made.values instanceof Float32Array);
    const one = resized(two, [2, 3], [0], 1, (n) => new Float32Array(n));
    assert.deepEqual([one.dims, Array.from(one.values)], [[1, 3], [1, 2, 3]]);
  });

  test("a picture [height, width, 4] is scaled, nearest neighbour, its channels kept", () => {
    // 2x2 RGBA: each pixel's channels are its number four times.
    const picture = Uint8Array.from([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
    const made = resized(picture, [2, 2, 4], [0, 1], 4, (n) => new Uint8Array(n));
    assert.deepEqual(made.dims, [4, 4, 4]);
    const pixels = Array.from({ length: 16 }, (_, i) => made.values[4 * i]);
    assert.deepEqual(pixels, [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
  });

  test("sizes as the tables say them", () => {
    assert.equal(sizeText(ROWS, 1), "1 row");
    assert.equal(sizeText(ROWS, 16), "16 rows");
    assert.equal(sizeText(PICTURE, 64), "64×64 px");
  });
});

describe("the sentence under the tables", () => {
  /** @param {number[][]} rows [first, repeat] per size */
  const sweep = (rows) => rows.map(([firstMs, repeatMs], i) => ({ size: ROWS.sizes[i], firstMs, repeatMs }));
  const flat = sweep([[300, 2], [2.2, 2], [2.3, 2.1], [5, 6], [24, 23]]);
  const level = sweep([[3, 2], [2.2, 2], [2.3, 2.1], [5, 6], [24, 23]]);  // every size, pinned

  test("a first call is slow when it is three times a repeat call and 2 ms more", () => {
    assert.equal(slowFirst({ size: 1, firstMs: 9, repeatMs: 3 }), true);
    assert.equal(slowFirst({ size: 1, firstMs: 0.3, repeatMs: 0.1 }), false);  // the clock's steps
    assert.equal(slowFirst({ size: 1, firstMs: 8, repeatMs: 3 }), false);
  });

  test("WebGPU: a size that compiled as exported, and pinned sessions that pay on their first call", () => {
    const exported = sweep([[171, 3.7], [2.5, 11], [33, 14], [30, 11], [2476, 22]]);
    const pinned = sweep([[206, 6.9], [30, 3.6], [74, 7.1], [62, 8.3], [4207, 7.9]]);
    assert.equal(sweepReading("webgpu", ROWS, exported, pinned),
      "On this device the first call at 16 rows took 113× a repeat call as exported (work done " +
      "for the new shape), and the pinned sessions paid on their first call too (up to 533× a " +
      "repeat call, at every size).");
    // The first size as exported is the session's very first call: it does not count (pinned,
    // every size is a session's first call).
    assert.equal(sweepReading("webgpu", ROWS, flat, level),
      "On this device no first call took clearly longer than the repeat calls, as exported or " +
      "pinned: nothing here shows work done per shape.");
    assert.match(sweepReading("webgpu", ROWS, exported, level), /pinning the axis removed it\.$/);
    assert.match(sweepReading("webgpu", ROWS, flat, pinned),
      /^On this device a new size cost its first call nothing extra as exported/);
  });

  test("WebAssembly: nothing compiles per shape, and the sentence says by how little a first call differs", () => {
    assert.equal(sweepReading("wasm", ROWS, flat, flat),
      "On WebAssembly nothing is compiled per shape: as exported, the first call at a new size " +
      "took at most 1.00 ms more than a repeat call.");
  });
});

describe("a backend's row of the side-by-side table", () => {
  test("its timings, how many runs, and the reference check", () => {
    assert.deepEqual(rowCells({ backend: "wasm", startMs: 1701, withStart: true, firstMs: 12,
                                times: [0.1, 0.2, 0.3, 0.4], runs: 20, match: true }),
      ["1701 ms (with the runtime's own start)", "12 ms", "0.25 ms", "0.37 ms", "20", "matches"]);
    assert.deepEqual(rowCells({ backend: "webgpu", startMs: 20, firstMs: 3, times: [2], runs: 1,
                                match: false })[5], "DIFFERS");
    assert.equal(rowCells({ backend: "webgpu", startMs: 20, firstMs: 3, times: [2], match: null })[5],
      "no reference for your own input");
  });

  test("a backend that could not run says why, in one cell", () => {
    assert.deepEqual(rowCells({ backend: "webgpu", missing: "not here: this browser offers no WebGPU adapter" }),
      ["not here: this browser offers no WebGPU adapter"]);
  });
});
