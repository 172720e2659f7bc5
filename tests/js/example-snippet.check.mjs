// @ts-check
// Unit tests of the pure helpers a generated example.mjs exports (drawingToInput, pictureSize):
// the code the reader sees is the code that runs, so the tests run that very file. Rendered by
// tests/test_widget_js.py, which passes the paths: node --test example-snippet.check.mjs
// (env DRAWING_SNIPPET: a drawing model's example.mjs; PICTURE_SNIPPET: a free-size picture one).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";

/**
 * A generated example.mjs the test was given (env `name`), imported (import() of a file is
 * untyped; example.mjs.jinja writes these exports).
 * @param {string} name
 * @returns {Promise<{drawingToInput: (image: ImageData) => number[],
 *                    pictureSize: (width: number, height: number, maxSide?: number) => number[]}>}
 */
async function snippet(name) {
  const path = process.env[name];
  assert.ok(path, name + " names no example.mjs");
  return import(pathToFileURL(path).href);
}

const drawing = await snippet("DRAWING_SNIPPET");
const picture = await snippet("PICTURE_SNIPPET");
/**
 * The snippets' backend rule (import() of a file is untyped).
 * @typedef {{pickBackend: (wanted?: string) => Promise<{backend: string, reason: string,
 *   adapter: string}>, MULTIPLY_ADDS: number, WEBGPU_FROM: number}} Rule
 */
const small = /** @type {Rule} */ (/** @type {unknown} */ (drawing));
const big = /** @type {Rule} */ (/** @type {unknown} */ (await snippet("BIG_SNIPPET")));

/**
 * A browser's navigator.gpu, as far as the rule asks it (node has no navigator): an adapter
 * that is hardware, software (isFallbackAdapter) or none. Counts the requests.
 * @param {"hardware" | "software" | "none"} kind
 */
function gpu(kind) {
  const asked = { count: 0 };
  const adapter = kind === "none" ? null : { info: { isFallbackAdapter: kind === "software" } };
  Object.defineProperty(globalThis, "navigator", {
    configurable: true,
    value: { gpu: { requestAdapter: async () => { asked.count++; return adapter; } } },
  });
  return asked;
}

describe("pickBackend: the fastest backend for this reader", () => {
  test("a small model runs on WebAssembly without asking for an adapter", async () => {
    assert.ok(small.MULTIPLY_ADDS < small.WEBGPU_FROM);
    const asked = gpu("hardware");
    const choice = await small.pickBackend();
    assert.deepEqual([choice.backend, choice.adapter, asked.count], ["wasm", "not asked", 0]);
  });
  test("above the threshold, a hardware GPU runs it", async () => {
    assert.ok(big.MULTIPLY_ADDS >= big.WEBGPU_FROM);
    gpu("hardware");
    assert.equal((await big.pickBackend()).backend, "webgpu");
  });
  test("a software adapter never gets it, nor a browser without one", async () => {
    gpu("software");
    const soft = await big.pickBackend();
    assert.deepEqual([soft.backend, soft.adapter], ["wasm", "software"]);
    gpu("none");
    assert.equal((await big.pickBackend()).backend, "wasm");
  });
  test("the reader's choice wins: WebGPU even on a software adapter, WebAssembly always", async () => {
    gpu("software");
    assert.equal((await small.pickBackend("webgpu")).backend, "webgpu");
    gpu("hardware");
    assert.equal((await big.pickBackend("wasm")).backend, "wasm");
    gpu("none");
    assert.equal((await small.pickBackend("webgpu")).backend, "wasm");
  });
});

/**
 * A synthetic ImageData: transparent, with opaque black rectangles [x0, y0, x1, y1).
 * @param {number} width
 * @param {number} height
 * @param {Array<[number, number, number, number]>} rects
 * @param {{background?: number[], ink?: number[]}} [colours]
 * @returns {ImageData}
 */
function imageData(width, height, rects, { background = [0, 0, 0, 0], ink = [0, 0, 0, 255] } = {}) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(background, 4 * i);
  for (const [x0, y0, x1, y1] of rects) {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data.set(ink, 4 * (y * width + x));
  }
  // drawingToInput reads data, width and height only: the other members of ImageData
  // (colorSpace) need a DOM, which node has not.
  return /** @type {ImageData} */ ({ data, width, height });
}

/** @param {number[]} values */
const grid = (values) => Array.from({ length: 8 }, (_, r) => values.slice(r * 8, r * 8 + 8));

describe("drawingToInput", () => {
  test("an empty pad is all zeros", () => {
    assert.deepEqual(drawingToInputSafe(imageData(64, 64, [])), new Array(64).fill(0));
  });
  test("a filled square fills the whole 8x8 grid with 16", () => {
    assert.deepEqual(drawing.drawingToInput(imageData(100, 100, [[10, 20, 50, 60]])),
      new Array(64).fill(16));
  });
  test("the same shape, drawn small or large, anywhere, gives the same numbers", () => {
    const drawnSmall = drawing.drawingToInput(imageData(256, 256, [[10, 10, 18, 74]]));
    const drawnLarge = drawing.drawingToInput(imageData(256, 256, [[150, 40, 174, 232]]));
    assert.deepEqual(drawnSmall, drawnLarge);
  });
  test("a tall bar: cropped, longer side scaled to 32, centred, aspect kept", () => {
    // 8 wide, 64 tall -> 4 x 32 in the bitmap, centred: columns 14..17 -> blocks 3 and 4 half.
    const values = grid(drawing.drawingToInput(imageData(256, 256, [[100, 100, 108, 164]])));
    for (const row of values) assert.deepEqual(row, [0, 0, 0, 8, 8, 0, 0, 0]);
  });
  test("a wide bar lies in the middle rows", () => {
    const values = grid(drawing.drawingToInput(imageData(256, 256, [[0, 0, 256, 32]])));
    // 256 x 32 -> 32 x 4 in the bitmap, rows 14..17 -> blocks 3 and 4, half full.
    assert.deepEqual(values.map((row) => row[0]), [0, 0, 0, 8, 8, 0, 0, 0]);
    assert.ok(values[3].every((v) => v === 8));
  });
  test("dark ink on a white background counts; light ink does not", () => {
    const white = { background: [255, 255, 255, 255] };
    assert.deepEqual(drawing.drawingToInput(imageData(40, 40, [[5, 5, 25, 25]], white)),
      new Array(64).fill(16));
    const light = { ...white, ink: [230, 230, 230, 255] };
    assert.deepEqual(drawing.drawingToInput(imageData(40, 40, [[5, 5, 25, 25]], light)),
      new Array(64).fill(0));
  });
  test("values stay within 0..16, one per cell", () => {
    const values = drawing.drawingToInput(imageData(200, 200, [[20, 20, 180, 40], [90, 20, 110, 180]]));
    assert.equal(values.length, 64);
    assert.ok(values.every((v) => v >= 0 && v <= 16 && Number.isInteger(v)));
  });
});

/** @param {ImageData} image */
function drawingToInputSafe(image) {
  return drawing.drawingToInput(image);
}

describe("pictureSize", () => {
  test("a picture within the limit keeps its size", () => {
    assert.deepEqual(picture.pictureSize(320, 160), [320, 160]);
    assert.deepEqual(picture.pictureSize(50, 40), [50, 40]);
  });
  test("a larger one is scaled down to the long side, aspect kept", () => {
    assert.deepEqual(picture.pictureSize(1280, 960), [320, 240]);
    assert.deepEqual(picture.pictureSize(600, 2000), [96, 320]);
    assert.deepEqual(picture.pictureSize(640, 480, 100), [100, 75]);
  });
  test("a very thin picture keeps at least one pixel", () => {
    assert.deepEqual(picture.pictureSize(5000, 3), [320, 1]);
  });
});
