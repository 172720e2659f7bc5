/*
 * Live examples: the Run button of a model's widget imports the model's example.mjs (the code
 * shown on the page) and runs it in the reader's browser with the self-hosted onnxruntime-web.
 *
 * A classic script loaded on every page: until a [data-live-example] exists it only registers
 * listeners, and no byte of onnxruntime-web is fetched before Run is pressed.
 */
(function () {
  "use strict";
  if (window.onnxLiveExample) return; // loaded twice: keep the first one's listeners

  // The runtime sits in <site>/assets/ort/, next to this script's folder (<site>/assets/onnx_glossary/).
  const SCRIPT_URL = document.currentScript.src;
  const ORT_BASE = new URL("../ort/", SCRIPT_URL).href;
  // Which .wasm each build loads (the bundles fetch exactly these when left alone).
  const WASM_FILES = {
    webgpu: "ort-wasm-simd-threaded.asyncify.wasm",
    wasm: "ort-wasm-simd-threaded.wasm",
  };
  const TIMED_RUNS = 20; // median of up to this many runs...
  const TIMING_BUDGET_MS = 3000; // ...within this time (software WebGPU is very slow)
  const SHOWN_VALUES = 8;

  const wasmCache = new Map(); // wasm file -> Promise<Uint8Array>, kept across Runs

  function part(root, name) {
    return root.querySelector('[data-le="' + name + '"]');
  }

  function setText(root, name, text) {
    const element = part(root, name);
    if (element) element.textContent = text;
  }

  function setState(root, state, text) {
    root.dataset.state = state;
    setText(root, "state", text);
  }

  function mb(bytes) {
    return bytes < 1e5 ? (bytes / 1e3).toFixed(1) + " kB" : (bytes / 1e6).toFixed(1) + " MB";
  }

  function ms(value) {
    return value < 10 ? value.toFixed(2) + " ms" : value.toFixed(0) + " ms";
  }

  function median(values) {
    const sorted = values.slice().sort(function (a, b) { return a - b; });
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /* Download with a progress report; a readable error for anything but HTTP 2xx. */
  async function fetchBytes(url, what, onProgress) {
    let response;
    try {
      response = await fetch(url);
    } catch (error) {
      throw new Error("Could not download " + what + " (" + url + "): " + error.message);
    }
    if (!response.ok) {
      throw new Error("Could not download " + what + ": HTTP " + response.status + " " +
                      response.statusText + " for " + url);
    }
    // Content-Length counts compressed bytes when the server compresses: a hint, not a total.
    const declared = Number(response.headers.get("Content-Length")) || 0;
    const chunks = [];
    let received = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      onProgress(received, Math.max(declared, received));
    }
    const bytes = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    onProgress(received, received);
    return bytes;
  }

  /* One progress bar for several downloads running at once. */
  function progressTracker(root) {
    const bar = part(root, "progress-bar");
    const box = part(root, "progress");
    const items = {};
    box.hidden = false;
    return function (label) {
      items[label] = [0, 0];
      return function (received, total) {
        items[label] = [received, total];
        let sumReceived = 0;
        let sumTotal = 0;
        const parts = [];
        for (const key of Object.keys(items)) {
          const [r, t] = items[key];
          sumReceived += r;
          sumTotal += t;
          parts.push(key + " " + mb(r) + (t ? " of " + mb(t) : ""));
        }
        bar.max = Math.max(sumTotal, 1);
        bar.value = sumReceived;
        setText(root, "progress-text", parts.join(" · "));
      };
    };
  }

  function wasmBytes(backend, onProgress) {
    const file = WASM_FILES[backend];
    if (!wasmCache.has(file)) {
      const download = fetchBytes(ORT_BASE + file, "the runtime " + file, onProgress);
      // A failed download is not cached: the next Run tries again.
      download.catch(function () { wasmCache.delete(file); });
      wasmCache.set(file, download);
    } else {
      wasmCache.get(file).then(function (bytes) { onProgress(bytes.length, bytes.length); });
    }
    return wasmCache.get(file);
  }

  function toNumbers(data) {
    // int64 outputs come back as BigInt64Array; compare them as numbers.
    return typeof data[0] === "bigint" ? Array.from(data, Number) : Array.from(data);
  }

  function formatValue(value) {
    if (typeof value === "string") return JSON.stringify(value);
    if (Number.isInteger(value)) return String(value);
    return Number(value).toPrecision(6);
  }

  function formatValues(values) {
    const shown = values.slice(0, SHOWN_VALUES).map(formatValue).join(", ");
    const more = values.length - SHOWN_VALUES;
    return "[" + shown + (more > 0 ? ", … " + more + " more" : "") + "]";
  }

  /* Compare one output with the reference: max |a - b| and whether every element is close. */
  function compare(actual, expected, atol, rtol) {
    let maxAbs = 0;
    let pass = actual.length === expected.length;
    const length = Math.min(actual.length, expected.length);
    for (let i = 0; i < length; i++) {
      const a = Number(actual[i]);
      const b = Number(expected[i]);
      if (Number.isNaN(a) || Number.isNaN(b)) {
        if (Number.isNaN(a) !== Number.isNaN(b)) pass = false;
        continue;
      }
      const diff = Math.abs(a - b);
      if (diff > maxAbs) maxAbs = diff;
      if (!(diff <= atol + rtol * Math.abs(b))) pass = false;
    }
    return { maxAbs: maxAbs, pass: pass };
  }

  function sameDims(a, b) {
    return a.length === b.length && a.every(function (d, i) { return Number(d) === Number(b[i]); });
  }

  function drawImage(root, tensor) {
    const canvas = part(root, "output-image");
    if (!canvas || tensor.dims.length !== 3 || Number(tensor.dims[2]) !== 4) return;
    const height = Number(tensor.dims[0]);
    const width = Number(tensor.dims[1]);
    canvas.width = width;
    canvas.height = height;
    const pixels = new Uint8ClampedArray(toNumbers(tensor.data));
    canvas.getContext("2d").putImageData(new ImageData(pixels, width, height), 0, 0);
  }

  function showOutputs(root, outputs, reference, ownPicture) {
    const atol = Number(root.dataset.atol);
    const rtol = Number(root.dataset.rtol);
    const expectedByName = {};
    for (const entry of reference.outputs) expectedByName[entry.name] = entry;
    const table = document.createElement("table");
    const head = table.createTHead().insertRow();
    for (const title of ["Output", "Type", "Dims", "Values", "Max abs diff"]) {
      const cell = document.createElement("th");
      cell.textContent = title;
      head.appendChild(cell);
    }
    let overallPass = true;
    let overallMax = 0;
    const body = table.createTBody();
    for (const name of Object.keys(outputs)) {
      const tensor = outputs[name];
      const values = tensor.type === "string" ? Array.from(tensor.data) : toNumbers(tensor.data);
      const row = body.insertRow();
      let verdict = "no reference for your picture";
      const expected = expectedByName[name];
      if (!ownPicture) {
        if (!expected) {
          verdict = "missing from reference.json";
          overallPass = false;
        } else if (!sameDims(tensor.dims, expected.dims)) {
          verdict = "dims differ: reference " + JSON.stringify(expected.dims);
          overallPass = false;
        } else {
          const result = compare(values, expected.data, atol, rtol);
          overallMax = Math.max(overallMax, result.maxAbs);
          overallPass = overallPass && result.pass;
          verdict = result.maxAbs.toExponential(2) + (result.pass ? " ✓" : " ✗");
        }
      }
      const cells = [name, tensor.type, "[" + tensor.dims.join(", ") + "]", formatValues(values), verdict];
      for (const text of cells) row.insertCell().textContent = text;
      if (root.dataset.imageInput && tensor.type === "uint8") drawImage(root, tensor);
    }
    const box = part(root, "outputs");
    box.replaceChildren(table);
    return { pass: overallPass, maxAbs: overallMax };
  }

  function sameBytes(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  async function run(root) {
    const button = root.querySelector('button[data-action="run"]');
    button.disabled = true;
    for (const key of ["backend", "threads", "maxAbsDiff", "match", "medianMs"]) delete root.dataset[key];
    part(root, "error").hidden = true;
    part(root, "outputs").replaceChildren();
    setText(root, "timings", "–");
    let session = null;
    try {
      setState(root, "loading", "Loading…");
      const resolve = function (name) { return new URL(root.dataset[name], location.href).href; };
      const example = await import(resolve("exampleUrl"));
      const choice = await example.pickBackend();
      setText(root, "backend", choice.backend + " (" + choice.reason + ")");
      setText(root, "isolated", window.crossOriginIsolated ? "yes" : "no (threads need COOP/COEP headers)");

      const track = progressTracker(root);
      const [ort, wasm, model, reference] = await Promise.all([
        example.loadRuntime(choice.backend),
        wasmBytes(choice.backend, track("runtime")),
        fetchBytes(resolve("modelUrl"), "the model", track("model")),
        fetchBytes(resolve("referenceUrl"), "the reference outputs", function () {})
          .then(function (bytes) { return JSON.parse(new TextDecoder().decode(bytes)); }),
      ]);
      // Hand ort the .wasm we downloaded (with progress) instead of letting it fetch it again.
      ort.env.wasm.wasmBinary = wasm;

      setState(root, "loading", "Creating the session…");
      let started = performance.now();
      const created = await example.createSession(ort, choice.backend, model);
      const createMs = performance.now() - started;
      session = created.session;
      const threads = String(created.ort.env.wasm.numThreads);
      root.dataset.backend = created.backend;
      root.dataset.threads = threads;
      setText(root, "backend", created.fallback
        ? "wasm (WebGPU failed: " + created.fallback + ")"
        : created.backend + " (" + choice.reason + ")");
      setText(root, "threads", threads);

      const ownFile = ownPicture(root);
      const feeds = await example.makeFeeds(created.ort, ...(ownFile ? [ownFile] : []));
      let pictureNote = "";
      if (root.dataset.imageInput && !ownFile) {
        // The check only means something if the browser decoded the same pixels as the build.
        const fed = feeds[root.dataset.imageInput].data;
        const sample = reference.inputs.find(function (i) { return i.name === root.dataset.imageInput; });
        if (!sample || !sameBytes(fed, sample.data)) {
          pictureNote = "The browser decoded the picture to other pixels than the build did. ";
        }
      }

      setState(root, "running", "Running…");
      started = performance.now();
      let outputs = await session.run(feeds);
      const firstMs = performance.now() - started;
      // Without isolation the clock ticks in 0.1 ms steps: time fast models in groups of runs
      // long enough to measure, and take the median of the groups' per-run means.
      let group = 0;
      started = performance.now();
      while (group < 100 && performance.now() - started < 2) {
        outputs = await session.run(feeds);
        group++;
      }
      const times = [];
      const budgetEnd = performance.now() + TIMING_BUDGET_MS;
      while (times.length < TIMED_RUNS && (times.length < 3 || performance.now() < budgetEnd)) {
        started = performance.now();
        for (let i = 0; i < group; i++) outputs = await session.run(feeds);
        times.push((performance.now() - started) / group);
      }
      root.dataset.medianMs = String(median(times));
      setText(root, "timings", "session " + ms(createMs) + " · first run " + ms(firstMs) +
              " · median " + ms(median(times)) + " (" + times.length * group + " runs)");

      const verdict = showOutputs(root, outputs, reference, Boolean(ownFile));
      if (ownFile) {
        setText(root, "check", "No reference exists for your own picture: nothing to compare.");
        setState(root, "done", "Done on " + created.backend + ".");
      } else {
        const pass = verdict.pass && !pictureNote;
        root.dataset.maxAbsDiff = String(verdict.maxAbs);
        root.dataset.match = String(pass);
        setText(root, "check", pictureNote + "max abs diff " + verdict.maxAbs.toExponential(2) +
                " against the build's onnxruntime " + reference.onnxruntime + " outputs: " +
                (pass ? "match" : "MISMATCH") + " (atol " + root.dataset.atol + ", rtol " +
                root.dataset.rtol + ")");
        setState(root, "done", pass ? "Done: matches the reference." : "Done: differs from the reference.");
      }
    } catch (error) {
      const message = error && error.message ? error.message : String(error);
      const box = part(root, "error");
      box.textContent = message;
      box.hidden = false;
      setState(root, "error", "Failed; press Run to try again.");
    } finally {
      if (session) session.release().catch(function () {});
      part(root, "progress").hidden = true;
      button.disabled = false;
    }
  }

  function ownPicture(root) {
    const useFile = part(root, "use-file");
    const input = part(root, "file");
    return useFile && useFile.checked && input && input.files[0] ? input.files[0] : null;
  }

  function selectTab(root, name) {
    for (const tab of root.querySelectorAll("[data-tab]")) {
      tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
    }
    for (const panel of root.querySelectorAll("[data-panel]")) {
      panel.hidden = panel.dataset.panel !== name;
    }
  }

  /* (Re)initialise the widgets of the current document: enable Run once the script is live. */
  function init() {
    const widgets = document.querySelectorAll("[data-live-example]");
    for (const root of widgets) {
      if (root.dataset.ready) continue;
      root.dataset.ready = "true";
      root.querySelector('button[data-action="run"]').disabled = false;
      setText(root, "state", "Ready: press Run.");
    }
  }

  // Delegated listeners survive Material's instant navigation, which swaps the page content.
  document.addEventListener("click", function (event) {
    const target = event.target instanceof Element ? event.target : null;
    const root = target && target.closest("[data-live-example]");
    if (!root) return;
    const button = target.closest('button[data-action="run"]');
    if (button && !button.disabled) run(root);
    const tab = target.closest("[data-tab]");
    if (tab) selectTab(root, tab.dataset.tab);
  });
  document.addEventListener("change", function (event) {
    const target = event.target;
    const root = target instanceof Element && target.closest("[data-live-example]");
    if (!root) return;
    const preview = part(root, "input-image");
    const file = part(root, "file");
    if (!preview.dataset.sample) preview.dataset.sample = preview.src;
    if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
    if (target.dataset.le === "file" && file.files[0]) part(root, "use-file").checked = true;
    // Preview the reader's picture from memory: it is never uploaded.
    preview.src = part(root, "use-file").checked && file.files[0]
      ? URL.createObjectURL(file.files[0])
      : preview.dataset.sample;
  });

  function start() {
    // Material for MkDocs emits on document$ after every (instant) navigation.
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(init);
    } else {
      init();
    }
  }
  window.onnxLiveExample = { init: init };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
