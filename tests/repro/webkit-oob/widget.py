"""Run the widget itself, every model page in turn, as tests/test_engines.py does, and count the
pages where the runtime failed (the Run or its timing runs), with the error of each.

    nice -n 19 .venv/bin/python tests/repro/webkit-oob/widget.py --site site --rounds 5
    JSC_useOMGJIT=false nice -n 19 .venv/bin/python tests/repro/webkit-oob/widget.py --site site

``JSC_*`` environment variables reach the browser's web process (``--probe`` prints what the
page sees of a few of them). ``--fresh`` starts a new browser for each round (the
first page of a fresh browser is where one error was seen). ``--budget-ms`` lengthens the timing runs (the widget's test hook
``timingBudgetMs``); ``--models`` picks the pages (all by default); ``--minutes`` stops starting
pages after that long. Prints one line per page with an error and a summary per model.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent.parent))

from tests.support.engines import Engine, engine_server, start  # noqa: E402

WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
READY = f"document.querySelector('{RUN}') && !document.querySelector('{RUN}').disabled"
SETTLED = f"['done', 'error'].includes(document.querySelector('{WIDGET}').dataset.state)"
TIMED = (f"(w => w.dataset.state === 'error' || w.dataset.medianMs || w.dataset.timingError)"
         f"(document.querySelector('{WIDGET}'))")
#: What the page sees of the engine: whether SIMD validates, and JSC's wasm memory (shared?).
PROBE = ("(() => { const simd = new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,96,0,1,123,3,2,1,0,"
         "10,22,1,20,0,253,12,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,11]);"
         " return {simd: WebAssembly.validate(simd), sab: typeof SharedArrayBuffer,"
         " ua: navigator.userAgent}; })()")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--engine", default="webkitgtk")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--models", default="")
    parser.add_argument("--budget-ms", type=int, default=None)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--probe", action="store_true")
    parser.add_argument("--fresh", action="store_true", help="a new browser for each round")
    args = parser.parse_args()
    names = args.models.split(",") if args.models else sorted(
        p.parent.name for p in args.site.glob("models/*/example.mjs"))
    stop = time.monotonic() + args.minutes * 60 if args.minutes else None
    pages: dict[str, int] = {}
    failed: dict[str, list[str]] = {}
    with engine_server(args.site, "/repo/") as server:
        engine = None
        try:
            for round_ in range(args.rounds):
                if engine is None or args.fresh:  # --fresh: a new browser process each round
                    if engine is not None:
                        engine.close()
                    engine = start(args.engine)
                    if round_ == 0:
                        print(f"{args.engine} {getattr(engine, 'version', '')}", flush=True)
                        if args.probe:
                            engine.open(server.url)
                            print(json.dumps(engine.evaluate(PROBE)), flush=True)
                for name in names:
                    if stop is not None and time.monotonic() > stop:
                        break
                    try:
                        error = run_page(engine, server.url, name, args.budget_ms)
                    except (AssertionError, RuntimeError) as stuck:  # a page that never settled
                        error = f"stuck: {stuck}"
                    pages[name] = pages.get(name, 0) + 1
                    if error:
                        failed.setdefault(name, []).append(error)
                        print(f"round {round_} {name}: {error}", flush=True)
                print(f"round {round_} done: {sum(map(len, failed.values()))} failures in "
                      f"{sum(pages.values())} pages", flush=True)
                if stop is not None and time.monotonic() > stop:
                    break
        finally:
            if engine is not None:
                engine.close()
    for name, count in pages.items():
        print(f"{name}: {len(failed.get(name, []))} of {count} pages failed")
    print(f"total: {sum(map(len, failed.values()))} of {sum(pages.values())} pages failed")
    return 0


def run_page(engine: Engine, url: str, name: str, budget_ms: int | None) -> str:
    """The error of one model page's Run and timing runs ('' when all went well)."""
    engine.open(url + f"models/{name}/")
    engine.wait_until(READY, timeout=60)
    if budget_ms is not None:
        engine.evaluate(f"(window.onnxLiveExample.timingBudgetMs = {budget_ms}, 0)")
    engine.click(RUN)
    engine.wait_until(SETTLED, timeout=300)
    engine.wait_until(TIMED, timeout=300)
    state = engine.dataset(WIDGET)
    if state["state"] != "done":
        return "run: " + engine.text(WIDGET + " [data-le=error]")
    if state.get("timingError"):
        return "timing: " + state["timingError"]
    if state.get("match") != "true":
        return f"match={state.get('match')}"
    return ""


if __name__ == "__main__":
    sys.exit(main())
