"""Run the reproduction (index.html, repro.mjs) in a browser engine, several fresh pages.

    .venv/bin/python -m tests.repro.webkit-oob.run  # not importable (dash): run it as a file:
    .venv/bin/python tests/repro/webkit-oob/run.py --site site --engine webkitgtk --pages 5
    JSC_useOMGJIT=false .venv/bin/python tests/repro/webkit-oob/run.py --site site

``--site`` is a site built by ``make build`` (or ``mkdocs build -d DIR``); the page is served
at <site>/__repro__/ beside the site's own runtime and model. Environment variables (JSC_*
options) reach the browser's web process. Prints one line per page and a summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
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
    args = parser.parse_args()
    files = {f"/repo/__repro__/{name}": (HERE / name).read_bytes() for name in ("index.html", "repro.mjs")}
    failed = 0
    with StaticServer(args.site, "/repo/", extra_files=files) as server, open_engine(args.engine) as engine:
        print(f"{args.engine} {engine.version}", flush=True)
        for page in range(args.pages):
            started = time.monotonic()
            engine.open(f"{server.url}__repro__/index.html?runs={args.runs}&sessions={args.sessions}")
            result = json.loads(engine.wait_until("document.body.dataset.result", timeout=900))
            bad = bool(result.get("errors") or result.get("fatal") or result.get("firstBad"))
            failed += bad
            print(f"page {page}: {time.monotonic() - started:.0f} s {json.dumps(result)}", flush=True)
    print(f"{failed} of {args.pages} pages had an error or a wrong run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
