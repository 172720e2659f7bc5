// @ts-check
// Term links are <span class="gl-term" title="short answer"><a aria-describedby="gl-tip-slug">.
// mkdocs-material (content.tooltips) shows the title as a tooltip on hover and on keyboard
// focus; screen readers read the short answer through aria-describedby. Touch screens have no
// hover, so there the first tap on a term link shows its short answer (by focusing the link,
// which opens the tooltip) and a second tap follows the link.
(() => {
  let touch = false;
  /** @type {HTMLAnchorElement | null} */
  let shown = null;
  addEventListener("pointerdown", (event) => { touch = event.pointerType === "touch"; }, true);
  addEventListener("click", (event) => {
    /** @type {HTMLAnchorElement | null} */
    const link = event.target instanceof Element ? event.target.closest(".gl-term > a[href]") : null;
    if (!link || !touch || event.defaultPrevented) return;
    if (shown === link && document.activeElement === link) return; // second tap: follow it
    event.preventDefault();
    event.stopImmediatePropagation(); // Material's instant navigation must not follow it either
    shown = link;
    link.focus();
  }, true);
  addEventListener("focusout", (event) => { if (event.target === shown) shown = null; }, true);
})();
