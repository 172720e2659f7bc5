// @ts-check
/*
 * Live examples, the downloads: the runtime's .wasm, the model and the reference, with
 * progress, and the opt-in persistent cache that keeps them across days.
 *
 * The .wasm is downloaded once, and compiled as it arrives from the moment Run is pressed,
 * while the runtime's own script (the ort bundle) loads: WebAssembly.compileStreaming reads
 * the network response itself, so no chunk passes through the page's JavaScript. Its status
 * is known before the runtime starts (a readable error otherwise, and a failed Run leaves the
 * runtime usable). When Emscripten, in the bundle, asks for the file, it is given the module
 * compiled from it (see handOver).
 *
 * Progress costs nothing when the download is fast: a copy of the response (response.clone,
 * one download read twice by the browser) is counted only once the download has run for
 * QUIET_MS, which a slow connection reaches and a fast one does not; a fast one is reported
 * whole when it is done. Counting reads each chunk in JavaScript and keeps none.
 *
 * The persistent cache (plugin option persistent_cache) is the Cache API, managed here: each
 * file is stored under its URL with the build's content hash (?sha256=...), so a new build is
 * never served stale, and storing a file deletes its entries under other hashes. A .wasm kept
 * there is compiled as it is read (compileStreaming of the stored response), like a download;
 * the visit that first stores it hands the runtime the bytes it downloaded (env.wasm.wasmBinary).
 */
import * as core from "./live-example-core.mjs";
import { part, setText } from "./live-example-dom.mjs";

/**
 * @import { OnProgress } from "./live-example-core.mjs"
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { Globals } from "./live-example-queue.mjs"
 * @import { Ort } from "./live-example-widget.mjs"
 */

/**
 * The build's content hashes of a widget's files (data-cache): SHA-256 in hex.
 * @typedef {{model?: string, reference?: string, wasm: Record<string, string>}} Digests
 */

/**
 * The runtime's .wasm, ready for the runtime to start (see prepareWasm): its bytes, or the
 * module compiled from its download, or neither when a runtime of the page already started.
 * @typedef {object} PreparedWasm
 * @property {string} url
 * @property {OnProgress} onProgress
 * @property {Uint8Array | null} binary
 * @property {Promise<WebAssembly.Module> | null} compiled
 * @property {() => void} abort Stops the download.
 */

const CACHE_NAME = "onnx-glossary-live-examples";
// This module sits in <site>/assets/onnx_glossary/: entries under the site root are this site's
// (project sites of one GitHub user share an origin, hence the Cache API too).
const SITE_ROOT = new URL("../../", import.meta.url).href;
const LOADED = "loaded";
const FROM_SITE_CACHE = "from this site's cache";
const FROM_BROWSER_CACHE = "from the browser's cache";
// How long the .wasm downloads before its bytes are counted. On this project's 2-core test
// machine a local download of the 14.2 MB file is compiled in about 170 ms; counting every
// chunk then cost the cold Run 10 to 20 ms of the page's main thread.
const QUIET_MS = 250;

/** @type {Set<string>} .wasm URLs a runtime of this page has started from */
const loaded = new Set();

/**
 * The build's content hashes for this widget's files (data-cache), or null when off.
 * @param {Pick<WidgetRoot, "dataset">} root
 * @returns {Digests | null}
 */
function digests(root) {
  return root.dataset.cache && globalThis.caches ? JSON.parse(root.dataset.cache) : null;
}

/**
 * Get the runtime's .wasm ready for the runtime to start: resolves, once the file is known to
 * be there, to {url, onProgress, binary, compiled, abort}: the compilation under way of the
 * copy in the persistent cache or of its download, or the bytes when the persistent cache
 * just stored them; or neither when a runtime of this page already started from it. Rejects
 * with a readable error (HTTP 404 ...) before the runtime starts. Pass the result to handOver
 * before creating the session; call abort() if the Run ends before that.
 * @param {Pick<WidgetRoot, "dataset">} root
 * @param {string} url
 * @param {string} backend
 * @param {OnProgress} onProgress
 * @returns {Promise<PreparedWasm>}
 */
export async function prepareWasm(root, url, backend, onProgress) {
  /** @type {PreparedWasm} */
  const prepared = { url, onProgress, binary: null, compiled: null, abort() {} };
  if (loaded.has(url)) {
    onProgress(LOADED); // an earlier Run of this page started the runtime
    return prepared;
  }
  const what = "the runtime " + url.split("/").pop();
  const digest = (digests(root) || { wasm: {} }).wasm[backend];
  const kept = digest ? await keptWasm(url, digest) : undefined;
  if (kept) {
    // Compiled as it is read, like a download: the bytes never pass through the page's
    // JavaScript, and the compilation starts before they are all read.
    onProgress(FROM_SITE_CACHE);
    prepared.compiled = WebAssembly.compileStreaming(kept);
    prepared.compiled.catch(() => {}); // awaited by the runtime, or dropped with the Run
  } else if (digest) {
    prepared.binary = await keptBytes(url, digest, what, onProgress, "application/wasm");
  } else {
    const controller = new AbortController();
    const started = performance.now();
    const response = await core.openResponse(
      url, what, (input) => fetch(input, { signal: controller.signal }));
    prepared.compiled = compileArriving(url, response, onProgress, started);
    prepared.compiled.catch(() => {}); // awaited by the runtime, or dropped with the Run
    prepared.abort = () => controller.abort();
  }
  return prepared;
}

/**
 * The module compiled from a response as it arrives, its progress counted only once the
 * download is slow: still under way after QUIET_MS (a download already in, whose compilation
 * the page is still busy with, is not counted). A server that does not send application/wasm
 * gets the bytes compiled once they are all in (compileStreaming refuses other types).
 * @param {string} url
 * @param {Response} response
 * @param {OnProgress} onProgress
 * @param {number} started
 * @returns {Promise<WebAssembly.Module>}
 */
function compileArriving(url, response, onProgress, started) {
  const declared = Number(response.headers.get("Content-Length")) || 0;
  const type = response.headers.get("Content-Type") || "";
  if (!/^application\/wasm\b/i.test(type)) {
    return core.readBody(response, onProgress).then((bytes) => WebAssembly.compile(bytes));
  }
  const copy = response.clone();
  const compiled = WebAssembly.compileStreaming(response);
  /** @type {{stop: () => void} | null} */
  let counting = null;
  const drop = () => {
    if (copy.body) copy.body.cancel().catch(() => {});
  };
  const timer = setTimeout(() => {
    if (downloaded(url, started)) drop();
    else counting = countBody(copy, onProgress);
  }, QUIET_MS);
  const settle = () => {
    clearTimeout(timer);
    if (counting) counting.stop();
    else drop();
  };
  compiled.then(() => {
    settle();
    const entry = resourceTiming(url);
    const size = (entry && entry.decodedBodySize) || declared;
    if (size) onProgress(size, size);
    else onProgress(LOADED);
  }, settle);
  return compiled;
}

/**
 * The last resource timing entry of a URL, if the page has one.
 * @param {string} url
 * @returns {PerformanceResourceTiming | undefined}
 */
function resourceTiming(url) {
  const entries = performance.getEntriesByName(url, "resource");
  // Entries of type "resource" are PerformanceResourceTiming (the Resource Timing spec).
  return /** @type {PerformanceResourceTiming[]} */ (entries).at(-1);
}

/**
 * Whether the download of url started at `started` is complete (its resource timing entry).
 * @param {string} url
 * @param {number} started
 */
function downloaded(url, started) {
  return performance.getEntriesByName(url).some((entry) => entry.startTime >= started - 1);
}

/**
 * Read a response to count it (core.countingResponse), keeping nothing; stop() ends it.
 * @param {Response} copy
 * @param {OnProgress} onProgress
 */
function countBody(copy, onProgress) {
  const body = core.countingResponse(copy, onProgress).body;
  if (!body) return { stop() {} };
  const reader = body.getReader();
  (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  return { stop: () => { reader.cancel().catch(() => {}); } };
}

/**
 * Give the runtime what prepareWasm got, while its session is created: the bytes as
 * env.wasm.wasmBinary, or the module compiled from the download or the persistent cache.
 * Emscripten's code (in the ort bundle) fetches the URL and passes the response to
 * WebAssembly.instantiateStreaming:
 * both are wrapped until that one request is made, so the fetch gets a stand-in and the
 * instantiation the module, and nothing is downloaded twice. The wrappers go in through
 * `globals`, the page-wide queue's (exclusive, in live-example-queue.mjs): call handOver
 * inside a queued task, which puts both back when it ends, however it ends. Call the
 * returned function once the session exists or failed: it puts both back, stops a download
 * the runtime never asked for, and says when the file came from the browser's cache
 * (same-origin timing is open to the page: nothing crossed the network).
 * @param {{env: {wasm: Pick<Ort["env"]["wasm"], "wasmBinary">}}} ort The runtime (only its
 *   env.wasm.wasmBinary is set).
 * @param {PreparedWasm} prepared
 * @param {Globals} globals
 * @returns {() => void}
 */
export function handOver(ort, { url, onProgress, binary, compiled, abort }, globals) {
  if (binary) {
    ort.env.wasm.wasmBinary = binary;
    return () => { loaded.add(url); };
  }
  if (!compiled) return () => {};
  const module = compiled;
  const pageFetch = globalThis.fetch;
  const pageInstantiate = WebAssembly.instantiateStreaming;
  const standIn = new Response(null, { headers: { "Content-Type": "application/wasm" } });
  let taken = false;
  /** @type {typeof fetch} */
  const handing = (input, init) => {
    if ((input instanceof Request ? input.url : String(input)) !== url) return pageFetch(input, init);
    taken = true;
    restoreFetch();
    return Promise.resolve(standIn);
  };
  /** @type {typeof WebAssembly.instantiateStreaming} */
  const instantiating = async (source, imports) => {
    if ((await source) !== standIn) return pageInstantiate.call(WebAssembly, source, imports);
    restoreInstantiate();
    const ready = await module;
    return { module: ready, instance: await WebAssembly.instantiate(ready, imports) };
  };
  const restoreFetch = globals.replace(globalThis, "fetch", handing);
  const restoreInstantiate = globals.replace(WebAssembly, "instantiateStreaming", instantiating);
  return function finish() {
    restoreFetch();
    restoreInstantiate();
    if (!taken) {
      abort();
      return;
    }
    loaded.add(url);
    const entry = resourceTiming(url);
    if (entry && entry.transferSize === 0 && entry.decodedBodySize > 0) onProgress(FROM_BROWSER_CACHE);
  };
}

/**
 * A model or reference file's bytes, from the persistent cache when it holds this build's.
 * @param {Pick<WidgetRoot, "dataset">} root
 * @param {string} url
 * @param {"model" | "reference"} name
 * @param {string} what
 * @param {OnProgress} onProgress
 * @returns {Promise<Uint8Array>}
 */
export function fileBytes(root, url, name, what, onProgress) {
  const kept = digests(root);
  const digest = kept && kept[name];
  return digest
    ? keptBytes(url, digest, what, onProgress, "application/octet-stream")
    : core.fetchBytes(url, what, onProgress);
}

/**
 * The persistent cache's response for this build's .wasm, if it holds one (stored as
 * application/wasm, which compileStreaming asks for).
 * @param {string} url
 * @param {string} digest
 * @returns {Promise<Response | undefined>}
 */
async function keptWasm(url, digest) {
  return (await caches.open(CACHE_NAME)).match(core.cacheKey(url, digest));
}

/**
 * A file's bytes from the persistent cache under its content hash, else downloaded and kept.
 * @param {string} url
 * @param {string} digest
 * @param {string} what
 * @param {OnProgress} onProgress
 * @param {string} type
 */
async function keptBytes(url, digest, what, onProgress, type) {
  const store = await caches.open(CACHE_NAME);
  const key = core.cacheKey(url, digest);
  const hit = await store.match(key);
  if (hit) {
    onProgress(FROM_SITE_CACHE);
    return new Uint8Array(await hit.arrayBuffer());
  }
  const bytes = await core.fetchBytes(url, what, onProgress);
  await keep(store, key, bytes, type);
  return bytes;
}

/**
 * Store a file under its content key and delete its entries under other hashes.
 * @param {Cache} store
 * @param {string} key
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @param {string} type
 */
async function keep(store, key, bytes, type) {
  try {
    await store.put(key, new Response(bytes, {
      headers: { "Content-Type": type, "Content-Length": String(bytes.length) },
    }));
    const keys = (await store.keys()).map((request) => request.url);
    await Promise.all(core.staleKeys(keys, key).map((stale) => store.delete(stale)));
  } catch {
    // Out of quota or storage refused (private windows): the Run goes on without caching.
  }
}

/* -- the "cached N MB · clear" line ------------------------------------------------------- */

async function siteEntries() {
  const store = await caches.open(CACHE_NAME);
  const keys = (await store.keys()).filter((request) => request.url.startsWith(SITE_ROOT));
  return { store, keys };
}

/**
 * Show how much this site keeps in the persistent cache (nothing when the option is off).
 * @param {WidgetRoot} root
 */
export async function showCacheLine(root) {
  const line = part(root, "cache");
  if (!line || !digests(root)) return;
  try {
    const { store, keys } = await siteEntries();
    const sizes = await Promise.all(keys.map(async (request) => {
      const response = await store.match(request);
      return Number(response && response.headers.get("Content-Length")) || 0;
    }));
    setText(line, "cache-size", core.cacheText(sizes.reduce((a, b) => a + b, 0)));
    line.hidden = false;
  } catch {
    line.hidden = true;
  }
}

/**
 * The line's clear button: delete this site's entries, then show the line again.
 * @param {WidgetRoot} root
 */
export async function clearCache(root) {
  try {
    const { store, keys } = await siteEntries();
    await Promise.all(keys.map((request) => store.delete(request)));
  } finally {
    /** @type {NodeListOf<HTMLElement>} */
    const widgets = document.querySelectorAll("[data-live-example]");
    for (const widget of widgets) showCacheLine(widget);
  }
  return root;
}
