/*
 * A minimal reproduction for WebKit's "Out of bounds memory access" after a matched first run
 * of models/text-detection (see README.md beside this file). Only onnxruntime-web and the
 * model: no widget code, no cache hand-over. Served by run.py from the built site, at
 * <site>/__repro__/, so that the runtime and the models are the site's own files.
 *
 * Query: ?model=text-detection&runs=300&sessions=1. Any model of the site with a reference.json
 * runs here (run.py --rotate loads each in turn, text-detection last, in one browser process,
 * as the widget's pages were when the error was seen). "failgrow=K" refuses every grow of the
 * wasm memory after the first K (README.md: a heap that cannot grow is not the cause).
 */
import * as ort from "../assets/ort/ort.wasm.bundle.min.mjs";

const query = new URLSearchParams(location.search);
const RUNS = Number(query.get("runs") || 300);
const SESSIONS = Number(query.get("sessions") || 1);
const NAME = query.get("model") || "text-detection";
const MODEL = `../models/${NAME}/model.onnx`;
const WASM = "../assets/ort/ort-wasm-simd-threaded.wasm";
// The widget's ways, each on its own: "handover=1" compiles the .wasm with compileStreaming and
// gives the runtime that module (WebAssembly.instantiate(module, imports)), as
// live-example-cache.mjs does; "verbose=1" creates the session with logSeverityLevel 0 and a
// logId, its lines dropped by a console tap, as live-example-capture.mjs does.
const HANDOVER = query.get("handover") === "1";
const VERBOSE = query.get("verbose") === "1";
// "seconds=3": after `runs` runs, go on running for that long, as the widget's timing runs do
// (thousands of runs of a small model, dozens of a large one).
const SECONDS = Number(query.get("seconds") || 0);
const REFERENCE = `../models/${NAME}/reference.json`;
// "failgrow=K": the wasm memory grows K times, then every further grow throws, as an engine's
// does when it cannot map more pages (a RangeError). Without it, every grow is still recorded
// (result.grows), so a grow the engine itself refused shows up next to the error it led to.
const FAILGROW = query.has("failgrow") ? Number(query.get("failgrow")) : Infinity;
const grows = [];
const realGrow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (delta) {
  if (grows.filter((g) => g.ok).length >= FAILGROW) {
    grows.push({ delta, refused: true });
    throw new RangeError("WebAssembly.Memory.grow(): refused by the reproduction (failgrow)");
  }
  try {
    const old = realGrow.call(this, delta);
    grows.push({ delta, ok: true, mb: Math.round(this.buffer.byteLength / 1048576) });
    return old;
  } catch (error) {
    grows.push({ delta, error: String(error && error.message || error) });
    throw error;
  }
};

/** The typed array of each element type reference.json holds. */
const ARRAYS = {
  float32: Float32Array, uint8: Uint8Array, int8: Uint8Array, int32: Int32Array,
  int64: BigInt64Array, bool: Uint8Array,
};

const log = (line) => { document.getElementById("log").textContent += line + "\n"; };

/** One input of reference.json as a tensor. */
function tensor(input) {
  const Kind = ARRAYS[input.type];
  if (!Kind) throw new Error(`no typed array for ${input.type}`);
  const data = input.type === "int64" ? input.data.map((v) => BigInt(v)) : input.data;
  return new ort.Tensor(input.type === "int8" ? "int8" : input.type, Kind.from(data), input.dims);
}

/** The largest difference from the reference beyond its tolerance (0: within it). */
function excess(outputs, reference) {
  const { atol, rtol } = reference.tolerance;
  let worst = 0;
  for (const expected of reference.outputs) {
    const got = outputs[expected.name] && outputs[expected.name].data;
    if (!got || !Array.isArray(expected.data) || typeof expected.data[0] !== "number") continue;
    for (let k = 0; k < expected.data.length; k++) {
      const want = expected.data[k];
      const over = Math.abs(Number(got[k]) - want) - (atol + rtol * Math.abs(want));
      if (!(over <= 0)) worst = Math.max(worst, Number.isNaN(over) ? Infinity : over);
    }
  }
  return worst;
}

let handedOver = false;

/** The widget's hand-over of the .wasm: compiled from its own download, without the imports. */
function handOver() {
  const compiled = WebAssembly.compileStreaming(fetch(WASM));
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    WebAssembly.instantiateStreaming = original;
    handedOver = true;
    const module = await compiled;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

/** The widget's console taps: a verbose session's lines below errors are dropped. */
function tapConsole() {
  for (const level of ["log", "error"]) {
    const original = console[level];
    console[level] = function (...args) {
      const text = typeof args[0] === "string" ? args[0] : "";
      if (/^\[[VIW]:onnxruntime:repro-/.test(text)) return;
      original.apply(this, args);
    };
  }
}

async function main() {
  ort.env.wasm.numThreads = 1; // as on a page without COOP/COEP
  if (HANDOVER) handOver();
  if (VERBOSE) tapConsole();
  const reference = await (await fetch(REFERENCE)).json();
  const feeds = Object.fromEntries(reference.inputs.map((input) => [input.name, tensor(input)]));
  const result = {
    model: NAME, runs: 0, errors: [], worst: 0, firstBad: null, msPerRun: {},
    handover: HANDOVER, verbose: VERBOSE,
    engine: navigator.userAgent,
  };
  for (let s = 0; s < SESSIONS; s++) {
    const session = await ort.InferenceSession.create(MODEL, {
      executionProviders: ["wasm"], logSeverityLevel: 3,
      freeDimensionOverrides: reference.dims,
      ...(VERBOSE ? { logSeverityLevel: 0, logId: `repro-${s}` } : {}),
    });
    let end = 0;
    for (let i = 0; i < RUNS || performance.now() < end; i++) {
      if (i === RUNS - 1 && SECONDS) end = performance.now() + SECONDS * 1000;
      const started = performance.now();
      try {
        const outputs = await session.run(feeds);
        // How the run time falls as the engine's JIT tiers compile the hot functions.
        if (s === 0 && (i < 3 || (i % 25 === 0 && i <= 100) || i % 1000 === 0)) result.msPerRun[i] = Math.round(performance.now() - started);
        const worst = excess(outputs, reference);
        result.worst = Math.max(result.worst, worst);
        if (worst > 0 && result.firstBad === null) result.firstBad = { session: s, run: i, worst };
      } catch (error) {
        result.errors.push({ session: s, run: i, error: String(error && error.message || error) });
        log(`session ${s} run ${i}: ${error}`);
        if (result.errors.length >= 5) break;
      }
      result.runs++;
    }
    await session.release();
  }
  result.handedOver = handedOver;
  result.grows = grows;
  log(JSON.stringify(result));
  document.body.dataset.result = JSON.stringify(result);
}

main().catch((error) => {
  document.body.dataset.result = JSON.stringify({ model: NAME, fatal: String(error && error.message || error), grows });
});
