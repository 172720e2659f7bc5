// @ts-check
/*
 * Live examples: the answer in words, and the one-line record of how it ran. Pure functions
 * (no DOM), unit-tested under node (tests/js/live-example-answers.test.mjs).
 *
 * An answer's words come from example.yml's `output.answer`, a sentence with fields in braces
 * ({class}, {percent}, {count}, {values}, {width}, {height}, {fraction}, {score}; the build
 * refuses any other), or from the default of its reading's kind. The status line and the
 * widget's data-answer carry the same words.
 */
import { formatValue, readClasses } from "./live-example-core.mjs";

/**
 * @import { ReferenceReading } from "./live-example-reference.mjs"
 */

/** @typedef {Record<string, string>} AnswerFields */

/** The words of each kind when example.yml gives none. */
export const DEFAULT_ANSWERS = Object.freeze({
  classes: "{class} · {percent}",
  values: "{values}",
  picture: "A {width}×{height} picture",
  heatmap: "A {width}×{height} map",
  "text-lines": "{count} found",
  mask: "Foreground: {fraction} of the picture",
  faces: "{count}, {score}",
  points: "{count}",
});

/**
 * A sentence with its {fields} filled in; a field the answer does not have stays as written.
 * @param {string} format
 * @param {AnswerFields} fields
 */
export function fillAnswer(format, fields) {
  return format.replace(/\{([a-z]+)\}/g, (all, name) =>
    Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : all);
}

/**
 * "3 lines of text", "1 face"; `none` when there are none ("No face").
 * @param {number} count
 * @param {string} one
 * @param {string} many
 */
export function counted(count, one, many) {
  return count.toLocaleString("en") + " " + (count === 1 ? one : many);
}

/** A percentage as an answer says it: whole percent ("97 %"), or "< 1 %". @param {number} p */
export function answerPercent(p) {
  if (p > 0 && p < 0.005) return "< 1 %";
  return Math.round(p * 100) + " %";
}

/**
 * The answer of a classifier: the most likely class and its probability.
 * @param {ArrayLike<number | bigint | string>} values
 * @param {number[]} dims
 * @param {Pick<ReferenceReading, "classes" | "softmax" | "top">} reading
 * @returns {{fields: AnswerFields, answer: string, rows: Array<{name: string, probability: number}>}}
 */
export function classesAnswer(values, dims, reading) {
  const { rows, answer } = readClasses(values, dims, reading);
  const best = rows.length ? rows[0].probability : 0;
  return { fields: { class: answer, percent: answerPercent(best) }, answer, rows };
}

/**
 * The answer of a model that returns numbers: one per row of the batch.
 * @param {ArrayLike<number | bigint | string>} values
 * @param {number[]} dims
 */
export function valuesAnswer(values, dims) {
  const rows = dims.length > 1 ? dims[0] : 1;
  const shown = Array.from(values, (v) => formatValue(typeof v === "string" ? v : Number(v)));
  return {
    fields: { count: String(rows), values: shown.slice(0, 8).join(" · ") +
      (shown.length > 8 ? " · …" : "") },
  };
}

/**
 * The fields of a picture-like answer.
 * @param {number} width
 * @param {number} height
 */
export function pictureFields(width, height) {
  return { width: String(width), height: String(height) };
}

/**
 * A mask's share of the picture: the pixels where the foreground is more likely than not.
 * @param {ArrayLike<number | bigint | string>} mask probabilities 0..1
 */
export function maskFraction(mask) {
  let inside = 0;
  for (let i = 0; i < mask.length; i++) if (Number(mask[i]) > 0.5) inside++;
  return mask.length ? inside / mask.length : 0;
}

/**
 * The words of an answer, from example.yml's sentence or the kind's default. A count of none
 * reads as a plain sentence ("No face found"), whatever the format.
 * @param {string} kind
 * @param {string | null | undefined} format
 * @param {AnswerFields} fields
 * @param {{none?: string}} [empty]
 */
export function answerWords(kind, format, fields, empty = {}) {
  if (empty.none) return empty.none;
  const sentence = format || /** @type {Record<string, string>} */ (DEFAULT_ANSWERS)[kind] || "{values}";
  const words = fillAnswer(sentence, fields);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What the Threads row says: the count and why, so that one thread is never unexplained.
 * @param {{isolated: boolean, shared: boolean, threads: number}} page
 */
export function threadsText({ isolated, shared, threads }) {
  if (!isolated) {
    return threads + " (threads need a cross-origin isolated page, which needs the COOP and " +
      "COEP headers; this host does not send them)";
  }
  if (!shared) {
    return threads + " (the page is cross-origin isolated, but this browser gives it no " +
      "SharedArrayBuffer, which threads need)";
  }
  return threads + " (the page is cross-origin isolated)";
}

/**
 * The folded record's one line: "wasm · 1 thread · matches the build's reference · 0.09 ms a
 * run". `match` is true/false, or null when the reader's own input has no reference.
 * @param {{backend: string, threads: number, match: boolean | null, medianMs: number | null}} run
 */
export function recordSummary({ backend, threads, match, medianMs }) {
  const parts = [backend, threads + (threads === 1 ? " thread" : " threads")];
  parts.push(match === null ? "no reference for your own input"
    : match ? "matches the build's reference" : "DIFFERS from the build's reference");
  parts.push(medianMs === null ? "timing…" : formatRunMs(medianMs) + " a run");
  return parts.join(" · ");
}

/** @param {number} ms */
function formatRunMs(ms) {
  if (ms < 1) return ms.toFixed(2) + " ms";
  if (ms < 100) return ms.toFixed(1) + " ms";
  return Math.round(ms) + " ms";
}

/** A percentage of a whole, as an answer says it ("55 %"). @param {number} share */
export function fractionText(share) {
  return answerPercent(share);
}

