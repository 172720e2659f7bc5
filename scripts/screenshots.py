"""Screenshots of the built site's main page types, in Chromium and Firefox, at a phone's and a
laptop's width: what a reader sees, to look at before a change to the layout is merged.

    python scripts/screenshots.py OUT [--site site] [--engines chromium firefox] [--full]

Serves ``site/`` (``make build`` makes it) under the sub-path it has on GitHub Pages and writes
``OUT/<engine>-<page>-<width>.png`` (the first screen; with ``--full``, the whole page as
well), then prints each page's height in CSS pixels. Firefox needs ``make engines`` (Firefox
ESR, driven by puppeteer-core from node_modules).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.engines import engine_server, open_engine  # noqa: E402

#: (name, path under the site root): the page types a reader meets first.
PAGES = (
    ("home", ""),
    ("term-diagram", "glossary/onnx/"),
    ("glossary-index", "glossary/"),
    ("term-table", "glossary/dynamic-axes/"),
    ("models-index", "models/"),
    ("model", "models/digits/"),
    ("benchmarks", "benchmarks/"),
    ("not-found", "no-such-page/"),
)
WIDTHS = ((360, 780), (390, 844), (1280, 900))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--site", type=Path, default=REPO / "site")
    parser.add_argument("--engines", nargs="+", default=["chromium", "firefox"])
    parser.add_argument("--full", action="store_true", help="also the whole page")
    parser.add_argument("--pages", nargs="+", help="only these pages (by name)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with engine_server(args.site, "/onnx-glossary/", not_found=True) as server:
        for name in args.engines:
            with open_engine(name) as engine:
                for page, path in [(n, p) for n, p in PAGES if not args.pages or n in args.pages]:
                    for width, height in WIDTHS:
                        engine.open(server.url + path, viewport=(width, height))
                        engine.evaluate("document.fonts.ready.then(() => 0)")
                        stem = f"{name}-{page}-{width}"
                        engine.screenshot(args.out / f"{stem}.png")
                        if args.full:
                            engine.screenshot(args.out / f"{stem}-full.png", full_page=True)
                        tall = engine.evaluate("document.documentElement.scrollHeight")
                        print(f"{stem}: {tall} px tall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
