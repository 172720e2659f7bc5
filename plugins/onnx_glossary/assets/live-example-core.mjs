/*
 * Live examples, the pure part: arithmetic and text for the widget, no DOM and no runtime
 * (fetchBytes only needs a fetch). The page imports it (through live-example-widget.mjs) and
 * node runs its unit tests (tests/js/*.test.mjs), so everything here must work in both.
 */

/** How long the widget spends timing a model (software WebGPU is very slow: keep a budget). */
export const TIMING = Object.freeze({
  runs: 20, // median of up to this many groups of runs...
  minRuns: 3, // ...at least this many, even past the budget...
  budgetMs: 3000, // ...within this time once the group size is known
  // Without cross-origin isolation the page clock ticks in 0.1 ms steps: a fast model is timed
  // in groups of runs that together last at least this long (at most maxGroup runs a group).
  groupMs: 2,
  maxGroup: 100,
});

/** Values shown per output in the results table. */
export const SHOWN_VALUES = 8;

/** The middle value (mean of the two middle ones for an even count); NaN for no values. */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = Array.from(values).sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A tensor's numbers as plain numbers: int64/uint64 outputs come back as BigInt arrays. */
export function toNumbers(data) {
  return Array.from(data, Number);
}

/** Bytes for a progress line: kB below 100 kB, else MB, one decimal. */
export function formatBytes(bytes) {
  return bytes < 1e5 ? (bytes / 1e3).toFixed(1) + " kB" : (bytes / 1e6).toFixed(1) + " MB";
}

/** Milliseconds: two decimals below 10 ms, whole numbers above. */
export function formatMs(value) {
  return value < 10 ? value.toFixed(2) + " ms" : value.toFixed(0) + " ms";
}

/** One element of an output: strings quoted, integers as they are, floats to 6 digits. */
export function formatValue(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint" || Number.isInteger(value)) return String(value);
  return Number(value).toPrecision(6);
}

/** The first `shown` values of an output and how many more there are. */
export function formatValues(values, shown = SHOWN_VALUES) {
  const head = Array.from(values.slice(0, shown), formatValue).join(", ");
  const more = values.length - shown;
  return "[" + head + (more > 0 ? ", … " + more + " more" : "") + "]";
}

/** Dims as the table shows them: [1, 3]. */
export function formatDims(dims) {
  return "[" + Array.from(dims).join(", ") + "]";
}

/** Whether two shapes are equal; dims may be numbers or BigInts. */
export function sameDims(a, b) {
  return a.length === b.length && Array.from(a).every((d, i) => Number(d) === Number(b[i]));
}

/** Whether two byte (or number) sequences are element-wise identical. */
export function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Compare one output with the reference, numpy.allclose style: each element passes when
 * |a - b| <= atol + rtol * |b| (b the reference). NaN matches only NaN, an infinity only the
 * same infinity; matching NaNs stay out of maxAbs. Different lengths never pass.
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

/** The "Reference check" line for a run that was compared. */
export function checkText({ maxAbs, pass, note, onnxruntime, atol, rtol }) {
  return (note || "") + "max abs diff " + maxAbs.toExponential(2) +
    " against the build's onnxruntime " + onnxruntime + " outputs: " +
    (pass ? "match" : "MISMATCH") + " (atol " + atol + ", rtol " + rtol + ")";
}

/**
 * Time `runOnce` (an async function returning the outputs): the group size first, then up to
 * TIMING.runs groups within the budget. `now` is the clock (performance.now in the page).
 * Returns the last outputs, the group size and the per-run mean of each group in ms.
 */
export async function timeRuns(runOnce, now, timing = TIMING) {
  let outputs;
  let group = 0;
  let started = now();
  do { // at least one run per group, even if the clock jumped (a pause) before the first
    outputs = await runOnce();
    group++;
  } while (group < timing.maxGroup && now() - started < timing.groupMs);
  const times = [];
  const budgetEnd = now() + timing.budgetMs;
  while (times.length < timing.runs && (times.length < timing.minRuns || now() < budgetEnd)) {
    started = now();
    for (let i = 0; i < group; i++) outputs = await runOnce();
    times.push((now() - started) / group);
  }
  return { outputs, group, times };
}

/** The "Timings" line. */
export function timingsText({ createMs, firstMs, times, group }) {
  return "session " + formatMs(createMs) + " · first run " + formatMs(firstMs) +
    " · median " + formatMs(median(times)) + " (" + times.length * group + " runs)";
}

/**
 * One progress bar for several downloads at once: `items` maps a label to [received, total]
 * (total 0 when unknown). Returns the bar's value and max and the line under it.
 */
export function progressSummary(items) {
  let received = 0;
  let total = 0;
  const parts = [];
  for (const [label, [r, t]] of Object.entries(items)) {
    received += r;
    total += t;
    parts.push(label + " " + formatBytes(r) + (t ? " of " + formatBytes(t) : ""));
  }
  return { value: received, max: Math.max(total, 1), text: parts.join(" · ") };
}

/**
 * The .wasm file a backend's bundle loads, from the names the build passes in
 * data-runtime-files (one list of runtime files, kept in Python).
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
 */
export async function fetchBytes(url, what, onProgress, fetchImpl = (input) => fetch(input)) {
  let response;
  try {
    response = await fetchImpl(url);
  } catch (error) {
    throw new Error("Could not download " + what + " (" + url + "): " + errorMessage(error));
  }
  if (!response.ok) {
    throw new Error("Could not download " + what + ": HTTP " + response.status + " " +
                    response.statusText + " for " + url);
  }
  // Content-Length counts compressed bytes when the server compresses: a hint, not a total.
  const declared = Number(response.headers.get("Content-Length")) || 0;
  const chunks = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(received, Math.max(declared, received));
  }
  onProgress(received, received);
  return joinChunks(chunks);
}

/** Concatenate downloaded chunks into one Uint8Array. */
export function joinChunks(chunks) {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** An error's message, or the thrown value as text (onnxruntime sometimes throws numbers). */
export function errorMessage(error) {
  return error && error.message ? error.message : String(error);
}
