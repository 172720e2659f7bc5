// @ts-check
/*
 * Live examples, the capability check: a classic script on every page (MkDocs lists it in
 * extra_javascript in place of live-example.js), in ES2017 syntax so that old browsers can
 * parse it. It runs before any module of the widget: a module written in newer syntax fails
 * as a whole at parse time, before any test inside it could run.
 *
 * When the browser has what the live examples need, it adds live-example.js (the loader,
 * next to this file), and nothing else changes. Otherwise it loads nothing more, and every
 * widget, on this page and on each page reached by Material's instant navigation, says in
 * one line what is missing and which browsers run the examples; Run stays disabled, and the
 * widget's data-state is "unsupported" (data-unsupported lists what is missing).
 *
 * The floor: the oldest browsers with all of it are Chrome and Edge 111, Firefox 115 and
 * Safari 16.4. Import maps and WebAssembly SIMD came last to Safari (16.4); the widget's own
 * modules keep to ES2022, which all of these run (eslint.config.mjs enforces it, and says why
 * not ES2023).
 */
(function () {
  "use strict";
  if (window.onnxLiveExampleCheck) return; // loaded twice: keep the first one

  const WORKS_IN = "Chrome or Edge 111, Firefox 115, Safari 16.4 or newer";
  // The smallest module with a SIMD instruction: () -> v128, i8x16.splat then i8x16.popcnt
  // of i32.const 0. WebAssembly.validate is false where SIMD is unknown (Safari before 16.4).
  const SIMD_MODULE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10,
    1, 8, 0, 65, 0, 253, 15, 253, 98, 11];

  function hasImportMaps() {
    return typeof HTMLScriptElement.supports === "function" &&
      HTMLScriptElement.supports("importmap");
  }

  function hasWasmSimd() {
    try {
      return typeof WebAssembly === "object" &&
        WebAssembly.validate(new Uint8Array(SIMD_MODULE));
    } catch (_) {
      return false;
    }
  }

  function hasLookbehind() {
    try { // RegExp() is not eval: a Content-Security-Policy without 'unsafe-eval' allows it
      return new RegExp("(?<=a)b").test("ab");
    } catch (_) {
      return false;
    }
  }

  /* What the widget, example.mjs and onnxruntime-web use that a browser may lack. */
  function missing() {
    /** @type {Array<[string, () => boolean]>} */
    const checks = [
      ["import maps", hasImportMaps],
      ["WebAssembly SIMD", hasWasmSimd],
      ["streaming WebAssembly compilation", function () {
        return typeof WebAssembly === "object" &&
          typeof WebAssembly.compileStreaming === "function" &&
          typeof WebAssembly.instantiateStreaming === "function";
      }],
      ["regular-expression lookbehind", hasLookbehind],
      ["OffscreenCanvas", function () { return typeof OffscreenCanvas === "function"; }],
      ["createImageBitmap", function () { return typeof createImageBitmap === "function"; }],
      ["TransformStream", function () { return typeof TransformStream === "function"; }],
      ["BigInt64Array", function () { return typeof BigInt64Array === "function"; }],
      ["Object.fromEntries", function () { return typeof Object.fromEntries === "function"; }],
      ["globalThis", function () { return typeof globalThis === "object"; }],
    ];
    return checks.filter(function (check) { return !check[1](); })
      .map(function (check) { return check[0]; });
  }

  /** @param {string[]} lacks */
  function reason(lacks) {
    return "This browser cannot run the live example: it has no " + lacks.join(", no ") +
      ". It runs in " + WORKS_IN + ".";
  }

  /* Every widget of the current document says why; Run stays disabled. */
  /** @param {string[]} lacks */
  function explain(lacks) {
    /** @type {NodeListOf<HTMLElement>} */
    const roots = document.querySelectorAll("[data-live-example]");
    for (let i = 0; i < roots.length; i++) {
      const root = roots[i];
      root.dataset.state = "unsupported";
      root.dataset.unsupported = lacks.join(", ");
      const state = root.querySelector('[data-le="state"]');
      if (state) state.textContent = reason(lacks);
      /** @type {HTMLButtonElement | null} */
      const run = root.querySelector('button[data-action="run"]');
      if (run) run.disabled = true;
    }
  }

  function loadWidget() {
    const script = document.createElement("script");
    // Called while this classic script runs, so currentScript is this script's element.
    const self = /** @type {HTMLScriptElement} */ (document.currentScript);
    script.src = new URL("live-example.js", self.src).href;
    document.head.appendChild(script);
  }

  const lacks = missing();
  window.onnxLiveExampleCheck = { missing: lacks, worksIn: WORKS_IN };
  if (!lacks.length) {
    loadWidget();
    return;
  }
  function start() {
    const show = function () { explain(lacks); };
    // Material for MkDocs emits on document$ after every (instant) navigation.
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(show);
    } else {
      show();
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
