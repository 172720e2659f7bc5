// @ts-check
/*
 * Live examples: where a Run's input comes from ("input sources"), and the controls that make
 * it (the sample picker, the drawing pad, the form, the picture chooser).
 *
 * currentInput(root) reads the controls and says what the reader chose, without any download:
 * a named sample (index 0 is the default and the one example.mjs feeds by itself) or the
 * reader's own input (drawing, numbers, picture). feedArgs() then turns that choice into the
 * arguments of example.mjs's makeFeeds(), once reference.json and example.mjs are loaded.
 * Input the reader makes has no reference: `noReference` says so.
 */

import { ownDims, sameShapes } from "./live-example-core.mjs";
import { context2d, needPart, part } from "./live-example-dom.mjs";

/**
 * @import { ReferenceTensor } from "./live-example-reference.mjs"
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 * @import { ExampleModule, FeedArgs, FeedValues } from "./live-example-widget.mjs"
 */

/**
 * The part of reference.json that feedArgs reads: every sample's inputs (sample 0's are the
 * top level's).
 * @typedef {Pick<ReferenceTensor, "name" | "dims" | "data">} SampleTensor
 * @typedef {{inputs: SampleTensor[], samples: Array<{inputs?: SampleTensor[]}>}} SampleInputs
 */

/**
 * What a widget says when the reader's own input has no reference.
 * @typedef {{verdict: string, check: string}} NoReference
 */

/**
 * The input of a Run: a named sample (index 0 is the default, the one example.mjs feeds by
 * itself) or the reader's own input of the widget's kind.
 * @typedef {{source: "sample", index: number, hasReference: true, noReference: null}
 *   | {source: "own", kind: string | undefined, hasReference: false,
 *      noReference: NoReference}} RunInput
 */

/** @type {Record<string, NoReference>} */
const NO_REFERENCE = {
  drawing: {
    verdict: "no reference for your drawing",
    check: "No reference exists for your drawing: nothing to compare.",
  },
  form: {
    verdict: "no reference for your numbers",
    check: "No reference exists for your numbers: nothing to compare.",
  },
  picture: {
    verdict: "no reference for your picture",
    check: "No reference exists for your own picture: nothing to compare.",
  },
};

/** @param {WidgetRoot} root */
function checkedSample(root) {
  /** @type {HTMLInputElement | null} */
  const picked = root.querySelector("input[data-le-sample]:checked");
  return picked ? Number(picked.dataset.leSample) : 0;
}

/**
 * The input for this Run: {source: "sample", index} or {source: "own", kind}, with
 * hasReference and noReference ({verdict, check} texts when there is no reference).
 * @param {WidgetRoot} root
 * @returns {RunInput}
 */
export function currentInput(root) {
  const useOwn = part(root, "use-own");
  const kind = root.dataset ? root.dataset.inputKind : undefined;
  // A card's form has no picker: the reader's numbers are theirs once they edit one.
  const form = part(root, "form");
  const edited = !useOwn && form && form.dataset.edited === "true";
  if ((useOwn && useOwn.checked) || edited) {
    const file = part(root, "file");
    // "your own picture" without a file falls back to the picked sample.
    if (kind !== "picture" || (file && file.files && file.files[0])) {
      // The template gives a widget with "your own" input a kind that NO_REFERENCE names.
      return { source: "own", kind, hasReference: false, noReference: NO_REFERENCE[kind || ""] };
    }
  }
  return { source: "sample", index: checkedSample(root), hasReference: true, noReference: null };
}

/**
 * Inputs of a sample as {name: values} and {name: dims} (sample 0's are the top level).
 * @param {SampleInputs} reference
 * @param {number} index
 * @returns {{values: FeedValues, dims: Record<string, number[]>}}
 */
function sampleInputs(reference, index) {
  const entries = (index > 0 && reference.samples[index].inputs) || reference.inputs;
  return {
    values: Object.fromEntries(entries.map((e) => [e.name, e.data])),
    dims: Object.fromEntries(entries.map((e) => [e.name, e.dims])),
  };
}

/**
 * The numbers of the form, in field order; a readable error for an empty or bad field.
 * @param {WidgetRoot} root
 * @returns {number[]}
 */
export function formValues(root) {
  /** @type {HTMLInputElement[]} */
  const fields = Array.from(root.querySelectorAll("input[data-le-field]"));
  return fields.map((field) => {
    const value = field.value.trim() === "" ? NaN : Number(field.value);
    if (!Number.isFinite(value)) {
      const label = field.closest("label");
      const name = label && label.textContent ? label.textContent.trim() : "every field";
      throw new Error("Enter a number for " + name + ".");
    }
    return value;
  });
}

/**
 * The drawing pad's pixels.
 * @param {WidgetRoot} root
 * @returns {ImageData}
 */
function padPixels(root) {
  const pad = needPart(root, "pad");
  return padContext(pad).getImageData(0, 0, pad.width, pad.height);
}

/**
 * makeFeeds()'s extra arguments for `input` and whether the session may pin the sample's
 * sizes: {args, pinned}.
 * @param {WidgetRoot} root
 * @param {RunInput} input
 * @param {Pick<ExampleModule, "drawingToInput">} example
 * @param {SampleInputs} reference
 * @returns {{args: FeedArgs, pinned: boolean}}
 */
export function feedArgs(root, input, example, reference) {
  if (input.source === "sample") {
    if (input.index === 0) return { args: [], pinned: true };
    const chosen = sampleInputs(reference, input.index);
    const first = sampleInputs(reference, 0);
    return { args: [chosen.values, chosen.dims], pinned: sameShapes(chosen.dims, first.dims) };
  }
  if (input.kind === "picture") {
    // makeFeeds(ort, image) decodes it in the page: it is never uploaded.
    const files = needPart(root, "file").files;
    const picked = files && files[0];
    // currentInput says "own" for a picture only once a file is picked.
    if (!picked) throw new Error("Pick a picture first, or pick a sample.");
    return { args: [picked], pinned: false };
  }
  const tensor = root.dataset.inputTensor || "";
  let own;
  if (input.kind === "drawing") {
    if (!padDrawn(root)) throw new Error("The drawing pad is empty: draw a digit, or pick a sample.");
    if (!example.drawingToInput) throw new Error("This example.mjs has no drawingToInput: rebuild the site.");
    own = example.drawingToInput(padPixels(root));
  } else {
    own = formValues(root);
  }
  const base = sampleInputs(reference, 0);
  const values = { ...base.values, [tensor]: own };
  const dims = { ...base.dims, [tensor]: ownDims(base.dims[tensor], own.length) };
  return { args: [values, dims], pinned: sameShapes(dims, base.dims) };
}

/* -- the controls ------------------------------------------------------------------------- */

/** @param {WidgetRoot} root */
function selectOwn(root) {
  const useOwn = part(root, "use-own");
  if (useOwn) useOwn.checked = true;
  const form = part(root, "form");
  if (form) form.dataset.edited = "true";
  showPad(root);
}

/**
 * The drawing pad shows only while the reader's own drawing is the input: a sample needs no
 * pad, and a pad in view would push Run and the answer down.
 * @param {WidgetRoot} root
 */
export function showPad(root) {
  const area = part(root, "pad-area");
  const useOwn = part(root, "use-own");
  if (area) area.hidden = !(useOwn && useOwn.checked);
}

/**
 * The form's rows (a batch): one more, or one less, between 1 and the form's data-rows.
 * @param {WidgetRoot} root
 * @param {1 | -1} change
 */
export function changeRows(root, change) {
  const form = part(root, "form");
  if (!form) return;
  /** @type {HTMLElement[]} */
  const rows = Array.from(form.querySelectorAll("[data-le-row]"));
  const most = Number(form.dataset.rows || 1);
  if (change > 0 && rows.length < most) {
    const last = rows[rows.length - 1];
    const copy = /** @type {HTMLElement} */ (last.cloneNode(true));
    copy.dataset.leRow = String(rows.length);
    const out = copy.querySelector("[data-le-row-out]");
    if (out) {
      out.textContent = "–";
      out.setAttribute("aria-label", "Answer for row " + (rows.length + 1));
    }
    last.after(copy);
  } else if (change < 0 && rows.length > 1) {
    rows[rows.length - 1].remove();
  } else {
    return;
  }
  selectOwn(root);
  updateRowButtons(root);
}

/**
 * Add and remove are offered only where they can act.
 * @param {WidgetRoot} root
 */
function updateRowButtons(root) {
  const form = part(root, "form");
  if (!form) return;
  const count = form.querySelectorAll("[data-le-row]").length;
  /** @type {HTMLButtonElement | null} */
  const add = root.querySelector('button[data-action="add-row"]');
  /** @type {HTMLButtonElement | null} */
  const remove = root.querySelector('button[data-action="remove-row"]');
  if (add) add.disabled = count >= Number(form.dataset.rows || 1);
  if (remove) remove.disabled = count <= 1;
}

/**
 * Show `numbers` in the form, as many rows as they fill (a sample of a batch model).
 * @param {WidgetRoot} root
 * @param {unknown[]} numbers
 */
function fillForm(root, numbers) {
  const form = part(root, "form");
  if (!form) return;
  const width = form.querySelector("[data-le-row]")?.querySelectorAll("input[data-le-field]").length || 1;
  const wanted = Math.max(1, Math.ceil(numbers.length / width));
  while (form.querySelectorAll("[data-le-row]").length < wanted &&
         form.querySelectorAll("[data-le-row]").length < Number(form.dataset.rows || 1)) {
    changeRows(root, 1);
  }
  while (form.querySelectorAll("[data-le-row]").length > wanted) changeRows(root, -1);
  /** @type {NodeListOf<HTMLInputElement>} */
  const fields = form.querySelectorAll("input[data-le-field]");
  fields.forEach((field, i) => { if (i < numbers.length) field.value = String(numbers[i]); });
  updateRowButtons(root);
}

/** @param {WidgetRoot} root */
function padDrawn(root) {
  return needPart(root, "pad").dataset.drawn === "true";
}

/**
 * The pad's 2D context (always asked for the same way: the first call fixes its attributes).
 * Strokes: round, about a twelfth of the pad wide (what the reduction was tuned with).
 * @param {HTMLCanvasElement} pad
 */
function padContext(pad) {
  const context = context2d(pad, { willReadFrequently: true });
  context.lineCap = "round";
  context.lineJoin = "round";
  context.lineWidth = Math.round(pad.width / 12);
  context.strokeStyle = "#000";
  context.fillStyle = "#000";
  return context;
}

/**
 * Where a pointer is on the pad, in the pad's own pixels.
 * @param {HTMLCanvasElement} pad
 * @param {{clientX: number, clientY: number}} event
 * @returns {Point}
 */
function padPoint(pad, event) {
  const box = pad.getBoundingClientRect();
  return [(event.clientX - box.left) * (pad.width / box.width),
          (event.clientY - box.top) * (pad.height / box.height)];
}

/**
 * @typedef {[number, number]} Point
 */

/**
 * @param {WidgetRoot} root
 * @param {HTMLCanvasElement} pad
 * @param {Point} from
 * @param {Point} to
 */
function drawSegment(root, pad, from, to) {
  const context = padContext(pad);
  context.beginPath();
  context.moveTo(from[0], from[1]);
  context.lineTo(to[0], to[1]);
  context.stroke();
  if (from[0] === to[0] && from[1] === to[1]) { // a dot
    context.beginPath();
    context.arc(from[0], from[1], context.lineWidth / 2, 0, 2 * Math.PI);
    context.fill();
  }
  pad.dataset.drawn = "true";
  selectOwn(root);
}

/**
 * Where the keyboard pen is, and whether it is down.
 * @type {WeakMap<HTMLCanvasElement, {at: Point, down: boolean}>}
 */
const keyboardPens = new WeakMap();

/** @type {Record<string, Point>} */
const PEN_MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** @param {WidgetRoot} root */
function wirePad(root) {
  const pad = part(root, "pad");
  if (!pad) return;
  /** @type {Point | null} */
  let last = null;
  pad.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 && event.pointerType === "mouse") return;
    event.preventDefault();
    pad.setPointerCapture(event.pointerId);
    last = padPoint(pad, event);
    drawSegment(root, pad, last, last);
  });
  pad.addEventListener("pointermove", (event) => {
    if (!last) return;
    // Pen and touch deliver coalesced points between frames: use them all for smooth strokes.
    const points = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    let from = last;
    for (const point of points.length ? points : [event]) {
      const next = padPoint(pad, point);
      drawSegment(root, pad, from, next);
      from = next;
    }
    last = from;
  });
  for (const type of ["pointerup", "pointercancel"]) {
    pad.addEventListener(type, () => { last = null; });
  }
  pad.addEventListener("keydown", (event) => {
    const moves = PEN_MOVES;
    const pen = keyboardPens.get(pad) || { at: [pad.width / 2, pad.height / 2], down: false };
    keyboardPens.set(pad, pen);
    if (event.key === " ") {
      pen.down = !pen.down;
      if (pen.down) drawSegment(root, pad, pen.at, pen.at);
    } else if (Object.hasOwn(moves, event.key)) {
      const step = pad.width / 32;
      const [dx, dy] = moves[event.key];
      /** @type {Point} */
      const next = [Math.min(pad.width, Math.max(0, pen.at[0] + dx * step)),
                    Math.min(pad.height, Math.max(0, pen.at[1] + dy * step))];
      if (pen.down) drawSegment(root, pad, pen.at, next);
      pen.at = next;
    } else {
      return;
    }
    event.preventDefault();
    pad.setAttribute("aria-label", (pad.getAttribute("aria-label") || "").split(" Pen at")[0] +
      " Pen at " + Math.round(pen.at[0]) + ", " + Math.round(pen.at[1]) +
      (pen.down ? ", down (drawing)." : ", up."));
  });
}

/**
 * Empty the pad, to draw again: "your own drawing" stays the input (pick a sample to leave it).
 * @param {WidgetRoot} root
 */
export function clearPad(root) {
  const pad = part(root, "pad");
  if (!pad) return;
  padContext(pad).clearRect(0, 0, pad.width, pad.height);
  delete pad.dataset.drawn;
  keyboardPens.delete(pad);
}

/**
 * Each drawing sample's numbers as a tiny picture beside its name (dark ink on light).
 * @param {WidgetRoot} root
 */
function drawThumbnails(root) {
  /** @type {NodeListOf<HTMLCanvasElement>} */
  const thumbs = root.querySelectorAll("canvas[data-le-thumb]");
  for (const canvas of thumbs) {
    /** @type {HTMLInputElement | null | undefined} */
    const radio = canvas.parentElement && canvas.parentElement.querySelector("input[data-values]");
    if (!radio || !radio.dataset.values) continue;
    /** @type {number[]} */
    const values = JSON.parse(radio.dataset.values);
    drawCells(canvas, values, Number(root.dataset.inputMax || 16));
  }
}

/**
 * Numbers 0..max as grey cells on a canvas of grid x grid pixels (0 white, max black).
 * @param {HTMLCanvasElement} canvas
 * @param {ArrayLike<number | bigint | string>} values
 * @param {number} max
 */
export function drawCells(canvas, values, max) {
  const side = canvas.width;
  const image = new ImageData(side, side);
  for (let i = 0; i < side * side; i++) {
    const level = 255 - Math.round(255 * Math.min(1, Math.max(0, Number(values[i]) / max)));
    image.data.set([level, level, level, 255], 4 * i);
  }
  context2d(canvas).putImageData(image, 0, 0);
}

/**
 * Ready the input controls of a widget (once per widget).
 * @param {WidgetRoot} root
 */
export function initInputs(root) {
  wirePad(root);
  drawThumbnails(root);
  showPad(root);
  updateRowButtons(root);
  // A picture picked before this module loaded (a quick reader on a slow page) raised its
  // `change` with nobody listening: take it as picked now, so Run feeds it.
  const file = part(root, "file");
  if (file && file.files && file.files[0]) previewInput(root, file);
}

/**
 * Keep the controls in step after a `change` or `input` inside the widget: picking a file or
 * editing the form selects "your own"; picking a sample fills the form with its numbers; the
 * picture preview shows the chosen picture from memory.
 * @param {WidgetRoot} root
 * @param {Element} target
 */
export function previewInput(root, target) {
  if (target.matches && target.matches("input[data-le-field]")) {
    selectOwn(root);
    return;
  }
  const isSample = target instanceof HTMLElement && target.matches("input[data-le-sample]");
  const values = isSample ? /** @type {HTMLElement} */ (target).dataset.values : undefined;
  if (values) {
    /** @type {unknown[]} */
    const numbers = JSON.parse(values);
    const useOwnBefore = part(root, "use-own");
    fillForm(root, numbers);
    // Filling the form is not the reader's own input: the sample stays picked.
    if (useOwnBefore) useOwnBefore.checked = false;
    const form = part(root, "form");
    if (form) delete form.dataset.edited;
    /** @type {HTMLInputElement} */ (target).checked = true;
  }
  if (isSample || (target instanceof HTMLElement && target.matches('[data-le="use-own"]'))) showPad(root);
  const preview = part(root, "input-image");
  const file = part(root, "file");
  const useOwn = part(root, "use-own");
  if (!preview || !file || !useOwn) return;
  if (!preview.dataset.sample) preview.dataset.sample = preview.src;
  if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
  const picked = file.files && file.files[0];
  if (target === file && picked) useOwn.checked = true;
  preview.src = useOwn.checked && picked
    ? URL.createObjectURL(picked)
    : preview.dataset.sample;
}
