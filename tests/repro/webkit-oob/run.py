"""Run the reproduction (index.html, repro.mjs) in a browser engine, several fresh pages.

    .venv/bin/python -m tests.repro.webkit-oob.run  # not importable (dash): run it as a file:
    .venv/bin/python tests/repro/webkit-oob/run.py --site site --engine webkitgtk --pages 5
    JSC_useOMGJIT=false .venv/bin/python tests/repro/webkit-oob/run.py --site site
    .venv/bin/python tests/repro/webkit-oob/run.py --site site --rotate --pages 20 --runs 5 --minutes 14

``--site`` is a site built by ``make build`` (or ``mkdocs build -d DIR``); the page is served
at <site>/__repro__/ beside the site's own runtime and model. Environment variables (JSC_*
options) reach the browser's web process. Prints one line per page and a summary.

``--rotate``: each round opens a page per model of the site (every one with a reference.json),
text-detection last, all in one browser process, as the widget's pages were when the error was
seen; ``--pages`` then counts rounds. ``--minutes`` stops starting pages after that long.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The model the error was seen on.
TARGET = "text-detection"
sys.path.insert(0, str(HERE.parent.parent.parent))

from tests.support.browser import StaticServer  # noqa: E402
from tests.support.engines import open_engine  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--engine", default="webkitgtk")
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=1)
    parser.add_argument("--model", default=TARGET)
    parser.add_argument("--rotate", action="store_true")
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--query", default="", help="more of the page's query: handover=1&verbose=1")
    args = parser.parse_args()
    files = {f"/repo/__repro__/{name}": (HERE / name).read_bytes() for name in ("index.html", "repro.mjs")}
    plan = [name for _ in range(args.pages) for name in (rotation(args.site) if args.rotate else [args.model])]
    stop = time.monotonic() + args.minutes * 60 if args.minutes else None
    failed: dict[str, int] = {}
    opened: dict[str, int] = {}
    with StaticServer(args.site, "/repo/", extra_files=files) as server, open_engine(args.engine) as engine:
        print(f"{args.engine} {engine.version}", flush=True)
        for page, name in enumerate(plan):
            if stop is not None and time.monotonic() > stop:
                print(f"stopped after {args.minutes} minutes", flush=True)
                break
            started = time.monotonic()
            engine.open(f"{server.url}__repro__/index.html?model={name}&runs={args.runs}&sessions={args.sessions}"
                        + (f"&{args.query}" if args.query else ""))
            result = json.loads(engine.wait_until("document.body.dataset.result", timeout=900))
            bad = bool(result.get("errors") or result.get("fatal") or result.get("firstBad"))
            opened[name] = opened.get(name, 0) + 1
            failed[name] = failed.get(name, 0) + bad
            print(f"page {page}: {time.monotonic() - started:.0f} s {json.dumps(result)}", flush=True)
    for name, count in opened.items():
        print(f"{name}: {failed[name]} of {count} pages had an error or a wrong run")
    print(f"{sum(failed.values())} of {sum(opened.values())} pages had an error or a wrong run")
    return 0


def rotation(site: Path) -> list[str]:
    """Every model of the site with a reference.json, the target last."""
    names = sorted(p.parent.name for p in site.glob("models/*/reference.json"))
    return [name for name in names if name != TARGET] + [TARGET]


if __name__ == "__main__":
    sys.exit(main())
