// @ts-check
/*
 * Folded content that costs a page nothing until a reader unfolds it. A closed <details> may
 * keep its heavy part in a <template data-gl-unfold>: the live example's highlighted code is
 * about 2,000 elements on a model page, which the browser would otherwise parse, style and
 * hand to mkdocs-material's start-up on every load. The first time the <details> opens, the
 * template's content takes its place.
 *
 * A code block put in place here gets what Material gives the code blocks it finds at load: a
 * tab stop, and a copy button when the site has content.code.copy (Material's clipboard handler
 * listens on the whole document for [data-clipboard-target], so the button only has to exist).
 * Written in ES2017 like the capability check: it runs in every browser, so that a reader whose
 * browser cannot run the examples can still read their code.
 */
(function () {
  "use strict";
  if (window.onnxGlossaryUnfold) return; // loaded twice: keep the first one
  window.onnxGlossaryUnfold = true;
  let unfolded = 0; // code blocks given an id so far

  /** Material's page configuration: its features and its words in the site's language. */
  function materialConfig() {
    const element = document.getElementById("__config");
    return element ? JSON.parse(element.textContent || "{}") : {};
  }

  /** @param {HTMLPreElement} pre */
  function finishCodeBlock(pre) {
    /** @type {HTMLElement | null} */
    const code = pre.querySelector(":scope > code");
    if (!code) return;
    code.tabIndex = 0;
    const config = materialConfig();
    const features = Array.isArray(config.features) ? config.features : [];
    if (features.indexOf("content.code.copy") < 0 || pre.querySelector(".md-code__nav")) return;
    // The button names its block by id, as Material's own buttons do.
    while (!pre.id) {
      const id = "__code_unfolded_" + ++unfolded;
      if (!document.getElementById(id)) pre.id = id;
    }
    const translations = config.translations || {};
    const button = document.createElement("button");
    button.className = "md-code__button";
    button.type = "button";
    button.title = translations["clipboard.copy"] || "Copy to clipboard";
    button.setAttribute("data-clipboard-target", "#" + pre.id + " > code");
    button.setAttribute("data-md-type", "copy");
    const nav = document.createElement("nav");
    nav.className = "md-code__nav";
    nav.appendChild(button);
    pre.insertBefore(nav, code);
  }

  /** @param {HTMLDetailsElement} details */
  function unfold(details) {
    /** @type {NodeListOf<HTMLTemplateElement>} */
    const templates = details.querySelectorAll("template[data-gl-unfold]");
    for (let i = 0; i < templates.length; i++) {
      const template = templates[i];
      if (template.parentElement && template.parentElement.closest("details") !== details) continue;
      const content = template.content;
      /** @type {NodeListOf<HTMLPreElement>} */
      const pres = content.querySelectorAll("pre");
      for (let j = 0; j < pres.length; j++) finishCodeBlock(pres[j]);
      template.replaceWith(content);
    }
  }

  // "toggle" does not bubble; a listener in the capture phase still sees every one.
  document.addEventListener("toggle", function (event) {
    const details = event.target;
    if (details instanceof HTMLDetailsElement && details.open) unfold(details);
  }, true);

  // A <details> that is open from the start (a site's own template may say so).
  function unfoldOpen() {
    /** @type {NodeListOf<HTMLDetailsElement>} */
    const open = document.querySelectorAll("details[open]");
    for (let i = 0; i < open.length; i++) unfold(open[i]);
  }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(unfoldOpen);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", unfoldOpen);
  } else {
    unfoldOpen();
  }
})();
