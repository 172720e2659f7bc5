// @ts-check
/*
 * Live examples: the picture a pipeline runs on. The sample, a file of the reader's, or one
 * frame of the camera where the browser offers one: the camera is opened for that one frame
 * and every track is stopped as soon as it is taken. Nothing is uploaded: a file or a frame is
 * decoded in the page. A refused or missing camera is one line, and the widget stays as it was.
 */
import { errorMessage } from "./live-example-core.mjs";
import { context2d, needPart, part } from "./live-example-dom.mjs";

/**
 * @import { WidgetRoot } from "./live-example-dom.mjs"
 */

/**
 * Where the picture of a Run comes from.
 * @typedef {{kind: "sample", url: string} | {kind: "own", blob: Blob}} PictureSource
 */

/** @type {WeakMap<WidgetRoot, Blob>} the camera's last frame, per widget */
const frames = new WeakMap();

/**
 * The picture the reader picked.
 * @param {WidgetRoot} root
 * @returns {PictureSource}
 */
export function pictureSource(root) {
  /** @type {HTMLInputElement | null} */
  const picked = root.querySelector("input[data-le-picture]:checked");
  const choice = picked ? picked.value : "sample";
  if (choice === "file") {
    const files = needPart(root, "file").files;
    if (!files || !files[0]) throw new Error("Choose a photo first, or pick the sample.");
    return { kind: "own", blob: files[0] };
  }
  if (choice === "camera") {
    const frame = frames.get(root);
    if (!frame) throw new Error("Take a photo with the camera first, or pick the sample.");
    return { kind: "own", blob: frame };
  }
  return { kind: "sample", url: new URL(root.dataset.pictureUrl || "", location.href).href };
}

/**
 * The one line for a file of the reader's that the browser could not decode as a picture.
 * @param {unknown} error what decoding it threw
 */
export function unreadablePicture(error) {
  return "This file is not a picture the browser can read (" + errorMessage(error) +
    "): pick a JPEG, PNG or WebP photo.";
}

/**
 * Ready the picture controls: the camera's only where the browser has one to offer.
 * @param {WidgetRoot} root
 */
export function readyPictureInputs(root) {
  const camera = part(root, "camera");
  if (camera) camera.hidden = !(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  const file = part(root, "file");
  if (file) file.addEventListener("change", () => select(root, "file"));
}

/**
 * Select one of the picture choices (sample, file, camera).
 * @param {WidgetRoot} root
 * @param {string} value
 */
function select(root, value) {
  /** @type {HTMLInputElement | null} */
  const radio = root.querySelector('input[data-le-picture][value="' + value + '"]');
  if (radio) radio.checked = true;
}

/**
 * The reader asked for a picture from `where` ("camera": one frame now).
 * @param {WidgetRoot} root
 * @param {string} where
 */
export async function pictureChosen(root, where) {
  if (where !== "camera") return;
  const error = needPart(root, "error");
  error.hidden = true;
  try {
    const frame = await cameraFrame();
    frames.set(root, frame);
    select(root, "camera");
    root.dataset.camera = "taken";
    const preview = part(root, "camera-preview");
    if (preview) preview.textContent = "A photo was taken: press Run.";
  } catch (failure) {
    root.dataset.camera = "refused";
    error.textContent = cameraMessage(failure);
    error.hidden = false;
  }
}

/**
 * One frame of the camera, as a PNG; the camera is stopped before this returns.
 * @returns {Promise<Blob>}
 */
async function cameraFrame() {
  const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: false });
  try {
    const video = document.createElement("video");
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    await video.play();
    if (!video.videoWidth) {
      await new Promise((resolve) => { video.addEventListener("loadeddata", resolve, { once: true }); });
    }
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    context2d(canvas).drawImage(video, 0, 0);
    video.srcObject = null;
    return await new Promise((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the frame could not be kept"))),
                    "image/png");
    });
  } finally {
    for (const track of stream.getTracks()) track.stop();
    cameraStopped(stream);
  }
}

/**
 * Tests read whether every track of the last camera stream ended.
 * @param {MediaStream} stream
 */
function cameraStopped(stream) {
  const hooks = globalThis.onnxLiveExample;
  if (hooks) hooks.cameraTracks = stream.getTracks().map((track) => track.readyState);
}

/**
 * One line for a camera that could not give a frame.
 * @param {unknown} failure
 */
function cameraMessage(failure) {
  const name = failure && typeof failure === "object" && "name" in failure ? String(failure.name) : "";
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "The camera was refused: allow it for this site, or choose a photo instead.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") {
    return "No camera was found: choose a photo instead.";
  }
  return "The camera gave no picture (" + errorMessage(failure) + "): choose a photo instead.";
}
