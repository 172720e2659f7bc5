// @ts-check
/*
 * Live examples: both backends side by side. One click runs the reader's input on WebGPU and
 * on WebAssembly, one after the other, each in a session of its own, and shows for each how
 * long the session took to start, the first run, the median and 90th percentile of the timed
 * runs (and how many), and whether the outputs match the build's reference. The switch in the
 * folded record picks the backend of a Run; this table is the one place both are timed alike.
 */
import * as core from "./live-example-core.mjs";
import { needPart, setText } from "./live-example-dom.mjs";
import { exclusive } from "./live-example-queue.mjs";
import { closeSession, openSession } from "./live-example-session.mjs";

/**
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { Globals } from "./live-example-queue.mjs"
 * @import { Prepared, WidgetSteps } from "./live-example-widget.mjs"
 */

/** The backends, in the order they run, and how the table names them. */
export const BACKENDS = Object.freeze([["webgpu", "WebGPU"], ["wasm", "WebAssembly"]]);

/** The table's columns after the backend's name (rowCells gives a row's cells in this order). */
export const COLUMNS = Object.freeze(["session start", "first run", "median", "p90", "runs",
  "reference"]);

/**
 * One backend's row: its timings and verdict, or why it did not run.
 * `withStart`: the session was its runtime's first on the page, and started it too.
 * @typedef {{backend: string, startMs?: number, withStart?: boolean, firstMs?: number,
 *            times?: number[], runs?: number, match?: boolean | null,
 *            missing?: string}} BothRow
 */

/**
 * A row's cells after its name: session start, first run, median, p90, runs, reference.
 * @param {BothRow} row
 * @returns {string[]}
 */
export function rowCells(row) {
  if (row.missing !== undefined || !row.times) return [row.missing || "did not run"];
  const times = row.times;
  return [
    core.formatMs(row.startMs || 0) + (row.withStart ? " (with the runtime's own start)" : ""),
    core.formatMs(row.firstMs || 0),
    core.formatMs(core.median(times)), core.formatMs(core.percentile(times, 90)),
    String(row.runs || times.length),
    row.match === null ? "no reference for your own input" : row.match ? "matches" : "DIFFERS",
  ];
}

/**
 * Run the reader's input on both backends and show the table.
 * @param {WidgetRoot} root
 * @param {WidgetSteps} steps
 */
export async function runBoth(root, steps) {
  const box = needPart(root, "both");
  box.hidden = false;
  box.dataset.state = "running";
  const body = newBody(needPart(box, "both-table"));
  const say = (/** @type {string} */ text) => setText(box, "both-state", text);
  try {
    for (const [backend, name] of BACKENDS) {
      say(name + ": downloading…");
      const row = await measure(root, steps, backend, name, say);
      body.append(rowElement(name, row));
      if (row.match !== undefined && row.match !== null) {
        box.dataset[backend === "webgpu" ? "webgpuMatch" : "wasmMatch"] = String(row.match);
      }
    }
    say("Each on the same input, one after the other; the timed runs as the Run times them.");
    box.dataset.state = "done";
  } catch (error) {
    say("The comparison failed: " + core.errorMessage(error));
    box.dataset.state = "error";
  } finally {
    steps.done(root);
  }
}

/**
 * One backend: downloads (outside the queue), then its session and runs (a queue task).
 * @param {WidgetRoot} root
 * @param {WidgetSteps} steps
 * @param {string} backend
 * @param {string} name
 * @param {(text: string) => void} say
 * @returns {Promise<BothRow>}
 */
async function measure(root, steps, backend, name, say) {
  const prepared = await steps.prepare(root, backend);
  if (prepared.choice.backend !== backend) {
    return { backend, missing: "not here: " + prepared.choice.reason };
  }
  say(name + ": running…");
  return exclusive((globals) => timed(root, steps, prepared, globals));
}

/**
 * @param {WidgetRoot} root
 * @param {WidgetSteps} steps
 * @param {Prepared} prepared
 * @param {Globals} globals
 * @returns {Promise<BothRow>}
 */
async function timed(root, steps, prepared, globals) {
  const { example, downloaded, choice, pinned, args } = prepared;
  const open = await openSession({ example, downloaded, backend: choice.backend, pinned }, globals);
  try {
    if (open.backend !== choice.backend) {
      return { backend: choice.backend, missing: "did not start: " + (open.fallback || "") };
    }
    const feeds = await example.makeFeeds(open.ort, ...args);
    const started = performance.now();
    const outputs = await open.session.run(feeds);
    const firstMs = performance.now() - started;
    const match = steps.matches(root, outputs, prepared);
    const { times, runs } = await core.timeRuns(() => open.session.run(feeds),
                                                  () => performance.now(), steps.timing());
    return { backend: open.backend, startMs: open.createMs, withStart: open.withStart, firstMs,
             times, runs, match };
  } finally {
    await closeSession(open);
  }
}

/**
 * The table emptied, with its head, and its new body.
 * @param {HTMLElement} element
 */
function newBody(element) {
  const table = /** @type {HTMLTableElement} */ (element);
  for (const section of [...table.tHead ? [table.tHead] : [], ...table.tBodies]) section.remove();
  const head = table.createTHead().insertRow();
  for (const name of ["backend", ...COLUMNS]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = name;
    head.append(cell);
  }
  return table.createTBody();
}

/**
 * One backend's row; each cell titled with its column (a phone shows a card per backend).
 * @param {string} name
 * @param {BothRow} row
 */
function rowElement(name, row) {
  const line = document.createElement("tr");
  line.dataset.backend = row.backend;
  const head = document.createElement("th");
  head.scope = "row";
  head.textContent = name;
  line.append(head);
  const cells = rowCells(row);
  cells.forEach((text, at) => {
    const cell = document.createElement("td");
    cell.textContent = text;
    if (cells.length > 1) cell.dataset.title = COLUMNS[at];
    line.append(cell);
  });
  if (cells.length === 1) /** @type {HTMLTableCellElement} */ (line.lastChild).colSpan = 6;
  return line;
}
