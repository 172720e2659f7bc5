// @ts-check
/*
 * Live examples: the format of reference.json, declared once.
 *
 * The build writes one reference.json next to each model (Reference.to_json, in the plugin's
 * reference.py): the sample inputs and the outputs Python onnxruntime computed for them, and
 * how the widget shows and checks them. Python (the page templates, live_example.py) and the
 * widget read it. This module holds only these types: the widget imports them for the type
 * check (a JSDoc @import, which the browser never loads), and tests/js/reference-format.mjs
 * checks every built reference.json against them, key by key.
 *
 * Every key below is always written, with null for "none", except the three a sample marks
 * optional. Numbers are JSON numbers, never NaN or an infinity (the build refuses to write
 * those).
 */

/**
 * An element type, as onnxruntime-web's Tensor names it ("float32", "int64", "bool",
 * "string"...).
 * @typedef {string} ElementTypeName
 */

/**
 * One tensor, its values flattened row by row (row-major).
 * @typedef {object} ReferenceTensor
 * @property {string} name The model's input or output name.
 * @property {ElementTypeName} type
 * @property {number[]} dims
 * @property {Array<number | boolean | string>} data Numbers; true/false for bool; text for string.
 */

/**
 * The comparison tolerance, numpy.allclose style: |a - b| <= atol + rtol * |b|.
 * @typedef {object} ReferenceTolerance
 * @property {number} atol
 * @property {number} rtol
 */

/**
 * The shipped picture that feeds the model's one uint8 [height, width, 4] input.
 * @typedef {object} ReferenceImage
 * @property {string} input The input's name.
 * @property {string} src The picture's file name, next to the model.
 * @property {number} height
 * @property {number} width
 */

/**
 * A model zoo's own outputs for a sample (its output_N.pb), and how onnxruntime's compare.
 * @typedef {object} ReferenceExpected
 * @property {number} max_abs_diff Between onnxruntime's outputs and these, at build time.
 * @property {boolean} pass Whether they matched within the tolerance.
 * @property {ReferenceTensor[]} outputs
 */

/**
 * A sample the reader can pick. Sample 0 is the page's default: its inputs and outputs are the
 * top level's, so it carries neither.
 * @typedef {object} ReferenceSample
 * @property {string} name What the picker shows.
 * @property {string | null} label The true answer, when one is known.
 * @property {string} source "example.yml", "generated", a picture's file name, or a model zoo's
 *   folder (test_data_set_N).
 * @property {ReferenceTensor[]} [inputs] Samples after the first: their own inputs...
 * @property {ReferenceTensor[]} [outputs] ...and onnxruntime's outputs for them.
 * @property {ReferenceExpected} [expected] When a model zoo shipped outputs for it.
 */

/**
 * How an output reads to a person (example.yml's `output`).
 * @typedef {object} ReferenceReading
 * @property {"classes" | "heatmap" | "picture" | "values" | "text-lines" | "mask" | "faces"
 *   | "points"} kind
 * @property {string} tensor The output it reads.
 * @property {string | null} answer The answer in words, with {class}, {percent}... in it.
 * @property {string[]} classes Class names, by index (classes).
 * @property {boolean} softmax Whether the scores are logits (classes).
 * @property {number} top How many classes to show (classes).
 * @property {string[]} labels A label per value (values).
 * @property {string} unit The values' unit, or "" (values).
 * @property {string | null} score The output of the points' confidence, 0 to 1 (points).
 * @property {number} threshold Below it, there are no points (points).
 */

/**
 * One field of the form a tabular model gets its own input from.
 * @typedef {object} ReferenceFormField
 * @property {string} label
 * @property {number} min
 * @property {number} max
 * @property {number} step
 * @property {string} unit
 */

/**
 * How a reader makes their own input (example.yml's `input`).
 * @typedef {object} ReferenceInputSpec
 * @property {"drawing" | "form" | "picture"} kind
 * @property {string} tensor The input it feeds.
 * @property {number} grid The drawing's grid side (drawing).
 * @property {number} max The largest value of a grid cell (drawing).
 * @property {ReferenceFormField[]} fields (form)
 * @property {number} max_side A picture's longest side once scaled down (picture).
 * @property {number} rows How many rows (a batch) a form may give.
 */

/**
 * The whole of reference.json.
 * @typedef {object} Reference
 * @property {string} model The model's name (its folder under models/).
 * @property {string} onnxruntime The Python onnxruntime version that computed the outputs.
 * @property {Record<string, number>} dims The size given to each symbolic dimension.
 * @property {ReferenceTensor[]} inputs Sample 0's inputs...
 * @property {ReferenceTensor[]} outputs ...and onnxruntime's outputs for them.
 * @property {ReferenceTolerance} tolerance
 * @property {ReferenceImage | null} image
 * @property {ReferenceSample[]} samples Every sample the reader can pick; the first is sample 0.
 * @property {ReferenceReading | null} reading
 * @property {ReferenceInputSpec | null} input
 * @property {ReferenceCost} cost
 */

/**
 * How much work one run is (models/cost.py): what the backend rule weighs.
 * @typedef {object} ReferenceCost
 * @property {number} multiply_adds Of one run on the first sample.
 */

export {};
