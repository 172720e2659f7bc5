// @ts-check
// Unit tests of text-boxes.mjs (the text detector's post-processing) on synthetic maps.
// The shipped sample's map is tested by text-boxes-sample.check.mjs, which
// tests/test_text_boxes.py runs with the map it computes. Run by tests/test_widget_js.py, or
// alone: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  RAPIDOCR_DB, convexHull, detectTextBoxes, fillPolygon, iou, linesFoundText, minAreaRect, roundOffset,
} from "../../plugins/onnx_glossary/assets/text-boxes.mjs";

/** A width x height map, 0 except where `value(x, y)` says otherwise. */
/**
 * @param {number} width @param {number} height
 * @param {(x: number, y: number) => number | undefined} value
 */
function map(width, height, value) {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = value(x, y) ?? 0;
  return data;
}
/** value(x, y) for rectangles [x0, y0, x1, y1) of a given probability. */
/** @type {(...list: number[][]) => (x: number, y: number) => number | undefined} */
const rects = (...list) => (x, y) => list.find(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1)?.[4];

describe("detectTextBoxes", () => {
  test("uses rapidocr 1.4.4's config.yaml values unless told otherwise", () => {
    assert.deepEqual({ ...RAPIDOCR_DB }, { thresh: 0.3, boxThresh: 0.5, maxCandidates: 1000,
      unclipRatio: 1.6, useDilation: true, minSize: 3 });
  });

  test("an all-zero map has no boxes", () => {
    assert.deepEqual(detectTextBoxes(new Float32Array(64 * 48), 64, 48), []);
  });

  test("two separate blobs give two boxes, each its blob grown by the unclip distance", () => {
    const boxes = detectTextBoxes(map(100, 50, rects([10, 10, 40, 20, 0.9], [60, 30, 90, 42, 0.8])), 100, 50);
    assert.equal(boxes.length, 2);
    // Pixels 10..39 x 10..19, dilated one to the right and down: a 30 x 10 rectangle whose
    // unclip distance is 300 * 1.6 / 80 = 6.
    assert.deepEqual(boxes[0].points, [[4, 4], [46, 4], [46, 26], [4, 26]]);
    assert.deepEqual(boxes[0].box, [4, 4, 46, 26]);
    // The score is the mean over the undilated map inside the rectangle 10..40 x
    // 10..20, edges included: the 300 blob pixels and 41 dilated ones that are 0 in the map.
    assert.ok(Math.abs(boxes[0].score - 0.9 * 300 / 341) < 1e-6, String(boxes[0].score));
    const [x0, y0, x1, y1] = boxes[1].box;
    assert.ok(x0 < 60 && y0 < 30 && x1 > 90 && y1 > 42, String(boxes[1].box)); // around blob 2
    assert.equal(iou(boxes[0].box, boxes[1].box), 0);
  });

  test("a blob above thresh but under box_thresh gives no box; the same blob stronger does", () => {
    /** @param {number} p */
    const at = (p) => detectTextBoxes(map(80, 40, rects([10, 10, 60, 25, p])), 80, 40).length;
    assert.equal(at(0.45), 0);
    assert.equal(at(0.6), 1);
  });

  test("a map at exactly float32(0.3) is not above thresh, as numpy compares it", () => {
    /** @param {number} p */
    const at = (p) => detectTextBoxes(map(40, 30, rects([5, 5, 35, 20, p])), 40, 30, { boxThresh: 0 }).length;
    assert.equal(at(0.3), 0); // the Float32Array holds 0.30000001192..., above the double 0.3
    assert.equal(at(0.3001), 1);
  });

  test("a rotated bar gives a box rotated with it", () => {
    const angle = Math.atan2(-40, 80); // about -26.6 degrees, from (20, 70) to (100, 30)
    /** @param {number} x @param {number} y */
    const bar = (x, y) => {
      const u = (x - 20) * Math.cos(angle) + (y - 70) * Math.sin(angle);
      const v = -(x - 20) * Math.sin(angle) + (y - 70) * Math.cos(angle);
      return u >= 0 && u <= Math.hypot(80, 40) && Math.abs(v) <= 4 ? 0.9 : 0;
    };
    const boxes = detectTextBoxes(map(120, 100, bar), 120, 100);
    assert.equal(boxes.length, 1);
    const [topLeft, topRight, bottomRight, bottomLeft] = boxes[0].points;
    /** @param {number[]} p @param {number[]} q */
    const degrees = (p, q) => Math.atan2(q[1] - p[1], q[0] - p[0]) * 180 / Math.PI;
    assert.ok(Math.abs(degrees(topLeft, topRight) - angle * 180 / Math.PI) < 2, JSON.stringify(boxes[0]));
    assert.ok(Math.abs(degrees(bottomLeft, bottomRight) - angle * 180 / Math.PI) < 2, JSON.stringify(boxes[0]));
    // about 9 px thick grown by the unclip distance (about 7 px) on both sides
    const thickness = Math.hypot(bottomLeft[0] - topLeft[0], bottomLeft[1] - topLeft[1]);
    assert.ok(thickness > 18 && thickness < 30, String(thickness));
  });

  test("a blob whose shorter side is under min_size gives no box; a larger one does", () => {
    /** @param {number[]} rect */
    const count = (rect) => detectTextBoxes(map(40, 40, rects([...rect, 0.9])), 40, 40).length;
    assert.equal(count([10, 10, 12, 12]), 0); // 2 x 2, dilated to 3 x 3 pixels: a side of 2
    assert.equal(count([5, 10, 35, 12]), 0); // a long bar 2 rows tall
    assert.equal(count([10, 10, 14, 14]), 1); // 4 x 4
  });

  test("without dilation the same thin bar is thinner still", () => {
    const data = map(40, 40, rects([5, 10, 35, 13, 0.9])); // 3 rows: a side of 3 once dilated
    assert.equal(detectTextBoxes(data, 40, 40).length, 1);
    assert.equal(detectTextBoxes(data, 40, 40, { useDilation: false }).length, 0);
  });

  test("boxes are clipped to the picture", () => {
    const [box] = detectTextBoxes(map(50, 30, rects([0, 0, 30, 8, 0.9])), 50, 30);
    for (const [x, y] of box.points) assert.ok(x >= 0 && x <= 50 && y >= 0 && y <= 30, String(box.points));
    assert.deepEqual(box.box.slice(0, 2), [0, 0]);
  });

  test("at most max_candidates regions are looked at", () => {
    const data = map(90, 20, rects([5, 5, 25, 12, 0.9], [35, 5, 55, 12, 0.9], [65, 5, 85, 12, 0.9]));
    assert.equal(detectTextBoxes(data, 90, 20).length, 3);
    assert.equal(detectTextBoxes(data, 90, 20, { maxCandidates: 2 }).length, 2);
  });

  test("a map shorter than width x height is refused", () => {
    assert.throws(() => detectTextBoxes(new Float32Array(10), 4, 4), /16|4 x 4/);
  });
});

describe("the geometry rapidocr borrows from OpenCV and Clipper", () => {
  test("minAreaRect finds the rotated rectangle of a rotated square's corners", () => {
    const rect = minAreaRect(convexHull([[10, 0], [20, 10], [10, 20], [0, 10], [10, 10]]));
    assert.ok(Math.abs(rect.area - 200) < 1e-9 && Math.abs(rect.shortSide - Math.sqrt(200)) < 1e-9);
  });

  test("fillPolygon sets the pixels cv2.fillPoly sets", () => {
    // cv2.fillPoly(mask, [[1, 0], [221, 2], [220, 13], [0, 11]], 1) with opencv-python-headless
    // 4.10.0.84: per row, the first and last pixel set (2654 pixels in all).
    const rows = [[1, 56], [1, 166], [1, 221], [1, 221], [1, 221], [1, 221], [0, 221], [0, 221],
      [0, 220], [0, 220], [0, 220], [0, 220], [56, 220], [166, 220]];
    const mask = fillPolygon([[1, 0], [221, 2], [220, 13], [0, 11]], 223, 15);
    assert.equal(mask.reduce((a, b) => a + b, 0), 2654);
    rows.forEach(([first, last], y) => {
      const row = Array.from(mask.slice(y * 223, (y + 1) * 223));
      assert.deepEqual([row.indexOf(1), row.lastIndexOf(1)], [first, last], `row ${y}`);
      assert.equal(row.slice(first, last + 1).indexOf(0), -1, `row ${y} has a gap`);
    });
  });

  test("roundOffset makes pyclipper's round offset", () => {
    // pyclipper 1.3.0.post6: PyclipperOffset().AddPath(the corners, JT_ROUND, ET_CLOSEDPOLYGON)
    // then Execute(2.0) gave these 8 points for the corners (10.7, 10.7) to (20.9, 15.9).
    /** @type {[number, number][]} */
    const expected = [[22, 9], [22, 15], [21, 17], [10, 17], [8, 16], [8, 10], [9, 8], [20, 8]];
    /** @param {[number, number][]} points */
    const sorted = (points) => convexHull(points).map(String).sort();
    assert.deepEqual(sorted(roundOffset([[10, 10], [20, 10], [20, 15], [10, 15]], 2)), sorted(expected));
  });
});

describe("linesFoundText", () => {
  test("counts lines in words", () => {
    assert.equal(linesFoundText(3), "3 lines of text found");
    assert.equal(linesFoundText(1), "1 line of text found");
    assert.equal(linesFoundText(0), "No text found");
  });
});

describe("iou", () => {
  test("is 1 for the same box, 0 for disjoint ones, in proportion between", () => {
    assert.equal(iou([0, 0, 10, 10], [0, 0, 10, 10]), 1);
    assert.equal(iou([0, 0, 10, 10], [20, 20, 30, 30]), 0);
    assert.equal(iou([0, 0, 10, 10], [5, 0, 15, 10]), 50 / 150);
  });
});
