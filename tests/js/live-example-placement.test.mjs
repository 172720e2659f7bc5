// @ts-check
// Unit tests of the placement-log parser (plugins/onnx_glossary/assets/live-example-placement.mjs)
// on console text recorded from onnxruntime-web 1.31.1 in headless Chromium 156 with a
// software WebGPU adapter (tests/js/placement-logs/, one console message a line: linear on
// WebGPU, the whole log of its session; face-detection on WebGPU and linear on WASM, the lines
// around the placement block). Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  isPlacementLine,
  logLine,
  opTypesByProvider,
  parsePlacement,
  placementText,
  providerName,
} from "../../plugins/onnx_glossary/assets/live-example-placement.mjs";

/** @param {string} name */
const recorded = (name) =>
  readFileSync(new URL(`placement-logs/${name}.log`, import.meta.url), "utf8").trimEnd().split("\n");

const WEBGPU = "WebGpuExecutionProvider";
const WASM = "CPUExecutionProvider";

describe("recorded logs", () => {
  test("a graph whose nodes all went to one provider: its total, no list", () => {
    const lines = recorded("linear-webgpu");
    assert.ok(lines.length > 100);  // the whole verbose log of the session
    assert.deepEqual(parsePlacement(lines), { providers: { [WEBGPU]: 1 }, nodes: [], graphs: 1, listed: false });
    assert.deepEqual(parsePlacement(recorded("linear-wasm")),
      { providers: { [WASM]: 1 }, nodes: [], graphs: 1, listed: false });
  });

  test("a graph split between WebGPU and WASM: the totals, and every node listed", () => {
    const placement = parsePlacement(recorded("face-detection-webgpu"));
    assert.ok(placement);
    assert.deepEqual(placement.providers, { [WEBGPU]: 213, [WASM]: 8 });
    assert.equal(placement.nodes.length, 221);
    assert.equal(placement.listed, true);
    assert.deepEqual(placement.nodes[0], { provider: WEBGPU, opType: "Cast", name: "" });
    assert.ok(placement.nodes.some((n) => n.opType === "Reshape" && n.name === "core.Reshape_92"));
    assert.deepEqual(opTypesByProvider(placement)[WASM],
      { Slice: 2, Shape: 2, Cast: 1, NonMaxSuppression: 1, Squeeze: 1, Gather: 1 });
    const onWebgpu = Object.values(opTypesByProvider(placement)[WEBGPU]).reduce((a, b) => a + b, 0);
    assert.equal(onWebgpu, 213);
  });

  test("a log without a placement block gives null", () => {
    assert.equal(parsePlacement(recorded("linear-webgpu").slice(0, 20)), null);
    assert.equal(parsePlacement([]), null);
    assert.equal(parsePlacement(["Node placements", "hello"]), null);  // not the runtime's log line
  });
});

describe("what else a console carries", () => {
  test("other lines between the node lines are skipped: the page's own, the runtime's others", () => {
    const lines = recorded("face-detection-webgpu");
    const at = lines.findIndex((line) => line.endsWith("  Cast ()"));
    const mixed = [...lines.slice(0, at + 1), "the page's own console.log", "[object Object]",
      "2026-12-03 12:40:42.700000 [I:onnxruntime:, inference_session.cc:777 Other] a line in between",
      "2026-12-03 12:40:42.700001 [V:onnxruntime:, inference_session.cc:778 Other]   Fake (node)",
      ...lines.slice(at + 1)];
    assert.deepEqual(parsePlacement(mixed), parsePlacement(lines));
  });

  test("several lines in one console message are read one by one", () => {
    const lines = recorded("face-detection-webgpu");
    assert.deepEqual(parsePlacement([lines.join("\n")]), parsePlacement(lines));
  });

  test("a list shorter than its total is not called complete", () => {
    const lines = recorded("face-detection-webgpu");
    const cut = lines.filter((line) => !line.endsWith("  NonMaxSuppression ()"));
    const placement = parsePlacement(cut);
    assert.ok(placement);
    assert.equal(placement.listed, false);
    assert.deepEqual(placement.providers, { [WEBGPU]: 213, [WASM]: 8 });  // the log's own totals
    assert.equal(placement.nodes.length, 220);
  });

  test("one block per graph: the totals add up", () => {
    const split = recorded("face-detection-webgpu");
    const single = recorded("linear-wasm");
    const placement = parsePlacement([...split, ...single]);
    assert.ok(placement);
    assert.equal(placement.graphs, 2);
    assert.deepEqual(placement.providers, { [WEBGPU]: 213, [WASM]: 9 });
    assert.equal(placement.listed, false);  // the second graph's nodes are not listed
  });
});

describe("one line", () => {
  test("the parts of a runtime log line, colours removed", () => {
    const warning = recorded("face-detection-webgpu").find((line) => line.includes("[W:onnxruntime"));
    assert.ok(warning && warning.charCodeAt(0) === 27);  // recorded with its terminal colour
    const parsed = logLine(warning);
    assert.ok(parsed);
    assert.equal(parsed.severity, "W");
    assert.equal(parsed.origin, "VerifyEachNodeIsAssignedToAnEp");
    assert.match(parsed.message, /^Some nodes were not assigned to the preferred execution providers/);
    assert.equal(logLine("console.log from the page"), null);
  });

  test("which lines belong to a placement block", () => {
    const lines = recorded("face-detection-webgpu");
    const origin = "VerifyEachNodeIsAssignedToAnEp";
    const block = lines.filter((line) => isPlacementLine(line, origin));
    assert.equal(block.length, 1 + 2 + 221);  // the header, two totals, one line a node
    assert.equal(lines.filter((line) => isPlacementLine(line)).length, 1);  // without origin: the header
    assert.equal(isPlacementLine("  Cast ()", origin), false);  // not the runtime's
  });
});

describe("the record's words", () => {
  test("one provider: all of its nodes, the CPU provider called WebAssembly", () => {
    const wasm = parsePlacement(recorded("linear-wasm"));
    assert.ok(wasm);
    assert.equal(placementText(wasm, WASM), "its one node on WebAssembly");
    const squeezenet = { providers: { [WEBGPU]: 41 }, nodes: [], graphs: 1, listed: false };
    assert.equal(placementText(squeezenet, WEBGPU), "all 41 nodes on WebGPU");
  });

  test("a split: the backend asked for first, then the others with their op types", () => {
    const placement = parsePlacement(recorded("face-detection-webgpu"));
    assert.ok(placement);
    assert.equal(placementText(placement, WEBGPU),
      "213 of 221 nodes on WebGPU · Shape ×2, Slice ×2, Cast and 3 more on CPU");
    // Not listed node by node: the count alone.
    assert.equal(placementText({ ...placement, listed: false }, WEBGPU),
      "213 of 221 nodes on WebGPU · 8 on CPU");
    const small = { providers: { [WEBGPU]: 188, [WASM]: 2 }, graphs: 1, listed: true,
      nodes: [{ provider: WASM, opType: "Shape", name: "" }, { provider: WASM, opType: "Shape", name: "a" }] };
    assert.equal(placementText(small, WEBGPU), "188 of 190 nodes on WebGPU · Shape ×2 on CPU");
  });

  test("provider names", () => {
    assert.equal(providerName(WEBGPU, true), "WebGPU");
    assert.equal(providerName(WASM, false), "CPU");
    assert.equal(providerName("JsExecutionProvider", false), "WebGPU (JSEP)");
    assert.equal(providerName("XnnpackExecutionProvider", false), "Xnnpack");
  });
});

test("a line's log id: the session's logId option, empty by default", () => {
  const [line] = recorded("linear-wasm");
  assert.equal(logLine(line)?.logId, "");
  assert.equal(logLine(line.replace(":onnxruntime:, ", ":onnxruntime:onnx-live-example-3, "))?.logId,
    "onnx-live-example-3");
});
