// @ts-check
/*
 * Live examples: onnxruntime-web's own log of one session, read without a line of it reaching
 * the console.
 *
 * The runtime (1.31.1, measured in Chromium) writes its log through console.error, bound once
 * when its WebAssembly module starts (`console.error.bind(console)` inside the module's
 * factory), which happens while the first session of that build is created. So while every
 * session is created the widget puts a tap on console.error and console.log, through the
 * page-wide queue (globals.replace, put back when the task ends). The runtime that started
 * under a tap keeps calling it for good; the page's own console calls go to the console
 * itself once the task has ended, and through the tap, unchanged, while it runs.
 *
 * A session whose placement is wanted is created with logSeverityLevel 0 and a logId of its
 * own, and every line of its log carries that id ("[V:onnxruntime:<logId>, ..."), also the
 * lines it writes later, while it runs (the WebGPU provider logs "Starting program ..." for
 * each shader of each run). The taps keep that session's lines while it is created, and drop
 * every line of such a session below error severity for as long as the page lives: at the
 * level the page's example.mjs asks for (logSeverityLevel 3, errors only) none of them would
 * have shown. Its errors, and every other message, pass through unchanged.
 */
import { logLine } from "./live-example-placement.mjs";

/** @import { Globals } from "./live-example-queue.mjs" */

/** The start of the logId of every session created here with a verbose log. */
export const LOG_ID = "onnx-live-example-";
/** The severities of a verbose session's lines that the page's own level (errors) hides. */
const HIDDEN = new Set(["V", "I", "W"]);
/** The console functions Emscripten binds (out and err). */
const LEVELS = /** @type {const} */ (["log", "error"]);

/** @typedef {(...args: unknown[]) => void} ConsoleFunction */

/** How many lines of verbose sessions the taps kept and dropped (the test hook `captured`). */
export const counts = { kept: 0, dropped: 0 };

let sessions = 0;
/** @type {{ id: string, lines: string[] } | null} the session being created, if its log is wanted */
let listening = null;
/** @type {WeakMap<ConsoleFunction, ConsoleFunction>} each console function's tap */
const taps = new WeakMap();
/** @type {WeakSet<ConsoleFunction>} */
const isTap = new WeakSet();
/**
 * Per runtime (the module object of a build): whether its log reaches the taps. False once a
 * verbose session of it logged nothing here: something else started that runtime before the
 * widget's first session, so its console.error is not a tap, and asking it for a verbose log
 * again would fill the console.
 * @type {WeakMap<object, boolean>}
 */
const heard = new WeakMap();

/**
 * What a session's creation gets: the options that make the runtime log its placement (none
 * when it is not wanted, or cannot be heard), and stop(), which ends the listening and returns
 * the lines heard (null when none were asked for); pass it the runtime that holds the session.
 * @typedef {{ options: { logSeverityLevel?: number, logId?: string },
 *             stop: (created?: object) => string[] | null }} Listening
 */

/**
 * Tap the console for one session's creation (a task of the page-wide queue).
 * @param {Globals} globals
 * @param {object} runtime the module object of the build that creates the session
 * @param {boolean} wanted whether to ask for the session's verbose log
 * @returns {Listening}
 */
export function listen(globals, runtime, wanted) {
  for (const level of LEVELS) {
    const current = /** @type {ConsoleFunction} */ (console[level]);
    globals.replace(console, level, tapOf(current));
  }
  if (!wanted || heard.get(runtime) === false) return { options: {}, stop: () => null };
  sessions += 1;
  const session = { id: LOG_ID + sessions, lines: /** @type {string[]} */ ([]) };
  listening = session;
  return {
    options: { logSeverityLevel: 0, logId: session.id },
    stop(created = runtime) {
      if (listening === session) listening = null;
      // After a fallback the session is another runtime's, which started here, under the taps.
      for (const each of new Set([runtime, created])) heard.set(each, session.lines.length > 0);
      return session.lines;
    },
  };
}

/**
 * The tap of one console function (made once per function, so a runtime's tap stays the tap).
 * @param {ConsoleFunction} original
 * @returns {ConsoleFunction}
 */
function tapOf(original) {
  if (isTap.has(original)) return original;
  let tap = taps.get(original);
  if (!tap) {
    /** @this {unknown} @param {unknown[]} args */
    tap = function (...args) {
      const text = args.length === 1 && typeof args[0] === "string" ? args[0] : "";
      if (text.includes(LOG_ID)) {
        const parsed = logLine(text);
        if (parsed && parsed.logId.startsWith(LOG_ID)) {
          if (listening && parsed.logId === listening.id) {
            listening.lines.push(text);
            counts.kept += 1;
          }
          if (HIDDEN.has(parsed.severity)) {
            counts.dropped += 1;
            return;
          }
        }
      }
      original.apply(this, args);
    };
    taps.set(original, tap);
    isTap.add(tap);
  }
  return tap;
}

/**
 * The lines of the last session creation among `lines`: after a fallback to WebAssembly, the
 * failed WebGPU attempt's lines come first, and each creation begins by logging its options.
 * @param {string[]} lines
 */
export function lastSession(lines) {
  let start = 0;
  lines.forEach((line, at) => {
    const parsed = logLine(line);
    if (parsed && parsed.origin === "TraceSessionOptions") start = at;
  });
  return lines.slice(start);
}
