/*
 * Live examples, the downloads: the runtime's .wasm, the model and the reference, with
 * progress, and the opt-in persistent cache that keeps them across days.
 *
 * The .wasm is never handed over as bytes when the browser can stream it: Emscripten then
 * compiles it with WebAssembly.instantiateStreaming from its URL while it arrives, and Chromium
 * keeps the compiled code for the next visit (its WebAssembly code cache only serves modules
 * streamed from a URL whose response comes from the HTTP cache). The widget learns what it
 * needs without holding the bytes: it fetches the same URL itself, which tells it that the file
 * is there (a readable error otherwise, before the runtime starts), and counts the bytes for the
 * progress bar and drops them. The HTTP cache gives both readers one download; a response the
 * browser may not keep (no-store) is not read twice: the bar then only says "downloading".
 *
 * The persistent cache (plugin option persistent_cache) is the Cache API, managed here: each
 * file is stored under its URL with the build's content hash (?sha256=...), so a new build is
 * never served stale, and storing a file deletes its entries under other hashes.
 */
import * as core from "./live-example-core.mjs";

const CACHE_NAME = "onnx-glossary-live-examples";
// This module sits in <site>/assets/onnx_glossary/: entries under the site root are this site's
// (project sites of one GitHub user share an origin, hence the Cache API too).
const SITE_ROOT = new URL("../../", import.meta.url).href;
const LOADED = "loaded";
const FROM_SITE_CACHE = "from this site's cache";

const prepared = new Map(); // .wasm URL -> Promise of {binary}, kept across Runs

/** The build's content hashes for this widget's files (data-cache), or null when off. */
function digests(root) {
  return root.dataset.cache && globalThis.caches ? JSON.parse(root.dataset.cache) : null;
}

/**
 * Make sure the runtime's .wasm can be loaded, and say how ort should load it: resolves, once
 * the file is known to be there, to {binary}: null to let Emscripten stream it from its URL,
 * or the bytes when they came from the persistent cache. Rejects with a readable error
 * (HTTP 404 ...) before the runtime is started, so a failed Run leaves it usable.
 */
export function prepareWasm(root, url, backend, onProgress) {
  if (!prepared.has(url)) {
    const digest = (digests(root) || { wasm: {} }).wasm[backend];
    const promise = locateWasm(root, url, digest, onProgress);
    promise.catch(() => prepared.delete(url)); // the next Run tries again
    prepared.set(url, promise);
  } else {
    onProgress(LOADED); // an earlier Run of this page loaded it
  }
  return prepared.get(url);
}

async function locateWasm(root, url, digest, onProgress) {
  const what = "the runtime " + url.split("/").pop();
  const store = digest ? await caches.open(CACHE_NAME) : null;
  const key = store && core.cacheKey(url, digest);
  const hit = store && await store.match(key);
  if (hit) {
    onProgress(FROM_SITE_CACHE);
    return { binary: new Uint8Array(await hit.arrayBuffer()) };
  }
  if (store) { // kept for later: the bytes are needed once anyway
    const bytes = await core.fetchBytes(url, what, onProgress);
    await keep(store, key, bytes, "application/wasm");
    return { binary: bytes };
  }
  const response = await core.openResponse(url, what);
  if (core.browserMayKeep(response.headers.get("Cache-Control"))) {
    // The browser's HTTP cache shares this download (or its copy) with Emscripten's fetch of
    // the same URL: count the bytes as they pass, keep none of them.
    core.readBody(response, onProgress, false).catch(() => {});
  } else {
    // Reading it would download it twice: let Emscripten have it, without a byte count.
    response.body.cancel().catch(() => {});
    onProgress("downloading");
  }
  return { binary: null };
}

/** A model or reference file's bytes, from the persistent cache when it holds this build's. */
export async function fileBytes(root, url, name, what, onProgress) {
  const digest = (digests(root) || {})[name];
  if (!digest) return core.fetchBytes(url, what, onProgress);
  const store = await caches.open(CACHE_NAME);
  const key = core.cacheKey(url, digest);
  const hit = await store.match(key);
  if (hit) {
    onProgress(FROM_SITE_CACHE);
    return new Uint8Array(await hit.arrayBuffer());
  }
  const bytes = await core.fetchBytes(url, what, onProgress);
  await keep(store, key, bytes, "application/octet-stream");
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
