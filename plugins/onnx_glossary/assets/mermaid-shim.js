// @ts-check
// mkdocs-material draws ```mermaid fences through a global `mermaid` (initialize, then render)
// and loads one from a CDN when none exists. This stand-in keeps that contract and imports the
// self-hosted ESM build on first use, so pages without a diagram fetch none of its 5 MB and no
// page ever asks another origin.
(() => {
  // A classic script of this page: currentScript is its <script> element while it runs.
  const base = new URL("../mermaid/", /** @type {HTMLScriptElement} */ (document.currentScript).src);
  /** @type {object} */
  let options = {};
  /** @type {Promise<MermaidGlobal> | null} */
  let loading = null;
  /**
   * The self-hosted ESM build (import() of a URL is untyped: its default export is mermaid).
   * @returns {Promise<{default: MermaidGlobal}>}
   */
  const mermaidModule = () => import(new URL("mermaid.esm.min.mjs", base).href);
  const load = () => {
    if (loading === null) {
      loading = mermaidModule().then(({ default: mermaid }) => {
        mermaid.initialize(options);
        return mermaid;
      });
    }
    return loading;
  };
  // Mermaid scales a diagram down to its box (width 100%, max-width its natural width), so a
  // wide one shrinks to unreadable text on a phone. Never below MIN_SCALE of its natural size:
  // past that it scrolls sideways in its box (div.mermaid, see glossary.css).
  const MIN_SCALE = 0.8;
  /** @param {string} svg */
  const readable = (svg) => svg.replace(/^(<svg\b[^>]*?style="[^"]*?)max-width:\s*([\d.]+)px;?/,
    /** @type {(all: string, head: string, width: string) => string} */
    (all, head, width) => `${head}max-width: ${width}px; min-width: ${Math.round(Number(width) * MIN_SCALE)}px;`);
  /** @param {unknown} text */
  const escape = (text) => String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  /** @param {string} text @param {unknown} error */
  const unreadable = (text, error) => `<pre style="white-space: pre-wrap">${escape(text)}</pre>` +
    `<p>This browser could not draw the diagram: ${escape(error instanceof Error ? error.message : error)}</p>`;
  window.mermaid = {
    initialize(next) {
      options = next;
      if (loading) loading.then((mermaid) => mermaid.initialize(next));
    },
    async render(id, text) {
      let mermaid;
      try {
        mermaid = await load();
      } catch (error) {
        // A browser that cannot parse mermaid's build (class static blocks: Safari before
        // 16.4) keeps the diagram's source, and says why, instead of an unhandled rejection
        // in Material's code.
        return { svg: unreadable(text, error) };
      }
      const result = await mermaid.render(id, text);
      return Object.assign({}, result, { svg: readable(result.svg) });
    },
  };
})();
