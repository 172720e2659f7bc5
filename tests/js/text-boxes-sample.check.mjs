// @ts-check
// text-boxes.mjs on the probability map of the shipped sample (models/text-detection/sample.png),
// the map the build writes into reference.json. Run by tests/test_text_boxes.py, which computes
// that map and passes the path: node --test text-boxes-sample.check.mjs (env
// TEXT_BOXES_REFERENCE: a reference.json, or an object with the map as outputs[0]).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { detectTextBoxes, iou, linesFoundText } from "../../plugins/onnx_glossary/assets/text-boxes.mjs";

const path = process.env.TEXT_BOXES_REFERENCE;
if (!path) throw new Error("TEXT_BOXES_REFERENCE is not set: run tests/test_text_boxes.py, which computes the map");
const { outputs: [output] } = JSON.parse(readFileSync(path, "utf8"));
const [height, width] = output.dims;
const probability = Float32Array.from(output.data);
const sample = JSON.parse(readFileSync(new URL("../../models/text-detection/sample.boxes.json", import.meta.url), "utf8"));
/** @type {[number, number, number, number][]} */
const inkBoxes = sample.lines.map((/** @type {{ink_box: [number, number, number, number]}} */ line) => line.ink_box);

// rapidocr-onnxruntime 1.4.4's own DBPostProcess (ch_ppocr_det/utils.py, with its config.yaml:
// thresh 0.3, box_thresh 0.5, unclip_ratio 1.6, use_dilation, score_mode fast), run on this map
// with opencv-python-headless 4.10.0.84, pyclipper 1.3.0.post6, shapely 2.0.6 and numpy 1.26.4
// (tests/test_text_boxes.py, test_rapidocr_gives_the_same_boxes), in the order it lists them:
const RAPIDOCR = [
  { points: [[15, 116], [249, 114], [249, 141], [15, 143]], score: 0.8142 },
  { points: [[14, 67], [251, 69], [251, 96], [14, 94]], score: 0.7512 },
  { points: [[15, 23], [267, 23], [267, 49], [15, 49]], score: 0.825 },
];

/** The fraction of `inner` [x0, y0, x1, y1] that lies inside `outer`. */
/** @param {number[]} outer @param {number[]} inner */
function covered(outer, inner) {
  const w = Math.min(outer[2], inner[2]) - Math.max(outer[0], inner[0]);
  const h = Math.min(outer[3], inner[3]) - Math.max(outer[1], inner[1]);
  return w > 0 && h > 0 ? (w * h) / ((inner[2] - inner[0]) * (inner[3] - inner[1])) : 0;
}

/** Each box's line: the ink box it overlaps most, asserted to be a different one for each. */
/** @param {import("../../plugins/onnx_glossary/assets/text-boxes.mjs").TextBox[]} boxes */
function matchLines(boxes) {
  const lines = boxes.map(({ box }) => inkBoxes.reduce((best, ink, i) => (iou(box, ink) > iou(box, inkBoxes[best]) ? i : best), 0));
  assert.equal(new Set(lines).size, boxes.length, `two boxes on one line: ${lines}`);
  return lines;
}

const boxes = detectTextBoxes(probability, width, height);

test("the sample's map gives its 3 lines, each box with IoU >= 0.5 against a different line's ink box", () => {
  assert.equal(boxes.length, 3, JSON.stringify(boxes));
  assert.equal(linesFoundText(boxes.length), "3 lines of text found");
  matchLines(boxes).forEach((line, i) => {
    assert.ok(iou(boxes[i].box, inkBoxes[line]) >= 0.5, `box ${boxes[i].box} on ${inkBoxes[line]}`);
  });
});

test("the unclip step is what makes each box hold its whole line of text", () => {
  // Without it, the boxes are the thresholded regions, about half the text's height: their IoU
  // against the ink boxes is 0.50, 0.65 and 0.47 (the second line's rotated box gets more
  // height from its bounds than it needs, so IoU alone does not show the step).
  const bare = detectTextBoxes(probability, width, height, { unclipRatio: 0 });
  assert.equal(bare.length, 3);
  /** @param {number[]} values */
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const lines = matchLines(boxes), bareLines = matchLines(bare);
  assert.deepEqual(bareLines, lines);
  const coverage = boxes.map(({ box }, i) => covered(box, inkBoxes[lines[i]]));
  const bareCoverage = bare.map(({ box }, i) => covered(box, inkBoxes[lines[i]]));
  for (const value of coverage) assert.ok(value >= 0.95, String(coverage)); // measured: 1, 1, 1
  for (const value of bareCoverage) assert.ok(value <= 0.75, String(bareCoverage)); // 0.50, 0.65, 0.47
  const meanIou = mean(boxes.map(({ box }, i) => iou(box, inkBoxes[lines[i]]))); // 0.72
  const bareIou = mean(bare.map(({ box }, i) => iou(box, inkBoxes[lines[i]]))); // 0.54
  assert.ok(meanIou - bareIou >= 0.1, `${meanIou} against ${bareIou}`);
});

test("the boxes are the ones rapidocr's own post-processing finds on this map", () => {
  // Within 2 px and 0.01: a map computed on another CPU may put a pixel on the other side of
  // the threshold.
  /** @param {{points: number[][]}} a @param {{points: number[][]}} b */
  const byTop = (a, b) => a.points[0][1] - b.points[0][1];
  const ours = [...boxes].sort(byTop), theirs = [...RAPIDOCR].sort(byTop);
  assert.equal(ours.length, theirs.length);
  ours.forEach((box, i) => {
    box.points.forEach((point, k) => point.forEach((value, axis) => {
      assert.ok(Math.abs(value - theirs[i].points[k][axis]) <= 2, `${box.points} against ${theirs[i].points}`);
    }));
    assert.ok(Math.abs(box.score - theirs[i].score) < 0.01, `${box.score} against ${theirs[i].score}`);
  });
});
