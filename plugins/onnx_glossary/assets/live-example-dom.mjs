// @ts-check
/* Live examples: the few DOM helpers every part of the widget shares. */

/**
 * A widget's root element: the [data-live-example] element its parts sit in.
 * @typedef {HTMLElement} WidgetRoot
 */

/**
 * The parts (data-le="name") that are not plain HTML elements, with their element type, as
 * the widget's template (templates/live_example.html) writes them. Every other part is an
 * HTMLElement (a div, p, span, dd...).
 * @typedef {{
 *   "file": HTMLInputElement, "use-own": HTMLInputElement, "pad": HTMLCanvasElement,
 *   "heatmap": HTMLCanvasElement, "output-image": HTMLCanvasElement,
 *   "input-image": HTMLImageElement, "progress-bar": HTMLProgressElement,
 * }} SpecialParts
 */

/**
 * The element type of the part named N.
 * @template {string} N
 * @typedef {N extends keyof SpecialParts ? SpecialParts[N] : HTMLElement} PartElement
 */

/**
 * A named part of a widget: the element with data-le="name" inside it, or null when this
 * widget has no such part.
 * @template {string} N
 * @param {ParentNode} root
 * @param {N} name
 * @returns {PartElement<N> | null}
 */
export function part(root, name) {
  // The template gives each name its element type (SpecialParts); the page does not check it.
  return /** @type {PartElement<N> | null} */ (root.querySelector('[data-le="' + name + '"]'));
}

/**
 * A part the widget cannot work without (the template always writes it): the element, or a
 * readable error naming the part.
 * @template {string} N
 * @param {ParentNode} root
 * @param {N} name
 * @returns {PartElement<N>}
 */
export function needPart(root, name) {
  const element = part(root, name);
  if (!element) throw new Error('This widget has no data-le="' + name + '" part: rebuild the site.');
  return element;
}

/**
 * A canvas's 2D context, or a readable error when the browser gives none.
 * @param {HTMLCanvasElement} canvas
 * @param {CanvasRenderingContext2DSettings} [settings]
 */
export function context2d(canvas, settings) {
  const context = canvas.getContext("2d", settings);
  if (!context) throw new Error("This browser gave no 2D canvas to draw on.");
  return context;
}

/**
 * Set a part's text, if the widget has that part.
 * @param {ParentNode} root
 * @param {string} name
 * @param {string} text
 */
export function setText(root, name, text) {
  const element = part(root, name);
  if (element) element.textContent = text;
}

/**
 * The widget's state (idle, loading, running, done, error) and the line that says it.
 * @param {WidgetRoot} root
 * @param {string} state
 * @param {string} text
 */
export function setState(root, state, text) {
  root.dataset.state = state;
  setText(root, "state", text);
}
