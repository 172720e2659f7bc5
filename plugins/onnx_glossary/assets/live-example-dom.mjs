/* Live examples: the few DOM helpers every part of the widget shares. */

/** A named part of a widget: the element with data-le="name" inside it. */
export function part(root, name) {
  return root.querySelector('[data-le="' + name + '"]');
}

/** Set a part's text, if the widget has that part. */
export function setText(root, name, text) {
  const element = part(root, name);
  if (element) element.textContent = text;
}

/** The widget's state (idle, loading, running, done, error) and the line that says it. */
export function setState(root, state, text) {
  root.dataset.state = state;
  setText(root, "state", text);
}
