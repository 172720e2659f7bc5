/*
 * Live examples, the downloads: the runtime's .wasm, the model and the reference, with
 * progress, and the opt-in persistent cache that keeps them across days.
 *
 * The .wasm is downloaded once and read once. The widget starts its download as soon as the
 * Run has chosen a backend, alongside the runtime's own start (the ort bundle): the status is
 * known before the runtime starts (a readable error otherwise, and a failed Run leaves the
 * runtime usable). When Emscripten, in the bundle, asks for the file, it is handed this same
 * response (see handOver), and WebAssembly.instantiateStreaming compiles the bytes as they
 * arrive; they are counted for the progress bar on the way and not kept (the download may run
 * ahead of the compiler by what it has not read yet). Two readers would not share one download:
 * Chromium's HTTP cache makes the second wait until the first has all of the file.
 *
 * The persistent cache (plugin option persistent_cache) is the Cache API, managed here: each
 * file is stored under its URL with the build's content hash (?sha256=...), so a new build is
 * never served stale, and storing a file deletes its entries under other hashes. From there
 * the runtime gets the bytes (env.wasm.wasmBinary).
 */
import * as core from "./live-example-core.mjs";

const CACHE_NAME = "onnx-glossary-live-examples";
// This module sits in <site>/assets/onnx_glossary/: entries under the site root are this site's
// (project sites of one GitHub user share an origin, hence the Cache API too).
const SITE_ROOT = new URL("../../", import.meta.url).href;
const LOADED = "loaded";
const FROM_SITE_CACHE = "from this site's cache";
const FROM_BROWSER_CACHE = "from the browser's cache";
// How far the download may run ahead of the compiler reading it, in bytes (all of it: the
// compiler catches up within milliseconds once the runtime has started).
const AHEAD = 64 * 1024 * 1024;

const loaded = new Set(); // .wasm URLs a runtime of this page has started from

/** The build's content hashes for this widget's files (data-cache), or null when off. */
function digests(root) {
  return root.dataset.cache && globalThis.caches ? JSON.parse(root.dataset.cache) : null;
}

/**
 * Get the runtime's .wasm ready for the runtime to start: resolves, once the file is known to
 * be there, to {url, onProgress, binary, response}: the bytes when they came from the
 * persistent cache, else its download under way (its body not read yet), or neither when a
 * runtime of this page already started from it. Rejects with a readable error (HTTP 404 ...)
 * before the runtime starts. Pass the result to handOver before creating the session.
 */
export async function prepareWasm(root, url, backend, onProgress) {
  const prepared = { url, onProgress, binary: null, response: null };
  if (loaded.has(url)) {
    onProgress(LOADED); // an earlier Run of this page started the runtime
    return prepared;
  }
  const what = "the runtime " + url.split("/").pop();
  const digest = (digests(root) || { wasm: {} }).wasm[backend];
  if (digest) {
    prepared.binary = await keptBytes(url, digest, what, onProgress, "application/wasm");
  } else {
    const response = await core.openResponse(url, what);
    prepared.response = core.countingResponse(response, onProgress, AHEAD);
  }
  return prepared;
}

/**
 * Give the runtime what prepareWasm got, while its session is created: the bytes as
 * env.wasm.wasmBinary, or the download under way to its own fetch of the URL (in Emscripten's
 * code, in the ort bundle), so that nothing is downloaded twice. The page's fetch is wrapped
 * until that one request is made. Call the returned function once the session exists or
 * failed: it puts fetch back in any case, cancels a download the runtime never asked for, and
 * says when the file came from the browser's cache (same-origin timing is open to the page:
 * nothing crossed the network).
 */
export function handOver(ort, { url, onProgress, binary, response }) {
  if (binary) {
    ort.env.wasm.wasmBinary = binary;
    return () => loaded.add(url);
  }
  if (!response) return () => {};
  const pageFetch = globalThis.fetch;
  let taken = false;
  function handing(input, init) {
    if ((input instanceof Request ? input.url : String(input)) !== url) return pageFetch(input, init);
    taken = true;
    globalThis.fetch = pageFetch;
    return Promise.resolve(response);
  }
  globalThis.fetch = handing;
  return function finish() {
    if (globalThis.fetch === handing) globalThis.fetch = pageFetch;
    if (!taken) {
      response.body.cancel().catch(() => {});
      return;
    }
    loaded.add(url);
    const entry = performance.getEntriesByName(url).pop();
    if (entry && entry.transferSize === 0 && entry.decodedBodySize > 0) onProgress(FROM_BROWSER_CACHE);
  };
}

/** A model or reference file's bytes, from the persistent cache when it holds this build's. */
export function fileBytes(root, url, name, what, onProgress) {
  const digest = (digests(root) || {})[name];
  return digest
    ? keptBytes(url, digest, what, onProgress, "application/octet-stream")
    : core.fetchBytes(url, what, onProgress);
}

/* A file's bytes from the persistent cache under its content hash, else downloaded and kept. */
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

/** Store a file under its content key and delete its entries under other hashes. */
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

/** Show how much this site keeps in the persistent cache (nothing when the option is off). */
export async function showCacheLine(root) {
  const line = root.querySelector('[data-le="cache"]');
  if (!line || !digests(root)) return;
  try {
    const { store, keys } = await siteEntries();
    const sizes = await Promise.all(keys.map(async (request) => {
      const response = await store.match(request);
      return Number(response && response.headers.get("Content-Length")) || 0;
    }));
    line.querySelector('[data-le="cache-size"]').textContent =
      core.cacheText(sizes.reduce((a, b) => a + b, 0));
    line.hidden = false;
  } catch {
    line.hidden = true;
  }
}

/** The line's clear button: delete this site's entries, then show the line again. */
export async function clearCache(root) {
  try {
    const { store, keys } = await siteEntries();
    await Promise.all(keys.map((request) => store.delete(request)));
  } finally {
    for (const widget of document.querySelectorAll("[data-live-example]")) showCacheLine(widget);
  }
  return root;
}
