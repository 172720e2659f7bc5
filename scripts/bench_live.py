"""Benchmark the live example in real headless Chromium; prints a markdown table.

1. Cold start, linear model, no WebGPU adapter: from the Run click to the first result checked
   against reference.json. Our widget (WASM-only build when there is no adapter) against the
   reference article's snippet (WebGPU build, ``["webgpu"]``, then ``["wasm"]`` on failure),
   both served from the same self-hosted files, in the same run, a fresh browser context (no
   cache) for every repetition.
2. Steady state of the largest example model: browser WASM on one thread (median of many
   runs) against Python onnxruntime with ``intra_op_num_threads=1`` on the same input.

The widget's time includes its own 20 timing runs before it reports "done" (a few ms here).

usage: .venv/bin/python scripts/bench_live.py [--reps 7] [--runs 2000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnxruntime

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sitebuild import build_site  # noqa: E402
from tests.support.browser import PageProbe, StaticServer, launch, wait_until  # noqa: E402

# The article's snippet, as published, plus the check against the reference: the same work our
# widget does before it reports a verified result.
ARTICLE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">
{"imports": {"onnxruntime-web/webgpu": "../assets/ort/ort.webgpu.bundle.min.mjs"}}
</script>
</head><body>
<button id="run">Run</button><div id="out" data-state="idle"></div>
<script type="module">
document.getElementById("run").addEventListener("click", async () => {
  const { InferenceSession, Tensor } = await import("onnxruntime-web/webgpu");
  const session = await InferenceSession
      .create("../models/linear/model.onnx", { executionProviders: ["webgpu"] })
      .catch(() => InferenceSession.create("../models/linear/model.onnx", { executionProviders: ["wasm"] }));
  const reference = await (await fetch("../models/linear/reference.json")).json();
  const input = reference.inputs[0];
  const x = new Tensor("float32", Float32Array.from(input.data), input.dims);
  const out = await session.run({ [input.name]: x });
  const expected = reference.outputs[0].data;
  const ok = Array.from(out[reference.outputs[0].name].data)
      .every((v, i) => Math.abs(v - expected[i]) <= 1e-4 + 1e-3 * Math.abs(expected[i]));
  const box = document.getElementById("out");
  box.dataset.match = String(ok);
  box.dataset.state = "done";
});
</script></body></html>
"""

# Time from the click (capture phase, before any handler) to data-state="done", in the page.
TIMER = """
window.benchStart = null; window.benchEnd = null;
addEventListener("click", () => { window.benchStart = performance.now(); }, true);
new MutationObserver(() => {
  const done = document.querySelector('[data-state="done"]');
  if (done && window.benchEnd === null) window.benchEnd = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
"""

# Steady state in the page: the model's own example.mjs, WASM on one thread, many timed runs
# (median of the per-run means of groups of 20).
STEADY = """async ([runs]) => {
  const example = await import("./example.mjs");
  const runtime = await example.loadRuntime("wasm");
  const { ort, session } = await example.createSession(runtime, "wasm");
  const feeds = await example.makeFeeds(ort);
  for (let i = 0; i < 20; i++) await session.run(feeds);
  // Without isolation the clock ticks in 0.1 ms steps: time groups of 20 runs.
  const times = [];
  for (let g = 0; g < runs / 20; g++) {
    const t = performance.now();
    for (let i = 0; i < 20; i++) await session.run(feeds);
    times.push((performance.now() - t) / 20);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], threads: ort.env.wasm.numThreads };
}"""


def cold(browser, url: str, button: str) -> float:  # type: ignore[no-untyped-def]
    context = browser.new_context()  # fresh: no HTTP cache, no compiled-wasm cache
    page = context.new_page()
    probe = PageProbe(url.split("/repo/")[0]).attach(page)
    page.add_init_script(TIMER)
    page.goto(url, wait_until="load")
    page.wait_for_selector(button + ":not([disabled])")
    page.click(button)
    wait_until(page, "window.benchEnd !== null", timeout=120_000)
    match = page.eval_on_selector('[data-state="done"]', "e => e.dataset.match")
    elapsed = page.evaluate("window.benchEnd - window.benchStart")
    context.close()
    if match != "true" or probe.other_origin:
        raise SystemExit(f"{url}: result not verified ({match}) or other-origin requests")
    return float(elapsed) / 1000


def python_median(model: Path, reference: dict, runs: int) -> float:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    feeds = {i["name"]: np.asarray(i["data"], dtype=i["type"]).reshape(i["dims"])
             for i in reference["inputs"]}
    for _ in range(20):
        session.run(None, feeds)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, feeds)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        built = build_site(ROOT / "mkdocs.yml", site_dir=site)
        if built.aborted:
            raise SystemExit("\n".join(built.warnings))
        (site / "bench").mkdir()
        (site / "bench" / "article.html").write_text(ARTICLE_PAGE, encoding="utf-8")
        largest = max(site.glob("models/*/model.onnx"), key=lambda p: p.stat().st_size).parent
        reference = json.loads((largest / "reference.json").read_text())

        with StaticServer(site, "/repo/") as server, sync_playwright() as playwright:
            browser = launch(playwright)  # no WebGPU adapter: the fallback path
            ours, article = [], []
            for _ in range(args.reps):  # interleaved, so drift hits both alike
                ours.append(cold(browser, server.url + "models/linear/",
                                 '[data-live-example] button[data-action="run"]'))
                article.append(cold(browser, server.url + "bench/article.html", "#run"))
            page = browser.new_context().new_page()
            page.goto(server.url + f"models/{largest.name}/", wait_until="load")
            steady = page.evaluate(STEADY, [args.runs])
            browser.close()
        native = python_median(largest / "model.onnx", reference, args.runs)

    ours_s, article_s = statistics.median(ours), statistics.median(article)
    print(f"| Measurement (Chromium {sys.platform}, no GPU, {args.reps} cold reps) | Median | Ratio |")
    print("|---|---|---|")
    print(f"| Cold Run to verified result, linear, this site's widget (WASM-only build) "
          f"| {ours_s:.2f} s | 1.00 |")
    print(f"| Cold Run to verified result, linear, the article's snippet (WebGPU build, "
          f"`[\"webgpu\"]` then `[\"wasm\"]`) | {article_s:.2f} s | {article_s / ours_s:.2f} |")
    print(f"| Steady state, {largest.name}, browser WASM, {steady['threads']} thread "
          f"({args.runs} runs, median of groups of 20) | {steady['median']:.3f} ms | "
          f"{steady['median'] / native:.2f} |")
    print(f"| Steady state, {largest.name}, Python onnxruntime {onnxruntime.__version__}, "
          f"intra_op_num_threads=1 (median of {args.runs}) | {native:.3f} ms | 1.00 |")


if __name__ == "__main__":
    main()
