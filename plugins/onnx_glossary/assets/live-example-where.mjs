// @ts-check
/*
 * Live examples: where each node of the session ran, in the folded record. The line says it
 * in words ("188 of 190 nodes on WebGPU · Shape ×2 on CPU"), a fold below it lists every node
 * where the runtime's log lists them, and the widget's root carries data-placement, the log's
 * own totals as JSON (execution provider name -> number of nodes).
 */
import { needPart, part } from "./live-example-dom.mjs";
import { placementText, providerName } from "./live-example-placement.mjs";

/**
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { Placement } from "./live-example-placement.mjs"
 */

/** The provider each backend asks for first, as the log names it. */
const MAIN_PROVIDER = Object.freeze({
  webgpu: "WebGpuExecutionProvider",
  wasm: "CPUExecutionProvider",
});

/**
 * Show where the session's nodes went; `placement` undefined: not asked for (the line says
 * nothing new), null: the runtime's log said nothing the widget could read.
 * @param {WidgetRoot} root
 * @param {Placement | null | undefined} placement
 * @param {string} backend
 */
export function showPlacement(root, placement, backend) {
  const line = needPart(root, "placement");
  const fold = part(root, "nodes");
  if (fold) fold.hidden = true;
  if (placement === undefined) {
    line.textContent = "not read on this Run";
    return;
  }
  if (!placement) {
    line.textContent = "not known: the runtime's log did not reach this page (something " +
      "else on it started the runtime before this widget's first Run)";
    return;
  }
  root.dataset.placement = JSON.stringify(placement.providers);
  const main = /** @type {Record<string, string>} */ (MAIN_PROVIDER)[backend] || "";
  line.textContent = placementText(placement, main) + " (the runtime's own log of this session)";
  if (fold) fillNodes(fold, placement);
}

/**
 * The fold: every node per provider, the smaller groups first; or why there is no list.
 * @param {HTMLElement} fold
 * @param {Placement} placement
 */
function fillNodes(fold, placement) {
  const summary = fold.querySelector("summary");
  const body = needPart(fold, "node-list");
  body.replaceChildren();
  fold.hidden = false;
  const providers = Object.entries(placement.providers).sort((a, b) => a[1] - b[1]);
  // The runtime lists the nodes one by one only when it splits them between providers.
  if (!placement.listed) {
    fold.hidden = true;
    return;
  }
  if (summary) summary.textContent = "Every node (" + placement.nodes.length + ")";
  for (const [provider, count] of providers) {
    const heading = document.createElement("p");
    heading.textContent = "On " + providerName(provider, providers.length === 1) + " (" +
      count + "):";
    const list = document.createElement("ol");
    list.dataset.provider = provider;
    for (const node of placement.nodes.filter((each) => each.provider === provider)) {
      const item = document.createElement("li");
      const type = document.createElement("code");
      type.textContent = node.opType;
      item.append(type);
      if (node.name) item.append(" " + node.name);
      list.append(item);
    }
    body.append(heading, list);
  }
}
