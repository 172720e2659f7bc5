// @ts-check
/**
 * Where onnxruntime-web put each node of a session: read from the runtime's own log.
 *
 * With the session option `logSeverityLevel: 0`, onnxruntime-web (1.30.0 and 1.31.1, measured
 * in Chromium) logs, while the session is created, one block per graph:
 *
 *   ... [V:onnxruntime:, session_state.cc:1578 VerifyEachNodeIsAssignedToAnEp] Node placements
 *   ... [V:onnxruntime:, session_state.cc:1581 VerifyEachNodeIsAssignedToAnEp]  All nodes placed on [WebGpuExecutionProvider]. Number of nodes: 41
 *
 * or, when the nodes went to more than one execution provider, for each of them
 *
 *   ... VerifyEachNodeIsAssignedToAnEp]  Node(s) placed on [WebGpuExecutionProvider]. Number of nodes: 213
 *   ... VerifyEachNodeIsAssignedToAnEp]   Cast ()
 *   ... VerifyEachNodeIsAssignedToAnEp]   Reshape (core.Reshape_92)
 *
 * one line per node ("  OpType (NodeName)", the names after graph optimisation, often empty).
 * The runtime writes every line through console.error, which Emscripten binds once, when the
 * runtime starts: a wrapper put on console.error after that never sees them.
 *
 * Pure: no DOM, no runtime. Used by the live example and by scripts/webgpu_kernels.py (which
 * loads this file into a page), and tested in tests/js/live-example-placement.test.mjs on
 * recorded log text.
 */

/**
 * One node as the log lists it.
 * @typedef {{ provider: string, opType: string, name: string }} PlacedNode
 */

/**
 * What a session's placement log says.
 * @typedef {object} Placement
 * @property {Record<string, number>} providers each execution provider's name -> its number of
 *   nodes, as the log's own "Number of nodes" totals say, summed over the graphs
 * @property {PlacedNode[]} nodes every node the log lists, in its order (none for a graph whose
 *   nodes all went to one provider: the runtime lists them only when they are split)
 * @property {number} graphs how many "Node placements" blocks there were (subgraphs have their own)
 * @property {boolean} listed whether every node is listed, one line each, as many as the totals
 */

// "2026-12-03 12:29:38.569099 [V:onnxruntime:logid, session_state.cc:1584 Function] message":
// the severity, the session's log id (its option logId, empty by default), the function, and
// the message after the one space that follows the bracket.
const LOG_LINE = /^\S+ \S+ \[([VIWEF]):onnxruntime:(.*?), [^\s\]]+:\d+ ([^\s\]]+)\] (.*)$/;
// The terminal colours the runtime puts around warnings and errors (ESC [ ... m).
const COLOUR = new RegExp(String.fromCharCode(27) + "\\[[0-9;]*m", "g");
const HEADER = "Node placements";
const ALL = /^ All nodes placed on \[([^\]]+)\]\. Number of nodes: (\d+)$/;
const SOME = /^ Node\(s\) placed on \[([^\]]+)\]\. Number of nodes: (\d+)$/;
const NODE = /^ {2}(\S+) \((.*)\)$/;

/**
 * The parts of one line of onnxruntime's log, or null for any other console text.
 * @param {string} line
 * @returns {{ severity: string, logId: string, origin: string, message: string } | null}
 */
export function logLine(line) {
  const match = LOG_LINE.exec(line.replace(COLOUR, "").trimEnd());
  return match
    ? { severity: match[1], logId: match[2], origin: match[3], message: match[4] }
    : null;
}

/**
 * Whether a console line belongs to a placement block (its header, a total or a node line).
 * A node line is recognised only by its origin: pass it `origin` from the block's header.
 * @param {string} line
 * @param {string} [origin]
 */
export function isPlacementLine(line, origin) {
  const parsed = logLine(line);
  if (!parsed) return false;
  if (parsed.message === HEADER) return true;
  return parsed.origin === origin && (ALL.test(parsed.message) || SOME.test(parsed.message)
    || NODE.test(parsed.message));
}

/**
 * The placement of one session, from the console lines written while it was created (other
 * lines may be mixed in: they are skipped). Null when the lines hold no "Node placements".
 * @param {Iterable<string>} lines each console message, as one string (several lines allowed)
 * @returns {Placement | null}
 */
export function parsePlacement(lines) {
  /** @type {Record<string, number>} */
  const providers = {};
  /** @type {PlacedNode[]} */
  const nodes = [];
  let graphs = 0;
  let listed = true;
  /** @type {string | null} the function that logs the blocks, from the first header */
  let origin = null;
  /** @type {{ provider: string, expected: number, seen: number } | null} */
  let group = null;
  const close = () => {
    if (group && group.seen !== group.expected) listed = false;
    group = null;
  };
  for (const text of lines) {
    for (const line of String(text).split("\n")) {
      const parsed = logLine(line);
      if (!parsed) continue;
      if (parsed.message === HEADER) {
        close();
        origin = parsed.origin;
        graphs += 1;
        continue;
      }
      if (origin === null || parsed.origin !== origin) continue;
      const all = ALL.exec(parsed.message);
      const some = SOME.exec(parsed.message);
      const node = NODE.exec(parsed.message);
      if (all || some) {
        close();
        const [, provider, count] = /** @type {RegExpExecArray} */ (all || some);
        providers[provider] = (providers[provider] || 0) + Number(count);
        if (all) listed = listed && Number(count) === 0;
        else group = { provider, expected: Number(count), seen: 0 };
      } else if (node && group) {
        group.seen += 1;
        nodes.push({ provider: group.provider, opType: node[1], name: node[2] });
      }
    }
  }
  close();
  return graphs ? { providers, nodes, graphs, listed } : null;
}

/**
 * Per execution provider, how many listed nodes of each op type it got.
 * @param {Placement} placement
 * @returns {Record<string, Record<string, number>>}
 */
export function opTypesByProvider(placement) {
  /** @type {Record<string, Record<string, number>>} */
  const found = {};
  for (const node of placement.nodes) {
    const types = (found[node.provider] ||= {});
    types[node.opType] = (types[node.opType] || 0) + 1;
  }
  return found;
}

/** The execution providers' names as a reader knows the backends. */
const PROVIDER_NAMES = Object.freeze({
  WebGpuExecutionProvider: "WebGPU",
  JsExecutionProvider: "WebGPU (JSEP)",
  WebNNExecutionProvider: "WebNN",
});

/**
 * A provider's name for the record: WebGPU; the CPU provider (the WebAssembly kernels) is
 * "CPU" beside a GPU provider and "WebAssembly" alone.
 * @param {string} provider
 * @param {boolean} alone
 */
export function providerName(provider, alone) {
  if (provider === "CPUExecutionProvider") return alone ? "WebAssembly" : "CPU";
  return /** @type {Record<string, string>} */ (PROVIDER_NAMES)[provider]
    || provider.replace(/ExecutionProvider$/, "");
}

/** How many op types the record's line names per provider before "and N more". */
const NAMED_TYPES = 3;

/**
 * The record's line: "all 12 nodes on WebAssembly", or "188 of 190 nodes on WebGPU · Shape ×2
 * on CPU" (the op types where the log lists the nodes, the most frequent first).
 * @param {Placement} placement
 * @param {string} main the provider the session asked for (it leads the line)
 */
export function placementText(placement, main) {
  const counts = Object.entries(placement.providers);
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  if (counts.length === 1) {
    const [[provider, count]] = counts;
    const name = providerName(provider, true);
    return count === 1 ? "its one node on " + name : "all " + count + " nodes on " + name;
  }
  const lead = counts.find(([provider]) => provider === main)
    || counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  const types = opTypesByProvider(placement);
  const others = counts.filter((entry) => entry !== lead).sort((a, b) => b[1] - a[1])
    .map(([provider, count]) => {
      const listed = placement.listed ? typeCounts(types[provider] || {}) : "";
      return (listed || String(count)) + " on " + providerName(provider, false);
    });
  return [lead[1] + " of " + total + " nodes on " + providerName(lead[0], false), ...others]
    .join(" · ");
}

/**
 * "Shape ×2, Slice ×2, Cast and 3 more": op types by count (then name), the first few named.
 * @param {Record<string, number>} types
 */
function typeCounts(types) {
  const sorted = Object.entries(types).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const named = sorted.slice(0, NAMED_TYPES)
    .map(([type, count]) => (count > 1 ? type + " \u00d7" + count : type));
  const more = sorted.length - named.length;
  return named.join(", ") + (more > 0 ? " and " + more + " more" : "");
}
