/*
 * Live examples: how a Run's outputs are shown ("presenters").
 *
 * Every presenter gets the widget root and the results, one per output:
 * {name, type, dims, values, verdict} (values as plain numbers or strings, verdict the
 * "Max abs diff" cell). The values table shows everything; other presenters add a readable
 * view of the outputs they understand (today: an RGBA picture onto the output canvas; later
 * class names with top-k bars, heatmaps, values with units) and ignore the rest.
 */
import { formatDims, formatValues } from "./live-example-core.mjs";
import { part } from "./live-example-dom.mjs";

/** Every output as a row: name, type, dims, the first values, the reference verdict. */
function valuesTable(root, results) {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const title of ["Output", "Type", "Dims", "Values", "Max abs diff"]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.appendChild(cell);
  }
  const body = table.createTBody();
  for (const { name, type, dims, values, verdict } of results) {
    const row = body.insertRow();
    for (const text of [name, type, formatDims(dims), formatValues(values), verdict]) {
      row.insertCell().textContent = text;
    }
  }
  part(root, "outputs").replaceChildren(table);
}

/** A uint8 [height, width, 4] output of a picture model, drawn on the output canvas. */
function rgbaPicture(root, results) {
  const canvas = part(root, "output-image");
  if (!canvas || !root.dataset.imageInput) return;
  for (const { type, dims, values } of results) {
    if (type !== "uint8" || dims.length !== 3 || dims[2] !== 4) continue;
    const [height, width] = dims;
    canvas.width = width;
    canvas.height = height;
    const pixels = new ImageData(new Uint8ClampedArray(values), width, height);
    canvas.getContext("2d").putImageData(pixels, 0, 0);
  }
}

const PRESENTERS = [valuesTable, rgbaPicture];

/** Show the results with every presenter. */
export function presentOutputs(root, results) {
  for (const present of PRESENTERS) present(root, results);
}

/** Empty every presenter's area before a Run (the canvas keeps the last picture, as before). */
export function clearOutputs(root) {
  part(root, "outputs").replaceChildren();
}
