// @ts-check
/*
 * Live examples: how a Run's answer is shown ("presenters").
 *
 * The answer comes first: a reading (example.yml's `output`: classes, values, picture,
 * heatmap, text-lines, mask, faces or points) gives it in words (live-example-answers.mjs) and draws
 * its picture or bars at the column's full width; the raw outputs go into the folded record.
 * Every presenter gets the widget root and the shown run: {results, reading, input, label,
 * fed}. `results` has one entry per output, {name, type, dims, values, verdict} (values as
 * plain numbers or strings, verdict the "Max abs diff" cell); `label` is the picked sample's
 * true answer, if known; `fed` maps input names to {dims, values} as fed. Everything from a
 * model or example.yml is set as text, never as markup.
 */
import {
  answerWords, classesAnswer, counted, fractionText, maskFraction, pictureFields, valuesAnswer,
} from "./live-example-answers.mjs";
import {
  breakPieces, formatDims, formatPercent, formatValue, formatValues, greyPixels,
  heatmapGradient, heatmapPixels, readValues,
} from "./live-example-core.mjs";
import { context2d, needPart, part } from "./live-example-dom.mjs";
import { drawCells } from "./live-example-inputs.mjs";
import { detectTextBoxes } from "./text-boxes.mjs";

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
 * A reading: draws the answer into `area` (or onto the widget's canvases) and returns its
 * words, or null when the run is not its kind.
 * @typedef {(root: WidgetRoot, run: ShownRun, area: HTMLElement) => string | null} Reading
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
  if (!output || !reading || reading.kind !== "classes") return null;
  const { rows, answer, fields } = classesAnswer(output.values, output.dims, reading);
  root.dataset.answerClass = answer;
  if (run.label !== null && run.label !== undefined) {
    const right = String(run.label) === answer;
    const verdict = element("p", right ? "live-example__right" : "live-example__wrong",
      (right ? "✓ right: " : "✗ wrong: ") + "the true answer is " + String(run.label) + ".");
    area.appendChild(verdict);
  }
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
  drawingSeen(root, run, area);
  if (reading.softmax) {
    area.appendChild(element("p", "live-example__note",
      "These scores are logits; softmax turned them into probabilities."));
  }
  return answerWords("classes", reading.answer, fields);
}

/**
 * Numbers: one answer per row of the batch, beside its row of the form when there is one.
 * @type {Reading}
 */
function values(root, run, area) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "values") return null;
  const width = output.dims.length > 1 ? output.dims[output.dims.length - 1] : output.values.length;
  /** @type {NodeListOf<HTMLOutputElement>} */
  const outs = root.querySelectorAll("[data-le-row-out]");
  const besideRows = outs.length > 0 && run.input.source !== "sample" ||
    outs.length > 0 && output.dims[0] === outs.length;
  if (besideRows) {
    outs.forEach((out, row) => {
      const shown = output.values.slice(row * width, (row + 1) * width).map(formatValue);
      out.textContent = shown.length ? "→ " + shown.join(", ") : "–";
    });
  } else {
    const list = element("dl", "live-example__values");
    for (const { label, text } of readValues(output.values, output.dims, reading)) {
      list.append(element("dt", "", label), element("dd", "", text));
    }
    area.appendChild(list);
  }
  return answerWords("values", reading.answer, valuesAnswer(output.values, output.dims).fields);
}

/**
 * A float output [.., 1, height, width] of a model without a picture input (an upsampling
 * layer, say), drawn in grey from its smallest value (black) to its largest (white), large
 * enough to see each value.
 * @type {Reading}
 */
function greyPicture(root, run, area) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "picture" || root.dataset.imageInput) return null;
  const dims = output.dims.map(Number);
  if (dims.length < 2 || dims.slice(0, -2).some((d) => d !== 1)) return null;
  const [height, width] = dims.slice(-2);
  const { pixels, min, max } = greyPixels(output.values, height, width);
  const { figure, canvas, caption } = thumbnail(width, height,
    "Output " + output.name + " as a " + height + "×" + width + " grey picture");
  figure.classList.add("live-example__seen--large");
  context2d(canvas).putImageData(new ImageData(pixels, width, height), 0, 0);
  // The tensor's name comes last: an exporter's names ("5") mean nothing to a reader.
  caption.append("the output in grey: black is " + formatValue(min) + ", white is " +
                 formatValue(max) + " (tensor ", identifier(output.name), ")");
  area.appendChild(figure);
  return answerWords("picture", reading.answer, pictureFields(width, height));
}

/**
 * A uint8 [height, width, 4] output of a picture model, drawn on the output canvas.
 * @type {Reading}
 */
function rgbaPicture(root, run) {
  const reading = run.reading;
  const canvas = part(root, "output-image");
  if (!canvas || !root.dataset.imageInput || (reading && reading.kind !== "picture")) return null;
  for (const { type, dims, values: data } of run.results) {
    if (type !== "uint8" || dims.length !== 3 || dims[2] !== 4) continue;
    const [height, width] = dims;
    canvas.width = width;
    canvas.height = height;
    // A uint8 output's values are numbers.
    const bytes = new Uint8ClampedArray(/** @type {number[]} */ (data));
    context2d(canvas).putImageData(new ImageData(bytes, width, height), 0, 0);
    return answerWords("picture", reading ? reading.answer : null, pictureFields(width, height));
  }
  return null;
}

/**
 * The picture the model was fed, as RGBA bytes, when it has the size of an output map.
 * @param {WidgetRoot} root
 * @param {ShownRun} run
 * @param {number} height
 * @param {number} width
 * @returns {number[] | null}
 */
function fedPicture(root, run, height, width) {
  const image = run.fed[root.dataset.imageInput || ""];
  // The picture input is uint8 [height, width, 4]: its values are numbers.
  return image && image.dims[0] === height && image.dims[1] === width
    ? /** @type {number[]} */ (image.values) : null;
}

/**
 * The answer's canvas over the input picture, sized to the map: its 2D context.
 * @param {WidgetRoot} root
 * @param {number} width
 * @param {number} height
 */
function overlayCanvas(root, width, height) {
  const canvas = part(root, "heatmap");
  if (!canvas) return null;
  canvas.width = width;
  canvas.height = height;
  return context2d(canvas);
}

/**
 * A one-channel map [.., height, width] drawn over the input picture, with its legend.
 * @type {Reading}
 */
function heatmap(root, run) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "heatmap" || output.dims.length < 2) return null;
  const [height, width] = output.dims.slice(-2);
  const context = overlayCanvas(root, width, height);
  if (!context) return null;
  const pixels = heatmapPixels(output.values, height, width, fedPicture(root, run, height, width));
  context.putImageData(new ImageData(pixels, width, height), 0, 0);
  /** @type {HTMLElement | null} */
  const ramp = root.querySelector(".live-example__ramp");
  if (ramp) ramp.style.background = heatmapGradient();
  return answerWords("heatmap", reading.answer, pictureFields(width, height));
}

/**
 * The fed picture drawn on a context, dimmed so that strokes over it stand out.
 * @param {CanvasRenderingContext2D} context
 * @param {number[] | null} picture
 * @param {number} width
 * @param {number} height
 */
function drawPicture(context, picture, width, height) {
  if (!picture) {
    context.fillStyle = "#fff";
    context.fillRect(0, 0, width, height);
    return;
  }
  context.putImageData(new ImageData(new Uint8ClampedArray(picture), width, height), 0, 0);
}

/**
 * A text detector's map turned into one box per line of text (the detector's own
 * post-processing, text-boxes.mjs), drawn over the picture.
 * @type {Reading}
 */
function textLines(root, run, area) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "text-lines" || output.dims.length < 2) return null;
  const [height, width] = output.dims.slice(-2);
  const boxes = detectTextBoxes(Float32Array.from(output.values, Number), width, height);
  root.dataset.boxes = JSON.stringify(boxes.map((b) => b.box));
  const context = overlayCanvas(root, width, height);
  if (context) {
    drawPicture(context, fedPicture(root, run, height, width), width, height);
    context.lineWidth = Math.max(2, Math.round(width / 160));
    context.strokeStyle = "#e91e63";
    for (const { points } of boxes) {
      context.beginPath();
      points.forEach(([x, y], i) => (i ? context.lineTo(x, y) : context.moveTo(x, y)));
      context.closePath();
      context.stroke();
    }
  }
  area.appendChild(element("p", "live-example__note", "Each box is one line of text the " +
    "detector found: its map marks the core of each line, and the boxes are widened back to " +
    "the letters' full height, as the detector's own post-processing does."));
  const count = boxes.length;
  return answerWords("text-lines", reading.answer, { count: counted(count, "line of text", "lines of text") },
    count ? {} : { none: "No text found" });
}

/**
 * A foreground mask [.., height, width]: the picture with its background removed, over a
 * checkerboard (transparent), with a download of the cut-out as a PNG.
 * @type {Reading}
 */
function mask(root, run, area) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "mask" || output.dims.length < 2) return null;
  const [height, width] = output.dims.slice(-2);
  const picture = fedPicture(root, run, height, width);
  const context = overlayCanvas(root, width, height);
  if (context && picture) {
    const cut = new Uint8ClampedArray(picture);
    for (let i = 0; i < width * height; i++) {
      cut[4 * i + 3] = Math.round(255 * Math.min(1, Math.max(0, Number(output.values[i]))));
    }
    context.putImageData(new ImageData(cut, width, height), 0, 0);
    const canvas = /** @type {HTMLCanvasElement} */ (context.canvas);
    const link = element("a", "md-button", "Download the cut-out (PNG)");
    link.download = (root.id || "cut-out") + ".png";
    link.href = canvas.toDataURL("image/png");
    area.appendChild(link);
  }
  const share = maskFraction(output.values);
  return answerWords("mask", reading.answer, { fraction: fractionText(share), ...pictureFields(width, height) });
}

/**
 * Faces: each box, score and keypoints (outputs boxes [n, 4], scores [n], keypoints [n, k, 2]
 * in the picture's pixels), drawn over the picture.
 * @type {Reading}
 */
function faces(root, run, area) {
  const reading = run.reading;
  if (!reading || reading.kind !== "faces") return null;
  const find = (/** @type {string} */ name) => run.results.find((r) => r.name === name);
  const scores = (readingOutput(run) || find("scores"));
  const boxes = find("boxes");
  const keypoints = find("keypoints");
  if (!scores) return null;
  const count = scores.values.length;
  const image = run.fed[root.dataset.imageInput || ""];
  if (image && image.dims.length === 3) {
    const [height, width] = image.dims;
    const context = overlayCanvas(root, width, height);
    if (context) {
      drawPicture(context, /** @type {number[]} */ (image.values), width, height);
      context.lineWidth = Math.max(2, Math.round(width / 160));
      context.font = Math.max(12, Math.round(width / 24)) + "px sans-serif";
      for (let i = 0; i < count; i++) {
        const [x0, y0, x1, y1] = boxes ? boxes.values.slice(4 * i, 4 * i + 4).map(Number) : [0, 0, 0, 0];
        context.strokeStyle = "#00e676";
        context.strokeRect(x0, y0, x1 - x0, y1 - y0);
        context.fillStyle = "#00e676";
        context.fillText(Number(scores.values[i]).toFixed(2), x0, Math.max(12, y0 - 4));
        const points = keypoints ? keypoints.values.length / Math.max(1, count) / 2 : 0;
        for (let k = 0; k < points; k++) {
          const at = 2 * (i * points + k);
          const [x, y] = [Number(keypoints ? keypoints.values[at] : 0),
                          Number(keypoints ? keypoints.values[at + 1] : 0)];
          context.beginPath();
          context.arc(x, y, Math.max(2, width / 120), 0, 2 * Math.PI);
          context.fill();
        }
      }
    }
  }
  if (count) {
    area.appendChild(element("p", "live-example__note", "Each box is a face the detector found, " +
      "with its score (0 to 1) and six keypoints: the eyes, the nose tip, the mouth and the ears."));
  }
  const best = count ? Math.max(...scores.values.map(Number)) : 0;
  return answerWords("faces", reading.answer, { count: counted(count, "face", "faces"),
    score: best.toFixed(2) }, count ? {} : { none: "No face found" });
}

/**
 * Points [.., n, 2 or 3] in the picture's pixels (x, y first), as dots: over the fed picture
 * when the run was fed one, else over what the answer's canvas shows (an earlier step's answer
 * in a pipeline).
 * @type {Reading}
 */
function dots(root, run) {
  const output = readingOutput(run);
  const reading = run.reading;
  if (!output || !reading || reading.kind !== "points" || output.dims.length < 2) return null;
  const size = output.dims[output.dims.length - 1];
  const scored = reading.score ? run.results.find((r) => r.name === reading.score) : null;
  const score = scored ? Number(scored.values[0]) : null;
  const threshold = reading.threshold;
  // Below its own confidence threshold the model found none: nothing is drawn.
  const count = score !== null && score < threshold ? 0
    : Math.floor(output.values.length / Math.max(1, size));
  const image = run.fed[root.dataset.imageInput || ""];
  const canvas = part(root, "heatmap");
  if (canvas) {
    /** @type {CanvasRenderingContext2D | null} */
    let context;
    if (image && image.dims.length === 3) {
      const [height, width] = image.dims;
      context = overlayCanvas(root, width, height);
      if (context) drawPicture(context, /** @type {number[]} */ (image.values), width, height);
    } else {
      context = context2d(canvas);
    }
    if (context) {
      const radius = Math.max(1, canvas.width / 300);
      context.fillStyle = "#00b0ff";
      for (let i = 0; i < count; i++) {
        context.beginPath();
        context.arc(Number(output.values[size * i]), Number(output.values[size * i + 1]), radius,
          0, 2 * Math.PI);
        context.fill();
      }
    }
  }
  const fields = { count: counted(count, "point", "points"),
    score: score === null ? "" : score.toFixed(2) };
  return answerWords("points", reading.answer, fields, count ? {} : {
    none: "No points placed" + (score === null ? "" : ": " + (reading.score || "") + " " +
      fields.score + ", below " + threshold),
  });
}

/**
 * What the model saw of a drawing or a digit sample: its grid of numbers as a picture.
 * @param {WidgetRoot} root
 * @param {ShownRun} run
 * @param {HTMLElement} area
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
const READINGS = [classes, values, greyPicture, rgbaPicture, heatmap, textLines, mask, faces, dots];

/**
 * A widget root as the tests see it after a Run: its outputs, plain.
 * @typedef {WidgetRoot & {liveExampleOutputs?: Record<string, {dims: number[],
 *   data: Array<number | string>}>}} TestedRoot
 */

/**
 * Show a run: its answer's picture or bars (the first reading that knows the run's kind), and
 * every output in the record's table; exposes the outputs to tests (root.liveExampleOutputs).
 * Returns the answer in words.
 * @param {TestedRoot} root
 * @param {ShownRun} run
 * @returns {string}
 */
export function presentOutputs(root, run) {
  const area = part(root, "reading");
  const box = element("div", "live-example__readable");
  const words = readAnswer(root, run, box);
  if (area) area.replaceChildren(...(box.childNodes.length ? [box] : []));
  valuesTable(root, run);
  root.liveExampleOutputs = Object.fromEntries(run.results.map(
    ({ name, dims, values: data }) => [name, { dims: Array.from(dims), data: Array.from(data) }]));
  return words;
}

/**
 * A run's answer: drawn by the first reading that knows its kind (notes go into `area`), and
 * its words; a pipeline reads each step's run this way, onto one picture.
 * @param {WidgetRoot} root
 * @param {ShownRun} run
 * @param {HTMLElement} area
 * @returns {string}
 */
export function readAnswer(root, run, area) {
  for (const present of READINGS) {
    const words = present(root, run, area);
    if (words !== null) return words;
  }
  return rawAnswer(run);
}

/**
 * The words of a run no reading knows: its first output, briefly.
 * @param {ShownRun} run
 */
function rawAnswer(run) {
  const first = run.results[0];
  if (!first) return "No outputs";
  const numbers = first.values.map(Number).filter(Number.isFinite);
  const count = first.values.length.toLocaleString("en") + " value" + (first.values.length === 1 ? "" : "s");
  if (numbers.length !== first.values.length || !numbers.length) {
    return "Output " + first.name + ": " + count;
  }
  const [low, high] = [Math.min(...numbers), Math.max(...numbers)];
  const short = (/** @type {number} */ v) => String(Number(v.toPrecision(4)));
  return "Output " + first.name + ": " + count + (low === high
    ? ", all " + short(low) : ", from " + short(low) + " to " + short(high));
}
