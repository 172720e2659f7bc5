// @ts-check
/*
 * Live examples, the loader: a classic script on every page (a few lines; MkDocs lists it in
 * extra_javascript). Until a page has a [data-live-example] or a [data-pipeline] it does nothing; then it imports
 * the widget module (live-example-widget.mjs, next to this file), which enables Run. No byte
 * of onnxruntime-web is fetched before Run is pressed.
 */
(function () {
  "use strict";
  if (window.onnxLiveExample) return; // loaded twice: keep the first one

  // A classic script of this page: currentScript is its <script> element while it runs.
  const script = /** @type {HTMLScriptElement} */ (document.currentScript);
  const WIDGET_URL = new URL("live-example-widget.mjs", script.src).href;
  /** @type {Promise<{init: () => void}> | null} */
  let widget = null; // Promise of the widget module, imported once per document

  /* (Re)initialise the widgets of the current document. */
  function init() {
    if (!document.querySelector("[data-live-example], [data-pipeline]")) return;
    if (!widget) widget = import(WIDGET_URL);
    widget.then(
      function (module) { module.init(); },
      /** @param {unknown} error */
      function (error) {
        widget = null; // the next page (or navigation) tries again
        for (const root of document.querySelectorAll("[data-live-example]")) {
          const state = root.querySelector('[data-le="state"]');
          if (state) state.textContent = "Could not load the widget: " + message(error);
        }
      });
  }

  /**
   * An error's message, or the thrown value as text.
   * @param {unknown} error
   */
  function message(error) {
    const text = error && typeof error === "object" && "message" in error ? error.message : "";
    return String(text || error);
  }

  function start() {
    // Material for MkDocs emits on document$ after every (instant) navigation.
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(init);
    } else {
      init();
    }
  }
  window.onnxLiveExample = { init: init };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
