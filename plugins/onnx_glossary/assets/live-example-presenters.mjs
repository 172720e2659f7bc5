// @ts-check
/*
 * Live examples: how a Run's outputs are shown ("presenters").
 *
 * Every presenter gets the widget root and the shown run: {results, reading, input, label,
 * fed}. `results` has one entry per output, {name, type, dims, values, verdict} (values as
 * plain numbers or strings, verdict the "Max abs diff" cell); `reading` is reference.json's
 * (example.yml's `output`: classes, heatmap, picture or values) or null; `label` is the
 * picked sample's true answer, if known; `fed` maps input names to {dims, values} as fed.
 * The values table shows everything; the others add a readable view above it. Everything
 * from a model or example.yml is set as text, never as markup.
 */
import {
  breakPieces, formatDims, formatPercent, formatValue, formatValues, greyPixels,
  heatmapGradient, heatmapPixels, readClasses, readValues,
} from "./live-example-core.mjs";
import { context2d, needPart, part } from "./live-example-dom.mjs";
import { drawCells } from "./live-example-inputs.mjs";

/**
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { RunInput } from "./live-example-inputs.mjs"
 * @import { ReferenceReading } from "./live-example-reference.mjs"
 */

/**
 * One output as shown: its values (plain numbers, or strings) and its "Max abs diff" cell.
 * @typedef {{name: string, type: string, dims: number[], values: Array<number | string>,
 *            verdict: string}} ShownResult
 */

/**
 * A Run as the presenters show it (see the top of this file).
 * @typedef {object} ShownRun
 * @property {ShownResult[]} results
 * @property {ReferenceReading | null} reading
 * @property {RunInput} input
 * @property {string | null} label
 * @property {Record<string, {type: string, dims: number[], values: Array<number | string>}>} fed
 */

/**
 * A presenter that adds a readable view to the `area` above the values table.
 * @typedef {(root: WidgetRoot, run: ShownRun, area: HTMLElement) => void} Reading
 */

/**
 * A new element with an optional class and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * An identifier in <code>, breakable after / _ . : - (sensible points, not mid-word).
 * @param {unknown} text
 */
function identifier(text) {
  const code = element("code");
  for (const piece of breakPieces(String(text))) {
    code.append(piece, document.createElement("wbr"));
  }
  return code;
}

/**
 * The output the reading names, if the run has one.
 * @param {ShownRun} run
 */
function readingOutput(run) {
  const { reading, results } = run;
  return reading && results.find((r) => r.name === reading.tensor);
}

/**
 * Every output as a row: name, type, dims, the first values, the reference verdict.
 * @param {WidgetRoot} root
 * @param {ShownRun} run
 */
function valuesTable(root, run) {
  const table = element("table", "live-example__table");
  const titles = ["Output", "Type", "Dims", "Values", "Max abs diff"];
  const head = table.createTHead().insertRow();
  for (const title of titles) head.appendChild(element("th", "", title));
  const body = table.createTBody();
  for (const { name, type, dims, values: data, verdict } of run.results) {
    const row = body.insertRow();
    [name, type, formatDims(dims), formatValues(data), verdict].forEach((text, i) => {
      const cell = row.insertCell();
      // The column's title, for the stacked layout of narrow screens (CSS shows it).
      cell.dataset.title = titles[i];
      cell.appendChild(i === 0 ? identifier(text) : element("span", "", text));
    });
  }
  const caption = element("p", "live-example__note", "Raw outputs (first values of each):");
  needPart(root, "outputs").replaceChildren(caption, table);
}

/**
 * The top classes with their probabilities as bars, and the true answer when known.
 * @type {Reading}
 */
function classes(root, run, area) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "classes") return;
  const { rows, answer } = readClasses(output.values, output.dims, reading);
  root.dataset.answer = answer;
  const line = element("p", "live-example__answer");
  line.append("Answer: ", element("strong", "", answer));
  if (rows.length) line.append(" (" + formatPercent(rows[0].probability) + ")");
  if (run.label !== null && run.label !== undefined) {
    const right = String(run.label) === answer;
    const verdict = element("span", right ? "live-example__right" : "live-example__wrong",
      right ? "✓ right" : "✗ wrong");
    line.append(" · true answer: ", element("strong", "", String(run.label)), " ", verdict);
  }
  area.appendChild(line);
  const list = element("ol", "live-example__bars");
  list.setAttribute("aria-label", "The " + rows.length + " most likely classes");
  for (const { name, probability } of rows) {
    const item = element("li");
    const track = element("span", "live-example__track");
    const fill = element("span", "live-example__fill");
    fill.style.width = Math.max(0, Math.min(100, probability * 100)).toFixed(1) + "%";
    track.appendChild(fill);
    item.append(element("span", "live-example__class", name), track,
      element("span", "live-example__percent", formatPercent(probability)));
    list.appendChild(item);
  }
  area.appendChild(list);
  if (reading.softmax) {
    area.appendChild(element("p", "live-example__note",
      "These scores are logits; softmax turned them into probabilities."));
  }
}

/**
 * Each value with its label and unit.
 * @type {Reading}
 */
function values(root, run, area) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "values") return;
  const list = element("dl", "live-example__values");
  for (const { label, text } of readValues(output.values, output.dims, reading)) {
    list.append(element("dt", "", label), element("dd", "", text));
  }
  area.appendChild(list);
}

/**
 * A one-channel map [.., height, width] drawn over the input picture, with its legend.
 * @param {WidgetRoot} root
 * @param {ShownRun} run
 */
function heatmap(root, run) {
  const canvas = part(root, "heatmap");
  const output = readingOutput(run);
  if (!canvas || !output || !run.reading || run.reading.kind !== "heatmap" ||
      output.dims.length < 2) return;
  const [height, width] = output.dims.slice(-2);
  const image = run.fed[root.dataset.imageInput || ""];
  // The picture input is uint8 [height, width, 4]: its values are numbers.
  const picture = image && image.dims[0] === height && image.dims[1] === width
    ? /** @type {number[]} */ (image.values) : null;
  canvas.width = width;
  canvas.height = height;
  const pixels = heatmapPixels(output.values, height, width, picture);
  context2d(canvas).putImageData(new ImageData(pixels, width, height), 0, 0);
  /** @type {HTMLElement | null} */
  const ramp = root.querySelector(".live-example__ramp");
  if (ramp) ramp.style.background = heatmapGradient();
}

/**
 * A uint8 [height, width, 4] output of a picture model, drawn on the output canvas.
 * @param {WidgetRoot} root
 * @param {ShownRun} run
 */
function rgbaPicture(root, run) {
  const canvas = part(root, "output-image");
  if (!canvas || !root.dataset.imageInput) return;
  for (const { type, dims, values: data } of run.results) {
    if (type !== "uint8" || dims.length !== 3 || dims[2] !== 4) continue;
    const [height, width] = dims;
    canvas.width = width;
    canvas.height = height;
    // A uint8 output's values are numbers.
    const bytes = new Uint8ClampedArray(/** @type {number[]} */ (data));
    const pixels = new ImageData(bytes, width, height);
    context2d(canvas).putImageData(pixels, 0, 0);
  }
}

/**
 * A float output [.., 1, height, width] of a model without a picture input (an upsampling
 * layer, say), drawn in grey from its smallest value (black) to its largest (white).
 * @type {Reading}
 */
function greyPicture(root, run, area) {
  const output = readingOutput(run);
  if (!output || !run.reading || run.reading.kind !== "picture" || root.dataset.imageInput) return;
  const dims = output.dims.map(Number);
  if (dims.length < 2 || dims.slice(0, -2).some((d) => d !== 1)) return;
  const [height, width] = dims.slice(-2);
  const { pixels, min, max } = greyPixels(output.values, height, width);
  const { figure, canvas, caption } = thumbnail(width, height,
    "Output " + output.name + " as a " + height + "×" + width + " grey picture");
  context2d(canvas).putImageData(new ImageData(pixels, width, height), 0, 0);
  caption.append(identifier(output.name), " as a " + height + "×" + width + " picture: black " +
                 formatValue(min) + ", white " + formatValue(max));
  area.appendChild(figure);
}

/**
 * What the model saw of a drawing or a digit sample: its grid of numbers as a picture.
 * @type {Reading}
 */
function drawingSeen(root, run, area) {
  if (root.dataset.inputKind !== "drawing") return;
  const fed = run.fed[root.dataset.inputTensor || ""];
  if (!fed) return;
  const grid = Math.round(Math.sqrt(fed.values.length / (fed.dims[0] || 1)));
  if (!grid) return;
  const { figure, canvas, caption } = thumbnail(grid, grid,
    "The " + grid + "×" + grid + " numbers the model was fed");
  drawCells(canvas, fed.values, Number(root.dataset.inputMax || 16));
  caption.textContent = "what the model saw (" + grid + "×" + grid + ")";
  area.appendChild(figure);
}

/**
 * A small captioned picture: a figure with a canvas of the given size (described for screen
 * readers by `label`) and an empty caption.
 * @param {number} width
 * @param {number} height
 * @param {string} label
 */
function thumbnail(width, height, label) {
  const canvas = element("canvas", "live-example__thumb");
  canvas.width = width;
  canvas.height = height;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", label);
  const caption = element("figcaption");
  const figure = element("figure", "live-example__seen");
  figure.append(canvas, caption);
  return { figure, canvas, caption };
}

/** @type {Reading[]} */
const READINGS = [classes, values, greyPicture, drawingSeen];
/** @type {Array<(root: WidgetRoot, run: ShownRun) => void>} */
const PRESENTERS = [valuesTable, rgbaPicture, heatmap];

/**
 * A widget root as the tests see it after a Run: its outputs, plain.
 * @typedef {WidgetRoot & {liveExampleOutputs?: Record<string, {dims: number[],
 *   data: Array<number | string>}>}} TestedRoot
 */

/**
 * Show a run with every presenter; expose its outputs to tests (root.liveExampleOutputs).
 * @param {TestedRoot} root
 * @param {ShownRun} run
 */
export function presentOutputs(root, run) {
  const area = part(root, "reading");
  const box = element("div", "live-example__readable");
  if (area) {
    for (const present of READINGS) present(root, run, box);
    area.replaceChildren(...(box.childNodes.length ? [box] : []));
  }
  for (const present of PRESENTERS) present(root, run);
  root.liveExampleOutputs = Object.fromEntries(run.results.map(
    ({ name, dims, values: data }) => [name, { dims: Array.from(dims), data: Array.from(data) }]));
}

/**
 * Empty every presenter's area before a Run (the canvases keep the last picture).
 * @param {TestedRoot} root
 */
export function clearOutputs(root) {
  needPart(root, "outputs").replaceChildren();
  const area = part(root, "reading");
  if (area) area.replaceChildren();
  delete root.dataset.answer;
  delete root.liveExampleOutputs;
}
