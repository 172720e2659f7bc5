/*
 * Live examples: the Run button of a model's widget imports the model's example.mjs (the code
 * shown on the page) and runs it in the reader's browser with the self-hosted onnxruntime-web,
 * then checks the outputs against reference.json, computed by the build with Python
 * onnxruntime.
 *
 * live-example.js (a classic script on every page) imports this module once a page has a
 * widget; Material's instant navigation keeps the document, so the module and its delegated
 * listeners stay, and init() readies the widgets of each new page. Nothing of the runtime is
 * fetched before Run.
 *
 * The parts: live-example-core.mjs (pure helpers, unit-tested under node), -inputs.mjs (where
 * the input comes from), -presenters.mjs (how outputs are shown), -cache.mjs (downloads and
 * the persistent cache), -queue.mjs (one Run at a time uses the page's runtime and wraps its
 * globals, so that two never meet), -dom.mjs (shared helpers).
 *
 * Test hook: window.onnxLiveExample.stats counts the sessions created and released; a page
 * may set window.onnxLiveExample.afterTimings to an async function, called with the session,
 * its feeds and the widget's timings before the session is released (the benchmark's bare
 * loop uses it).
 */
import {
  clearCache, fileBytes, handOver, prepareWasm, showCacheLine,
} from "./live-example-cache.mjs";
import * as core from "./live-example-core.mjs";
import { part, setState, setText } from "./live-example-dom.mjs";
import {
  clearPad, currentInput, feedArgs, initInputs, previewInput,
} from "./live-example-inputs.mjs";
import { clearOutputs, presentOutputs } from "./live-example-presenters.mjs";
import { busy, exclusive } from "./live-example-queue.mjs";

// The runtime sits in <site>/assets/ort/, next to this module's folder (<site>/assets/onnx_glossary/).
const ORT_BASE = new URL("../ort/", import.meta.url).href;

const RESULT_KEYS = [
  "backend", "threads", "maxAbsDiff", "match", "medianMs", "sample", "answer",
  "shippedMatch", "shippedMaxAbsDiff",
];

const stats = { sessionsCreated: 0, sessionsReleased: 0 };
// Per example.mjs URL, from when the widget is readied: its import, and its pickBackend() answer.
const examples = new Map();
const choices = new Map();
if (globalThis.onnxLiveExample) globalThis.onnxLiveExample.stats = stats;

/* One Run, as the reader sees it happen: the checked result first, the timings after it. */
async function run(root) {
  resetUi(root);
  try {
    const input = currentInput(root);
    root.dataset.sample = input.source === "own" ? "own" : String(input.index);
    const started = startDownloads(root);
    const example = await exampleModule(root); // imported when the widget was readied
    const choice = await chooseBackend(root, example);
    const downloaded = await download(root, example, choice.backend, started);
    const { args, pinned } = feedArgs(root, input, example, downloaded.reference);
    if (busy()) setState(root, "loading", "Waiting for the other live example on this page…");
    // The runtime is the page's: one Run at a time uses it (see live-example-queue.mjs).
    const verdict = await exclusive((globals) => runModel(root, {
      example, downloaded, choice, input, args, pinned,
    }, globals));
    setState(root, "done", verdict);
  } catch (error) {
    showError(root, error);
  } finally {
    release(root);
  }
}

/*
 * The part of a Run that uses the runtime, from the session's creation to its release: a
 * task of the page-wide queue. onnxruntime-web 1.30's run() (lib/wasm/wasm-core-impl.ts)
 * takes room on the runtime's one stack and awaits before it gives it back, so two runs of
 * the page at once corrupt each other; the timings of one would count the other's too.
 */
async function runModel(root, { example, downloaded, choice, input, args, pinned }, globals) {
  const created = await createSession(root, example, downloaded, choice, pinned, globals);
  try {
    const feeds = await example.makeFeeds(created.ort, ...args);
    const pixelNote = checkSamplePixels(root, feeds, downloaded.reference, input);
    const first = await firstRun(root, created, feeds);
    const check = compareOutputs(root, first.outputs, downloaded.reference, input);
    presentOutputs(root, {
      results: check.results,
      reading: downloaded.reference.reading || null,
      input,
      label: input.source === "sample" ? sampleLabel(downloaded.reference, input.index) : null,
      fed: plainTensors(feeds),
    });
    const verdict = showResult(root, created.backend, check, pixelNote, input);
    await timeRuns(root, created, feeds, first.ms);
    return verdict;
  } finally {
    // Free the session (WebGPU memory) before the next task's runtime work starts.
    await created.session.release().then(() => { stats.sessionsReleased++; }, () => {});
  }
}

/* -- the steps ---------------------------------------------------------------------------- */

function resetUi(root) {
  runButton(root).disabled = true;
  for (const key of RESULT_KEYS) delete root.dataset[key];
  part(root, "error").hidden = true;
  for (const name of ["shipped-title", "shipped"]) {
    const element = part(root, name);
    if (element) element.hidden = true;
  }
  clearOutputs(root);
  setText(root, "timings", "–");
  setState(root, "loading", "Loading…");
}

/* The very module the page shows as code; a failed import is tried again on the next Run. */
function exampleModule(root) {
  const url = widgetUrl(root, "exampleUrl");
  if (!examples.has(url)) {
    const module = import(url);
    module.catch(() => examples.delete(url));
    examples.set(url, module);
  }
  return examples.get(url);
}

/*
 * Everything else that does not depend on the backend, at once: the model (with progress) and
 * the reference outputs.
 */
function startDownloads(root) {
  const track = progressBar(root);
  const started = {
    model: fileBytes(root, widgetUrl(root, "modelUrl"), "model", "the model", track("model")),
    reference: fileBytes(root, widgetUrl(root, "referenceUrl"), "reference",
                         "the reference outputs", () => {})
      .then((bytes) => JSON.parse(new TextDecoder().decode(bytes))),
    track,
  };
  // Awaited later, in download(); until then a failure must not count as unhandled.
  for (const key of ["model", "reference"]) started[key].catch(() => {});
  return started;
}

/* The example's pickBackend() answer, asked once per example.mjs (when the widget is readied);
   a failed one is asked again on the next Run. */
function backendChoice(root, example) {
  const url = widgetUrl(root, "exampleUrl");
  if (!choices.has(url)) {
    const choice = example.pickBackend();
    choice.catch(() => choices.delete(url));
    choices.set(url, choice);
  }
  return choices.get(url);
}

async function chooseBackend(root, example) {
  const choice = await backendChoice(root, example);
  setText(root, "backend", choice.backend + " (" + choice.reason + ")");
  setText(root, "isolated", globalThis.crossOriginIsolated
    ? "yes"
    : "no (threads need COOP/COEP headers)");
  return choice;
}

/* The backend's runtime and its .wasm, joined to the downloads already under way. */
async function download(root, example, backend, started) {
  const wasmUrl = ORT_BASE + core.runtimeFile(runtimeFiles(root), backend);
  const prepared = prepareWasm(root, wasmUrl, backend, started.track("runtime"));
  try {
    const [ort, wasm, model, reference] = await Promise.all([
      example.loadRuntime(backend), prepared, started.model, started.reference,
    ]);
    return { ort, wasm, model, reference };
  } catch (error) { // the Run ends here: stop the runtime's download, if it started
    prepared.then((wasm) => wasm.abort(), () => {});
    throw error;
  }
}

async function createSession(root, example, { ort, wasm, model }, choice, pinned, globals) {
  setState(root, "loading", "Creating the session…");
  const started = performance.now();
  const finish = handOver(ort, wasm, globals);
  let created;
  try {
    created = await example.createSession(ort, choice.backend, model, pinned);
  } finally {
    finish();
  }
  stats.sessionsCreated++;
  const createMs = performance.now() - started;
  const threads = String(created.ort.env.wasm.numThreads);
  root.dataset.backend = created.backend;
  root.dataset.threads = threads;
  setText(root, "backend", created.fallback
    ? "wasm (WebGPU failed: " + created.fallback + ")"
    : created.backend + " (" + choice.reason + ")");
  setText(root, "threads", threads);
  return { ...created, createMs };
}

/* Tensors as plain {dims, values} (numbers, or strings for string tensors). */
function plainTensors(tensors) {
  return Object.fromEntries(Object.entries(tensors).map(([name, tensor]) => [name, {
    type: tensor.type,
    dims: Array.from(tensor.dims, Number),
    values: tensor.type === "string" ? Array.from(tensor.data) : core.toNumbers(tensor.data),
  }]));
}

/* A sample's true answer, when example.yml gives one. */
function sampleLabel(reference, index) {
  const sample = (reference.samples || [])[index];
  return sample && sample.label !== undefined ? sample.label : null;
}

/*
 * The reference check only means something if the browser decoded the shipped picture to the
 * same pixels as the build did; returns the note to show when it did not.
 */
function checkSamplePixels(root, feeds, reference, input) {
  const name = root.dataset.imageInput;
  if (!name || !input.hasReference || input.index !== 0) return "";
  const sample = reference.inputs.find((entry) => entry.name === name);
  return sample && core.sameBytes(feeds[name].data, sample.data)
    ? ""
    : "The browser decoded the picture to other pixels than the build did. ";
}

/* The first run alone: its outputs are the ones checked and shown. */
async function firstRun(root, { session }, feeds) {
  setState(root, "running", "Running…");
  const started = performance.now();
  const outputs = await session.run(feeds);
  return { outputs, ms: performance.now() - started };
}

/* Then the median of many runs, after the result is on the page. */
async function timeRuns(root, { session, createMs }, feeds, firstMs) {
  const timed = await core.timeRuns(() => session.run(feeds), () => performance.now());
  root.dataset.medianMs = String(core.median(timed.times));
  setText(root, "timings", core.timingsText({
    createMs, firstMs, times: timed.times, group: timed.group,
  }));
  const hook = globalThis.onnxLiveExample && globalThis.onnxLiveExample.afterTimings;
  if (typeof hook === "function") await hook({ session, feeds, ...timed });
}

/* Outputs as plain values, each with its verdict against the reference (none for own input). */
function compareOutputs(root, outputs, reference, input) {
  const plain = plainTensors(outputs);
  const tolerance = { atol: Number(root.dataset.atol), rtol: Number(root.dataset.rtol) };
  if (!input.hasReference) {
    const check = core.compareOutputs(plain, null, tolerance, input.noReference.verdict);
    const results = check.rows.map((row) => ({ ...plain[row.name], ...row }));
    return { ...check, results, onnxruntime: reference.onnxruntime, shipped: null };
  }
  // Sample 0's outputs are the top level of reference.json; the others carry their own.
  const sample = (reference.samples || [])[input.index] || {};
  const expected = input.index > 0 ? { outputs: sample.outputs || [] } : reference;
  const check = core.compareOutputs(plain, expected, tolerance);
  const results = check.rows.map((row) => ({ ...plain[row.name], ...row }));
  // A model-zoo sample also ships the outputs its authors expect: check those too.
  let shipped = null;
  if (sample.expected && sample.expected.outputs) {
    const names = new Set(sample.expected.outputs.map((o) => o.name));
    const compared = Object.fromEntries(Object.entries(plain).filter(([name]) => names.has(name)));
    shipped = {
      ...core.compareOutputs(compared, { outputs: sample.expected.outputs }, tolerance),
      source: sample.source || "the data set",
      count: names.size,
      seen: Object.keys(compared).length,
    };
    shipped.pass = shipped.pass && shipped.seen === shipped.count;
  }
  return { ...check, results, onnxruntime: reference.onnxruntime, shipped };
}

/* The checked result, on the page before the timings; returns the line to end the Run with. */
function showResult(root, backend, check, pixelNote, input) {
  if (!input.hasReference) {
    setText(root, "check", input.noReference.check);
    setText(root, "state", "Ran on " + backend + "; timing…");
    return "Done on " + backend + ".";
  }
  const pass = check.pass && !pixelNote;
  root.dataset.maxAbsDiff = String(check.maxAbs);
  root.dataset.match = String(pass);
  setText(root, "check", core.checkText({
    maxAbs: check.maxAbs, pass, note: pixelNote, onnxruntime: check.onnxruntime,
    atol: root.dataset.atol, rtol: root.dataset.rtol,
  }));
  const shipped = check.shipped;
  if (shipped) {
    root.dataset.shippedMatch = String(shipped.pass);
    root.dataset.shippedMaxAbsDiff = String(shipped.maxAbs);
    part(root, "shipped-title").hidden = false;
    part(root, "shipped").hidden = false;
    setText(root, "shipped", "max abs diff " + shipped.maxAbs.toExponential(2) +
      " against the outputs shipped in " + shipped.source + " (output_N.pb): " +
      (shipped.pass ? "match" : "MISMATCH"));
  }
  const ok = pass && (!shipped || shipped.pass);
  const verdict = ok ? "matches the reference." : shipped && !shipped.pass && pass
    ? "differs from the outputs the data set ships."
    : "differs from the reference.";
  setText(root, "state", "Checked: " + verdict + " Timing…");
  return "Done: " + verdict;
}

function showError(root, error) {
  const box = part(root, "error");
  box.textContent = core.errorMessage(error);
  box.hidden = false;
  setState(root, "error", "Failed; press Run to try again.");
}

/* After every Run, whatever happened: free the button (runModel freed the session). */
function release(root) {
  delete part(root, "progress").dataset.active;
  runButton(root).disabled = false;
  showCacheLine(root);
}

/* -- helpers of the steps ------------------------------------------------------------------ */

function runButton(root) {
  return root.querySelector('button[data-action="run"]');
}

function widgetUrl(root, key) {
  return new URL(root.dataset[key], location.href).href;
}

/* The bytes of the model and of each backend's .wasm (data-download-sizes, from Python). */
function downloadSizes(root) {
  return JSON.parse(root.dataset.downloadSizes || "{}");
}

/* The .wasm file per backend, as the build names them (data-runtime-files, from Python). */
function runtimeFiles(root) {
  return JSON.parse(root.dataset.runtimeFiles || "{}");
}

/*
 * A progress bar shared by downloads running at once: track(label) gives one its callback.
 * The bar is redrawn once per frame at most, however many chunks arrive.
 */
function progressBar(root) {
  const bar = part(root, "progress-bar");
  const items = {};
  let drawing = false;
  const draw = () => {
    drawing = false;
    const summary = core.progressSummary(items);
    bar.max = summary.max;
    bar.value = summary.value;
    setText(root, "progress-text", summary.text);
  };
  part(root, "progress").dataset.active = "";
  return function track(label) {
    items[label] = [0, 0];
    // onProgress(received, total), or onProgress(phrase) when no bytes are counted.
    return function onProgress(received, total) {
      items[label] = typeof received === "string" ? received : [received, total];
      if (!drawing) {
        drawing = true;
        requestAnimationFrame(draw);
      }
    };
  };
}

function selectTab(root, name) {
  for (const tab of root.querySelectorAll("[data-tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
  for (const panel of root.querySelectorAll("[data-panel]")) {
    panel.hidden = panel.dataset.panel !== name;
  }
}

/* -- wiring -------------------------------------------------------------------------------- */

/** Ready the widgets of the current document (again after each instant navigation). */
export function init() {
  for (const root of document.querySelectorAll("[data-live-example]")) {
    if (root.dataset.ready) continue;
    root.dataset.ready = "true";
    runButton(root).disabled = false;
    initInputs(root);
    // What the Run button needs first, done now: import this page's own example.mjs (a few
    // kB, the code the page shows, which imports no runtime until Run) and let it choose the
    // backend (asking for a WebGPU adapter downloads nothing). A failure shows on Run.
    exampleModule(root).then((module) => backendChoice(root, module)).then(({ backend }) => {
      // What a Run will download, until one starts.
      if (root.dataset.state !== "loading" && root.dataset.state !== "running") {
        setText(root, "progress-text", core.downloadText(downloadSizes(root), backend));
      }
    }, () => {});
    setText(root, "state", "Ready: press Run.");
    showCacheLine(root);
  }
}

// Delegated listeners survive Material's instant navigation, which swaps the page content.
// A module runs once per document, so they are added once.
document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const root = target && target.closest("[data-live-example]");
  if (!root) return;
  const button = target.closest('button[data-action="run"]');
  if (button && !button.disabled) run(root);
  if (target.closest('button[data-action="clear"]')) clearPad(root);
  if (target.closest('button[data-action="clear-cache"]')) clearCache(root);
  const tab = target.closest("[data-tab]");
  if (tab) selectTab(root, tab.dataset.tab);
});

for (const type of ["change", "input"]) {
  document.addEventListener(type, (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const root = target && target.closest("[data-live-example]");
    if (root) previewInput(root, target);
  });
}
