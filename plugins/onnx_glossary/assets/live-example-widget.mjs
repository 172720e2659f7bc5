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
 * the input comes from), -presenters.mjs (how outputs are shown), -dom.mjs (shared helpers).
 */
import * as core from "./live-example-core.mjs";
import { part, setState, setText } from "./live-example-dom.mjs";
import {
  clearPad, currentInput, feedArgs, initInputs, previewInput,
} from "./live-example-inputs.mjs";
import { clearOutputs, presentOutputs } from "./live-example-presenters.mjs";

// The runtime sits in <site>/assets/ort/, next to this module's folder (<site>/assets/onnx_glossary/).
const ORT_BASE = new URL("../ort/", import.meta.url).href;

const RESULT_KEYS = [
  "backend", "threads", "maxAbsDiff", "match", "medianMs", "sample", "answer",
  "shippedMatch", "shippedMaxAbsDiff",
];

const wasmCache = new Map(); // .wasm file name -> Promise<Uint8Array>, kept across Runs

/* One Run, as the reader sees it happen. */
async function run(root) {
  resetUi(root);
  let session = null;
  try {
    const input = currentInput(root);
    root.dataset.sample = input.source === "own" ? "own" : String(input.index);
    const example = await importExample(root);
    const choice = await chooseBackend(root, example);
    const downloaded = await download(root, example, choice.backend);
    const { args, pinned } = feedArgs(root, input, example, downloaded.reference);
    const created = await createSession(root, example, downloaded, choice, pinned);
    session = created.session;
    const feeds = await example.makeFeeds(created.ort, ...args);
    const pixelNote = checkSamplePixels(root, feeds, downloaded.reference, input);
    const outputs = await timeRuns(root, created, feeds);
    const check = compareOutputs(root, outputs, downloaded.reference, input);
    presentOutputs(root, {
      results: check.results,
      reading: downloaded.reference.reading || null,
      input,
      label: input.source === "sample" ? sampleLabel(downloaded.reference, input.index) : null,
      fed: plainTensors(feeds),
    });
    showResult(root, created.backend, check, pixelNote, input);
  } catch (error) {
    showError(root, error);
  } finally {
    release(root, session);
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

/* The very module the page shows as code. */
function importExample(root) {
  return import(widgetUrl(root, "exampleUrl"));
}

async function chooseBackend(root, example) {
  const choice = await example.pickBackend();
  setText(root, "backend", choice.backend + " (" + choice.reason + ")");
  setText(root, "isolated", globalThis.crossOriginIsolated
    ? "yes"
    : "no (threads need COOP/COEP headers)");
  return choice;
}

/* The runtime, its .wasm, the model and the reference at once, under one progress bar. */
async function download(root, example, backend) {
  const track = progressBar(root);
  const wasmFile = core.runtimeFile(runtimeFiles(root), backend);
  const [ort, wasm, model, reference] = await Promise.all([
    example.loadRuntime(backend),
    wasmBytes(wasmFile, track("runtime")),
    core.fetchBytes(widgetUrl(root, "modelUrl"), "the model", track("model")),
    core.fetchBytes(widgetUrl(root, "referenceUrl"), "the reference outputs", () => {})
      .then((bytes) => JSON.parse(new TextDecoder().decode(bytes))),
  ]);
  return { ort, wasm, model, reference };
}

async function createSession(root, example, { ort, wasm, model }, choice, pinned) {
  // Hand ort the .wasm we downloaded (with progress) instead of letting it fetch it again.
  ort.env.wasm.wasmBinary = wasm;
  setState(root, "loading", "Creating the session…");
  const started = performance.now();
  const created = await example.createSession(ort, choice.backend, model, pinned);
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

/* The first run alone, then the median of many; returns the last run's outputs. */
async function timeRuns(root, { session, createMs }, feeds) {
  setState(root, "running", "Running…");
  const started = performance.now();
  await session.run(feeds);
  const firstMs = performance.now() - started;
  const timed = await core.timeRuns(() => session.run(feeds), () => performance.now());
  root.dataset.medianMs = String(core.median(timed.times));
  setText(root, "timings", core.timingsText({
    createMs, firstMs, times: timed.times, group: timed.group,
  }));
  return timed.outputs;
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

function showResult(root, backend, check, pixelNote, input) {
  if (!input.hasReference) {
    setText(root, "check", input.noReference.check);
    setState(root, "done", "Done on " + backend + ".");
    return;
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
  setState(root, "done", ok ? "Done: matches the reference." : shipped && !shipped.pass && pass
    ? "Done: differs from the outputs the data set ships."
    : "Done: differs from the reference.");
}

function showError(root, error) {
  const box = part(root, "error");
  box.textContent = core.errorMessage(error);
  box.hidden = false;
  setState(root, "error", "Failed; press Run to try again.");
}

/* After every Run, whatever happened: free the session (WebGPU memory) and the button. */
function release(root, session) {
  if (session) session.release().catch(() => {});
  part(root, "progress").hidden = true;
  runButton(root).disabled = false;
}

/* -- helpers of the steps ------------------------------------------------------------------ */

function runButton(root) {
  return root.querySelector('button[data-action="run"]');
}

function widgetUrl(root, key) {
  return new URL(root.dataset[key], location.href).href;
}

/* The .wasm file per backend, as the build names them (data-runtime-files, from Python). */
function runtimeFiles(root) {
  return JSON.parse(root.dataset.runtimeFiles || "{}");
}

/* A progress bar shared by downloads running at once: track(label) gives one its callback. */
function progressBar(root) {
  const bar = part(root, "progress-bar");
  const items = {};
  part(root, "progress").hidden = false;
  return function track(label) {
    items[label] = [0, 0];
    return function onProgress(received, total) {
      items[label] = [received, total];
      const summary = core.progressSummary(items);
      bar.max = summary.max;
      bar.value = summary.value;
      setText(root, "progress-text", summary.text);
    };
  };
}

function wasmBytes(file, onProgress) {
  if (!wasmCache.has(file)) {
    const download = core.fetchBytes(ORT_BASE + file, "the runtime " + file, onProgress);
    // A failed download is not cached: the next Run tries again.
    download.catch(() => wasmCache.delete(file));
    wasmCache.set(file, download);
  } else {
    wasmCache.get(file).then((bytes) => onProgress(bytes.length, bytes.length), () => {});
  }
  return wasmCache.get(file);
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
    setText(root, "state", "Ready: press Run.");
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
