// @ts-check
// reference.json's format (the typedefs of plugins/onnx_glossary/assets/live-example-
// reference.mjs) as values a test can check a file against: each object's keys, whether each
// must be there or may be null, and the kind of its value. tsc ties these values to the
// typedefs: a key missing here, one too many, or a wrong mark is a type error, so the check
// cannot drift from the declared format. Used by reference-format.check.mjs (every built file)
// and reference-format.test.mjs (the checker itself).

/**
 * @import {
 *   Reference, ReferenceExpected, ReferenceFormField, ReferenceImage, ReferenceInputSpec,
 *   ReferenceReading, ReferenceSample, ReferenceTensor, ReferenceTolerance,
 * } from "../../plugins/onnx_glossary/assets/live-example-reference.mjs"
 */

/**
 * The kind of a JSON value, as the checker tells them apart.
 * @template V
 * @typedef {V extends string ? "string" : V extends number ? "number" : V extends boolean
 *   ? "boolean" : V extends unknown[] ? "array" : "object"} Kind
 */

/**
 * Whether key K of T must be there ("required"), may be left out ("optional"), or must be
 * there but may be null ("nullable").
 * @template T
 * @template {keyof T} K
 * @typedef {{} extends Pick<T, K> ? "optional" : null extends T[K] ? "nullable" : "required"} Presence
 */

/**
 * Every key of T, marked "<presence> <kind>", e.g. "nullable string".
 * @template T
 * @typedef {{ [K in keyof T]-?: `${Presence<T, K>} ${Kind<NonNullable<T[K]>>}` }} Marks
 */

/**
 * An object's format: its keys' marks, and the format of the objects under some of them (an
 * array of objects is given as [format]).
 * @typedef {{ marks: Record<string, string>, inner?: Record<string, Format | [Format]> }} Format
 */

/** @type {Marks<ReferenceTensor>} */
const TENSOR = {
  name: "required string", type: "required string", dims: "required array", data: "required array",
};

/** @type {Marks<ReferenceTolerance>} */
const TOLERANCE = { atol: "required number", rtol: "required number" };

/** @type {Marks<ReferenceImage>} */
const IMAGE = {
  input: "required string", src: "required string", height: "required number",
  width: "required number",
};

/** @type {Marks<ReferenceExpected>} */
const EXPECTED = {
  max_abs_diff: "required number", pass: "required boolean", outputs: "required array",
};

/** @type {Marks<ReferenceSample>} */
const SAMPLE = {
  name: "required string", label: "nullable string", source: "required string",
  inputs: "optional array", outputs: "optional array", expected: "optional object",
};

/** @type {Marks<ReferenceReading>} */
const READING = {
  kind: "required string", tensor: "required string", classes: "required array",
  softmax: "required boolean", top: "required number", labels: "required array",
  unit: "required string", answer: "nullable string", score: "nullable string",
  threshold: "required number",
};

/** @type {Marks<ReferenceFormField>} */
const FORM_FIELD = {
  label: "required string", min: "required number", max: "required number",
  step: "required number", unit: "required string",
};

/** @type {Marks<ReferenceInputSpec>} */
const INPUT_SPEC = {
  kind: "required string", tensor: "required string", grid: "required number",
  max: "required number", fields: "required array", max_side: "required number",
  rows: "required number",
};

/** @type {Marks<Reference>} */
const REFERENCE = {
  model: "required string", onnxruntime: "required string", dims: "required object",
  inputs: "required array", outputs: "required array", tolerance: "required object",
  image: "nullable object", samples: "required array", reading: "nullable object",
  input: "nullable object", cost: "required object",
};

/** @type {Marks<import("../../plugins/onnx_glossary/assets/live-example-reference.mjs").ReferenceCost>} */
const COST = { multiply_adds: "required number" };

/** @type {Format} */
const TENSOR_FORMAT = { marks: TENSOR };

/**
 * The whole file's format.
 * @type {Format}
 */
export const REFERENCE_FORMAT = {
  marks: REFERENCE,
  inner: {
    inputs: [TENSOR_FORMAT],
    outputs: [TENSOR_FORMAT],
    tolerance: { marks: TOLERANCE },
    image: { marks: IMAGE },
    samples: [{
      marks: SAMPLE,
      inner: {
        inputs: [TENSOR_FORMAT],
        outputs: [TENSOR_FORMAT],
        expected: { marks: EXPECTED, inner: { outputs: [TENSOR_FORMAT] } },
      },
    }],
    reading: { marks: READING },
    input: { marks: INPUT_SPEC, inner: { fields: [{ marks: FORM_FIELD }] } },
    cost: { marks: COST },
  },
};

/** @param {unknown} value */
function kindOf(value) {
  if (Array.isArray(value)) return "array";
  return value === null ? "null" : typeof value;
}

/**
 * Where `value` departs from `format`, one line per problem ("reference.json.samples[1]: no
 * key 'name'"); none when it conforms.
 * @param {unknown} value
 * @param {Format} format
 * @param {string} [at]
 * @returns {string[]}
 */
export function formatProblems(value, format, at = "reference.json") {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [at + ": " + kindOf(value) + ", not an object"];
  }
  const entries = new Map(Object.entries(value));
  /** @type {string[]} */
  const problems = [];
  for (const key of entries.keys()) {
    if (!Object.hasOwn(format.marks, key)) problems.push(at + ": unknown key '" + key + "'");
  }
  for (const [key, mark] of Object.entries(format.marks)) {
    const [presence, kind] = mark.split(" ");
    const where = at + "." + key;
    if (!entries.has(key)) {
      if (presence !== "optional") problems.push(at + ": no key '" + key + "'");
      continue;
    }
    const child = entries.get(key);
    if (child === null && presence === "nullable") continue;
    if (kindOf(child) !== kind) {
      problems.push(where + ": " + kindOf(child) + ", not " + kind);
      continue;
    }
    const inner = format.inner && format.inner[key];
    if (Array.isArray(inner) && Array.isArray(child)) {
      child.forEach((item, i) => problems.push(...formatProblems(item, inner[0], where + "[" + i + "]")));
    } else if (inner && !Array.isArray(inner)) {
      problems.push(...formatProblems(child, inner, where));
    }
  }
  return problems;
}
