// @ts-check
/*
 * Text boxes from a DB text detector's probability map (models/text-detection): the detector's
 * own post-processing, as pure functions. No DOM and no runtime: the page and node both import it.
 *
 * The reference is rapidocr's DBPostProcess (the rapidocr-onnxruntime 1.4.4 wheel on PyPI,
 * rapidocr_onnxruntime/ch_ppocr_det/utils.py), with the values of that wheel's
 * rapidocr_onnxruntime/config.yaml (section Det) and the min_size its utils.py sets:
 *   thresh 0.3, box_thresh 0.5, max_candidates 1000, unclip_ratio 1.6, use_dilation true,
 *   score_mode fast, min_size 3.
 * Its steps, and what this module does for each:
 *  1. map > thresh (numpy compares the float32 map with float32(0.3)); use_dilation:
 *     cv2.dilate with a 2x2 kernel of ones anchored at (1, 1), so each pixel also lights its
 *     right, lower and lower-right neighbours.
 *  2. cv2.findContours(RETR_LIST, CHAIN_APPROX_SIMPLE): here the 8-connected regions (the
 *     foreground connectivity of OpenCV's contour tracing). RETR_LIST also lists the inner
 *     contour of each hole in a region; this module keeps the outer ones only. At most
 *     max_candidates regions, in reading order of their first pixel.
 *  3. get_mini_boxes: cv2.minAreaRect of the contour, i.e. of the region's pixel centres (their
 *     convex hull is the contour's); a region whose shorter side is < min_size goes.
 *  4. box_score_fast: the mean of the map (not the dilated mask) over the pixels cv2.fillPoly
 *     sets for the rectangle, its corners truncated to whole pixels; a box scoring below
 *     box_thresh goes.
 *  5. unclip: pyclipper's round offset (JT_ROUND) of the rectangle by
 *     distance = area * unclip_ratio / perimeter, as Clipper computes it (corners truncated to
 *     integers, arcs of integer points), then cv2.minAreaRect of that polygon.
 *  6. a box whose shorter side is < min_size + 2 goes; the corners are rounded (np.round:
 *     halves to even) and clipped to [0, width] x [0, height].
 * On the shipped sample's map this gives rapidocr's boxes and scores exactly. Where it can
 * differ (measured against rapidocr on random maps, see tests/test_text_boxes.py): the score of
 * a box that crosses the map's edge (OpenCV clips each edge before it fills, moving the score
 * by up to about 0.02), a corner that cv2's float32 arithmetic puts just below a whole pixel
 * (a pixel, rarely), and a region with a hole: rapidocr scores the hole's inner contour too,
 * whose rectangle is mostly hole, so it scores low (it stayed below box_thresh where tried).
 */

/**
 * @typedef {[number, number]} Point x, y in pixels of the map
 * @typedef {{ thresh: number, boxThresh: number, maxCandidates: number, unclipRatio: number,
 *   useDilation: boolean, minSize: number }} DbOptions
 * @typedef {{ points: Point[], box: [number, number, number, number], score: number }} TextBox
 *   points: the 4 corners, top-left, top-right, bottom-right, bottom-left (rapidocr's order);
 *   box: their axis-aligned bounds [x0, y0, x1, y1]; score: the mean probability inside.
 * @typedef {{ corners: Point[], shortSide: number, area: number, perimeter: number }} Rect
 */

/** @type {Readonly<DbOptions>} rapidocr-onnxruntime 1.4.4's config.yaml (Det) and utils.py */
export const RAPIDOCR_DB = Object.freeze({
  thresh: 0.3,
  boxThresh: 0.5,
  maxCandidates: 1000,
  unclipRatio: 1.6,
  useDilation: true,
  minSize: 3,
});

/**
 * The text boxes in a probability map of height x width values (row-major).
 * @param {ArrayLike<number>} probability
 * @param {number} width
 * @param {number} height
 * @param {Partial<DbOptions>} [options] RAPIDOCR_DB where not given
 * @returns {TextBox[]} in reading order of their regions' first pixel
 */
export function detectTextBoxes(probability, width, height, options = {}) {
  const o = { ...RAPIDOCR_DB, ...options };
  if (probability.length < width * height) {
    throw new RangeError(`text boxes: the map has ${probability.length} values, ` +
      `fewer than ${width} x ${height}`);
  }
  let mask = binarise(probability, width, height, o.thresh);
  if (o.useDilation) mask = dilate(mask, width, height);
  /** @type {TextBox[]} */
  const boxes = [];
  for (const region of regions(mask, width, height).slice(0, o.maxCandidates)) {
    const rect = minAreaRect(convexHull(region));
    if (rect.shortSide < o.minSize) continue;
    const score = meanInside(probability, width, height, rect.corners);
    if (score < o.boxThresh) continue;
    const grown = unclip(rect, o.unclipRatio);
    if (grown.shortSide < o.minSize + 2) continue;
    const points = order(grown.corners).map(([x, y]) => /** @type {Point} */ (
      [clamp(roundHalfEven(x), 0, width), clamp(roundHalfEven(y), 0, height)]));
    const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
    boxes.push({ points, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], score });
  }
  return boxes;
}

/** The answer in words: "3 lines of text found". @param {number} count */
export function linesFoundText(count) {
  if (count === 0) return "No text found";
  return `${count} ${count === 1 ? "line" : "lines"} of text found`;
}

/**
 * Intersection over union of two [x0, y0, x1, y1] boxes.
 * @param {readonly number[]} a
 * @param {readonly number[]} b
 */
export function iou(a, b) {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const inter = w > 0 && h > 0 ? w * h : 0;
  const area = (/** @type {readonly number[]} */ r) => (r[2] - r[0]) * (r[3] - r[1]);
  return inter / (area(a) + area(b) - inter);
}

/**
 * Step 1: 1 where the map is above thresh.
 * @param {ArrayLike<number>} probability
 * @param {number} width
 * @param {number} height
 * @param {number} thresh
 */
function binarise(probability, width, height, thresh) {
  const mask = new Uint8Array(width * height);
  // rapidocr compares a float32 map with the Python float, which numpy turns into a float32
  const limit = Math.fround(thresh);
  for (let i = 0; i < mask.length; i++) mask[i] = probability[i] > limit ? 1 : 0;
  return mask;
}

/**
 * Step 1: cv2.dilate with a 2x2 kernel anchored at (1, 1): a pixel is set when it, its left,
 * upper or upper-left neighbour is.
 * @param {Uint8Array} mask
 * @param {number} width
 * @param {number} height
 */
function dilate(mask, width, height) {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      out[i] = mask[i] | (x > 0 ? mask[i - 1] : 0) |
        (y > 0 ? mask[i - width] | (x > 0 ? mask[i - width - 1] : 0) : 0);
    }
  }
  return out;
}

/**
 * Step 2: each 8-connected region of set pixels, as the leftmost and rightmost pixel of each of
 * its rows (enough for its convex hull).
 * @param {Uint8Array} mask
 * @param {number} width
 * @param {number} height
 * @returns {Point[][]}
 */
function regions(mask, width, height) {
  const seen = new Uint8Array(mask.length);
  const left = new Int32Array(height).fill(width), right = new Int32Array(height).fill(-1);
  /** @type {Point[][]} */
  const found = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const stack = [start];
    let top = height, bottom = -1;
    seen[start] = 1;
    while (stack.length) {
      const i = /** @type {number} */ (stack.pop());
      const x = i % width, y = (i - x) / width;
      left[y] = Math.min(left[y], x);
      right[y] = Math.max(right[y], x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      for (let ny = Math.max(y - 1, 0); ny <= Math.min(y + 1, height - 1); ny++) {
        for (let nx = Math.max(x - 1, 0); nx <= Math.min(x + 1, width - 1); nx++) {
          const n = ny * width + nx;
          if (mask[n] && !seen[n]) {
            seen[n] = 1;
            stack.push(n);
          }
        }
      }
    }
    /** @type {Point[]} */
    const ends = [];
    for (let y = top; y <= bottom; y++) {
      if (right[y] >= 0) ends.push([left[y], y], [right[y], y]);
      left[y] = width;
      right[y] = -1;
    }
    found.push(ends);
  }
  return found;
}

/** @param {Point} o @param {Point} a @param {Point} b */
const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/**
 * The convex hull (Andrew's monotone chain), counter-clockwise in y-down pixels' terms of
 * the cross product, without collinear points.
 * @param {Point[]} points
 * @returns {Point[]}
 */
export function convexHull(points) {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted;
  /** @param {Point[]} chain */
  const half = (chain) => {
    /** @type {Point[]} */
    const hull = [];
    for (const p of chain) {
      while (hull.length >= 2 && cross(hull[hull.length - 2], hull[hull.length - 1], p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
    return hull;
  };
  return [...half(sorted), ...half(sorted.reverse())];
}

/**
 * The minimum-area rectangle around a convex polygon (cv2.minAreaRect): one of its sides lies
 * along an edge of the hull, so each edge direction is tried.
 * @param {Point[]} hull
 * @returns {Rect}
 */
export function minAreaRect(hull) {
  /** @type {Rect | null} */
  let best = null;
  for (let i = 0; i < Math.max(hull.length, 1); i++) {
    const p = hull[i], q = hull[(i + 1) % hull.length];
    const length = Math.hypot(q[0] - p[0], q[1] - p[1]);
    /** @type {Point} */
    const u = length > 0 ? [(q[0] - p[0]) / length, (q[1] - p[1]) / length] : [1, 0];
    const rect = rectAlong(hull, u);
    if (!best || rect.area < best.area) best = rect;
  }
  return /** @type {Rect} */ (best);
}

/**
 * The rectangle with sides along u and its normal around the points.
 * @param {Point[]} points
 * @param {Point} u a unit vector
 * @returns {Rect}
 */
function rectAlong(points, u) {
  const v = [-u[1], u[0]];
  const along = points.map((p) => p[0] * u[0] + p[1] * u[1]);
  const across = points.map((p) => p[0] * v[0] + p[1] * v[1]);
  const a0 = Math.min(...along), a1 = Math.max(...along);
  const b0 = Math.min(...across), b1 = Math.max(...across);
  // A corner on a whole pixel stays on it: float64 noise (90.99999999999997) must not move
  // it a pixel when it is truncated (cv2 computes in float32, which has noise of its own).
  const snap = (/** @type {number} */ c) => (Math.abs(c - Math.round(c)) < 1e-9 ? Math.round(c) : c);
  /** @type {(a: number, b: number) => Point} */
  const at = (a, b) => [snap(a * u[0] + b * v[0]), snap(a * u[1] + b * v[1])];
  const w = a1 - a0, h = b1 - b0;
  return { corners: [at(a0, b0), at(a1, b0), at(a1, b1), at(a0, b1)], shortSide: Math.min(w, h),
    area: w * h, perimeter: 2 * (w + h) };
}

/**
 * Step 5: pyclipper's round offset by area * ratio / perimeter, then its minimum-area
 * rectangle.
 * @param {Rect} rect
 * @param {number} ratio
 * @returns {Rect}
 */
function unclip(rect, ratio) {
  const distance = rect.perimeter > 0 ? rect.area * ratio / rect.perimeter : 0;
  // pyclipper converts the corners to Clipper's integer points by truncation
  const corners = rect.corners.map(([x, y]) => /** @type {Point} */ ([Math.trunc(x), Math.trunc(y)]));
  return minAreaRect(convexHull(roundOffset(corners, distance)));
}

/**
 * The vertices of a convex polygon's outward offset with round joins, as Clipper's
 * ClipperOffset builds it (pyclipper's PyclipperOffset: JT_ROUND, ET_CLOSEDPOLYGON, arc
 * tolerance 0.25): each edge moved out by `distance`, each corner an arc of points rounded to
 * integers. (Checked against pyclipper on random rectangles: the same points.)
 * @param {Point[]} poly integer corners
 * @param {number} distance
 * @returns {Point[]}
 */
export function roundOffset(poly, distance) {
  // Clipper drops repeated points, offsets nothing for fewer than 3, and copies for distance 0
  const distinct = poly.filter((p, i) => {
    const q = poly[(i + 1) % poly.length];
    return p[0] !== q[0] || p[1] !== q[1];
  });
  if (distinct.length < 3 || Math.abs(distance) < 1e-20) return distinct;
  // It turns the polygon so that its signed area is positive: then the normals point out.
  const area = distinct.reduce((sum, p, i) => sum + cross([0, 0], p, distinct[(i + 1) % distinct.length]), 0);
  const src = area < 0 ? [...distinct].reverse() : distinct;
  const normals = src.map((p, i) => {
    const q = src[(i + 1) % src.length], length = Math.hypot(q[0] - p[0], q[1] - p[1]);
    return [(q[1] - p[1]) / length, -(q[0] - p[0]) / length];
  });
  const tolerance = Math.min(0.25, Math.abs(distance) * 0.25);
  const steps = Math.min(Math.PI / Math.acos(1 - tolerance / Math.abs(distance)), Math.abs(distance) * Math.PI);
  const sin = Math.sin(2 * Math.PI / steps), cos = Math.cos(2 * Math.PI / steps);
  // Clipper's Round: halves away from zero
  const round = (/** @type {number} */ v) => (v < 0 ? Math.ceil(v - 0.5) : Math.floor(v + 0.5));
  /** @type {(p: Point, n: number[]) => Point} */
  const out = (p, n) => [round(p[0] + n[0] * distance), round(p[1] + n[1] * distance)];
  /** @type {Point[]} */
  const result = [];
  for (let j = 0; j < src.length; j++) {
    const k = (j + src.length - 1) % src.length, nk = normals[k], nj = normals[j];
    const sinA = clamp(nk[0] * nj[1] - nj[0] * nk[1], -1, 1), cosA = nk[0] * nj[0] + nk[1] * nj[1];
    if (Math.abs(sinA * distance) < 1 && cosA > 0) { // almost straight on: one point
      result.push(out(src[j], nk));
    } else if (sinA * distance < 0) { // a concave corner (not in a rectangle)
      result.push(out(src[j], nk), src[j], out(src[j], nj));
    } else { // the arc from the previous edge's normal to this edge's
      const count = Math.max(Math.round(steps / (2 * Math.PI) * Math.abs(Math.atan2(sinA, cosA))), 1);
      let [x, y] = nk;
      for (let i = 0; i < count; i++) {
        result.push(out(src[j], [x, y]));
        [x, y] = [x * cos - sin * y, x * sin + y * cos];
      }
      result.push(out(src[j], nj));
    }
  }
  return result;
}

/**
 * Step 4 (score_mode fast): the mean of the map over the pixels cv2.fillPoly sets for the
 * rectangle, its corners truncated to whole pixels, within the map.
 * @param {ArrayLike<number>} probability
 * @param {number} width
 * @param {number} height
 * @param {Point[]} corners a convex polygon, in order
 */
function meanInside(probability, width, height, corners) {
  const xs = corners.map((p) => p[0]), ys = corners.map((p) => p[1]);
  const x0 = clamp(Math.floor(Math.min(...xs)), 0, width - 1);
  const x1 = clamp(Math.ceil(Math.max(...xs)), 0, width - 1);
  const y0 = clamp(Math.floor(Math.min(...ys)), 0, height - 1);
  const y1 = clamp(Math.ceil(Math.max(...ys)), 0, height - 1);
  const w = x1 - x0 + 1;
  const mask = fillPolygon(corners.map(([x, y]) => [Math.trunc(x - x0), Math.trunc(y - y0)]),
    w, y1 - y0 + 1);
  let sum = 0, count = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!mask[(y - y0) * w + x - x0]) continue;
      sum += probability[y * width + x];
      count++;
    }
  }
  return count ? sum / count : 0;
}

/**
 * The pixels cv2.fillPoly (line type 8, no shift) sets for a polygon with integer corners, in
 * a width x height mask: each edge drawn as cv2.line draws it, 8-connected, and on each row
 * the pixels between the edges, OpenCV stepping each edge down in 16.16 fixed point and
 * rounding. (Checked against cv2.fillPoly of 300 random rotated rectangles: the same pixels.)
 * @param {Point[]} poly
 * @param {number} width
 * @param {number} height
 */
export function fillPolygon(poly, width, height) {
  const mask = new Uint8Array(width * height);
  /** @type {(x: number, y: number) => void} */
  const set = (x, y) => { if (x >= 0 && x < width && y >= 0 && y < height) mask[y * width + x] = 1; };
  // n / d rounded, halves down (cv2.line walks left to right and rounds halves towards the start)
  const half = (/** @type {number} */ n, /** @type {number} */ d) => Math.floor((2 * n + d - 1) / (2 * d));
  const edges = poly.map((p, i) => [p, poly[(i + 1) % poly.length]]);
  for (const edge of edges) {
    const [a, b] = edge[0][0] <= edge[1][0] ? edge : [edge[1], edge[0]];
    const dx = b[0] - a[0], dy = Math.abs(b[1] - a[1]), sy = Math.sign(b[1] - a[1]);
    for (let k = 0; k <= Math.max(dx, dy); k++) {
      if (dx >= dy) set(a[0] + k, a[1] + sy * half(k * dy, dx));
      else set(a[0] + half(k * dx, dy), a[1] + sy * k);
    }
  }
  const ys = poly.map((p) => p[1]);
  for (let y = Math.min(...ys); y <= Math.max(...ys); y++) {
    const crossings = [];
    for (const edge of edges) {
      const [t, u] = edge[0][1] <= edge[1][1] ? edge : [edge[1], edge[0]];
      if (t[1] === u[1] || y < t[1] || y > u[1]) continue;
      const step = Math.trunc((u[0] - t[0]) * 65536 / (u[1] - t[1]));
      crossings.push(Math.floor((t[0] * 65536 + (y - t[1]) * step + 32768) / 65536));
    }
    for (let x = Math.min(...crossings); x <= Math.max(...crossings); x++) set(x, y);
  }
  return mask;
}

/**
 * rapidocr's get_mini_boxes order: sorted by x, the upper of the two leftmost first, then the
 * upper and the lower of the two rightmost, then the lower leftmost.
 * @param {Point[]} corners
 * @returns {Point[]}
 */
function order(corners) {
  const p = [...corners].sort((a, b) => a[0] - b[0]);
  const [topLeft, bottomLeft] = p[1][1] > p[0][1] ? [p[0], p[1]] : [p[1], p[0]];
  const [topRight, bottomRight] = p[3][1] > p[2][1] ? [p[2], p[3]] : [p[3], p[2]];
  return [topLeft, topRight, bottomRight, bottomLeft];
}

/** @param {number} value @param {number} low @param {number} high */
const clamp = (value, low, high) => Math.min(Math.max(value, low), high);

/** np.round: to the nearest integer, halves to the even one. @param {number} value */
function roundHalfEven(value) {
  const down = Math.floor(value), rest = value - down;
  if (rest !== 0.5) return Math.round(value);
  return down % 2 === 0 ? down : down + 1;
}
