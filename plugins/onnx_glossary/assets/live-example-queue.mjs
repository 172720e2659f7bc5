// @ts-check
/*
 * Live examples, the page-wide queue of tasks that need the page's shared things to
 * themselves: its globals, and the runtime.
 *
 * Creating a session hands the runtime its .wasm by wrapping globalThis.fetch and
 * WebAssembly.instantiateStreaming (handOver, in live-example-cache.mjs); another wrapper
 * (a console capture, say) may join it. Two widgets of one page creating their sessions at
 * once would wrap the wrappers, and whichever finished first would put back the other's. And
 * one runtime serves every widget of the page: onnxruntime-web's run() (1.30 and 1.31) takes
 * room on the runtime's one stack and awaits before giving it back, so two runs at once
 * corrupt each other. So every such task runs through exclusive(): one at a time, in the order asked, each
 * with the page's globals and runtime to itself for its whole duration. A task replaces a
 * global only through the `replace` it is given, and whatever it replaced is put back when it
 * ends, whether it returned or threw, before the next task starts.
 *
 * One queue per document: the widget module (and so this one) is imported once per document,
 * and Material's instant navigation keeps the document. A task that never ends holds up the
 * ones after it.
 */

/**
 * Replace `owner[key]` with `value` until the task ends. Returns a function that puts the
 * original back at once (a wrapper that is done early); calling it again does nothing.
 * @typedef {<T extends object, K extends keyof T>(owner: T, key: K, value: T[K]) => () => void} Replace
 */

/**
 * What a task gets: the one way it may replace a global.
 * @typedef {{ replace: Replace }} Globals
 */

/** The end of the queue: settles when the last task asked for has ended. */
let tail = Promise.resolve();
/** Tasks asked for that have not ended yet (the one running and those waiting). */
let pending = 0;

/** Whether a task asked for now would wait: another one is running or waiting. */
export function busy() {
  return pending > 0;
}

/**
 * Run `task` once every task asked for before it has ended, with the page's globals to
 * itself; resolves or rejects as the task does, once what it replaced is put back.
 * @template R
 * @param {(globals: Globals) => R | PromiseLike<R>} task
 * @returns {Promise<R>}
 */
export function exclusive(task) {
  pending++;
  const result = tail.then(() => runTask(task)).finally(() => { pending--; });
  tail = result.then(() => {}, () => {}); // a failed task does not stop the queue
  return result;
}

/**
 * @template R
 * @param {(globals: Globals) => R | PromiseLike<R>} task
 * @returns {Promise<R>}
 */
async function runTask(task) {
  /** @type {Array<{owner: object, key: PropertyKey, original: unknown, value: unknown}>} */
  const replaced = [];
  /** @type {Replace} */
  const replace = (owner, key, value) => {
    const original = owner[key];
    replaced.push({ owner, key, original, value });
    owner[key] = value;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // Only its own value is taken back: one set on top of it stays until the task ends.
      if (owner[key] === value) owner[key] = original;
    };
  };
  try {
    return await task({ replace });
  } finally {
    // The last replaced first: a global this task set, however many times, goes back to what
    // it was before. One that something outside the queue set meanwhile is left as it is.
    for (const { owner, key, original } of replaced.reverse()) {
      const mine = replaced.some((r) => r.owner === owner && r.key === key &&
                                        Reflect.get(owner, key) === r.value);
      if (mine) Reflect.set(owner, key, original);
    }
  }
}
