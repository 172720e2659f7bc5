/*
 * A minimal reproduction for WebKit's "Out of bounds memory access" after a matched first run
 * of models/text-detection (see README.md beside this file). Only onnxruntime-web and the
 * model: no widget code, no cache hand-over. Served by run.py from the built site, at
 * <site>/__repro__/, so that the runtime and the model are the site's own files.
 */
import * as ort from "../assets/ort/ort.wasm.bundle.min.mjs";

const query = new URLSearchParams(location.search);
const RUNS = Number(query.get("runs") || 300);
const SESSIONS = Number(query.get("sessions") || 1);
const MODEL = "../models/text-detection/model.onnx";
const REFERENCE = "../models/text-detection/reference.json";

const log = (line) => { document.getElementById("log").textContent += line + "\n"; };

async function main() {
  ort.env.wasm.numThreads = 1; // as on a page without COOP/COEP
  const reference = await (await fetch(REFERENCE)).json();
  const input = reference.inputs[0];
  const expected = Float32Array.from(reference.outputs[0].data);
  const feeds = { [input.name]: new ort.Tensor("uint8", Uint8Array.from(input.data), input.dims) };
  const result = {
    runs: 0, errors: [], worst: 0, firstBad: null, msPerRun: {}, engine: navigator.userAgent,
  };
  for (let s = 0; s < SESSIONS; s++) {
    const session = await ort.InferenceSession.create(MODEL, {
      executionProviders: ["wasm"], logSeverityLevel: 3,
      freeDimensionOverrides: { height: input.dims[0], width: input.dims[1] },
    });
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      try {
        const outputs = await session.run(feeds);
        // How the run time falls as the engine's JIT tiers compile the hot functions.
        if (s === 0 && (i < 3 || i % 25 === 0)) result.msPerRun[i] = Math.round(performance.now() - started);
        const got = outputs[reference.outputs[0].name].data;
        let worst = 0;
        for (let k = 0; k < got.length; k++) worst = Math.max(worst, Math.abs(got[k] - expected[k]));
        result.worst = Math.max(result.worst, worst);
        if (worst > 1e-3 && result.firstBad === null) result.firstBad = { session: s, run: i, worst };
      } catch (error) {
        result.errors.push({ session: s, run: i, error: String(error && error.message || error) });
        log(`session ${s} run ${i}: ${error}`);
        if (result.errors.length >= 5) break;
      }
      result.runs++;
    }
    await session.release();
  }
  log(JSON.stringify(result));
  document.body.dataset.result = JSON.stringify(result);
}

main().catch((error) => {
  document.body.dataset.result = JSON.stringify({ fatal: String(error && error.message || error) });
});
