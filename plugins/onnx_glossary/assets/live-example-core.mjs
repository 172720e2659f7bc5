// @ts-check
/*
 * Live examples, the pure part: arithmetic and text for the widget, no DOM and no runtime
 * (fetchBytes only needs a fetch). The page imports it (through live-example-widget.mjs) and
 * node runs its unit tests (tests/js/*.test.mjs), so everything here must work in both.
 */

/** @import { ReferenceReading, ReferenceTensor } from "./live-example-reference.mjs" */

/**
 * A run of numbers: an array, a typed array, or a tensor's data.
 * @typedef {ArrayLike<number>} Numbers
 */

/**
 * A tensor's values as onnxruntime-web gives them: numbers, or BigInts for int64/uint64.
 * @typedef {ArrayLike<number | bigint>} TensorNumbers
 */

/**
 * An output as the widget compares and shows it (see plainTensors in the widget).
 * @typedef {object} PlainTensor
 * @property {string} type The element type, as onnxruntime-web names it.
 * @property {number[]} dims
 * @property {Array<number | string>} values
 */

/**
 * A progress callback: onProgress(received, total) in bytes (total 0 when unknown), or
 * onProgress(phrase) when the bytes are not counted ("from this site's cache").
 * @typedef {(received: number | string, total?: number) => void} OnProgress
 */

/**
 * The bytes of the model and of each backend's .wasm, as the build measured them
 * (data-download-sizes).
 * @typedef {{model?: number, runtime?: Record<string, number>}} DownloadSizes
 */

/**
 * What fetch is to fetchBytes and openResponse: the page's, unless a test passes another.
 * @typedef {(url: string) => Promise<Response>} Fetcher
 */

/**
 * How the widget times a model: see TIMING.
 * @typedef {{runs: number, minRuns: number, budgetMs: number, groupMs: number,
 *            maxGroup: number, calibrations: number}} Timing
 */

/**
 * How long the widget spends timing a model (software WebGPU is very slow: keep a budget).
 * @type {Readonly<Timing>}
 */
export const TIMING = Object.freeze({
  runs: 20, // median of up to this many groups of runs...
  minRuns: 3, // ...at least this many, even past the budget...
  budgetMs: 3000, // ...within this time once the group size is known
  // Without cross-origin isolation the page clock ticks in 0.1 ms steps: a fast model is timed
  // in groups of runs that together last at least this long (at most maxGroup runs a group).
  // A coarser clock (WebKit's reads 1 ms steps here, where a 0.2 MB model's runs were timed
  // as "0.00 ms") gets groups of at least TICKS_PER_GROUP of its steps; see timeRuns.
  groupMs: 2,
  maxGroup: 100,
  calibrations: 3, // tries at the group size (a slow model needs only one)
});

/** Values shown per output in the results table. */
export const SHOWN_VALUES = 8;

/**
 * The middle value (mean of the two middle ones for an even count); NaN for no values.
 * @param {Numbers} values
 * @returns {number}
 */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = Array.from(values).sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A tensor's numbers as plain numbers: int64/uint64 outputs come back as BigInt arrays.
 * @param {TensorNumbers} data
 * @returns {number[]}
 */
export function toNumbers(data) {
  return Array.from(data, Number);
}

/**
 * Bytes for a progress line: kB below 100 kB, else MB, one decimal.
 * @param {number} bytes
 */
export function formatBytes(bytes) {
  return bytes < 1e5 ? (bytes / 1e3).toFixed(1) + " kB" : (bytes / 1e6).toFixed(1) + " MB";
}

/**
 * Milliseconds: two decimals below 10 ms, whole numbers above.
 * @param {number} value
 */
export function formatMs(value) {
  return value < 10 ? value.toFixed(2) + " ms" : value.toFixed(0) + " ms";
}

/**
 * One element of an output: strings quoted, integers as they are, floats to 6 digits.
 * @param {number | bigint | string | boolean} value
 */
export function formatValue(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint" || Number.isInteger(value)) return String(value);
  return Number(value).toPrecision(6);
}

/**
 * The first `shown` values of an output and how many more there are.
 * @param {ArrayLike<number | bigint | string>} values
 */
export function formatValues(values, shown = SHOWN_VALUES) {
  const head = Array.from(values).slice(0, shown).map(formatValue).join(", ");
  const more = values.length - shown;
  return "[" + head + (more > 0 ? ", … " + more + " more" : "") + "]";
}

/**
 * An identifier cut after each / _ . : - (where a line may break in it), the cuts kept:
 * "a/b_c" -> ["a/", "b_", "c"]; the empty string is one empty piece. No regex lookbehind:
 * WebKit at Safari 16.0's level (WPE WebKit 2.38) cannot parse one, and the module holding
 * it fails to load ("Invalid regular expression: invalid group specifier name").
 * @param {string} text
 * @returns {string[]}
 */
export function breakPieces(text) {
  return text.match(/[^/_.:-]*[/_.:-]|[^/_.:-]+/g) || [""];
}

/**
 * Dims as the table shows them: [1, 3].
 * @param {ArrayLike<number | bigint>} dims
 */
export function formatDims(dims) {
  return "[" + Array.from(dims).join(", ") + "]";
}

/**
 * Whether two shapes are equal; dims may be numbers or BigInts.
 * @param {ArrayLike<number | bigint>} a
 * @param {ArrayLike<number | bigint>} b
 */
export function sameDims(a, b) {
  return a.length === b.length && Array.from(a).every((d, i) => Number(d) === Number(b[i]));
}

/**
 * Whether two byte (or number) sequences are element-wise identical.
 * @param {ArrayLike<unknown>} a
 * @param {ArrayLike<unknown>} b
 */
export function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Compare one output with the reference, numpy.allclose style: each element passes when
 * |a - b| <= atol + rtol * |b| (b the reference). NaN matches only NaN, an infinity only the
 * same infinity; matching NaNs stay out of maxAbs. Different lengths never pass.
 * @param {ArrayLike<number | bigint | string | boolean>} actual
 * @param {ArrayLike<number | bigint | string | boolean>} expected
 * @param {number} atol
 * @param {number} rtol
 * @returns {{maxAbs: number, pass: boolean}}
 */
export function compare(actual, expected, atol, rtol) {
  let maxAbs = 0;
  let pass = actual.length === expected.length;
  const length = Math.min(actual.length, expected.length);
  for (let i = 0; i < length; i++) {
    const a = Number(actual[i]);
    const b = Number(expected[i]);
    if (Number.isNaN(a) || Number.isNaN(b)) {
      if (Number.isNaN(a) !== Number.isNaN(b)) pass = false;
      continue;
    }
    if (a === b) continue; // also an infinity against the same one, whose difference is NaN
    const diff = Math.abs(a - b); // Infinity when one side is infinite
    if (diff > maxAbs) maxAbs = diff;
    // An infinite reference would make rtol * |b| infinite and let anything through.
    if (!(diff <= atol + rtol * Math.abs(b)) || diff === Infinity) pass = false;
  }
  return { maxAbs, pass };
}

/**
 * Check every output against reference.json's outputs (a list of {name, dims, data}).
 * `outputs` maps names to {type, dims, values}. Without a reference (the reader's own input)
 * nothing is compared and every row says `unreferenced`. Returns one row per output, in the
 * outputs' order, and the overall verdict.
 * @param {Record<string, {dims: ArrayLike<number | bigint>,
 *                          values: ArrayLike<number | bigint | string | boolean>}>} outputs
 * @param {{outputs: Array<Pick<ReferenceTensor, "name" | "dims" | "data">>} | null} reference
 * @param {{atol: number, rtol: number}} tolerance
 * @returns {{rows: Array<{name: string, verdict: string}>, pass: boolean, maxAbs: number}}
 */
export function compareOutputs(outputs, reference, tolerance, unreferenced = "no reference") {
  const expectedByName = new Map((reference ? reference.outputs : []).map((e) => [e.name, e]));
  const rows = [];
  let pass = true;
  let maxAbs = 0;
  for (const [name, output] of Object.entries(outputs)) {
    const expected = expectedByName.get(name);
    let verdict;
    if (!reference) {
      verdict = unreferenced;
    } else if (!expected) {
      verdict = "missing from reference.json";
      pass = false;
    } else if (!sameDims(output.dims, expected.dims)) {
      verdict = "dims differ: reference " + JSON.stringify(expected.dims);
      pass = false;
    } else {
      const result = compare(output.values, expected.data, tolerance.atol, tolerance.rtol);
      maxAbs = Math.max(maxAbs, result.maxAbs);
      pass = pass && result.pass;
      verdict = result.maxAbs.toExponential(2) + (result.pass ? " ✓" : " ✗");
    }
    rows.push({ name, verdict });
  }
  return { rows, pass, maxAbs };
}

/**
 * The "Reference check" line for a run that was compared.
 * @param {{maxAbs: number, pass: boolean, note?: string, onnxruntime: string,
 *          atol: number | string | undefined, rtol: number | string | undefined}} check
 */
export function checkText({ maxAbs, pass, note, onnxruntime, atol, rtol }) {
  return (note || "") + "max abs diff " + maxAbs.toExponential(2) +
    " against the build's onnxruntime " + onnxruntime + " outputs: " +
    (pass ? "match" : "MISMATCH") + " (atol " + atol + ", rtol " + rtol + ")";
}

/** How many of the clock's steps a timed group lasts at least (so a step is 5 % of it). */
const TICKS_PER_GROUP = 20;
/** The most a coarse clock may lengthen the groups (2 ms to 50 ms). */
const MAX_STRETCH = 25;

/**
 * The clock's step in ms: the smallest change seen in three changes of `now()`, or 0 when it
 * did not change within a bounded number of readings (a stopped or fake clock).
 * @param {() => number} now
 */
export function clockStep(now) {
  let smallest = Infinity;
  let changes = 0;
  let last = now();
  for (let reads = 0; changes < 3 && reads < 200_000; reads++) {
    const value = now();
    if (value !== last) {
      smallest = Math.min(smallest, value - last);
      last = value;
      changes++;
    }
  }
  return changes ? smallest : 0;
}

/**
 * Time `runOnce` (an async function returning the outputs): the group size first, then up to
 * TIMING.runs groups within the budget. `now` is the clock (performance.now in the page).
 * Returns the last outputs, the group size and the per-run mean of each group in ms.
 * @template T
 * @param {() => Promise<T>} runOnce
 * @param {() => number} now
 * @param {Timing} [timing]
 * @returns {Promise<{outputs: T | undefined, group: number, times: number[], runs: number}>}
 *   outputs undefined only when `timing` asks for no run at all; group the last group size;
 *   runs how many runs the kept times stand for (groups grow while timing, see below).
 */
export async function timeRuns(runOnce, now, timing = TIMING) {
  /** @type {T | undefined} */
  let outputs;
  let group = 0;
  // A group must last many of the clock's steps, whatever the clock: with 1 ms steps, groups
  // of 2 ms would read 0 or 1 ms (a median of 0.00 ms). The group grows with the step, and so
  // does its largest size, within the same budget.
  const step = clockStep(now);
  const stretch = Math.min(MAX_STRETCH, Math.max(1, step * TICKS_PER_GROUP / timing.groupMs));
  timing = { ...timing, groupMs: timing.groupMs * stretch, maxGroup: Math.round(timing.maxGroup * stretch) };
  /** @type {number} */
  let started;
  // The group size: how many runs last the group time, the largest of a few tries, so one
  // slow run (a garbage collection, another tab) does not leave a fast model timed run by run.
  for (let round = 0; round < timing.calibrations; round++) {
    let runs = 0;
    started = now();
    do { // at least one run per group, even if the clock jumped (a pause) before the first
      outputs = await runOnce();
      runs++;
    } while (runs < timing.maxGroup && now() - started < timing.groupMs);
    group = Math.max(group, runs);
    if (runs === timing.maxGroup || now() - started >= 10 * timing.groupMs) break;
  }
  const times = [];
  let timedRuns = 0;
  // A group read as less than half the group time holds too few of the clock's steps to be
  // read (WebKit's 1 ms clock read a linear model's runs as 0 ms): the runs got faster after
  // the sizing (the engine's JIT compiled them again), or a pause on a busy machine made the
  // sizing pick too few. That group is not kept: the group grows, up to maxGroup, and runs again.
  const shortest = timing.groupMs / 2;
  const budgetEnd = now() + timing.budgetMs;
  while (times.length < timing.runs && (times.length < timing.minRuns || now() < budgetEnd)) {
    started = now();
    for (let i = 0; i < group; i++) outputs = await runOnce();
    const elapsed = now() - started;
    if (elapsed < shortest && group < timing.maxGroup) {
      group = Math.min(timing.maxGroup, Math.max(2 * group, Math.ceil(group * timing.groupMs / Math.max(elapsed, step))));
      continue;
    }
    times.push(elapsed / group);
    timedRuns += group;
  }
  return { outputs, group, times, runs: timedRuns };
}

/**
 * The p-th percentile (0..100) of values, linearly interpolated between the two nearest ranks
 * (numpy's default); NaN for no values. percentile(v, 50) is the median.
 * @param {Numbers} values
 * @param {number} p
 */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = Array.from(values).sort((a, b) => a - b);
  const at = (sorted.length - 1) * Math.min(100, Math.max(0, p)) / 100;
  const low = Math.floor(at);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/**
 * The "Timings" line: session creation, the first run alone, then the median and 90th
 * percentile of the timed runs (per-run means of groups, see timeRuns) and how many ran.
 * @param {{createMs: number, firstMs: number, times: number[], runs: number}} timings
 */
export function timingsText({ createMs, firstMs, times, runs }) {
  return "session " + formatMs(createMs) + " · first run " + formatMs(firstMs) +
    " · median " + formatMs(median(times)) + " · p90 " + formatMs(percentile(times, 90)) +
    " · " + runs + " runs";
}

/**
 * One progress bar for several downloads at once: `items` maps a label to [received, total]
 * (total 0 when unknown), or to a phrase when bytes are not counted (e.g. "from the browser's
 * cache"). Returns the bar's value and max and the line under it.
 * @param {Record<string, [number, number] | string>} items
 */
export function progressSummary(items) {
  let received = 0;
  let total = 0;
  const parts = [];
  for (const [label, item] of Object.entries(items)) {
    if (typeof item === "string") {
      parts.push(label + " " + item);
      continue;
    }
    const [r, t] = item;
    received += r;
    total += t;
    // A finished download reads as its size alone: on a phone "of" doubled the line.
    parts.push(label + " " + formatBytes(r) + (t && r < t ? " of " + formatBytes(t) : ""));
  }
  return { value: received, max: Math.max(total, 1), text: parts.join(" · ") };
}

/**
 * The line a widget shows before Run: what a Run downloads, from the build's sizes
 * ({model, runtime: {backend: bytes}}), for the backend chosen.
 * @param {DownloadSizes} sizes
 * @param {string} backend
 */
export function downloadText({ model, runtime } = {}, backend) {
  const parts = [];
  if (model) parts.push("model " + formatBytes(model));
  const wasm = (runtime || {})[backend];
  parts.push(wasm ? "runtime " + formatBytes(wasm) : "the runtime");
  return "Downloaded only when you press Run: " + parts.join(" · ");
}

/**
 * The record's Downloads row after a Run: what that Run fetched, from the build's sizes, for
 * the backend it ran on, with the other backend's runtime for comparison (the larger WebGPU
 * build is one input of the backend rule). Sizes are of the files; a server that compresses
 * sends fewer bytes.
 * @param {DownloadSizes} sizes
 * @param {string} backend
 */
export function downloadsRecord({ model, runtime } = {}, backend) {
  const parts = [];
  if (model) parts.push("model " + formatBytes(model));
  const sizes = runtime || {};
  const wasm = sizes[backend];
  parts.push(wasm ? backend + " runtime " + formatBytes(wasm) : "the " + backend + " runtime");
  const others = Object.entries(sizes).filter(([name, bytes]) => name !== backend && bytes);
  const other = others.map(([name, bytes]) => name + "'s " + formatBytes(bytes)).join(", ");
  return parts.join(" · ") + (wasm ? " (once per browser cache" + (other ? "; " + other : "") + ")" : "");
}

/**
 * The same response, its body counted as it is read: onProgress(received, total) per chunk,
 * then onProgress(received, received) at the end. Nothing is kept. A failed response (or one
 * without a body) is returned as it is.
 * @param {Response} response
 * @param {OnProgress} onProgress
 */
export function countingResponse(response, onProgress) {
  if (!response.ok || !response.body) return response;
  // Content-Length counts compressed bytes when the server compresses: a hint, not a total.
  const declared = Number(response.headers.get("Content-Length")) || 0;
  let received = 0;
  /** @type {TransformStream<Uint8Array, Uint8Array>} */
  const counter = new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      onProgress(received, Math.max(declared, received));
      controller.enqueue(chunk);
    },
    flush() {
      onProgress(received, received);
    },
  });
  return new Response(response.body.pipeThrough(counter), {
    status: response.status, statusText: response.statusText, headers: response.headers,
  });
}

/* -- the persistent cache (Cache API), keyed by content ------------------------------------ */

/**
 * The Cache API key of a file: its URL with the build's content hash, ?sha256=<digest>.
 * @param {string} url
 * @param {string} digest
 */
export function cacheKey(url, digest) {
  const key = new URL(url);
  key.search = "?sha256=" + encodeURIComponent(digest);
  key.hash = "";
  return key.href;
}

/**
 * The cached keys to delete when `fresh` is stored: those of the same file (same URL without
 * its query) under another hash. A new build's file replaces the old one, never sits beside it.
 * @param {Iterable<string>} keys
 * @param {string} fresh
 */
export function staleKeys(keys, fresh) {
  /** @param {string} key */
  const path = (key) => key.split(/[?#]/)[0];
  return Array.from(keys).filter((key) => key !== fresh && path(key) === path(fresh));
}

/**
 * The widget's cache line: "cached 14.2 MB" (what this site keeps in the persistent cache).
 * @param {number} bytes
 */
export function cacheText(bytes) {
  return bytes > 0 ? "cached " + formatBytes(bytes) : "nothing cached";
}

/**
 * The .wasm file a backend's bundle loads, from the names the build passes in
 * data-runtime-files (one list of runtime files, kept in Python).
 * @param {Record<string, unknown> | null | undefined} files
 * @param {string} backend
 */
export function runtimeFile(files, backend) {
  const file = files && files[backend];
  if (typeof file !== "string" || !file) {
    throw new Error("This page names no runtime file for the " + backend + " backend " +
                    "(data-runtime-files); rebuild the site.");
  }
  return file;
}

/**
 * Download with a progress report, onProgress(received, total), and a readable error for
 * anything but HTTP 2xx. `fetchImpl` is the page's fetch unless a test passes another.
 * @param {string} url
 * @param {string} what
 * @param {OnProgress} onProgress
 * @param {Fetcher} [fetchImpl]
 */
export async function fetchBytes(url, what, onProgress, fetchImpl = (input) => fetch(input)) {
  return readBody(await openResponse(url, what, fetchImpl), onProgress);
}

/**
 * A fetch's response once its headers are in, or a readable error for anything but 2xx.
 * @param {string} url
 * @param {string} what
 * @param {Fetcher} [fetchImpl]
 */
export async function openResponse(url, what, fetchImpl = (input) => fetch(input)) {
  let response;
  try {
    response = await fetchImpl(url);
  } catch (error) {
    throw new Error("Could not download " + what + " (" + url + "): " + errorMessage(error),
                    { cause: error });
  }
  if (!response.ok) {
    throw new Error("Could not download " + what + ": HTTP " + response.status + " " +
                    response.statusText + " for " + url);
  }
  return response;
}

/**
 * Read a response's body, reporting onProgress(received, total) (see countingResponse).
 * @param {Response} response
 * @param {OnProgress} onProgress
 */
export async function readBody(response, onProgress) {
  return new Uint8Array(await countingResponse(response, onProgress).arrayBuffer());
}

/**
 * An error's message, or the thrown value as text (onnxruntime sometimes throws numbers).
 * @param {unknown} error
 * @returns {string}
 */
export function errorMessage(error) {
  const message = typeof error === "object" && error !== null && "message" in error
    ? error.message
    : undefined;
  return message ? String(message) : String(error);
}

/* -- reading the outputs ------------------------------------------------------------------ */

/**
 * Softmax of scores (logits) into probabilities; stable for large scores.
 * @param {TensorNumbers} scores
 */
export function softmax(scores) {
  const values = Array.from(scores, Number);
  if (values.length === 0) return [];
  const top = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/**
 * The k highest scores as [{index, value}], highest first; ties keep the lower index first.
 * @param {TensorNumbers} values
 * @param {number} k
 */
export function topK(values, k) {
  return Array.from(values, (value, index) => ({ index, value: Number(value) }))
    .sort((a, b) => b.value - a.value || a.index - b.index)
    .slice(0, Math.max(0, k));
}

/**
 * The classes an output names, most likely first: the first row of `values` (a [batch,
 * classes] output), softmax applied when the reading says the scores are logits.
 * Returns {rows: [{name, index, probability}], answer} (answer: the top class's name).
 * @param {ArrayLike<number | bigint | string>} values
 * @param {ArrayLike<number | bigint>} dims
 * @param {Partial<Pick<ReferenceReading, "softmax" | "classes" | "top">>} reading
 */
export function readClasses(values, dims, reading) {
  const width = dims.length ? Number(dims[dims.length - 1]) : values.length;
  const row = Array.from(values).slice(0, width || values.length).map(Number);
  const probabilities = reading.softmax ? softmax(row) : row;
  const names = reading.classes || [];
  const rows = topK(probabilities, reading.top || 3).map(({ index, value }) => ({
    index,
    name: index < names.length ? String(names[index]) : "class " + index,
    probability: value,
  }));
  return { rows, answer: rows.length ? rows[0].name : "" };
}

/**
 * A probability as the bar chart says it: 93.1 %, <0.1 % for the tiny ones.
 * @param {number} p
 */
export function formatPercent(p) {
  if (!Number.isFinite(p)) return String(p);
  if (p > 0 && p < 0.001) return "<0.1 %";
  return (p * 100).toFixed(1) + " %";
}

/**
 * A `values` reading: one line per value, its label (a row number added when the output has
 * several rows) and unit. Returns [{label, text}].
 * @param {ArrayLike<number | bigint | string>} values
 * @param {ArrayLike<number | bigint>} dims
 * @param {Partial<Pick<ReferenceReading, "labels" | "unit">>} reading
 */
export function readValues(values, dims, reading) {
  const labels = reading.labels || [];
  const width = dims.length > 1 ? Number(dims[dims.length - 1]) : values.length;
  const rows = width ? Math.ceil(values.length / width) : 0;
  const unit = reading.unit ? " " + reading.unit : "";
  return Array.from(values, (value, i) => {
    const column = width ? i % width : i;
    let label = column < labels.length ? String(labels[column]) : "value " + (column + 1);
    if (rows > 1) label += " (row " + (Math.floor(i / width) + 1) + ")";
    return { label, text: formatValue(value) + unit };
  });
}

/**
 * Colour stops of the heatmap (0 -> 1): dark blue, magenta, orange, yellow.
 * @type {ReadonlyArray<readonly [number, readonly [number, number, number]]>}
 */
export const HEATMAP_STOPS = Object.freeze([
  [0, [40, 30, 120]],
  [0.35, [170, 40, 140]],
  [0.7, [250, 130, 40]],
  [1, [255, 240, 60]],
]);

/**
 * The RGBA colour of a map value 0..1 drawn over a picture: the stop colours interpolated,
 * more opaque as the value grows (values outside 0..1 are clamped; NaN reads as 0).
 * @param {number} value
 * @returns {[number, number, number, number]}
 */
export function heatmapColour(value) {
  const v = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  let i = 1;
  while (i < HEATMAP_STOPS.length - 1 && v > HEATMAP_STOPS[i][0]) i++;
  const [p0, c0] = HEATMAP_STOPS[i - 1];
  const [p1, c1] = HEATMAP_STOPS[i];
  const t = p1 > p0 ? (v - p0) / (p1 - p0) : 0;
  /** @param {0 | 1 | 2} k */
  const mix = (k) => Math.round(c0[k] + (c1[k] - c0[k]) * t);
  return [mix(0), mix(1), mix(2), Math.round(255 * (0.25 + 0.65 * v))];
}

/**
 * A one-channel float picture [.., height, width] as grey RGBA bytes, scaled so that its
 * smallest value is black and its largest white (all mid-grey when every value is the same).
 * Returns {pixels, min, max}; NaN values are drawn black and stay out of min and max.
 * @param {ArrayLike<number | bigint | string>} values
 * @param {number} height
 * @param {number} width
 */
export function greyPixels(values, height, width) {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < height * width; i++) {
    const v = Number(values[i]);
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const span = max - min;
  const pixels = new Uint8ClampedArray(height * width * 4);
  for (let i = 0; i < height * width; i++) {
    const v = Number(values[i]);
    const level = Number.isNaN(v) ? 0 : span > 0 ? (255 * (v - min)) / span : 128;
    pixels.fill(level, 4 * i, 4 * i + 3);
    pixels[4 * i + 3] = 255;
  }
  return { pixels, min, max };
}

/** The CSS gradient of the legend, from the same stops. */
export function heatmapGradient() {
  return "linear-gradient(to right, " + HEATMAP_STOPS.map(([p, [r, g, b]]) =>
    "rgb(" + r + " " + g + " " + b + ") " + Math.round(p * 100) + "%").join(", ") + ")";
}

/**
 * A map [.., height, width] blended over an RGBA picture of the same size (or over grey when
 * there is none). Returns RGBA bytes (a Uint8ClampedArray) of height x width.
 * @param {ArrayLike<number | bigint | string>} map
 * @param {number} height
 * @param {number} width
 * @param {ArrayLike<number> | null} [picture] RGBA bytes
 */
export function heatmapPixels(map, height, width, picture = null) {
  const out = new Uint8ClampedArray(height * width * 4);
  for (let i = 0; i < height * width; i++) {
    const [r, g, b, a] = heatmapColour(Number(map[i]));
    const alpha = a / 255;
    // The picture in grey, so the colours read as the map's, not the picture's.
    const grey = picture
      ? 0.299 * picture[4 * i] + 0.587 * picture[4 * i + 1] + 0.114 * picture[4 * i + 2]
      : 128;
    out[4 * i] = r * alpha + grey * (1 - alpha);
    out[4 * i + 1] = g * alpha + grey * (1 - alpha);
    out[4 * i + 2] = b * alpha + grey * (1 - alpha);
    out[4 * i + 3] = 255;
  }
  return out;
}

/**
 * The dims of a reader's own values for an input whose sample had `sampleDims`: the same
 * shape with the first (batch) axis holding as many rows as the values fill.
 * @param {ArrayLike<number | bigint>} sampleDims
 * @param {number} count
 */
export function ownDims(sampleDims, count) {
  const dims = Array.from(sampleDims, Number);
  if (dims.length === 0) return [count];
  const row = dims.slice(1).reduce((a, b) => a * b, 1);
  dims[0] = row ? Math.max(1, Math.round(count / row)) : count;
  return dims;
}

/**
 * Whether two {name: dims} maps hold the same shapes.
 * @param {Record<string, ArrayLike<number | bigint>>} a
 * @param {Record<string, ArrayLike<number | bigint>>} b
 */
export function sameShapes(a, b) {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length &&
    names.every((name) => b[name] && sameDims(a[name], b[name]));
}
