// @ts-check
// Unit tests of the widget's pure helpers (plugins/onnx_glossary/assets/live-example-core.mjs).
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  TIMING, cacheKey, cacheText, checkText, compare, compareOutputs, downloadText, downloadsRecord, errorMessage,
  fetchBytes, formatBytes, formatDims, formatMs, formatValue, formatValues, median,
  openResponse, countingResponse, percentile, progressSummary, runtimeFile, sameBytes, sameDims,
  staleKeys, timeRuns, timingsText, toNumbers, clockStep,
} from "../../plugins/onnx_glossary/assets/live-example-core.mjs";

describe("median", () => {
  test("odd count: the middle value, whatever the order", () => {
    assert.equal(median([5, 1, 3]), 3);
  });
  test("even count: the mean of the two middle values", () => {
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });
  test("sorts numerically, not as text", () => {
    assert.equal(median([10, 9, 100]), 10);
  });
  test("one value, a typed array, and the input left unsorted", () => {
    assert.equal(median([7]), 7);
    const times = new Float64Array([3, 1, 2]);
    assert.equal(median(times), 2);
    assert.deepEqual(Array.from(times), [3, 1, 2]);
  });
  test("no values: NaN, not undefined or a throw", () => {
    assert.ok(Number.isNaN(median([])));
  });
});

describe("toNumbers", () => {
  test("int64 outputs (BigInt64Array) become numbers", () => {
    assert.deepEqual(toNumbers(new BigInt64Array([0n, -3n, 2n ** 40n])), [0, -3, 2 ** 40]);
  });
  test("uint64 too, and numbers stay numbers", () => {
    assert.deepEqual(toNumbers(new BigUint64Array([7n])), [7]);
    assert.deepEqual(toNumbers(new Float32Array([0.5, -1])), [0.5, -1]);
  });
  test("an empty BigInt array is an empty list", () => {
    assert.deepEqual(toNumbers(new BigInt64Array(0)), []);
  });
  test("the result is a plain array that compares with JSON numbers", () => {
    const values = toNumbers(new BigInt64Array([1n, 2n]));
    assert.ok(Array.isArray(values));
    assert.equal(compare(values, [1, 2], 0, 0).pass, true);
  });
});

describe("formatting", () => {
  test("bytes: kB below 100 kB, MB from there", () => {
    assert.equal(formatBytes(0), "0.0 kB");
    assert.equal(formatBytes(99_999), "100.0 kB");
    assert.equal(formatBytes(100_000), "0.1 MB");
    assert.equal(formatBytes(14_200_000), "14.2 MB");
  });
  test("milliseconds: two decimals below 10 ms, whole above", () => {
    assert.equal(formatMs(0.0425), "0.04 ms");
    assert.equal(formatMs(9.4), "9.40 ms");
    assert.equal(formatMs(10), "10 ms");
    assert.equal(formatMs(1069.4), "1069 ms");
  });
  test("a value: strings quoted, integers and BigInts whole, floats to 6 digits", () => {
    assert.equal(formatValue('say "hi"'), '"say \\"hi\\""');
    assert.equal(formatValue(255), "255");
    assert.equal(formatValue(2n ** 63n - 1n), "9223372036854775807");
    assert.equal(formatValue(-0.3641679883003235), "-0.364168");
    assert.equal(formatValue(2.59297e-11), "2.59297e-11");
    assert.equal(formatValue(NaN), "NaN");
  });
  test("values: at most 8 shown, then how many more", () => {
    assert.equal(formatValues([]), "[]");
    assert.equal(formatValues([1, 2, 3, 4, 5, 6, 7, 8]), "[1, 2, 3, 4, 5, 6, 7, 8]");
    assert.equal(formatValues([1, 2, 3, 4, 5, 6, 7, 8, 9]), "[1, 2, 3, 4, 5, 6, 7, 8, … 1 more]");
    assert.equal(formatValues(new Float32Array([0.5, 1.5, 2]), 2), "[0.500000, 1.50000, … 1 more]");
  });
  test("dims", () => {
    assert.equal(formatDims([64, 96, 4]), "[64, 96, 4]");
    assert.equal(formatDims([]), "[]");
  });
});

describe("sameDims and sameBytes", () => {
  test("dims compare by value, BigInt or number", () => {
    assert.equal(sameDims([1n, 3n], [1, 3]), true);
    assert.equal(sameDims([], []), true);
  });
  test("another rank or another size differs", () => {
    assert.equal(sameDims([1, 3], [1, 3, 1]), false);
    assert.equal(sameDims([3, 1], [1, 3]), false);
  });
  test("bytes: equal only with the same length and every byte", () => {
    assert.equal(sameBytes(new Uint8Array([1, 2, 3]), [1, 2, 3]), true);
    assert.equal(sameBytes(new Uint8Array([1, 2, 3]), [1, 2]), false);
    assert.equal(sameBytes(new Uint8Array([1, 2, 3]), [1, 2, 4]), false);
  });
});

describe("compare", () => {
  test("identical values pass with a max abs diff of 0", () => {
    assert.deepEqual(compare([1, -2, 3.5], [1, -2, 3.5], 0, 0), { maxAbs: 0, pass: true });
  });
  test("the max abs diff is the largest difference, and atol is inclusive", () => {
    assert.deepEqual(compare([1.5, 2.25], [1, 2], 0.5, 0), { maxAbs: 0.5, pass: true });
    assert.deepEqual(compare([1.5, 2.25], [1, 2], 0.25, 0), { maxAbs: 0.5, pass: false });
  });
  test("rtol scales with the reference's magnitude, not the browser's", () => {
    assert.equal(compare([1000.5], [1000], 0, 1e-3).pass, true); // 0.5 <= 1e-3 * 1000
    assert.equal(compare([1.5], [1], 0, 1e-3).pass, false); // 0.5 > 1e-3 * 1
    assert.equal(compare([1000], [2000], 0, 0.6).pass, true); // 1000 <= 0.6 * 2000
    assert.equal(compare([2000], [1000], 0, 0.6).pass, false); // 1000 > 0.6 * 1000
  });
  test("atol and rtol add up", () => {
    assert.equal(compare([10.2], [10], 0.1, 0.01).pass, true); // 0.2 <= 0.1 + 0.1
    assert.equal(compare([10.3], [10], 0.1, 0.01).pass, false);
  });
  test("NaN on one side only fails, in either direction", () => {
    assert.equal(compare([NaN, 1], [0, 1], 1, 1).pass, false);
    assert.equal(compare([0, 1], [NaN, 1], 1, 1).pass, false);
  });
  test("NaN on both sides passes and stays out of the max abs diff", () => {
    assert.deepEqual(compare([NaN, 1.25], [NaN, 1], 0.5, 0), { maxAbs: 0.25, pass: true });
  });
  test("equal infinities pass; an infinity against a number fails", () => {
    assert.deepEqual(compare([Infinity, -Infinity], [Infinity, -Infinity], 0, 0), { maxAbs: 0, pass: true });
    assert.deepEqual(compare([Infinity], [1e30], 1, 1), { maxAbs: Infinity, pass: false });
    assert.equal(compare([-Infinity], [Infinity], 1, 1).pass, false);
    assert.equal(compare([5], [Infinity], 0, 1e-3).pass, false); // rtol * Infinity lets nothing through
  });
  test("a length mismatch fails even when the common part matches", () => {
    assert.deepEqual(compare([1, 2], [1, 2, 3], 1, 1), { maxAbs: 0, pass: false });
    assert.equal(compare([1, 2, 3], [1, 2], 1, 1).pass, false);
  });
  test("empty against empty passes", () => {
    assert.deepEqual(compare([], [], 0, 0), { maxAbs: 0, pass: true });
  });
  test("BigInt values compare with the reference's JSON numbers", () => {
    assert.deepEqual(compare(new BigInt64Array([2n, 5n]), [2, 3], 0, 0), { maxAbs: 2, pass: false });
    assert.equal(compare(new BigInt64Array([2n, 3n]), [2, 3], 0, 0).pass, true);
  });
});

describe("compareOutputs", () => {
  const tolerance = { atol: 1e-4, rtol: 1e-3 };
  const reference = {
    outputs: [
      { name: "label", dims: [1], data: [2] },
      { name: "probabilities", dims: [1, 3], data: [0.1, 0.2, 0.7] },
    ],
  };
  test("every output within tolerance: a pass, rows in the outputs' order", () => {
    const result = compareOutputs({
      probabilities: { dims: [1n, 3n], values: [0.1, 0.2, 0.70005] },
      label: { dims: [1], values: [2] },
    }, reference, tolerance);
    assert.equal(result.pass, true);
    assert.ok(Math.abs(result.maxAbs - 5e-5) < 1e-12);
    assert.deepEqual(result.rows.map((row) => row.name), ["probabilities", "label"]);
    assert.deepEqual(result.rows.map((row) => row.verdict), ["5.00e-5 ✓", "0.00e+0 ✓"]);
  });
  test("one failing output fails the run; maxAbs is the largest of all", () => {
    const result = compareOutputs({
      label: { dims: [1], values: [3] },
      probabilities: { dims: [1, 3], values: [0.1, 0.2, 0.7] },
    }, reference, tolerance);
    assert.equal(result.pass, false);
    assert.equal(result.maxAbs, 1);
    assert.equal(result.rows[0].verdict, "1.00e+0 ✗");
  });
  test("an output the reference lacks, or with other dims, fails with a reason", () => {
    const result = compareOutputs({
      extra: { dims: [1], values: [0] },
      probabilities: { dims: [3], values: [0.1, 0.2, 0.7] },
    }, reference, tolerance);
    assert.equal(result.pass, false);
    assert.deepEqual(result.rows.map((row) => row.verdict),
                     ["missing from reference.json", "dims differ: reference [1,3]"]);
  });
  test("without a reference nothing is compared and every row says so", () => {
    const result = compareOutputs({ label: { dims: [1], values: [99] } }, null, tolerance, "none here");
    assert.deepEqual(result, { rows: [{ name: "label", verdict: "none here" }], pass: true, maxAbs: 0 });
  });
  test("the check line", () => {
    const line = checkText({ maxAbs: 2.1e-9, pass: true, note: "", onnxruntime: "1.32.0", atol: "0.0001", rtol: "0.001" });
    assert.equal(line, "max abs diff 2.10e-9 against the build's onnxruntime 1.32.0 outputs: match (atol 0.0001, rtol 0.001)");
    const failed = checkText({ maxAbs: 255, pass: false, note: "Other pixels. ", onnxruntime: "1.32.0", atol: "4", rtol: "0" });
    assert.equal(failed, "Other pixels. max abs diff 2.55e+2 against the build's onnxruntime 1.32.0 outputs: MISMATCH (atol 4, rtol 0)");
  });
});

describe("timeRuns", () => {
  /**
   * A fake model and clock: every run takes `ms` milliseconds and returns its number.
   * @param {number} ms
   */
  function fake(ms) {
    let clock = 0;
    let calls = 0;
    return {
      now: () => clock,
      runOnce: async () => { clock += ms; return ++calls; },
      calls: () => calls,
    };
  }
  const timing = { ...TIMING };

  test("a fast model is timed in groups lasting the group time", async () => {
    const model = fake(0.25); // exact in binary: 8 runs make 2 ms
    const result = await timeRuns(model.runOnce, model.now, timing);
    assert.equal(result.group, 8);
    assert.equal(result.times.length, TIMING.runs);
    assert.ok(result.times.every((t) => t === 0.25));
    assert.equal(model.calls(), TIMING.calibrations * 8 + TIMING.runs * 8);
    assert.equal(result.outputs, model.calls()); // the last run's outputs
  });
  test("one slow run while sizing the groups does not decide the group size", async () => {
    let clock = 0;
    let calls = 0;
    const runOnce = async () => { clock += calls++ === 0 ? 3 : 0.25; return calls; };
    const result = await timeRuns(runOnce, () => clock, timing);
    assert.equal(result.group, 8);
    assert.ok(result.times.every((t) => t === 0.25));
  });
  test("a model slower than the group time is timed run by run", async () => {
    const model = fake(5);
    const result = await timeRuns(model.runOnce, model.now, timing);
    assert.equal(result.group, 1);
    assert.equal(result.times.length, TIMING.runs);
  });
  test("a slow model stops at the budget, after the minimum number of runs", async () => {
    const model = fake(700); // 3 runs end at 2100 ms, 5 at 3500 ms
    const result = await timeRuns(model.runOnce, model.now, timing);
    assert.deepEqual([result.group, result.times.length], [1, 5]);
    const slower = fake(5000);
    assert.equal((await timeRuns(slower.runOnce, slower.now, timing)).times.length, TIMING.minRuns);
  });
  test("a clock that never moves: groups of maxGroup runs, and no endless loop", async () => {
    const model = fake(0);
    const result = await timeRuns(model.runOnce, model.now, { ...timing, runs: 4 });
    assert.equal(result.group, TIMING.maxGroup);
    assert.deepEqual(result.times, [0, 0, 0, 0]);
  });
  test("a clock that jumps at every reading still ends", async () => {
    let clock = 0;
    const now = () => (clock += 10); // every reading is 10 ms later: a 10 ms step
    const result = await timeRuns(async () => "out", now, timing);
    assert.ok(result.group >= 1 && result.group <= TIMING.maxGroup * 25, String(result.group));
    assert.equal(result.outputs, "out");
    assert.ok(result.times.length >= TIMING.minRuns && result.times.every((t) => t > 0));
  });
  test("a clock of 1 ms steps: groups last 20 ms, so a 0.05 ms run is not timed as 0", async () => {
    let clock = 0; // the true time; the page reads it in whole milliseconds
    let reads = 0;
    const now = () => Math.floor(reads++ % 50 === 0 ? (clock += 1) : clock);
    const runOnce = async () => { clock += 0.05; return 1; };
    const result = await timeRuns(runOnce, now, timing);
    assert.ok(result.group >= 200, String(result.group)); // 20 ms of 0.05 ms runs, at least
    const middle = median(result.times);
    assert.ok(middle > 0.03 && middle < 0.08, String(middle));
  });
  /**
   * WebKit's clock (whole milliseconds) and runs of `fast` ms that take `slow` ms for the first
   * `until` runs (a JIT compiling them again) and the ones during `pauses` (a busy machine);
   * reading the clock takes 0.2 µs, so clockStep sees its 1 ms steps.
   * @param {{slow: number, fast: number, until: number, pauses?: Set<number>}} runs
   */
  function coarse({ slow, fast, until, pauses = new Set() }) {
    let clock = 0;
    let calls = 0;
    return {
      now: () => Math.floor((clock += 0.0002)),
      runOnce: async () => { calls++; clock += pauses.has(calls) ? 300 : calls <= until ? slow : fast; return calls; },
    };
  }
  test("runs that get faster after the sizing are not timed as 0 ms on a 1 ms clock", async () => {
    // Sized while a run takes 0.5 ms (groups of 40 for 20 ms), timed once it takes 0.02 ms:
    // 40 runs then last 0.8 ms, read as 0 or 1 ms. Seen in WebKitGTK on models/linear.
    const model = coarse({ slow: 0.5, fast: 0.02, until: 200 });
    const result = await timeRuns(model.runOnce, model.now, timing);
    assert.ok(result.times.every((t) => t > 0), JSON.stringify(result.times));
    const middle = median(result.times);
    assert.ok(middle > 0.015 && middle < 0.03, String(middle));
    assert.ok(result.group >= 500, String(result.group)); // 10 ms of 0.02 ms runs, at least
  });
  test("a pause while sizing a fast model does not leave it timed run by run", async () => {
    // The first sizing run stalls 300 ms (another process had the core): without more, the
    // sizing stops there (a slow model needs only one try) with a group of 1.
    const model = coarse({ slow: 0.05, fast: 0.05, until: 0, pauses: new Set([1]) });
    const result = await timeRuns(model.runOnce, model.now, timing);
    const middle = median(result.times);
    assert.ok(middle > 0.04 && middle < 0.06, `${middle} ${JSON.stringify(result.times)}`);
    assert.ok(result.times.every((t) => t > 0));
  });
  test("runs counts the runs behind the kept times, whatever the groups were", async () => {
    const model = coarse({ slow: 0.5, fast: 0.02, until: 200 });
    let calls = 0;
    const counted = async () => { calls++; return model.runOnce(); };
    const result = await timeRuns(counted, model.now, timing);
    assert.ok(result.runs > 0 && result.runs < calls, `${result.runs} of ${calls}`);
    assert.ok(result.runs >= result.times.length * 500, String(result.runs));
  });
  test("the clock's step: 0.1 ms, 1 ms, and 0 for a clock that does not move", () => {
    let t = 0;
    assert.ok(Math.abs(clockStep(() => (t += 0.1)) - 0.1) < 1e-9);
    let u = 0;
    assert.equal(clockStep(() => Math.floor((u += 0.01))), 1);
    assert.equal(clockStep(() => 5), 0);
  });
  test("the timings line: first run, median, p90 and every timed run counted", () => {
    assert.equal(timingsText({ createMs: 471.2, firstMs: 9.4, times: [0.05, 0.04, 0.03], runs: 24 }),
                 "session 471 ms · first run 9.40 ms · median 0.04 ms · p90 0.05 ms · 24 runs");
  });
});

describe("percentile", () => {
  test("interpolates between the nearest ranks, like numpy", () => {
    assert.equal(percentile([1, 2, 3, 4, 5], 90), 4.6);
    assert.equal(percentile([10, 20], 50), 15);
    assert.equal(percentile([3, 1, 2], 50), median([3, 1, 2]));
  });
  test("0 and 100 are the extremes; out-of-range p is clamped", () => {
    assert.equal(percentile([5, 1, 9], 0), 1);
    assert.equal(percentile([5, 1, 9], 100), 9);
    assert.equal(percentile([5, 1, 9], 250), 9);
  });
  test("one value is every percentile; no values: NaN; the input stays unsorted", () => {
    assert.equal(percentile([7], 90), 7);
    assert.ok(Number.isNaN(percentile([], 90)));
    const times = [3, 1, 2];
    percentile(times, 90);
    assert.deepEqual(times, [3, 1, 2]);
  });
});

describe("downloadText", () => {
  const sizes = { model: 612, runtime: { wasm: 14_239_897, webgpu: 26_781_914 } };
  test("says what a Run downloads for the backend chosen", () => {
    assert.equal(downloadText(sizes, "wasm"), "Downloaded only when you press Run: model 0.6 kB · runtime 14.2 MB");
    assert.equal(downloadText(sizes, "webgpu"), "Downloaded only when you press Run: model 0.6 kB · runtime 26.8 MB");
  });
  test("names the runtime without a size when the build did not know it", () => {
    assert.equal(downloadText({ model: 612, runtime: {} }, "wasm"),
                 "Downloaded only when you press Run: model 0.6 kB · the runtime");
  });
});

describe("downloadsRecord", () => {
  const sizes = { model: 612, runtime: { wasm: 14_829_570, webgpu: 28_700_000 } };
  test("the record names what the Run fetched, and the other backend's runtime", () => {
    assert.equal(downloadsRecord(sizes, "wasm"),
                 "model 0.6 kB · wasm runtime 14.8 MB (once per browser cache; webgpu's 28.7 MB)");
    assert.equal(downloadsRecord(sizes, "webgpu"),
                 "model 0.6 kB · webgpu runtime 28.7 MB (once per browser cache; wasm's 14.8 MB)");
  });
  test("without the build's sizes it names the runtime only", () => {
    assert.equal(downloadsRecord({ model: 612, runtime: {} }, "wasm"), "model 0.6 kB · the wasm runtime");
  });
});

describe("progressSummary", () => {
  test("sums the downloads and lists each", () => {
    const summary = progressSummary({ runtime: [1_000_000, 14_200_000], model: [500, 1000] });
    assert.deepEqual(summary, {
      value: 1_000_500, max: 14_201_000, text: "runtime 1.0 MB of 14.2 MB · model 0.5 kB of 1.0 kB",
    });
  });
  test("a phrase instead of bytes: listed, and left out of the bar", () => {
    const summary = progressSummary({ runtime: "from the browser's cache", model: [500, 1000] });
    assert.deepEqual(summary, {
      value: 500, max: 1000, text: "runtime from the browser's cache · model 0.5 kB of 1.0 kB",
    });
  });
  test("an unknown total says only what arrived, and max is never 0", () => {
    assert.deepEqual(progressSummary({ model: [0, 0] }), { value: 0, max: 1, text: "model 0.0 kB" });
    // Finished: the size alone.
    assert.deepEqual(progressSummary({ runtime: [14_200_000, 14_200_000], model: [1000, 1000] }),
                     { value: 14_201_000, max: 14_201_000, text: "runtime 14.2 MB · model 1.0 kB" });
    assert.deepEqual(progressSummary({}), { value: 0, max: 1, text: "" });
  });
});

describe("the persistent cache's keys", () => {
  test("a file's key is its URL with the content hash as the only query", () => {
    assert.equal(cacheKey("https://a.io/site/models/x/model.onnx", "ab12"),
                 "https://a.io/site/models/x/model.onnx?sha256=ab12");
    assert.equal(cacheKey("https://a.io/m.onnx?v=1#top", "cd"), "https://a.io/m.onnx?sha256=cd");
  });
  test("storing a file makes its keys under other hashes stale, and nothing else", () => {
    const fresh = cacheKey("https://a.io/s/model.onnx", "new");
    const keys = [cacheKey("https://a.io/s/model.onnx", "old"), fresh,
                  cacheKey("https://a.io/s/reference.json", "old"),
                  cacheKey("https://a.io/t/model.onnx", "old")];
    assert.deepEqual(staleKeys(keys, fresh), [keys[0]]);
    assert.deepEqual(staleKeys([fresh], fresh), []);
  });
  test("the cache line", () => {
    assert.equal(cacheText(14_241_143), "cached 14.2 MB");
    assert.equal(cacheText(0), "nothing cached");
  });
});

describe("runtimeFile", () => {
  const files = { webgpu: "a.asyncify.wasm", wasm: "a.wasm" };
  test("the build's name for each backend", () => {
    assert.equal(runtimeFile(files, "webgpu"), "a.asyncify.wasm");
    assert.equal(runtimeFile(files, "wasm"), "a.wasm");
  });
  test("a page without the names fails with a readable error", () => {
    assert.throws(() => runtimeFile({}, "wasm"), /no runtime file for the wasm backend/);
    assert.throws(() => runtimeFile(undefined, "webgpu"), /data-runtime-files/);
    assert.throws(() => runtimeFile({ wasm: 3 }, "wasm"), /rebuild the site/);
  });
});

describe("fetchBytes", () => {
  /**
   * A fetch that answers with these chunks as the body.
   * @param {number[][]} chunks
   * @param {ResponseInit} [init]
   */
  function respond(chunks, init = {}) {
    const body = new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
        controller.close();
      },
    });
    return async () => new Response(body, init);
  }

  test("joins the chunks and reports progress up to the received total", async () => {
    /** @type {Array<[number | string, number | undefined]>} */
    const progress = [];
    const bytes = await fetchBytes("m.onnx", "the model", (r, t) => progress.push([r, t]),
                                   respond([[1, 2], [3]]));
    assert.deepEqual(Array.from(bytes), [1, 2, 3]);
    assert.deepEqual(progress, [[2, 2], [3, 3], [3, 3]]);
  });
  test("Content-Length is a hint: a larger one is the total until the end", async () => {
    /** @type {Array<[number | string, number | undefined]>} */
    const progress = [];
    await fetchBytes("m.onnx", "the model", (r, t) => progress.push([r, t]),
                     respond([[1, 2], [3]], { headers: { "Content-Length": "10" } }));
    assert.deepEqual(progress, [[2, 10], [3, 10], [3, 3]]);
  });
  test("HTTP errors name the status, the thing and the URL", async () => {
    const notFound = async () => new Response("no", { status: 404, statusText: "Not Found" });
    await assert.rejects(fetchBytes("/repo/x.wasm", "the runtime x.wasm", () => {}, notFound),
                         { message: "Could not download the runtime x.wasm: HTTP 404 Not Found for /repo/x.wasm" });
  });
  test("a network failure says what could not be downloaded", async () => {
    const offline = async () => { throw new TypeError("Failed to fetch"); };
    await assert.rejects(fetchBytes("/m.onnx", "the model", () => {}, offline),
                         { message: "Could not download the model (/m.onnx): Failed to fetch" });
  });
  test("counting a response as it passes: the same bytes, status and headers, progress", async () => {
    /** @type {Array<[number | string, number | undefined]>} */
    const progress = [];
    const response = await openResponse("w.wasm", "the runtime", respond([[1, 2], [3, 4, 5]], {
      headers: { "Content-Type": "application/wasm", "Content-Length": "5" },
    }));
    const counted = countingResponse(response, (r, t) => progress.push([r, t]));
    assert.deepEqual(progress, []); // nothing is read until the consumer reads
    assert.equal(counted.status, 200);
    assert.equal(counted.headers.get("Content-Type"), "application/wasm");
    assert.deepEqual(Array.from(new Uint8Array(await counted.arrayBuffer())), [1, 2, 3, 4, 5]);
    assert.deepEqual(progress, [[2, 5], [5, 5], [5, 5]]);
  });
  test("a failed response is not counted: it passes as it is", async () => {
    const failed = new Response("gone", { status: 404 });
    assert.equal(countingResponse(failed, () => assert.fail("counted")), failed);
  });
  test("a response is open once its status is known, before its body is read", async () => {
    const response = await openResponse("w.wasm", "the runtime", respond([[1]]));
    assert.equal(response.bodyUsed, false);
    await assert.rejects(openResponse("w.wasm", "the runtime",
                                      async () => new Response("", { status: 500, statusText: "Oops" })),
                         { message: "Could not download the runtime: HTTP 500 Oops for w.wasm" });
  });
});

describe("small helpers", () => {
  test("errorMessage: an Error's message, anything else as text", () => {
    assert.equal(errorMessage(new Error("IR version 14")), "IR version 14");
    assert.equal(errorMessage(12345), "12345");
    assert.equal(errorMessage(undefined), "undefined");
  });
});

import {
  HEATMAP_STOPS, formatPercent, heatmapColour, heatmapGradient, heatmapPixels, ownDims,
  readClasses, readValues, sameShapes, softmax, topK,
} from "../../plugins/onnx_glossary/assets/live-example-core.mjs";

describe("softmax", () => {
  test("sums to 1 and keeps the order", () => {
    const p = softmax([1, 2, 3]);
    assert.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(p[0] < p[1] && p[1] < p[2]);
    assert.ok(Math.abs(p[2] - Math.exp(3) / (Math.exp(1) + Math.exp(2) + Math.exp(3))) < 1e-12);
  });
  test("stable for large logits; equal scores share equally", () => {
    assert.deepEqual(softmax([1000, 1000]), [0.5, 0.5]);
    assert.deepEqual(softmax([]), []);
  });
});

describe("topK", () => {
  test("highest first, ties by index, k larger than the list", () => {
    assert.deepEqual(topK([0.1, 0.5, 0.5, 0.2], 3).map((e) => e.index), [1, 2, 3]);
    assert.equal(topK([1, 2], 5).length, 2);
    assert.deepEqual(topK(new Float32Array([3, 1]), 1), [{ index: 0, value: 3 }]);
  });
});

describe("readClasses", () => {
  test("names from the reading, first row only, softmax when the scores are logits", () => {
    const reading = { classes: ["a", "b", "c"], softmax: true, top: 2 };
    const { rows, answer } = readClasses([0, 0, 5, 9, 9, 9], [2, 3], reading);
    assert.equal(answer, "c");
    assert.deepEqual(rows.map((r) => r.name), ["c", "a"]);
    assert.ok(Math.abs(rows[0].probability - softmax([0, 0, 5])[2]) < 1e-12);
  });
  test("unnamed classes read as their index", () => {
    assert.equal(readClasses([0.2, 0.8], [1, 2], { top: 1 }).answer, "class 1");
  });
  test("percentages", () => {
    assert.equal(formatPercent(0.9731), "97.3 %");
    assert.equal(formatPercent(0.00001), "<0.1 %");
    assert.equal(formatPercent(0), "0.0 %");
  });
});

describe("readValues", () => {
  test("labels and unit; a row number when there are several rows", () => {
    assert.deepEqual(readValues([21.5], [1, 1], { labels: ["temperature"], unit: "°C" }),
      [{ label: "temperature", text: "21.5000 °C" }]);
    assert.deepEqual(readValues([1, 2], [2, 1], { labels: ["y"] }).map((v) => v.label),
      ["y (row 1)", "y (row 2)"]);
    assert.equal(readValues([1, 2], [2], {})[1].label, "value 2");
  });
});

describe("heatmap colours", () => {
  test("0 and 1 are the end stops; opacity grows with the value", () => {
    assert.deepEqual(heatmapColour(0).slice(0, 3), HEATMAP_STOPS[0][1]);
    assert.deepEqual(heatmapColour(1).slice(0, 3), HEATMAP_STOPS[HEATMAP_STOPS.length - 1][1]);
    assert.ok(heatmapColour(0)[3] < heatmapColour(0.5)[3] && heatmapColour(0.5)[3] < heatmapColour(1)[3]);
  });
  test("out of range and NaN are clamped", () => {
    assert.deepEqual(heatmapColour(-3), heatmapColour(0));
    assert.deepEqual(heatmapColour(7), heatmapColour(1));
    assert.deepEqual(heatmapColour(NaN), heatmapColour(0));
  });
  test("in between: interpolated between the neighbouring stops", () => {
    const [p0, c0] = HEATMAP_STOPS[1];
    const [p1, c1] = HEATMAP_STOPS[2];
    const middle = heatmapColour((p0 + p1) / 2);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(middle[k] - (c0[k] + c1[k]) / 2) <= 1);
  });
  test("the legend's gradient names every stop", () => {
    assert.equal((heatmapGradient().match(/rgb\(/g) || []).length, HEATMAP_STOPS.length);
  });
  test("blended over the picture in grey, opaque", () => {
    const picture = new Uint8Array([255, 255, 255, 255, 0, 0, 0, 255]);
    const out = heatmapPixels([0, 1], 1, 2, picture);
    assert.equal(out.length, 8);
    assert.equal(out[3], 255);
    // Value 1 is mostly the top colour (yellow): red and green high, blue low.
    assert.ok(out[4] > 200 && out[5] > 180 && out[6] < 100);
    // Value 0 lets the white picture show through.
    assert.ok(out[0] > 150 && out[1] > 150);
  });
});

describe("own input's dims", () => {
  test("the batch axis takes as many rows as the values fill", () => {
    assert.deepEqual(ownDims([2, 3], 3), [1, 3]);
    assert.deepEqual(ownDims([1, 64], 64), [1, 64]);
    assert.deepEqual(ownDims([1, 8, 8, 1], 128), [2, 8, 8, 1]);
    assert.deepEqual(ownDims([], 4), [4]);
  });
  test("sameShapes", () => {
    assert.equal(sameShapes({ a: [1, 2] }, { a: [1, 2] }), true);
    assert.equal(sameShapes({ a: [1, 2] }, { a: [2, 2] }), false);
    assert.equal(sameShapes({ a: [1, 2] }, { a: [1, 2], b: [1] }), false);
  });
});
