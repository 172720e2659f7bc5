// @ts-check
// Wide tables scroll sideways inside their own box, never the page. This wraps
// each such box in a frame that knows which edges hide content (data-more="left right"), so
// the CSS draws a shadow there as a cue, and makes every box that scrolls reachable from the
// keyboard. Runs on every page Material swaps in (navigation.instant).
(() => {
  const BOXES = ".md-typeset .gl-table-scroll, .md-typeset .md-typeset__scrollwrap";
  /**
   * What an observed element shows and hides, read from its layout: for a box, which edges
   * hide content (a code block has no frame: null); for both, whether it scrolls at all.
   * @param {HTMLElement} element
   * @returns {{more: string | null, scrolls: boolean}}
   */
  const measure = (element) => {
    const max = element.scrollWidth - element.clientWidth;
    if (!element.matches(BOXES)) return { more: null, scrolls: max > 0 };
    const more = [];
    if (max > 1 && element.scrollLeft > 1) more.push("left");
    if (max > 1 && element.scrollLeft < max - 1) more.push("right");
    return { more: more.join(" "), scrolls: max > 1 };
  };
  /**
   * @param {HTMLElement} element
   * @param {{more: string | null, scrolls: boolean}} seen
   */
  const apply = (element, seen) => {
    const frame = element.parentElement;
    if (seen.more !== null && frame && frame.dataset.more !== seen.more) frame.dataset.more = seen.more;
    if (seen.scrolls && !element.hasAttribute("tabindex")) element.tabIndex = 0;
  };
  /** @param {HTMLElement} box */
  const update = (box) => apply(box, measure(box));
  const ready = () => { document.documentElement.dataset.glScrollBoxes = "ready"; };
  // Every measurement happens in the observer's callback, which the browser calls right after
  // a layout it did anyway (once for each element it starts observing, then on each resize),
  // and all of them before any change: reading sizes there costs nothing, where reading them
  // while the page loads, or after changing an attribute, would force a layout of its own. It
  // observes only the boxes and code blocks below: HTML elements.
  const resized = new ResizeObserver((entries) => {
    const seen = entries.map((entry) => {
      const element = /** @type {HTMLElement} */ (entry.target);
      return { element, sizes: measure(element) };
    });
    for (const { element, sizes } of seen) apply(element, sizes);
    ready();
  });
  /** @type {WeakSet<Element>} */
  const observed = new WeakSet();
  /** @param {HTMLElement} element */
  const observe = (element) => {
    if (observed.has(element)) return false;
    observed.add(element);
    resized.observe(element);
    return true;
  };
  const setUp = () => {
    let added = false;
    /** @type {NodeListOf<HTMLElement>} */
    const boxes = document.querySelectorAll(BOXES);
    for (const box of boxes) {
      const parent = box.parentElement;
      // A table inside our own scroll box: the outer box scrolls, not Material's wrapper.
      if (!parent || parent.closest(".gl-table-scroll")) continue;
      if (!parent.classList.contains("gl-scroll-frame")) {
        const frame = document.createElement("div");
        frame.className = "gl-scroll-frame";
        box.replaceWith(frame);
        frame.append(box);
        box.addEventListener("scroll", () => update(box), { passive: true });
      }
      added = observe(box) || added;
    }
    // Code blocks that scroll: Material makes most focusable, this catches the rest.
    /** @type {NodeListOf<HTMLElement>} */
    const codes = document.querySelectorAll(".md-typeset pre > code:not([tabindex])");
    for (const code of codes) added = observe(code) || added;
    if (!added) ready(); // nothing new to measure
  };
  // Material wraps tables and draws diagrams after load: look again when the article gains a
  // box. Only then: a live example rewrites its text many times a Run, and measuring every box
  // after each change would force a layout each time.
  /** @param {MutationRecord[]} records */
  const addsBox = (records) => records.some((record) => Array.from(record.addedNodes).some(
    (node) => node instanceof Element && (node.matches(BOXES) || node.querySelector(BOXES))));
  const watch = () => {
    setUp();
    const article = document.querySelector("article");
    if (article) {
      new MutationObserver((records) => { if (addsBox(records)) setUp(); })
        .observe(article, { childList: true, subtree: true });
    }
  };
  if (window.document$) window.document$.subscribe(() => setTimeout(watch));
  else addEventListener("DOMContentLoaded", watch);
})();
