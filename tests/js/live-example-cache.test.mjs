// Unit tests of how the widget hands the runtime its .wasm (plugins/onnx_glossary/assets/
// live-example-cache.mjs): the download it started is given to the runtime's own fetch, once.
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { handOver } from "../../plugins/onnx_glossary/assets/live-example-cache.mjs";

const URL_ = "http://site.test/repo/assets/ort/ort-wasm-simd-threaded.wasm";
const pageFetch = globalThis.fetch;

function download() {
  let cancelled = false;
  const body = new ReadableStream({
    pull(controller) { controller.enqueue(new Uint8Array([0, 97, 115, 109])); controller.close(); },
    cancel() { cancelled = true; },
  });
  const response = new Response(body, { headers: { "Content-Type": "application/wasm" } });
  return { response, cancelled: () => cancelled };
}

describe("handOver", () => {
  afterEach(() => { globalThis.fetch = pageFetch; });

  test("the runtime's fetch of the .wasm gets the download under way, the first time only", async () => {
    const others = [];
    globalThis.fetch = async (input) => { others.push(String(input)); return new Response("x"); };
    const before = globalThis.fetch;
    const { response, cancelled } = download();
    const finish = handOver({ env: { wasm: {} } }, { url: URL_, onProgress() {}, binary: null, response });
    assert.notEqual(globalThis.fetch, before); // wrapped while the session is created
    await globalThis.fetch("http://site.test/repo/models/linear/model.onnx");
    assert.equal(await globalThis.fetch(URL_, { credentials: "same-origin" }), response);
    assert.equal(globalThis.fetch, before); // put back as soon as it was taken
    await globalThis.fetch(URL_); // a second ask (a fallback) goes to the network
    assert.deepEqual(others, ["http://site.test/repo/models/linear/model.onnx", URL_]);
    finish();
    assert.equal(cancelled(), false);
    assert.equal(globalThis.fetch, before);
  });

  test("a download the runtime never asked for is cancelled, and fetch put back", () => {
    const before = globalThis.fetch;
    const { response, cancelled } = download();
    const finish = handOver({ env: { wasm: {} } }, { url: URL_, onProgress() {}, binary: null, response });
    finish();
    assert.equal(globalThis.fetch, before);
    assert.equal(cancelled(), true);
  });

  test("bytes from the persistent cache go to the runtime as wasmBinary, fetch untouched", () => {
    const before = globalThis.fetch;
    const ort = { env: { wasm: {} } };
    const binary = new Uint8Array([0, 97, 115, 109]);
    const finish = handOver(ort, { url: URL_, onProgress() {}, binary, response: null });
    assert.equal(ort.env.wasm.wasmBinary, binary);
    assert.equal(globalThis.fetch, before);
    finish();
  });
});
