// @ts-check
// Unit tests of the console taps that read onnxruntime-web's log of one session
// (plugins/onnx_glossary/assets/live-example-capture.mjs), through the real page-wide queue and
// node's real console object, on lines recorded from onnxruntime-web 1.31.1 in Chromium
// (tests/js/placement-logs/). console.error is replaced by a recorder for each test, so that
// what the taps pass on can be seen; the browser test (tests/test_browser_placement.py) checks
// the same on Chromium's console. Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, test } from "node:test";

import { LOG_ID, lastSession, listen } from "../../plugins/onnx_glossary/assets/live-example-capture.mjs";
import { parsePlacement } from "../../plugins/onnx_glossary/assets/live-example-placement.mjs";
import { exclusive } from "../../plugins/onnx_glossary/assets/live-example-queue.mjs";

/**
 * A recorded log with a session's logId put in, as the runtime writes it for a session created
 * with that option ("[V:onnxruntime:<logId>, ...").
 * @param {string} name
 * @param {string} id
 */
const recorded = (name, id) =>
  readFileSync(new URL(`placement-logs/${name}.log`, import.meta.url), "utf8").trimEnd().split("\n")
    .map((line) => line.replace(/:onnxruntime:, /, ":onnxruntime:" + id + ", "));

const ERROR_LINE = (/** @type {string} */ id) =>
  "2026-12-03 12:40:42.700000 [E:onnxruntime:" + id + ", inference_session.cc:1 Run] broke";

/** @type {unknown[][]} what reached the console's error function */
let printed = [];
const { error: realError, log: realLog } = console;

beforeEach(() => {
  printed = [];
  console.error = (...args) => { printed.push(args); };
  console.log = (...args) => { printed.push(["log", ...args]); };
});

afterEach(() => {
  console.error = realError;
  console.log = realLog;
});

/**
 * One session's creation as the widget does it: the runtime binds console.error the first
 * time (here: `bound`), writes its lines, and the listening ends.
 * @param {object} runtime
 * @param {(id: string) => string[]} write the lines the runtime writes while the session is created
 * @param {boolean} [wanted]
 */
function createSession(runtime, write, wanted = true) {
  return exclusive((globals) => {
    const listening = listen(globals, runtime, wanted);
    const bound = console.error.bind(console);
    const id = listening.options.logId || "";
    for (const line of write(id)) bound(line);
    return { options: listening.options, lines: listening.stop(runtime), bound };
  });
}

describe("while a session is created", () => {
  test("its lines are kept and none reaches the console; the page's own lines pass unchanged", async () => {
    const page = { answer: 42 };
    const created = await createSession({}, (id) => {
      console.log("the page's own", page);  // the page, during the Run
      console.error("a page error", 1);
      return recorded("face-detection-webgpu", id);
    });
    assert.equal(created.options.logSeverityLevel, 0);
    assert.ok(created.options.logId?.startsWith(LOG_ID));
    assert.ok(created.lines);
    const placement = parsePlacement(created.lines);
    assert.ok(placement);
    assert.deepEqual(placement.providers, { WebGpuExecutionProvider: 213, CPUExecutionProvider: 8 });
    // Only the page's two calls, with their very arguments (not turned into text).
    assert.deepEqual(printed, [["log", "the page's own", page], ["a page error", 1]]);
    assert.equal(printed[0][2], page);
  });

  test("the console functions are the page's own again once the task has ended", async () => {
    const before = console.error;
    await createSession({}, (id) => recorded("linear-wasm", id));
    assert.equal(console.error, before);
  });
});

describe("after the session is created", () => {
  test("the runtime's bound tap drops that session's verbose lines and passes its errors", async () => {
    const created = await createSession({}, (id) => recorded("linear-wasm", id));
    const id = created.options.logId || "";
    const running = "2026-12-03 12:40:42.700000 [I:onnxruntime:" + id +
      ", webgpu_context.cc:559 Run] Starting program \"GemmNaive\" (1, 1, 1)";
    created.bound(running);  // the WebGPU provider logs this on every run of the session
    created.bound(ERROR_LINE(id));
    created.bound("2026-12-03 12:40:42.700000 [W:onnxruntime:, x.cc:1 F] another session's warning");
    assert.deepEqual(printed, [
      [ERROR_LINE(id)],
      ["2026-12-03 12:40:42.700000 [W:onnxruntime:, x.cc:1 F] another session's warning"],
    ]);
  });

  test("two sessions one after the other each get their own lines", async () => {
    const runtime = {};
    const first = await createSession(runtime, (id) => recorded("linear-wasm", id));
    const second = await createSession(runtime, (id) => recorded("face-detection-webgpu", id));
    assert.notEqual(first.options.logId, second.options.logId);
    assert.deepEqual(parsePlacement(first.lines || [])?.providers, { CPUExecutionProvider: 1 });
    assert.deepEqual(parsePlacement(second.lines || [])?.providers,
      { WebGpuExecutionProvider: 213, CPUExecutionProvider: 8 });
  });
});

describe("when the log is not wanted, or cannot be heard", () => {
  test("no verbose log is asked for, and nothing is kept", async () => {
    const created = await createSession({}, () => [], false);
    assert.deepEqual(created.options, {});
    assert.equal(created.lines, null);
  });

  test("a runtime whose log never reached the taps is not asked for a verbose log again", async () => {
    const runtime = {};
    const deaf = await createSession(runtime, () => []);  // started elsewhere: the taps heard nothing
    assert.deepEqual(deaf.lines, []);
    const again = await createSession(runtime, (id) => recorded("linear-wasm", id));
    assert.deepEqual(again.options, {});
    assert.equal(again.lines, null);
  });
});

test("after a fallback, the lines of the last session creation only", () => {
  const failed = recorded("face-detection-webgpu", "x");
  const wasm = recorded("linear-webgpu", "x");  // the whole log of a creation, from its options
  assert.ok(wasm[0].includes("TraceSessionOptions"));
  assert.deepEqual(lastSession([...failed, ...wasm]), wasm);
  assert.deepEqual(lastSession(failed), failed);  // no options line: all of it
});
