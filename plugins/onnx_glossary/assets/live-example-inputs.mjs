/*
 * Live examples: where a Run's input comes from ("input sources").
 *
 * A source turns the widget's controls into the extra arguments of example.mjs's makeFeeds()
 * and says whether the build's reference outputs apply to that input. The first source that
 * offers an input wins; the shipped sample is last and always offers one. A new source (a
 * sample picker, a drawing pad, a form) is one more entry in SOURCES, before the sample.
 */

import { part } from "./live-example-dom.mjs";

/** The reader's own picture, when "your own" is checked and a file is chosen. */
const ownPicture = {
  name: "file",
  offer(root) {
    const useFile = part(root, "use-file");
    const input = part(root, "file");
    const file = useFile && useFile.checked && input && input.files[0];
    if (!file) return null;
    return {
      source: "file",
      args: [file], // makeFeeds(ort, image) decodes it in the page: it is never uploaded
      hasReference: false,
      noReference: {
        verdict: "no reference for your picture",
        check: "No reference exists for your own picture: nothing to compare.",
      },
    };
  },
};

/** The sample the build computed the reference outputs from (example.mjs's defaults). */
const shippedSample = {
  name: "sample",
  offer() {
    return { source: "sample", args: [], hasReference: true, noReference: null };
  },
};

const SOURCES = [ownPicture, shippedSample];

/** The input for this Run: {source, args, hasReference, noReference}. */
export function currentInput(root) {
  for (const source of SOURCES) {
    const input = source.offer(root);
    if (input) return input;
  }
  throw new Error("no input source offered an input");
}

/**
 * Keep the input preview in step with the picker after a `change` inside the widget: picking
 * a file also selects "your own", and the preview shows the picture from memory.
 */
export function previewInput(root, target) {
  const preview = part(root, "input-image");
  const file = part(root, "file");
  const useFile = part(root, "use-file");
  if (!preview || !file || !useFile) return;
  if (!preview.dataset.sample) preview.dataset.sample = preview.src;
  if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
  if (target.dataset.le === "file" && file.files[0]) useFile.checked = true;
  preview.src = useFile.checked && file.files[0]
    ? URL.createObjectURL(file.files[0])
    : preview.dataset.sample;
}
