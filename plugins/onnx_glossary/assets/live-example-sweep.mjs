// @ts-check
/*
 * Live examples: the shape sweep. For a model with a dynamic axis (data-sweep, from the
 * build: the input, its free dims, the sizes), run the reader's input resized to each size,
 * once in one session as exported (the axis free) and once in a session per size with
 * freeDimensionOverrides pinning it, and time the first call at each size and the repeat
 * calls after it. A GPU backend may compile work for each new shape on its first call; the
 * WebAssembly one compiles nothing per shape (its kernels are compiled once, in the .wasm).
 * Only on demand (the button in the folded record), on the backend the switch picks.
 */
import * as core from "./live-example-core.mjs";
import { needPart, setText } from "./live-example-dom.mjs";
import { exclusive } from "./live-example-queue.mjs";
import { closeSession, openSession } from "./live-example-session.mjs";

/**
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { Globals } from "./live-example-queue.mjs"
 * @import { OpenSession } from "./live-example-session.mjs"
 * @import { Feeds, Prepared, Tensor, WidgetSteps } from "./live-example-widget.mjs"
 */

/**
 * The sweep a widget offers (data-sweep): which input, the positions and names of its free
 * dims, the sizes each takes in turn, and whether a size is rows or pixels.
 * @typedef {{input: string, axes: number[], dims: string[], sizes: number[],
 *            unit: "rows" | "px"}} SweepSpec
 */

/**
 * One size of the sweep: the first call at it, the repeat calls after it (per call, the median
 * of REPEATS' groups), and how long its session took to start (pinned only).
 * @typedef {{size: number, firstMs: number, repeatMs: number, startMs?: number}} SweepRow
 */

/** The repeat calls at one size: a median of 5 groups, each lasting at least 2 ms. */
export const REPEATS = Object.freeze({
  runs: 5, minRuns: 5, budgetMs: 0, groupMs: 2, maxGroup: 50, calibrations: 1,
});

/**
 * Values of a tensor [.., d, ..] with the dims at `axes` set to `size`, nearest neighbour
 * along each: rows repeat, a picture is scaled.
 * @template {ArrayLike<unknown>} T
 * @param {T} values
 * @param {number[]} dims
 * @param {number[]} axes
 * @param {number} size
 * @param {(length: number) => T & Record<number, unknown>} make an empty array of that length
 * @returns {{values: T, dims: number[]}}
 */
export function resized(values, dims, axes, size, make) {
  const out = dims.map((dim, axis) => (axes.includes(axis) ? size : dim));
  const count = out.reduce((a, b) => a * b, 1);
  const result = make(count);
  const inStrides = strides(dims);
  const outStrides = strides(out);
  for (let i = 0; i < count; i++) {
    let rest = i;
    let from = 0;
    for (let axis = 0; axis < out.length; axis++) {
      const at = Math.floor(rest / outStrides[axis]);
      rest -= at * outStrides[axis];
      from += Math.floor((at * dims[axis]) / out[axis]) * inStrides[axis];
    }
    result[i] = values[from];
  }
  return { values: result, dims: out };
}

/** @param {number[]} dims */
function strides(dims) {
  const result = dims.map(() => 1);
  for (let axis = dims.length - 2; axis >= 0; axis--) result[axis] = result[axis + 1] * dims[axis + 1];
  return result;
}

/**
 * Whether a first call took clearly longer than the repeat calls after it: three times as
 * long, and 2 ms more (the page's clock may tick in 0.1 ms steps).
 * @param {SweepRow} row
 */
export function slowFirst(row) {
  return row.firstMs >= 3 * row.repeatMs && row.firstMs - row.repeatMs >= 2;
}

/**
 * The one sentence under the tables: what the numbers show on this device. As exported, the
 * first size is left out (its first call is the session's very first, which sets everything
 * up); pinned, every size is a session's first call.
 * @param {string} backend the backend the sweep ran on
 * @param {SweepSpec} spec
 * @param {SweepRow[]} exported
 * @param {SweepRow[]} pinned
 */
export function sweepReading(backend, spec, exported, pinned) {
  const later = exported.slice(1);
  if (backend !== "webgpu") {
    const extra = Math.max(0, ...later.map((row) => row.firstMs - row.repeatMs));
    return "On WebAssembly nothing is compiled per shape: as exported, the first call at a " +
      "new size took at most " + core.formatMs(extra) + " more than a repeat call.";
  }
  const free = later.filter(slowFirst);
  const fixed = pinned.filter(slowFirst);
  // "16 rows", "every size"; "113×", "up to 533×" (first call against repeat call).
  const sizes = (/** @type {SweepRow[]} */ rows, /** @type {SweepRow[]} */ all) =>
    rows.length === all.length && all.length > 1 ? "every size"
      : rows.map((row) => sizeText(spec, row.size)).join(", ");
  const worst = (/** @type {SweepRow[]} */ rows) => (rows.length > 1 ? "up to " : "") +
    Math.max(...rows.map((row) => row.firstMs / Math.max(row.repeatMs, 0.01))).toFixed(0) +
    "\u00d7 a repeat call";
  if (!free.length && !fixed.length) {
    return "On this device no first call took clearly longer than the repeat calls, as " +
      "exported or pinned: nothing here shows work done per shape.";
  }
  if (!free.length) {
    return "On this device a new size cost its first call nothing extra as exported, while " +
      "each pinned size, a session of its own, paid on its first call (" + worst(fixed) +
      ", at " + sizes(fixed, pinned) + ").";
  }
  if (!fixed.length) {
    return "On this device, as exported, the first call at " + sizes(free, later) + " took " +
      worst(free) + " (work done for the new shape), and pinning " +
      (spec.dims.length > 1 ? "the axes" : "the axis") + " removed it.";
  }
  return "On this device the first call at " + sizes(free, later) + " took " + worst(free) +
    " as exported (work done for the new shape), and the pinned sessions paid on their " +
    "first call too (" + worst(fixed) + ", at " + sizes(fixed, pinned) + ").";
}

/**
 * A size as the tables say it: "4 rows", "128×128 px".
 * @param {SweepSpec} spec
 * @param {number} size
 */
export function sizeText(spec, size) {
  if (spec.unit === "px") return spec.axes.map(() => size).join("\u00d7") + " px";
  return size + (size === 1 ? " row" : " rows");
}

/**
 * Run the sweep of a widget, on the backend its switch picks, and show both tables.
 * @param {WidgetRoot} root
 * @param {WidgetSteps} steps
 */
export async function runSweep(root, steps) {
  const spec = /** @type {SweepSpec} */ (JSON.parse(root.dataset.sweep || "null"));
  const box = needPart(root, "sweep");
  box.hidden = false;
  box.dataset.state = "running";
  needPart(box, "sweep-tables").replaceChildren();
  const say = (/** @type {string} */ text) => setText(box, "sweep-state", text);
  try {
    say("Downloading…");
    const prepared = await steps.prepare(root, steps.wanted(root));
    const backend = prepared.choice.backend;
    say("Waiting for the runtime…");
    const { exported, pinned, ran } = await exclusive((globals) =>
      sweep(prepared, spec, globals, say));
    const tables = needPart(box, "sweep-tables");
    tables.append(
      table("As exported: one session, the axis free", spec, exported, false),
      table("Pinned with freeDimensionOverrides: a session per size", spec, pinned, true));
    const reading = document.createElement("p");
    reading.className = "live-example__reading-line";
    reading.dataset.le = "sweep-reading";
    reading.textContent = sweepReading(ran, spec, exported, pinned);
    tables.append(reading);
    say("On " + (ran === "webgpu" ? "WebGPU" : "WebAssembly") +
        (ran !== backend ? " (WebGPU did not start)" : "") + "; a repeat call is the median " +
        "of " + REPEATS.runs + " timed groups of calls.");
    box.dataset.state = "done";
  } catch (error) {
    say("The sweep failed: " + core.errorMessage(error));
    box.dataset.state = "error";
  } finally {
    steps.done(root);
  }
}

/**
 * The sweep itself, a task of the page-wide queue: as exported, then pinned.
 * @param {Prepared} prepared
 * @param {SweepSpec} spec
 * @param {Globals} globals
 * @param {(text: string) => void} say
 */
async function sweep(prepared, spec, globals, say) {
  const { example, downloaded, choice } = prepared;
  const request = { example, downloaded, backend: choice.backend, pinned: false };
  /** @type {SweepRow[]} */
  const exported = [];
  const open = await openSession(request, globals);
  try {
    const feeds = await example.makeFeeds(open.ort, ...prepared.args);
    for (const size of spec.sizes) {
      say("As exported, " + sizeText(spec, size) + "…");
      exported.push({ size, ...await calls(open, resizedFeeds(open, feeds, spec, size)) });
    }
  } finally {
    await closeSession(open);
  }
  /** @type {SweepRow[]} */
  const pinned = [];
  for (const size of spec.sizes) {
    say("Pinned to " + sizeText(spec, size) + "…");
    const overrides = Object.fromEntries(spec.dims.map((dim) => [dim, size]));
    const own = await openSession({ ...request, options: { freeDimensionOverrides: overrides } },
                                  globals);
    try {
      const feeds = await example.makeFeeds(own.ort, ...prepared.args);
      pinned.push({ size, startMs: own.createMs,
                    ...await calls(own, resizedFeeds(own, feeds, spec, size)) });
    } finally {
      await closeSession(own);
    }
  }
  return { exported, pinned, ran: open.backend };
}

/**
 * The input resized to one size of the sweep (the other inputs as they are).
 * @param {OpenSession} open
 * @param {Feeds} feeds
 * @param {SweepSpec} spec
 * @param {number} size
 * @returns {Feeds}
 */
function resizedFeeds(open, feeds, spec, size) {
  const tensor = /** @type {Tensor} */ (feeds[spec.input]);
  const data = /** @type {ArrayLike<unknown>} */ (tensor.data);
  const Kind = /** @type {new (length: number) => ArrayLike<unknown> & Record<number, unknown>} */
    (data.constructor);
  const { values, dims } = resized(data, Array.from(tensor.dims, Number), spec.axes, size,
                                   (length) => new Kind(length));
  // The same element type and array kind as the example's own tensor.
  const made = new open.ort.Tensor(/** @type {"float32"} */ (tensor.type),
                                   /** @type {Float32Array} */ (/** @type {unknown} */ (values)),
                                   dims);
  return { ...feeds, [spec.input]: made };
}

/**
 * The first call with these feeds, then the repeat calls.
 * @param {OpenSession} open
 * @param {Feeds} feeds
 */
async function calls({ session }, feeds) {
  const started = performance.now();
  await session.run(feeds);
  const firstMs = performance.now() - started;
  const timed = await core.timeRuns(() => session.run(feeds), () => performance.now(), REPEATS);
  return { firstMs, repeatMs: core.median(timed.times) };
}

/**
 * One table of the sweep.
 * @param {string} title
 * @param {SweepSpec} spec
 * @param {SweepRow[]} rows
 * @param {boolean} sessions whether each size had its own session (a column for its start)
 */
function table(title, spec, rows, sessions) {
  const element = document.createElement("table");
  element.className = "live-example__lab-table";
  element.dataset.le = sessions ? "sweep-pinned" : "sweep-exported";
  const caption = element.createCaption();
  caption.textContent = title;
  const head = element.createTHead().insertRow();
  const columns = ["size", ...(sessions ? ["session start"] : []), "first call", "repeat call"];
  for (const name of columns) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = name;
    head.append(cell);
  }
  const body = element.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    const size = document.createElement("th");
    size.scope = "row";
    size.textContent = sizeText(spec, row.size);
    line.append(size);
    const values = [...(sessions ? [row.startMs || 0] : []), row.firstMs, row.repeatMs];
    for (const value of values) line.insertCell().textContent = core.formatMs(value);
  }
  return element;
}
