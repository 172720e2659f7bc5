// @ts-check
// Term links are <a class="gl-term" aria-describedby="gl-tip-slug">, and the element
// gl-tip-slug (hidden, in the page's tip pool) holds the term's short answer: screen readers
// announce it with the link. This script shows the same words as a tooltip, in
// mkdocs-material's tooltip style, on hover and on keyboard focus. Touch screens have no
// hover, so there the first tap on a term link shows its short answer (by focusing the link)
// and a second tap follows the link.
//
// One tooltip element and a few listeners on the document serve every link, on this page and
// on each page Material's instant navigation swaps in: nothing is done per link at load.
// (Material's own content.tooltips sets up each [title] element one by one, which on the
// glossary index, with 122 term links, took most of its start-up script time.)
(() => {
  const LINK = "a.gl-term[aria-describedby]";
  let touch = false;
  /** @type {HTMLAnchorElement | null} */
  let tapped = null; // the link a first tap focused
  /** @type {HTMLAnchorElement | null} */
  let host = null; // the link the tooltip is shown for
  /** @type {HTMLElement | null} */
  let tip = null;

  /** @param {EventTarget | null} target */
  const linkOf = (target) => /** @type {HTMLAnchorElement | null} */ (
    target instanceof Element ? target.closest(LINK) : null);

  /** The tooltip, made on first use: Material's markup, so Material's CSS draws it. */
  const tooltip = () => {
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "md-tooltip2 md-tooltip2--bottom";
      tip.setAttribute("role", "tooltip");
      tip.id = "gl-tooltip";
      const inner = document.createElement("div");
      inner.className = "md-tooltip2__inner md-typeset";
      tip.append(inner);
    }
    if (!tip.isConnected) document.body.append(tip); // instant navigation keeps the body
    return tip;
  };

  /** @param {HTMLAnchorElement} link */
  const show = (link) => {
    const source = document.getElementById(link.getAttribute("aria-describedby") || "");
    const words = source ? (source.textContent || "").trim() : "";
    if (!words) return;
    const box = tooltip();
    const inner = /** @type {HTMLElement} */ (box.firstElementChild);
    inner.textContent = words;
    // Where Material puts its own: centred under the link, kept inside the window.
    const rect = link.getBoundingClientRect();
    box.style.setProperty("--md-tooltip-host-x", `${rect.x + window.scrollX}px`);
    box.style.setProperty("--md-tooltip-host-y", `${rect.y + window.scrollY}px`);
    box.style.setProperty("--md-tooltip-x", `${rect.width / 2}px`);
    box.style.setProperty("--md-tooltip-y", `${8 + rect.height}px`);
    box.style.setProperty("--md-tooltip-tail", "0px");
    box.style.removeProperty("--md-tooltip-width");
    box.style.setProperty("--md-tooltip-width", `${inner.getBoundingClientRect().width}px`);
    box.classList.add("md-tooltip2--active");
    host = link;
  };

  const hide = () => {
    if (tip) tip.classList.remove("md-tooltip2--active");
    host = null;
  };

  addEventListener("pointerover", (event) => {
    const link = linkOf(event.target);
    if (link && link !== host && event.pointerType !== "touch") show(link);
  });
  addEventListener("pointerout", (event) => {
    const link = linkOf(event.target);
    if (link && link === host && !link.contains(/** @type {Node | null} */ (event.relatedTarget)) &&
        document.activeElement !== link) hide();
  });
  addEventListener("focusin", (event) => {
    const link = linkOf(event.target);
    if (link) show(link);
  });
  addEventListener("focusout", (event) => {
    if (event.target === tapped) tapped = null;
    if (event.target === host) hide();
  });
  addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  addEventListener("scroll", () => { if (host && !host.matches(":focus")) hide(); }, { passive: true });

  addEventListener("pointerdown", (event) => { touch = event.pointerType === "touch"; }, true);
  addEventListener("click", (event) => {
    const link = linkOf(event.target);
    if (!link || !touch || event.defaultPrevented) return;
    if (tapped === link && document.activeElement === link) return; // second tap: follow it
    event.preventDefault();
    event.stopImmediatePropagation(); // Material's instant navigation must not follow it either
    tapped = link;
    link.focus();
  }, true);

  // A new page (instant navigation) has new links: the old one's tooltip goes.
  if (window.document$) window.document$.subscribe(hide);
})();
