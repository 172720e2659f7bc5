// @ts-check
// Unit tests of how the widget gets the runtime its .wasm (plugins/onnx_glossary/assets/
// live-example-cache.mjs): compiled as it arrives from the moment Run is pressed, counted only
// when the download is slow, and handed to the runtime's own fetch and instantiation, once.
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { handOver, prepareWasm } from "../../plugins/onnx_glossary/assets/live-example-cache.mjs";
import { exclusive } from "../../plugins/onnx_glossary/assets/live-example-queue.mjs";

const URL_ = "http://site.test/repo/assets/ort/ort-wasm-simd-threaded.wasm";
// The smallest valid module: the magic number and version 1.
const EMPTY_MODULE = [0, 97, 115, 109, 1, 0, 0, 0];
const pageFetch = globalThis.fetch;
const pageInstantiate = WebAssembly.instantiateStreaming;
/** @type {{dataset: DOMStringMap}} */
const root = { dataset: {} }; // a widget without the persistent cache

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * A server's response: the chunks after the given delays (ms), with these headers.
 * @param {Array<[number, number[]]>} chunks
 * @param {HeadersInit} headers
 */
function served(chunks, headers) {
  const body = new ReadableStream({
    async start(controller) {
      for (const [delay, bytes] of chunks) {
        await sleep(delay);
        controller.enqueue(new Uint8Array(bytes));
      }
      controller.close();
    },
  });
  return new Response(body, { headers });
}

const WASM = { "Content-Type": "application/wasm", "Content-Length": "8" };

describe("prepareWasm", () => {
  afterEach(() => { globalThis.fetch = pageFetch; });

  test("a fast download is compiled as it arrives and reported once, whole, when done", async () => {
    globalThis.fetch = async () => served([[0, EMPTY_MODULE.slice(0, 4)], [5, EMPTY_MODULE.slice(4)]], WASM);
    /** @type {Array<[number | string, number?]>} */
    const progress = [];
    const prepared = await prepareWasm(root, URL_, "wasm", (...report) => progress.push(report));
    assert.ok((await prepared.compiled) instanceof WebAssembly.Module);
    assert.deepEqual(progress, [[8, 8]]); // no chunk was counted on the way
  });

  test("a slow download is counted from the moment it is slow on", async () => {
    globalThis.fetch = async () => served([[0, EMPTY_MODULE.slice(0, 4)], [400, EMPTY_MODULE.slice(4)]], WASM);
    /** @type {Array<[number | string, number?]>} */
    const progress = [];
    const prepared = await prepareWasm(root, URL_, "wasm", (...report) => progress.push(report));
    await sleep(300);
    assert.deepEqual(progress, [[4, 8]]); // the first half, counted while the rest is awaited
    assert.ok((await prepared.compiled) instanceof WebAssembly.Module);
    assert.deepEqual(progress.at(-1), [8, 8]);
  });

  test("a server that does not say application/wasm still gets its file compiled, counted", async () => {
    globalThis.fetch = async () => served([[0, EMPTY_MODULE]], { "Content-Type": "application/octet-stream" });
    /** @type {Array<[number | string, number?]>} */
    const progress = [];
    const prepared = await prepareWasm(root, URL_, "wasm", (...report) => progress.push(report));
    assert.ok((await prepared.compiled) instanceof WebAssembly.Module);
    assert.deepEqual(progress.at(-1), [8, 8]);
  });

  test("a .wasm in the persistent cache is compiled from the stored response, not copied", async () => {
    /** @type {string[]} */
    const asked = [];
    globalThis.fetch = async (input) => { asked.push(String(input)); return new Response(""); };
    const stored = { [URL_ + "?sha256=f00d"]: served([[0, EMPTY_MODULE]], WASM) };
    // The Cache API as the widget uses it here: one cache, one stored response.
    const store = { match: async (/** @type {string} */ key) => stored[key] };
    Object.assign(globalThis, { caches: { open: async () => store } });
    try {
      /** @type {Array<[number | string, number?]>} */
      const progress = [];
      const kept = { dataset: { cache: JSON.stringify({ wasm: { wasm: "f00d" } }) } };
      const prepared = await prepareWasm(kept, URL_, "wasm", (...report) => progress.push(report));
      assert.equal(prepared.binary, null);
      assert.ok((await prepared.compiled) instanceof WebAssembly.Module);
      assert.deepEqual(progress, [["from this site's cache"]]);
      assert.deepEqual(asked, []);
    } finally {
      Reflect.deleteProperty(globalThis, "caches");
    }
  });

  test("a missing runtime is a readable error before anything starts", async () => {
    globalThis.fetch = async () => new Response("", { status: 404, statusText: "Not Found" });
    await assert.rejects(prepareWasm(root, URL_, "wasm", () => {}), {
      message: "Could not download the runtime ort-wasm-simd-threaded.wasm: HTTP 404 Not Found for " + URL_,
    });
  });
});

describe("handOver", () => {
  afterEach(() => {
    globalThis.fetch = pageFetch;
    WebAssembly.instantiateStreaming = pageInstantiate;
  });

  /**
   * What prepareWasm gives, with `extra` in place of its defaults.
   * @param {Partial<import("../../plugins/onnx_glossary/assets/live-example-cache.mjs").PreparedWasm>} [extra]
   * @returns {import("../../plugins/onnx_glossary/assets/live-example-cache.mjs").PreparedWasm}
   */
  function prepared(extra = {}) {
    return { url: URL_, onProgress() {}, binary: null, compiled: null, abort() {}, ...extra };
  }

  test("the runtime's fetch and instantiation of the .wasm get the module compiled at Run, once", async () => {
    /** @type {string[]} */
    const others = [];
    globalThis.fetch = async (input) => { others.push(String(input)); return new Response("x"); };
    const [fetchBefore, instantiateBefore] = [globalThis.fetch, WebAssembly.instantiateStreaming];
    const compiled = WebAssembly.compile(new Uint8Array(EMPTY_MODULE));
    let aborted = false;
    await exclusive(async (globals) => {
      const finish = handOver({ env: { wasm: {} } }, prepared({ compiled, abort: () => { aborted = true; } }),
                              globals);
      await globalThis.fetch("http://site.test/repo/models/linear/model.onnx");
      // As Emscripten does it: fetch the URL, hand the promise to instantiateStreaming.
      const asked = globalThis.fetch(URL_, { credentials: "same-origin" });
      assert.equal(globalThis.fetch, fetchBefore); // put back as soon as it was taken
      const { module, instance } = await WebAssembly.instantiateStreaming(asked, {});
      assert.equal(module, await compiled);
      assert.ok(instance instanceof WebAssembly.Instance);
      assert.equal(WebAssembly.instantiateStreaming, instantiateBefore);
      await globalThis.fetch(URL_); // a second ask (a fallback) goes to the network
      assert.deepEqual(others, ["http://site.test/repo/models/linear/model.onnx", URL_]);
      finish();
    });
    assert.equal(aborted, false);
    assert.equal(globalThis.fetch, fetchBefore);
    assert.equal(WebAssembly.instantiateStreaming, instantiateBefore);
  });

  test("a download the runtime never asked for is stopped, fetch and instantiation put back", async () => {
    const [fetchBefore, instantiateBefore] = [globalThis.fetch, WebAssembly.instantiateStreaming];
    let aborted = false;
    const compiled = WebAssembly.compile(new Uint8Array(EMPTY_MODULE));
    await exclusive((globals) => {
      const finish = handOver({ env: { wasm: {} } }, prepared({ compiled, abort: () => { aborted = true; } }),
                              globals);
      assert.notEqual(WebAssembly.instantiateStreaming, instantiateBefore); // wrapped meanwhile
      finish();
      assert.equal(globalThis.fetch, fetchBefore);
      assert.equal(WebAssembly.instantiateStreaming, instantiateBefore);
    });
    assert.equal(aborted, true);
  });

  test("a session creation that throws before finish() still gets both put back", async () => {
    const [fetchBefore, instantiateBefore] = [globalThis.fetch, WebAssembly.instantiateStreaming];
    const compiled = WebAssembly.compile(new Uint8Array(EMPTY_MODULE));
    await assert.rejects(exclusive((globals) => {
      handOver({ env: { wasm: {} } }, prepared({ compiled }), globals);
      assert.notEqual(globalThis.fetch, fetchBefore);
      throw new Error("no session");
    }), { message: "no session" });
    assert.equal(globalThis.fetch, fetchBefore);
    assert.equal(WebAssembly.instantiateStreaming, instantiateBefore);
  });

  test("bytes from the persistent cache go to the runtime as wasmBinary, nothing wrapped", async () => {
    const [fetchBefore, instantiateBefore] = [globalThis.fetch, WebAssembly.instantiateStreaming];
    /** @type {{env: {wasm: {wasmBinary?: ArrayBufferLike | Uint8Array}}}} */
    const ort = { env: { wasm: {} } };
    const binary = new Uint8Array(EMPTY_MODULE);
    await exclusive((globals) => {
      const finish = handOver(ort, prepared({ binary }), globals);
      assert.equal(ort.env.wasm.wasmBinary, binary);
      assert.equal(globalThis.fetch, fetchBefore);
      assert.equal(WebAssembly.instantiateStreaming, instantiateBefore);
      finish();
    });
  });
});
