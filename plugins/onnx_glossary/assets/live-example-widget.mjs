// @ts-check
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
 * globals, so that two never meet), -session.mjs (creating a session, with -capture.mjs
 * reading the runtime's log of it), -where.mjs (where its nodes ran), -sweep.mjs (the shape
 * sweep), -both.mjs (both backends side by side), -dom.mjs (shared helpers).
 *
 * Test hooks: window.onnxLiveExample.stats counts the sessions created and released; a page
 * may set window.onnxLiveExample.afterTimings to an async function, called with the session,
 * its feeds and the widget's timings before the session is released (the benchmark's bare
 * loop uses it); window.onnxLiveExample.captured counts the runtime's verbose lines the console
 * taps kept and dropped; and sessionOnly, noPlacement, logs and timingBudgetMs
 * (types/page-globals.d.ts).
 */
import { runBoth } from "./live-example-both.mjs";
import { counts } from "./live-example-capture.mjs";
import { clearCache, fileBytes, prepareWasm, showCacheLine } from "./live-example-cache.mjs";
import * as core from "./live-example-core.mjs";
import { needPart, part, setState, setText } from "./live-example-dom.mjs";
import {
  changeRows, clearPad, currentInput, feedArgs, initInputs, previewInput,
} from "./live-example-inputs.mjs";
import { unreadablePicture } from "./live-example-picture.mjs";
import { initPipelines, pipelineClick } from "./live-example-pipeline.mjs";
import { presentOutputs } from "./live-example-presenters.mjs";
import { recordSummary, threadsText } from "./live-example-answers.mjs";
import { busy, exclusive } from "./live-example-queue.mjs";
import { closeSession, openSession, stats } from "./live-example-session.mjs";
import { runSweep } from "./live-example-sweep.mjs";
import { showPlacement } from "./live-example-where.mjs";

/**
 * @import { PreparedWasm } from "./live-example-cache.mjs"
 * @import { DownloadSizes, OnProgress, PlainTensor } from "./live-example-core.mjs"
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { RunInput } from "./live-example-inputs.mjs"
 * @import { ShownResult } from "./live-example-presenters.mjs"
 * @import { Globals } from "./live-example-queue.mjs"
 * @import { Reference, ReferenceSample } from "./live-example-reference.mjs"
 */

/**
 * The runtime, onnxruntime-web, as example.mjs's loadRuntime() imports it (its wasm or
 * webgpu bundle, through the page's import map).
 * @typedef {typeof import("onnxruntime-web/wasm")} Ort
 * @typedef {import("onnxruntime-web/wasm").InferenceSession} Session
 * @typedef {import("onnxruntime-web/wasm").Tensor} Tensor
 * @typedef {import("onnxruntime-web/wasm").InferenceSession.FeedsType} Feeds
 */

/**
 * A backend and why example.mjs's pickBackend() chose it; `adapter` is what the browser's
 * WebGPU adapter was ("none", "software", "hardware"), or "not asked".
 * @typedef {{backend: string, reason: string, adapter?: string}} BackendChoice
 */

/**
 * Inputs as {name: flattened values}: a sample's from reference.json, or the reader's own.
 * @typedef {Record<string, Array<number | boolean | string>>} FeedValues
 */

/**
 * makeFeeds()'s arguments after `ort`: none (sample 0), values and their dims, or a picture.
 * @typedef {[] | [FeedValues, Record<string, number[]>] | [File]} FeedArgs
 */

/**
 * A session as example.mjs's createSession() returns it: with the runtime that holds it
 * (another one after a fallback to WASM) and why it fell back.
 * @typedef {{ort: Ort, session: Session, backend: string, fallback: string | null}} CreatedSession
 */

/**
 * A model's example.mjs, as templates/example.mjs.jinja writes it: the code the page shows.
 * @typedef {object} ExampleModule
 * @property {(wanted?: string) => Promise<BackendChoice>} pickBackend
 * @property {() => Promise<string>} [adapterKind] Models the WebGPU build can run only.
 * @property {(backend: string) => Promise<Ort>} loadRuntime
 * @property {(ort: Ort, backend: string, model?: string | Uint8Array, pinned?: boolean,
 *   more?: Record<string, unknown>) => Promise<CreatedSession>} createSession
 * @property {(ort: Ort, ...args: FeedArgs) => Promise<Feeds>} makeFeeds
 * @property {(image: ImageData) => number[]} [drawingToInput] Drawing models only.
 */

/**
 * What a Run has downloaded before it starts the runtime.
 * @typedef {{ort: Ort, wasm: PreparedWasm, model: Uint8Array, reference: Reference}} Downloaded
 */

/**
 * Everything a Run has before it uses the runtime: the example's code, the backend chosen,
 * the downloads, and the input as makeFeeds() arguments.
 * @typedef {{example: ExampleModule, downloaded: Downloaded, choice: BackendChoice,
 *            input: RunInput, args: FeedArgs, pinned: boolean}} Prepared
 */

/**
 * What the shape sweep and the run on both backends get from the widget: its steps.
 * @typedef {object} WidgetSteps
 * @property {(root: WidgetRoot, backend: string) => Promise<Prepared>} prepare the downloads
 *   and the input for a backend the reader did not pick on the switch
 * @property {(root: WidgetRoot, outputs: Readonly<Record<string, Tensor>>, prepared: Prepared)
 *   => boolean | null} matches whether outputs match the reference (null: no reference)
 * @property {(root: WidgetRoot) => string} wanted the backend the reader picked on the switch
 * @property {(root: WidgetRoot) => void} done frees the widget's button and progress bar
 * @property {() => Readonly<core.Timing>} timing how long to time runs after the check
 */

// The runtime sits in <site>/assets/ort/, next to this module's folder (<site>/assets/onnx_glossary/).
const ORT_BASE = new URL("../ort/", import.meta.url).href;

/** The folded record's tools: the shape sweep, both backends side by side. */
const TOOLS = 'button[data-action="sweep"], button[data-action="both"]';

/** The data attributes a Run sets, cleared when the next one starts. */
const RESULT_KEYS = [
  "backend", "threads", "maxAbsDiff", "match", "medianMs", "sample", "placement",
  "shippedMatch", "shippedMaxAbsDiff", "timingError",
];

// Per example.mjs URL, from when the widget is readied: its import, and its pickBackend() answer.
/** @type {Map<string, Promise<ExampleModule>>} */
const examples = new Map();
/** @type {Map<string, Promise<BackendChoice>>} */
const choices = new Map();
if (globalThis.onnxLiveExample) {
  globalThis.onnxLiveExample.stats = stats;
  globalThis.onnxLiveExample.captured = counts;
}

/**
 * One Run, as the reader sees it happen: the checked result first, the timings after it.
 * @param {WidgetRoot} root
 */
async function run(root) {
  resetUi(root);
  try {
    const prepared = await prepare(root, (example) => chooseBackend(root, example));
    const { input } = prepared;
    root.dataset.sample = input.source === "own" ? "own" : String(input.index);
    if (busy()) setState(root, "loading", "Waiting for the other live example on this page…");
    // The runtime is the page's: one Run at a time uses it (see live-example-queue.mjs).
    const words = await exclusive((globals) => runModel(root, prepared, globals));
    setState(root, "done", words);
    labelWebGpu(root, prepared.example);
  } catch (error) {
    showError(root, error);
  } finally {
    release(root);
  }
}

/**
 * The steps before the runtime is used: the input, the example's code (imported when the
 * widget was readied), the backend `pick` chooses, the downloads.
 * @param {WidgetRoot} root
 * @param {(example: ExampleModule) => Promise<BackendChoice>} pick
 * @returns {Promise<Prepared>}
 */
async function prepare(root, pick) {
  const input = currentInput(root);
  const started = startDownloads(root);
  const example = await exampleModule(root);
  const choice = await pick(example);
  const downloaded = await download(root, example, choice.backend, started);
  const { args, pinned } = feedArgs(root, input, example, downloaded.reference);
  return { example, downloaded, choice, input, args, pinned };
}

/** @type {WidgetSteps} */
const steps = {
  prepare: (root, backend) => prepare(root, (example) => example.pickBackend(backend)),
  matches(root, outputs, { downloaded, input }) {
    if (!input.hasReference) return null;
    const check = compareOutputs(root, outputs, downloaded.reference, input);
    return check.pass && (!check.shipped || check.shipped.pass);
  },
  wanted: wantedBackend,
  done: release,
  timing,
};

/**
 * The part of a Run that uses the runtime, from the session's creation to its release: a
 * task of the page-wide queue. onnxruntime-web's run() (1.30 and 1.31, lib/wasm/wasm-core-impl.ts)
 * takes room on the runtime's one stack and awaits before it gives it back, so two runs of
 * the page at once corrupt each other; the timings of one would count the other's too.
 * @param {WidgetRoot} root
 * @param {Prepared} prepared
 * @param {Globals} globals
 * @returns {Promise<string>} The answer in words: the line the Run ends with.
 */
async function runModel(root, prepared, globals) {
  const { example, downloaded, input, args } = prepared;
  const created = await createSession(root, prepared, globals);
  try {
    if (hooks().sessionOnly) return "The session is created; nothing was run (test hook).";
    const feeds = await makeFeeds(example, created.ort, args, input);
    const pixelNote = checkSamplePixels(root, feeds, downloaded.reference, input);
    const first = await firstRun(root, created, feeds);
    const check = compareOutputs(root, first.outputs, downloaded.reference, input);
    const words = presentOutputs(root, {
      results: check.results,
      reading: downloaded.reference.reading || null,
      input,
      label: input.source === "sample" ? sampleLabel(downloaded.reference, input.index) : null,
      fed: plainTensors(feeds),
    });
    const match = showResult(root, check, pixelNote, input);
    showAnswer(root, words, match);
    const summary = { backend: created.backend, threads: Number(root.dataset.threads || 1), match };
    setText(root, "summary", recordSummary({ ...summary, medianMs: null }));
    try {
      const medianMs = await timeRuns(root, created, feeds, first.ms);
      setText(root, "summary", recordSummary({ ...summary, medianMs }));
    } catch (error) {
      // The answer was checked before the timing runs began: it stays, and stays matched;
      // the failure is the timings' own (WebKit once trapped "Out of bounds memory access"
      // inside the runtime on a later run).
      root.dataset.timingError = core.errorMessage(error);
      setText(root, "timings", "the timing runs failed after the checked result: " +
        core.errorMessage(error));
      setText(root, "summary", recordSummary({ ...summary, medianMs: null })
        .replace("timing…", "timing runs failed"));
    }
    return words;
  } finally {
    await closeSession(created);
  }
}

/**
 * example.mjs's feeds for the input; a picture of the reader's that does not decode is one
 * readable line.
 * @param {ExampleModule} example
 * @param {Ort} ort
 * @param {FeedArgs} args
 * @param {RunInput} input
 */
async function makeFeeds(example, ort, args, input) {
  try {
    return await example.makeFeeds(ort, ...args);
  } catch (error) {
    if (input.source !== "own" || input.kind !== "picture") throw error;
    throw new Error(unreadablePicture(error), { cause: error });
  }
}

/**
 * The page's test hooks (types/page-globals.d.ts), or none.
 * @returns {Partial<OnnxLiveExample>}
 */
function hooks() {
  return globalThis.onnxLiveExample || {};
}

/* -- the steps ---------------------------------------------------------------------------- */

/**
 * Before a Run: the previous answer stays on the page until a new one replaces it (a Run
 * that fails keeps it), but what says how it ran is cleared.
 * @param {WidgetRoot} root
 */
function resetUi(root) {
  setBusy(root, true);
  for (const key of RESULT_KEYS) delete root.dataset[key];
  needPart(root, "error").hidden = true;
  for (const name of ["shipped-title", "shipped"]) {
    const element = part(root, name);
    if (element) element.hidden = true;
  }
  setState(root, "loading", "Loading…");
}

/**
 * The answer, first: in words under Run (and in data-answer, and in the status line, which
 * announces it), then its picture or bars; scrolled into view if a tall input pushed it down.
 * @param {WidgetRoot} root
 * @param {string} words
 * @param {boolean | null} match
 */
function showAnswer(root, words, match) {
  root.dataset.answer = words;
  const line = needPart(root, "answer");
  line.textContent = words;
  if (match === false) {
    const warning = document.createElement("span");
    warning.className = "live-example__wrong";
    warning.textContent = " (this differs from the build's reference: see how it ran)";
    line.append(warning);
  }
  setText(root, "state", words);
  const result = needPart(root, "result");
  const box = result.getBoundingClientRect();
  if (box.top < 0 || box.top > innerHeight - Math.min(box.height, innerHeight / 2)) {
    // Run's row goes to the top, clear of the sticky header, when the answer line still fits
    // under it: the reader keeps the button they pressed in view beside its answer. A picture
    // taller than the screen scrolled alone ("nearest") pushed Run under the header.
    const bar = needPart(root, "bar");
    const margin = parseFloat(getComputedStyle(bar).scrollMarginTop) || 0;
    const fits = margin + line.getBoundingClientRect().bottom - bar.getBoundingClientRect().top < innerHeight;
    if (fits) bar.scrollIntoView({ block: "start" });
    else result.scrollIntoView({ block: "nearest" });
  }
}

/**
 * The backend the reader asked for on the switch ("auto" unless they chose one).
 * @param {WidgetRoot} root
 */
function wantedBackend(root) {
  /** @type {HTMLInputElement | null} */
  const picked = root.querySelector("input[data-le-backend]:checked");
  return picked ? picked.value : "auto";
}

/**
 * After a Run, say on the switch what WebGPU would be here: a hardware GPU, a slow software
 * adapter, or none. Asked only now, so a page whose model runs on WebAssembly anyway asks
 * for no adapter when it loads.
 * @param {WidgetRoot} root
 * @param {ExampleModule} example
 */
function labelWebGpu(root, example) {
  const label = part(root, "webgpu-label");
  /** @type {HTMLInputElement | null} */
  const option = root.querySelector('input[data-le-backend][value="webgpu"]');
  if (!label || !option || root.dataset.adapter) return;
  if (!example.adapterKind) {
    option.disabled = true;
    label.textContent = "WebGPU (not for this model: its operators run on WebAssembly only)";
    root.dataset.adapter = "not for this model";
    return;
  }
  example.adapterKind().then((kind) => {
    root.dataset.adapter = kind;
    option.disabled = kind === "none";
    label.textContent = kind === "none" ? "WebGPU (this browser offers no adapter)"
      : kind === "software" ? "WebGPU (a slow software adapter: no GPU)" : "WebGPU (your GPU)";
  }, () => {});
}

/**
 * The very module the page shows as code; a failed import is tried again on the next Run.
 * @param {WidgetRoot} root
 * @returns {Promise<ExampleModule>}
 */
function exampleModule(root) {
  const url = widgetUrl(root, "exampleUrl");
  let module = examples.get(url);
  if (!module) {
    // import() of a URL is untyped: the build writes the file from example.mjs.jinja.
    /** @type {Promise<ExampleModule>} */
    const imported = import(url);
    imported.catch(() => examples.delete(url));
    examples.set(url, imported);
    module = imported;
  }
  return module;
}

/**
 * Everything else that does not depend on the backend, at once: the model (with progress) and
 * the reference outputs.
 * @param {WidgetRoot} root
 */
function startDownloads(root) {
  const track = progressBar(root);
  const started = {
    model: fileBytes(root, widgetUrl(root, "modelUrl"), "model", "the model", track("model")),
    reference: fileBytes(root, widgetUrl(root, "referenceUrl"), "reference",
                         "the reference outputs", () => {})
      .then(readReference),
    track,
  };
  // Awaited later, in download(); until then a failure must not count as unhandled.
  for (const pending of [started.model, started.reference]) pending.catch(() => {});
  return started;
}

/**
 * reference.json's bytes as the value the build wrote (its format: live-example-reference.mjs).
 * @param {Uint8Array} bytes
 * @returns {Reference}
 */
function readReference(bytes) {
  return JSON.parse(new TextDecoder().decode(bytes));
}

/**
 * The example's pickBackend() answer, asked once per example.mjs (when the widget is
 * readied); a failed one is asked again on the next Run.
 * @param {WidgetRoot} root
 * @param {ExampleModule} example
 * @returns {Promise<BackendChoice>}
 */
function backendChoice(root, example) {
  const wanted = wantedBackend(root);
  if (wanted !== "auto") return example.pickBackend(wanted);
  const url = widgetUrl(root, "exampleUrl");
  let choice = choices.get(url);
  if (!choice) {
    const asked = example.pickBackend();
    asked.catch(() => choices.delete(url));
    choices.set(url, asked);
    choice = asked;
  }
  return choice;
}

/**
 * @param {WidgetRoot} root
 * @param {ExampleModule} example
 */
async function chooseBackend(root, example) {
  const choice = await backendChoice(root, example);
  setText(root, "backend", choice.backend + " (" + choice.reason + ")");
  setText(root, "isolated", globalThis.crossOriginIsolated
    ? "yes" + (typeof SharedArrayBuffer === "undefined" ? ", but no SharedArrayBuffer" : "")
    : "no (threads need COOP/COEP headers)");
  return choice;
}

/**
 * The backend's runtime and its .wasm, joined to the downloads already under way.
 * @param {WidgetRoot} root
 * @param {ExampleModule} example
 * @param {string} backend
 * @param {ReturnType<typeof startDownloads>} started
 * @returns {Promise<Downloaded>}
 */
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

/**
 * The Run's session, and where its nodes went (the runtime's log of it, unless a test hook
 * says not to read it).
 * @param {WidgetRoot} root
 * @param {Prepared} prepared
 * @param {Globals} globals
 */
async function createSession(root, { example, downloaded, choice, pinned }, globals) {
  setState(root, "loading", "Creating the session…");
  const created = await openSession({
    example, downloaded, backend: choice.backend, pinned, placement: !hooks().noPlacement,
  }, globals);
  showPlacement(root, created.placement, created.backend);
  const logs = hooks().logs;
  if (Array.isArray(logs) && created.lines) logs.push({ widget: root.id, lines: created.lines });
  const threads = String(created.ort.env.wasm.numThreads);
  root.dataset.backend = created.backend;
  root.dataset.threads = threads;
  setText(root, "backend", created.fallback
    ? "wasm (WebGPU failed: " + created.fallback + ")"
    : created.backend + " (" + choice.reason + ")");
  setText(root, "downloads", core.downloadsRecord(downloadSizes(root), created.backend));
  setText(root, "threads", threadsText({
    isolated: Boolean(globalThis.crossOriginIsolated),
    shared: typeof SharedArrayBuffer !== "undefined",
    threads: Number(threads),
  }));
  return created;
}

/**
 * Tensors as plain {type, dims, values} (numbers, or strings for string tensors).
 * @param {Readonly<Record<string, Tensor>>} tensors
 * @returns {Record<string, PlainTensor>}
 */
function plainTensors(tensors) {
  return Object.fromEntries(Object.entries(tensors).map(([name, tensor]) => [name, {
    type: tensor.type,
    dims: Array.from(tensor.dims, Number),
    values: tensorValues(tensor),
  }]));
}

/**
 * A tensor's values as plain numbers, or strings for a string tensor (whose data is the one
 * kind that is a plain array).
 * @param {Tensor} tensor
 * @returns {Array<number | string>}
 */
function tensorValues(tensor) {
  const data = tensor.data;
  return Array.isArray(data) ? Array.from(data) : core.toNumbers(data);
}

/**
 * A sample's true answer, when example.yml gives one.
 * @param {Reference} reference
 * @param {number} index
 */
function sampleLabel(reference, index) {
  const sample = (reference.samples || [])[index];
  return sample && sample.label !== undefined ? sample.label : null;
}

/**
 * The reference check only means something if the browser decoded the shipped picture to the
 * same pixels as the build did; returns the note to show when it did not.
 * @param {WidgetRoot} root
 * @param {Feeds} feeds
 * @param {Reference} reference
 * @param {RunInput} input
 */
function checkSamplePixels(root, feeds, reference, input) {
  const name = root.dataset.imageInput;
  if (!name || !input.hasReference || input.index !== 0) return "";
  const sample = reference.inputs.find((entry) => entry.name === name);
  return sample && core.sameBytes(feeds[name].data, sample.data)
    ? ""
    : "The browser decoded the picture to other pixels than the build did. ";
}

/**
 * The first run alone: its outputs are the ones checked and shown.
 * @param {WidgetRoot} root
 * @param {{session: Session}} created
 * @param {Feeds} feeds
 */
async function firstRun(root, { session }, feeds) {
  setState(root, "running", "Running…");
  const started = performance.now();
  const outputs = await session.run(feeds);
  return { outputs, ms: performance.now() - started };
}

/**
 * How long to time runs: core.TIMING, or a test's shorter budget (hooks().timingBudgetMs);
 * the runs are timed the same way.
 * @returns {Readonly<core.Timing>}
 */
function timing() {
  const budget = hooks().timingBudgetMs;
  return typeof budget === "number" ? { ...core.TIMING, budgetMs: budget } : core.TIMING;
}

/**
 * Then the median of many runs, after the result is on the page.
 * @param {WidgetRoot} root
 * @param {{session: Session, createMs: number, backend: string}} created
 * @param {Feeds} feeds
 * @param {number} firstMs
 */
async function timeRuns(root, { session, createMs, backend }, feeds, firstMs) {
  const timed = await core.timeRuns(() => session.run(feeds), () => performance.now(), timing());
  const medianMs = core.median(timed.times);
  root.dataset.medianMs = String(medianMs);
  // Each backend's last timings stay, so that a reader who switches can compare them.
  const line = core.timingsText({ createMs, firstMs, times: timed.times, runs: timed.runs });
  const record = timingsRecord(root);
  record[backend] = line;
  root.dataset.timingsByBackend = JSON.stringify(record);
  setText(root, "timings", Object.entries(record).map(([name, text]) => name + ": " + text)
    .join("; "));
  const hook = globalThis.onnxLiveExample && globalThis.onnxLiveExample.afterTimings;
  if (typeof hook === "function") await hook({ session, feeds, ...timed });
  return medianMs;
}

/**
 * The last timings line of each backend this widget ran on.
 * @param {WidgetRoot} root
 * @returns {Record<string, string>}
 */
function timingsRecord(root) {
  return JSON.parse(root.dataset.timingsByBackend || "{}");
}

/**
 * A shipped-outputs check: the model zoo's own outputs of a sample against the browser's.
 * @typedef {{rows: Array<{name: string, verdict: string}>, pass: boolean, maxAbs: number,
 *            source: string, count: number, seen: number}} ShippedCheck
 */

/**
 * The outputs checked: per output its values and verdict, the overall verdict, and the
 * shipped outputs' check when a model zoo gave some.
 * @typedef {{rows: Array<{name: string, verdict: string}>, pass: boolean, maxAbs: number,
 *            results: ShownResult[], onnxruntime: string, shipped: ShippedCheck | null}} Check
 */

/**
 * Outputs as plain values, each with its verdict against the reference (none for own input).
 * @param {WidgetRoot} root
 * @param {Readonly<Record<string, Tensor>>} outputs
 * @param {Reference} reference
 * @param {RunInput} input
 * @returns {Check}
 */
function compareOutputs(root, outputs, reference, input) {
  const plain = plainTensors(outputs);
  const tolerance = { atol: Number(root.dataset.atol), rtol: Number(root.dataset.rtol) };
  if (!input.hasReference) {
    const check = core.compareOutputs(plain, null, tolerance, input.noReference.verdict);
    const results = check.rows.map((row) => ({ ...plain[row.name], ...row }));
    return { ...check, results, onnxruntime: reference.onnxruntime, shipped: null };
  }
  // Sample 0's outputs are the top level of reference.json; the others carry their own.
  /** @type {Partial<ReferenceSample>} */
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

/**
 * The reference check, in the record, before the timings; returns whether the result matched
 * (null: the reader's own input has no reference).
 * @param {WidgetRoot} root
 * @param {Check} check
 * @param {string} pixelNote
 * @param {RunInput} input
 * @returns {boolean | null}
 */
function showResult(root, check, pixelNote, input) {
  if (!input.hasReference) {
    setText(root, "check", input.noReference.check);
    return null;
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
    needPart(root, "shipped-title").hidden = false;
    needPart(root, "shipped").hidden = false;
    setText(root, "shipped", "max abs diff " + shipped.maxAbs.toExponential(2) +
      " against the outputs shipped in " + shipped.source + " (output_N.pb): " +
      (shipped.pass ? "match" : "MISMATCH"));
  }
  return pass && (!shipped || shipped.pass);
}

/**
 * @param {WidgetRoot} root
 * @param {unknown} error
 */
function showError(root, error) {
  const box = needPart(root, "error");
  box.textContent = core.errorMessage(error);
  box.hidden = false;
  setState(root, "error", "Failed; press Run to try again.");
}

/**
 * After every Run, whatever happened: free the button (runModel freed the session).
 * @param {WidgetRoot} root
 */
function release(root) {
  delete needPart(root, "progress").dataset.active;
  setBusy(root, false);
  showCacheLine(root);
}

/**
 * While the runtime works for this widget (a Run, the sweep, both backends), its buttons wait.
 * @param {WidgetRoot} root
 * @param {boolean} working
 */
function setBusy(root, working) {
  runButton(root).disabled = working;
  /** @type {NodeListOf<HTMLButtonElement>} */
  const tools = root.querySelectorAll(TOOLS);
  for (const tool of tools) tool.disabled = working;
}

/* -- helpers of the steps ------------------------------------------------------------------ */

/**
 * The widget's Run button (the template always writes it).
 * @param {WidgetRoot} root
 * @returns {HTMLButtonElement}
 */
function runButton(root) {
  /** @type {HTMLButtonElement | null} */
  const button = root.querySelector('button[data-action="run"]');
  if (!button) throw new Error("This widget has no Run button: rebuild the site.");
  return button;
}

/**
 * One of the widget's URLs (data-example-url...), made absolute.
 * @param {WidgetRoot} root
 * @param {"exampleUrl" | "modelUrl" | "referenceUrl"} key
 */
function widgetUrl(root, key) {
  return new URL(root.dataset[key] || "", location.href).href;
}

/**
 * The bytes of the model and of each backend's .wasm (data-download-sizes, from Python).
 * @param {WidgetRoot} root
 * @returns {DownloadSizes}
 */
function downloadSizes(root) {
  return JSON.parse(root.dataset.downloadSizes || "{}");
}

/**
 * The .wasm file per backend, as the build names them (data-runtime-files, from Python).
 * @param {WidgetRoot} root
 * @returns {Record<string, unknown>}
 */
function runtimeFiles(root) {
  return JSON.parse(root.dataset.runtimeFiles || "{}");
}

/**
 * A progress bar shared by downloads running at once: track(label) gives one its callback.
 * The bar is redrawn once per frame at most, however many chunks arrive.
 * @param {WidgetRoot} root
 * @returns {(label: string) => OnProgress}
 */
function progressBar(root) {
  const bar = needPart(root, "progress-bar");
  /** @type {Record<string, [number, number] | string>} */
  const items = {};
  let drawing = false;
  const draw = () => {
    drawing = false;
    const summary = core.progressSummary(items);
    bar.max = summary.max;
    bar.value = summary.value;
    setText(root, "progress-text", summary.text);
  };
  needPart(root, "progress").dataset.active = "";
  return function track(label) {
    items[label] = [0, 0];
    // onProgress(received, total), or onProgress(phrase) when no bytes are counted.
    return function onProgress(received, total = 0) {
      items[label] = typeof received === "string" ? received : [received, total];
      if (!drawing) {
        drawing = true;
        requestAnimationFrame(draw);
      }
    };
  };
}

/**
 * @param {WidgetRoot} root
 * @param {string | undefined} name
 */
function selectTab(root, name) {
  /** @type {NodeListOf<HTMLElement>} */
  const tabs = root.querySelectorAll("[data-tab]");
  for (const tab of tabs) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
  /** @type {NodeListOf<HTMLElement>} */
  const panels = root.querySelectorAll("[data-panel]");
  for (const panel of panels) {
    panel.hidden = panel.dataset.panel !== name;
  }
}

/* -- wiring -------------------------------------------------------------------------------- */

/** Ready the widgets of the current document (again after each instant navigation). */
export function init() {
  initPipelines(document);
  /** @type {NodeListOf<HTMLElement>} */
  const roots = document.querySelectorAll("[data-live-example]");
  for (const root of roots) {
    if (root.dataset.ready) continue;
    root.dataset.ready = "true";
    setBusy(root, false);
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
  /** @type {HTMLElement | null} */
  const pipeline = target && target.closest("[data-pipeline]");
  if (target && pipeline) pipelineClick(target, pipeline);
  /** @type {HTMLElement | null} */
  const root = target && target.closest("[data-live-example]");
  if (!target || !root) return;
  /** @type {HTMLButtonElement | null} */
  const button = target.closest('button[data-action="run"]');
  if (button && !button.disabled) run(root);
  if (target.closest('button[data-action="clear"]')) clearPad(root);
  if (target.closest('button[data-action="add-row"]')) changeRows(root, 1);
  if (target.closest('button[data-action="remove-row"]')) changeRows(root, -1);
  if (target.closest('button[data-action="clear-cache"]')) clearCache(root);
  /** @type {HTMLButtonElement | null} */
  const tool = target.closest(TOOLS);
  if (tool && !tool.disabled && !runButton(root).disabled) {
    setBusy(root, true);
    (tool.dataset.action === "sweep" ? runSweep : runBoth)(root, steps);
  }
  /** @type {HTMLElement | null} */
  const tab = target.closest("[data-tab]");
  if (tab) selectTab(root, tab.dataset.tab);
});

for (const type of ["change", "input"]) {
  document.addEventListener(type, (event) => {
    const target = event.target instanceof Element ? event.target : null;
    /** @type {HTMLElement | null} */
    const root = target && target.closest("[data-live-example]");
    if (target && root) previewInput(root, target);
  });
}
