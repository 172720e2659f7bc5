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
import { currentInput, previewInput } from "./live-example-inputs.mjs";
import { clearOutputs, presentOutputs } from "./live-example-presenters.mjs";

// The runtime sits in <site>/assets/ort/, next to this module's folder (<site>/assets/onnx_glossary/).
const ORT_BASE = new URL("../ort/", import.meta.url).href;

const RESULT_KEYS = ["backend", "threads", "maxAbsDiff", "match", "medianMs"];

const wasmCache = new Map(); // .wasm file name -> Promise<Uint8Array>, kept across Runs

/* One Run, as the reader sees it happen. */
async function run(root) {
  resetUi(root);
  let session = null;
  try {
    const example = await importExample(root);
    const choice = await chooseBackend(root, example);
    const downloaded = await download(root, example, choice.backend);
    const created = await createSession(root, example, downloaded, choice);
    session = created.session;
    const input = currentInput(root);
    const feeds = await makeFeeds(example, created.ort, input);
    const pixelNote = checkSamplePixels(root, feeds, downloaded.reference, input);
    const outputs = await timeRuns(root, created, feeds);
    const check = compareOutputs(root, outputs, downloaded.reference, input);
    presentOutputs(root, check.results);
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

async function createSession(root, example, { ort, wasm, model }, choice) {
  // Hand ort the .wasm we downloaded (with progress) instead of letting it fetch it again.
  ort.env.wasm.wasmBinary = wasm;
  setState(root, "loading", "Creating the session…");
  const started = performance.now();
  const created = await example.createSession(ort, choice.backend, model);
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

/* `ort` is the runtime the session came from: after a WebGPU fallback, another one. */
function makeFeeds(example, ort, input) {
  return example.makeFeeds(ort, ...input.args);
}

/*
 * The reference check only means something if the browser decoded the shipped picture to the
 * same pixels as the build did; returns the note to show when it did not.
 */
function checkSamplePixels(root, feeds, reference, input) {
  const name = root.dataset.imageInput;
  if (!name || !input.hasReference) return "";
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
  const plain = {};
  for (const [name, tensor] of Object.entries(outputs)) {
    plain[name] = {
      type: tensor.type,
      dims: Array.from(tensor.dims, Number),
      values: tensor.type === "string" ? Array.from(tensor.data) : core.toNumbers(tensor.data),
    };
  }
  const tolerance = { atol: Number(root.dataset.atol), rtol: Number(root.dataset.rtol) };
  const check = input.hasReference
    ? core.compareOutputs(plain, reference, tolerance)
    : core.compareOutputs(plain, null, tolerance, input.noReference.verdict);
  const results = check.rows.map((row) => ({ ...plain[row.name], ...row }));
  return { ...check, results, onnxruntime: reference.onnxruntime };
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
  setState(root, "done", pass ? "Done: matches the reference." : "Done: differs from the reference.");
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
  const tab = target.closest("[data-tab]");
  if (tab) selectTab(root, tab.dataset.tab);
});

document.addEventListener("change", (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const root = target && target.closest("[data-live-example]");
  if (root) previewInput(root, target);
});
