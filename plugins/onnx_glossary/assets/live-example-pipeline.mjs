// @ts-check
/*
 * Live examples: a pipeline, several models run one after another on one picture
 * ([[pipeline: NAME]]; models/pipeline.py reads the declaration in example.yml). Nothing here
 * knows what the models are: pipeline.json says, per step, which model runs and what feeds
 * each of its inputs (the picture, or "<step>.<output>" of an earlier step), and how its answer
 * reads. Each step's own example.mjs (the code its model page shows) creates its session; the
 * first step's decodes the picture. The steps share one runtime and run as one task of the
 * page-wide queue. A step fed an empty tensor (a detector found nothing) is not run, as in the
 * build's reference. The reader's picture never leaves the page.
 */
import { fileBytes, prepareWasm } from "./live-example-cache.mjs";
import * as core from "./live-example-core.mjs";
import { needPart, setState, setText } from "./live-example-dom.mjs";
import { readAnswer } from "./live-example-presenters.mjs";
import { exclusive } from "./live-example-queue.mjs";
import { closeSession, openSession } from "./live-example-session.mjs";
import {
  pictureChosen, pictureSource, readyPictureInputs, unreadablePicture,
} from "./live-example-picture.mjs";

/**
 * @import { PreparedWasm } from "./live-example-cache.mjs"
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { RunInput } from "./live-example-inputs.mjs"
 * @import { PictureSource } from "./live-example-picture.mjs"
 * @import { ShownResult } from "./live-example-presenters.mjs"
 * @import { Globals } from "./live-example-queue.mjs"
 * @import { ReferenceReading, ReferenceTensor } from "./live-example-reference.mjs"
 * @import { ExampleModule, Ort, Tensor } from "./live-example-widget.mjs"
 */

/**
 * One step of pipeline.json, as models/pipeline.py writes it: the model, what feeds each of
 * its inputs, how its answer reads, its model's tolerance, and onnxruntime's outputs on the
 * sample picture (null: the build did not run it, since an earlier step found nothing).
 * @typedef {{model: string, feeds: Record<string, string>, reading: ReferenceReading | null,
 *   tolerance: {atol: number, rtol: number}, outputs: ReferenceTensor[] | null}} PipelineStep
 */

/**
 * pipeline.json: the picture the build ran on (the first step's sample) and every step.
 * @typedef {{onnxruntime: string, picture: {model: string, src: string, height: number,
 *   width: number}, steps: PipelineStep[]}} PipelineReference
 */

/**
 * What the page says of each step (data-steps): its model, example.mjs and model.onnx.
 * @typedef {{model: string, example: string, url: string}} StepFiles
 */

/**
 * A step's example.mjs with what decodes a picture (the first step's, a picture model).
 * @typedef {ExampleModule & {imagePixels?: (source?: Blob | URL | string) =>
 *   Promise<{data: Uint8Array, width: number, height: number}>}} PictureExample
 */

/**
 * One step as it ran: its outputs (none when it was not run), its timings.
 * @typedef {{model: string, outputs: Record<string, Tensor> | null, createMs: number,
 *   firstMs: number, times: number[], runs: number}} StepRun
 */

/** The runtime's folder, as the widget finds it. */
const ORT_BASE = new URL("../ort/", import.meta.url).href;
/** How long each step is timed after its checked run (the page's steps share the budget). */
const STEP_BUDGET_MS = 1000;

/**
 * A pipeline root with the outputs of its last Run, for tests.
 * @typedef {WidgetRoot & {pipelineOutputs?: Record<string, Record<string,
 *   {dims: number[], data: number[]}>>}} PipelineRoot
 */

/**
 * Run the pipeline on the picked picture: the previous answer stays until this one replaces
 * it, and a failure says what went wrong in one line.
 * @param {PipelineRoot} root
 */
export async function runPipeline(root) {
  setBusy(root, true);
  needPart(root, "error").hidden = true;
  setText(root, "progress-text", "");
  setState(root, "loading", "Loading…");
  try {
    const source = pictureSource(root);
    const steps = stepFiles(root);
    const reference = fetchJson(root.dataset.pipelineUrl || "");
    const models = Promise.all(steps.map((step) =>
      fileBytes(root, new URL(step.url, location.href).href, "model", "the model " + step.model,
                () => {})));
    /** @type {PictureExample[]} */
    const examples = await Promise.all(steps.map((step) =>
      import(new URL(step.example, location.href).href)));
    const { backend } = await examples[0].pickBackend();
    const wasmUrl = ORT_BASE + core.runtimeFile(JSON.parse(root.dataset.runtimeFiles || "{}"), backend);
    const [ort, wasm, bytes, expected] = await Promise.all([
      examples[0].loadRuntime(backend), prepareWasm(root, wasmUrl, backend, () => {}), models,
      reference]);
    setState(root, "running", "Reading the picture…");
    const picture = await decode(examples[0], source);
    const ran = await exclusive((globals) => runSteps(root, {
      examples, ort, wasm, bytes, backend, picture, steps: expected.steps,
    }, globals));
    const words = show(root, ran, expected, picture, source);
    setState(root, "done", words);
  } catch (error) {
    const box = needPart(root, "error");
    box.textContent = core.errorMessage(error);
    box.hidden = false;
    setState(root, "error", root.dataset.answer
      ? "Failed; the answer before stays. " + core.errorMessage(error)
      : "Failed; press Run to try again.");
  } finally {
    setBusy(root, false);
  }
}

/**
 * The picture as RGBA bytes, through the first step's own imagePixels (scaled down as its
 * page says); a file the browser cannot decode is one readable line.
 * @param {PictureExample} example
 * @param {PictureSource} source
 */
async function decode(example, source) {
  if (!example.imagePixels) throw new Error("The first step's example.mjs decodes no picture: rebuild the site.");
  try {
    return await example.imagePixels(source.kind === "sample" ? source.url : source.blob);
  } catch (error) {
    throw new Error(unreadablePicture(error), { cause: error });
  }
}

/**
 * The steps, in order, in one task of the page-wide queue: each step's session is created by
 * its own example.mjs, run once (the checked run), timed, and released.
 * @param {PipelineRoot} root
 * @param {{examples: PictureExample[], ort: Ort, wasm: PreparedWasm, bytes: Uint8Array[],
 *   backend: string, picture: {data: Uint8Array, width: number, height: number},
 *   steps: PipelineStep[]}} work
 * @param {Globals} globals
 * @returns {Promise<StepRun[]>}
 */
async function runSteps(root, work, globals) {
  const { examples, ort, bytes, backend, picture, steps } = work;
  /** @type {Record<string, Tensor>} "<step>.<output>" of the steps so far */
  const values = {};
  /** @type {StepRun[]} */
  const ran = [];
  const hook = globalThis.onnxLiveExample && globalThis.onnxLiveExample.timingBudgetMs;
  const timing = { ...core.TIMING, budgetMs: typeof hook === "number" ? hook : STEP_BUDGET_MS };
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    /** @type {Record<string, Tensor>} */
    const feeds = {};
    for (const [input, from] of Object.entries(step.feeds)) {
      feeds[input] = from === "picture"
        ? new ort.Tensor("uint8", picture.data, [picture.height, picture.width, 4])
        : values[from];
    }
    if (Object.values(feeds).some((tensor) => !tensor || tensor.size === 0)) {
      ran.push({ model: step.model, outputs: null, createMs: 0, firstMs: 0, times: [], runs: 0 });
      continue;
    }
    setState(root, "running", "Running " + step.model + "…");
    // The runtime starts from its .wasm with the first session; later ones need nothing.
    const wasm = i === 0 ? work.wasm : { ...work.wasm, binary: null, compiled: null };
    const created = await openSession({
      example: examples[i], downloaded: { ort, wasm, model: bytes[i] }, backend, pinned: false,
    }, globals);
    try {
      const started = performance.now();
      const outputs = await created.session.run(feeds);
      const firstMs = performance.now() - started;
      const timed = await core.timeRuns(() => created.session.run(feeds), () => performance.now(), timing);
      ran.push({ model: step.model, outputs, createMs: created.createMs, firstMs,
                 times: timed.times, runs: timed.runs });
      for (const [name, tensor] of Object.entries(outputs)) values[step.model + "." + name] = tensor;
    } finally {
      await closeSession(created);
    }
  }
  return ran;
}

/**
 * The answer: each step's reading drawn onto one picture, their words joined; the check of
 * each step against the build's reference (sample picture only) and their timings.
 * @param {PipelineRoot} root
 * @param {StepRun[]} ran
 * @param {PipelineReference} reference
 * @param {{data: Uint8Array, width: number, height: number}} picture
 * @param {PictureSource} source
 */
function show(root, ran, reference, picture, source) {
  const box = document.createElement("div");
  box.className = "live-example__readable";
  /** @type {string[]} */
  const words = [];
  /** @type {string[]} */
  const checks = [];
  /** @type {string[]} */
  const timings = [];
  /** @type {NonNullable<PipelineRoot["pipelineOutputs"]>} */
  const shown = {};
  let pass = true;
  /** @type {RunInput} */
  const input = source.kind === "sample"
    ? { source: "sample", index: 0, hasReference: true, noReference: null }
    : { source: "own", kind: "picture", hasReference: false,
        noReference: { verdict: "no reference for your picture", check: "" } };
  let drawn = false;
  ran.forEach((step, i) => {
    const declared = reference.steps[i];
    if (!step.outputs) {
      checks.push(step.model + ": not run (the step before found nothing)");
      return;
    }
    const plain = Object.fromEntries(Object.entries(step.outputs).map(([name, tensor]) =>
      [name, { type: tensor.type, dims: Array.from(tensor.dims, Number),
               values: core.toNumbers(/** @type {ArrayLike<number>} */ (tensor.data)) }]));
    shown[step.model] = Object.fromEntries(Object.entries(plain).map(([name, t]) =>
      [name, { dims: t.dims, data: t.values }]));
    if (source.kind === "sample") {
      const check = core.compareOutputs(plain, declared.outputs ? { outputs: declared.outputs } : null,
                                        declared.tolerance);
      pass = pass && check.pass && Boolean(declared.outputs);
      checks.push(step.model + ": max abs diff " + check.maxAbs.toExponential(2) +
        (check.pass ? ", match" : ", MISMATCH"));
    }
    timings.push(step.model + ": " + core.timingsText(step));
    /** @type {ShownResult[]} */
    const results = Object.entries(plain).map(([name, t]) => ({ name, ...t, verdict: "" }));
    const pictureInput = Object.keys(declared.feeds).find((k) => declared.feeds[k] === "picture");
    // The first drawing shows the picture; later steps draw over it.
    root.dataset.imageInput = !drawn && pictureInput ? pictureInput : "";
    const fed = !drawn && pictureInput ? { [pictureInput]: {
      type: "uint8", dims: [picture.height, picture.width, 4], values: Array.from(picture.data) } } : {};
    if (declared.reading) {
      words.push(readAnswer(root, { results, reading: declared.reading, input, label: null, fed }, box));
      drawn = true;
    }
  });
  needPart(root, "reading").replaceChildren(...(box.childNodes.length ? [box] : []));
  // The drawing shows the picture too: it takes the sample's place.
  needPart(root, "drawing").hidden = !drawn;
  needPart(root, "sample-figure").hidden = drawn;
  const answer = words.join(" · ");
  root.pipelineOutputs = shown;
  root.dataset.answer = answer;
  root.dataset.picture = picture.width + "x" + picture.height;
  root.dataset.timings = JSON.stringify(Object.fromEntries(ran.filter((s) => s.outputs)
    .map((s) => [s.model, core.median(s.times)])));
  if (source.kind === "sample") root.dataset.match = String(pass);
  else delete root.dataset.match;
  setText(root, "answer", answer);
  setText(root, "check", source.kind === "sample"
    ? checks.join("; ") + " (against Python onnxruntime " + reference.onnxruntime + ")"
    : "No reference exists for your own picture: nothing to compare.");
  setText(root, "timings", timings.join("; "));
  setText(root, "picture", picture.width + "×" + picture.height + " px" + (source.kind === "sample"
    ? ", the sample" : ", yours as the first model was fed it"));
  setText(root, "summary", "How it ran: " + ran.filter((s) => s.outputs).length + " of " +
    ran.length + " steps" + (source.kind === "sample" ? pass ? ", reference match" : ", MISMATCH" : ""));
  return answer;
}

/**
 * @param {string} url
 * @returns {Promise<PipelineReference>}
 */
async function fetchJson(url) {
  const bytes = await core.fetchBytes(new URL(url, location.href).href, "the pipeline's reference", () => {});
  return JSON.parse(new TextDecoder().decode(bytes));
}

/**
 * @param {WidgetRoot} root
 * @returns {StepFiles[]}
 */
function stepFiles(root) {
  return JSON.parse(root.dataset.steps || "[]");
}

/**
 * @param {WidgetRoot} root
 * @param {boolean} working
 */
function setBusy(root, working) {
  /** @type {NodeListOf<HTMLButtonElement>} */
  const buttons = root.querySelectorAll("button[data-action]");
  for (const button of buttons) button.disabled = working;
}

/**
 * Ready the pipelines of the page (again after each instant navigation).
 * @param {Document} page
 */
export function initPipelines(page) {
  /** @type {NodeListOf<WidgetRoot>} */
  const roots = page.querySelectorAll("[data-pipeline]");
  for (const root of roots) {
    if (root.dataset.ready) continue;
    root.dataset.ready = "true";
    setBusy(root, false);
    readyPictureInputs(root);
    setText(root, "state", "Ready: press Run.");
    // What a Run will download, as the first step's example.mjs chooses the backend (importing
    // it, a few kB, loads nothing of the runtime).
    const [first] = stepFiles(root);
    if (!first) continue;
    /** @type {Promise<ExampleModule>} */
    const example = import(new URL(first.example, location.href).href);
    example.then((module) => module.pickBackend()).then(({ backend }) => {
      setText(root, "progress-text",
              core.downloadText(JSON.parse(root.dataset.downloadSizes || "{}"), backend));
    }, () => {});
  }
}

/**
 * The pipeline's part of the page's delegated listeners.
 * @param {Element} target
 * @param {WidgetRoot} root
 */
export function pipelineClick(target, root) {
  /** @type {HTMLButtonElement | null} */
  const button = target.closest("button[data-action]");
  if (!button || button.disabled) return;
  if (button.dataset.action === "run") runPipeline(root);
  if (button.dataset.action === "camera") pictureChosen(root, "camera");
}
