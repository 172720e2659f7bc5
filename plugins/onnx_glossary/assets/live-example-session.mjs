// @ts-check
/*
 * Live examples: creating and releasing a session, inside a task of the page-wide queue. The
 * one place that hands the runtime its .wasm (handOver) and taps the console for its log
 * (listen), so a Run, a shape sweep and a run on both backends start sessions alike. Counts
 * them for the test hook window.onnxLiveExample.stats.
 */
import { handOver } from "./live-example-cache.mjs";
import { lastSession, listen } from "./live-example-capture.mjs";
import { parsePlacement } from "./live-example-placement.mjs";

/**
 * @import { PreparedWasm } from "./live-example-cache.mjs"
 * @import { Placement } from "./live-example-placement.mjs"
 * @import { Globals } from "./live-example-queue.mjs"
 * @import { CreatedSession, ExampleModule, Ort } from "./live-example-widget.mjs"
 */

/** Sessions created and released on this page (window.onnxLiveExample.stats). */
export const stats = { sessionsCreated: 0, sessionsReleased: 0 };

/**
 * What a session is created from: the example's code, the runtime and its .wasm, the model.
 * @typedef {object} SessionRequest
 * @property {ExampleModule} example
 * @property {{ort: Ort, wasm: PreparedWasm, model: Uint8Array}} downloaded
 * @property {string} backend
 * @property {boolean} pinned whether the input has the sample's sizes (example.mjs pins them)
 * @property {Record<string, unknown>} [options] more session options (freeDimensionOverrides)
 * @property {boolean} [placement] whether to read where each node went from the runtime's log
 */

/**
 * A session as created here: example.mjs's answer, how long it took (`withStart`: this was
 * the first session of its runtime on the page, which started the runtime too), where its
 * nodes went (null when the log said nothing; undefined when it was not asked for), and its
 * log's lines.
 * @typedef {CreatedSession & {createMs: number, withStart: boolean,
 *           placement?: Placement | null, lines?: string[]}} OpenSession
 */

/** @type {WeakSet<object>} the runtimes (module objects) a session was created with */
const started = new WeakSet();

/**
 * Create a session (a task of the page-wide queue: `globals` is the task's).
 * @param {SessionRequest} request
 * @param {Globals} globals
 * @returns {Promise<OpenSession>}
 */
export async function openSession(request, globals) {
  const { example, downloaded, backend, pinned, options = {}, placement = false } = request;
  const withStart = !started.has(downloaded.ort);
  const startedAt = performance.now();
  const finish = handOver(downloaded.ort, downloaded.wasm, globals);
  const listening = listen(globals, downloaded.ort, placement);
  /** @type {CreatedSession | undefined} */
  let created;
  /** @type {string[] | null} */
  let lines;
  try {
    created = await example.createSession(downloaded.ort, backend, downloaded.model, pinned,
                                          { ...options, ...listening.options });
  } finally {
    finish();
    lines = listening.stop(created ? created.ort : downloaded.ort);
  }
  stats.sessionsCreated++;
  const createMs = performance.now() - startedAt;
  started.add(downloaded.ort).add(created.ort);
  if (!lines) return { ...created, createMs, withStart };
  const own = lastSession(lines);
  return { ...created, createMs, withStart, placement: parsePlacement(own), lines: own };
}

/**
 * Free a session (WebGPU memory) before the next task's runtime work starts.
 * @param {{session: CreatedSession["session"]}} open
 */
export async function closeSession({ session }) {
  await session.release().then(() => { stats.sessionsReleased++; }, () => {});
}
