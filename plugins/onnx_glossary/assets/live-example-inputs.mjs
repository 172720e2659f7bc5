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
import { part } from "./live-example-dom.mjs";

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

function checkedSample(root) {
  const picked = root.querySelector("input[data-le-sample]:checked");
  return picked ? Number(picked.dataset.leSample) : 0;
}

/**
 * The input for this Run: {source: "sample", index} or {source: "own", kind}, with
 * hasReference and noReference ({verdict, check} texts when there is no reference).
 */
export function currentInput(root) {
  const useOwn = part(root, "use-own");
  const kind = root.dataset ? root.dataset.inputKind : undefined;
  if (useOwn && useOwn.checked) {
    const file = part(root, "file");
    // "your own picture" without a file falls back to the picked sample.
    if (kind !== "picture" || (file && file.files[0])) {
      return { source: "own", kind, hasReference: false, noReference: NO_REFERENCE[kind] };
    }
  }
  return { source: "sample", index: checkedSample(root), hasReference: true, noReference: null };
}

/* Inputs of a sample as {name: values} and {name: dims} (sample 0's are the top level). */
function sampleInputs(reference, index) {
  const entries = (index > 0 && reference.samples[index].inputs) || reference.inputs;
  return {
    values: Object.fromEntries(entries.map((e) => [e.name, e.data])),
    dims: Object.fromEntries(entries.map((e) => [e.name, e.dims])),
  };
}

/** The numbers of the form, in field order; a readable error for an empty or bad field. */
export function formValues(root) {
  const fields = Array.from(root.querySelectorAll("input[data-le-field]"));
  return fields.map((field) => {
    const value = field.value.trim() === "" ? NaN : Number(field.value);
    if (!Number.isFinite(value)) {
      const label = field.closest("label");
      throw new Error("Enter a number for " + (label ? label.textContent.trim() : "every field") + ".");
    }
    return value;
  });
}

/** The drawing pad's pixels (ImageData). */
function padPixels(root) {
  const pad = part(root, "pad");
  return padContext(pad).getImageData(0, 0, pad.width, pad.height);
}

/**
 * makeFeeds()'s extra arguments for `input` and whether the session may pin the sample's
 * sizes: {args, pinned, fed} (fed: {name: values} of the own numbers, for the presenters).
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
    return { args: [part(root, "file").files[0]], pinned: false };
  }
  const tensor = root.dataset.inputTensor;
  let own;
  if (input.kind === "drawing") {
    if (!padDrawn(root)) throw new Error("The drawing pad is empty: draw a digit, or pick a sample.");
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

function selectOwn(root) {
  const useOwn = part(root, "use-own");
  if (useOwn) useOwn.checked = true;
}

function padDrawn(root) {
  return part(root, "pad").dataset.drawn === "true";
}

/*
 * The pad's 2D context (always asked for the same way: the first call fixes its attributes).
 * Strokes: round, about a twelfth of the pad wide (what the reduction was tuned with).
 */
function padContext(pad) {
  const context = pad.getContext("2d", { willReadFrequently: true });
  context.lineCap = "round";
  context.lineJoin = "round";
  context.lineWidth = Math.round(pad.width / 12);
  context.strokeStyle = "#000";
  context.fillStyle = "#000";
  return context;
}

function padPoint(pad, event) {
  const box = pad.getBoundingClientRect();
  return [(event.clientX - box.left) * (pad.width / box.width),
          (event.clientY - box.top) * (pad.height / box.height)];
}

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

/* Where the keyboard pen is, and whether it is down. */
const keyboardPens = new WeakMap();

function wirePad(root) {
  const pad = part(root, "pad");
  if (!pad) return;
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
    for (const point of points.length ? points : [event]) {
      const next = padPoint(pad, point);
      drawSegment(root, pad, last, next);
      last = next;
    }
  });
  for (const type of ["pointerup", "pointercancel"]) {
    pad.addEventListener(type, () => { last = null; });
  }
  pad.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const pen = keyboardPens.get(pad) || { at: [pad.width / 2, pad.height / 2], down: false };
    keyboardPens.set(pad, pen);
    if (event.key === " ") {
      pen.down = !pen.down;
      if (pen.down) drawSegment(root, pad, pen.at, pen.at);
    } else if (moves[event.key]) {
      const step = pad.width / 32;
      const [dx, dy] = moves[event.key];
      const next = [Math.min(pad.width, Math.max(0, pen.at[0] + dx * step)),
                    Math.min(pad.height, Math.max(0, pen.at[1] + dy * step))];
      if (pen.down) drawSegment(root, pad, pen.at, next);
      pen.at = next;
    } else {
      return;
    }
    event.preventDefault();
    pad.setAttribute("aria-label", pad.getAttribute("aria-label").split(" Pen at")[0] +
      " Pen at " + Math.round(pen.at[0]) + ", " + Math.round(pen.at[1]) +
      (pen.down ? ", down (drawing)." : ", up."));
  });
}

/** Empty the pad; the picked sample is fed again. */
export function clearPad(root) {
  const pad = part(root, "pad");
  if (!pad) return;
  padContext(pad).clearRect(0, 0, pad.width, pad.height);
  delete pad.dataset.drawn;
  keyboardPens.delete(pad);
  const useOwn = part(root, "use-own");
  if (useOwn && useOwn.checked) {
    const first = root.querySelector("input[data-le-sample]");
    if (first) first.checked = true;
  }
}

/* Each drawing sample's numbers as a tiny picture beside its name (dark ink on light). */
function drawThumbnails(root) {
  for (const canvas of root.querySelectorAll("canvas[data-le-thumb]")) {
    const radio = canvas.parentElement.querySelector("input[data-values]");
    if (!radio) continue;
    const values = JSON.parse(radio.dataset.values);
    drawCells(canvas, values, Number(root.dataset.inputMax || 16));
  }
}

/** Numbers 0..max as grey cells on a canvas of grid x grid pixels (0 white, max black). */
export function drawCells(canvas, values, max) {
  const side = canvas.width;
  const image = new ImageData(side, side);
  for (let i = 0; i < side * side; i++) {
    const level = 255 - Math.round(255 * Math.min(1, Math.max(0, Number(values[i]) / max)));
    image.data.set([level, level, level, 255], 4 * i);
  }
  canvas.getContext("2d").putImageData(image, 0, 0);
}

/** Ready the input controls of a widget (once per widget). */
export function initInputs(root) {
  wirePad(root);
  drawThumbnails(root);
  // A picture picked before this module loaded (a quick reader on a slow page) raised its
  // `change` with nobody listening: take it as picked now, so Run feeds it.
  const file = part(root, "file");
  if (file && file.files && file.files[0]) previewInput(root, file);
}

/**
 * Keep the controls in step after a `change` or `input` inside the widget: picking a file or
 * editing the form selects "your own"; picking a sample fills the form with its numbers; the
 * picture preview shows the chosen picture from memory.
 */
export function previewInput(root, target) {
  if (target.matches && target.matches("input[data-le-field]")) {
    selectOwn(root);
    return;
  }
  if (target.matches && target.matches("input[data-le-sample]") && target.dataset.values) {
    const values = JSON.parse(target.dataset.values);
    const fields = root.querySelectorAll("input[data-le-field]");
    fields.forEach((field, i) => { if (i < values.length) field.value = String(values[i]); });
  }
  const preview = part(root, "input-image");
  const file = part(root, "file");
  const useOwn = part(root, "use-own");
  if (!preview || !file || !useOwn) return;
  if (!preview.dataset.sample) preview.dataset.sample = preview.src;
  if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
  if (target.dataset.le === "file" && file.files[0]) useOwn.checked = true;
  preview.src = useOwn.checked && file.files[0]
    ? URL.createObjectURL(file.files[0])
    : preview.dataset.sample;
}
