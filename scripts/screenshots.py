"""Screenshots of the built site, in Chromium, Firefox and WebKitGTK, at a phone's and a laptop's
width: what a reader sees, to look at before a change to the layout is merged.

    python scripts/screenshots.py OUT [--site site] [--engines chromium firefox] [--full]
    python scripts/screenshots.py OUT --after-run [--engines ...] [--models digits edges onnx]
    python scripts/screenshots.py OUT --tools [--models linear edges]

Serves ``site/`` (``make build`` makes it) under the sub-path it has on GitHub Pages, through
the engines' server (tests/support/engines.py: each page carries the test-only error recorder)
and writes PNGs to OUT. Every page's console errors, uncaught errors, CSP violations and
requests to other origins are printed under it. Firefox and WebKitGTK need ``make engines``.

- The page types (default): ``OUT/<engine>-<page>-<width>.png``, the first screen (with
  ``--full``, ``-full.png`` the whole page too), and each page's height in CSS pixels.
- ``--after-run``: every model page, and the linear card of glossary/onnx/ (``onnx``), at
  390x844 and 1280x900. A reader scrolls until Run sits at the bottom edge of the screen and
  presses it; once the widget is done, ``OUT/after-run/<engine>-<page>-<width>.png`` (and
  ``-full.png``: WebKit's driver takes the viewport only). Prints a markdown table: the
  distance in CSS px from Run's top to the answer line's bottom, and whether the answer line
  and the top of its picture (or bars, or first row's answer) lie in the viewport below the
  sticky header. The rows go to ``OUT/after-run.json`` too.
- ``--tools``: in Chromium with the software WebGPU adapter (the tests' flag), the folded
  record's shape sweep (on WebGPU) and both backends side by side, on linear and edges, at
  390 and 1280 px: ``OUT/tools/chromium-<model>-<width>-{sweep,both,full}.png`` and
  ``OUT/tools.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.engines import Chromium, Engine, engine_server, open_engine  # noqa: E402

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
#: The sizes of issue 21's after-Run check (a phone, a laptop).
RUN_SIZES = ((390, 844), (1280, 900))

WIDGET = "[data-live-example]"
#: The card of a term page the after-Run mode includes: (name, path, its widget).
CARD = ("onnx", "glossary/onnx/", WIDGET + '[data-model-url*="/linear/"]')
#: Models whose tools (--tools) the issue asks screenshots of: a batch model, an image model.
TOOL_MODELS = ("linear", "edges")


def run_button(widget: str) -> str:
    return widget + ' button[data-action="run"]'


def ready(widget: str) -> str:
    button = json.dumps(run_button(widget))
    return f"(b => b && !b.disabled)(document.querySelector({button}))"


def settled(selector: str) -> str:
    return f"['done', 'error'].includes(document.querySelector({json.dumps(selector)}).dataset.state)"


#: Where the answer is after a Run (viewport coordinates, CSS px), as the tests measure it
#: (tests/test_browser_answers.py): the answer line, the first drawing of the result (its
#: picture or bars), else the first row's answer of a batch form; the sticky header's bottom.
PLACE = """(root => {
  const box = (e) => e ? e.getBoundingClientRect() : null;
  const header = document.querySelector('.md-header');
  const run = box(root.querySelector('button[data-action="run"]'));
  const answer = box(root.querySelector('[data-le="answer"]'));
  const drawn = root.querySelector('[data-le="result"] :is(ol, canvas, img, dl, .live-example__readable)');
  const picture = box(drawn || root.querySelector('[data-le-row-out]'));
  // The result's first picture drawn (a dl or bars may come before it).
  const image = box([...root.querySelectorAll('[data-le="result"] :is(canvas, img)')].find(
    (e) => e.getBoundingClientRect().height > 0));
  const error = root.querySelector('[data-le="error"]');
  return {header: header ? header.getBoundingClientRect().bottom : 0, view: innerHeight,
          runTop: run.top, answerTop: answer.top, answerBottom: answer.bottom,
          pictureTop: picture && picture.top, pictureKind: drawn ? 'picture' : picture ? 'row' : null,
          imageTop: image && image.top, scrollY,
          state: root.dataset.state, answer: root.dataset.answer || '', match: root.dataset.match || '',
          backend: root.dataset.backend || '', threads: root.dataset.threads || '',
          medianMs: root.dataset.medianMs || '', timingError: root.dataset.timingError || '',
          status: root.querySelector('[data-le="state"]').textContent,
          recordOpen: root.querySelector('[data-le="record"]').open,
          error: error && !error.hidden ? error.textContent : ''};
})(document.querySelector(WIDGET))"""

#: Every resource the document asked for (the Resource Timing entries: every engine has them).
RESOURCES = "performance.getEntriesByType('resource').map((e) => e.name)"


def other_origins(engine: Engine, origin: str) -> list[str]:
    names: list[str] = engine.evaluate(RESOURCES)
    return sorted({n for n in names if not n.startswith((origin + "/", "data:", "blob:"))})


def report(engine: Engine, origin: str) -> dict[str, list[str]]:
    """What a reader would not want the page to do: errors, and requests leaving the site."""
    return {"errors": engine.errors(), "other_origins": other_origins(engine, origin)}


#: No transition running (the header's title fades to the page's when the page scrolls).
STILL = "document.getAnimations().every((a) => a.playState !== 'running')"


def settle(engine: Engine) -> None:
    """The fonts loaded and the page's transitions over (an endless one is given 3 s)."""
    engine.evaluate("document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => r(0))))")
    with contextlib.suppress(AssertionError):
        engine.wait_until(STILL, timeout=3)


def full_page(engine: Engine, path: Path) -> None:
    """The whole page, from the top: a sticky header is drawn where the viewport is, so a page
    shot while scrolled would show it over the middle of the page."""
    engine.evaluate("(window.scrollTo(0, 0), new Promise((r) => requestAnimationFrame(() => r(0))))")
    engine.screenshot(path, full_page=True)


def print_problems(stem: str, found: dict[str, list[str]]) -> None:
    for error in found["errors"]:
        print(f"  {stem}: error: {error}")
    for url in found["other_origins"]:
        print(f"  {stem}: other origin: {url}")


# -- the page types -------------------------------------------------------------------------

def page_types(engines: list[str], site: Path, out: Path, full: bool, only: list[str] | None) -> None:
    with engine_server(site, "/onnx-glossary/", not_found=True) as server:
        for name in engines:
            with open_engine(name) as engine:
                for page, path in [(n, p) for n, p in PAGES if not only or n in only]:
                    for width, height in WIDTHS:
                        engine.open(server.url + path, viewport=(width, height))
                        settle(engine)
                        stem = f"{name}-{page}-{width}"
                        engine.screenshot(out / f"{stem}.png")
                        if full:
                            full_page(engine, out / f"{stem}-full.png")
                        tall = engine.evaluate("document.documentElement.scrollHeight")
                        print(f"{stem}: {tall} px tall")
                        print_problems(stem, report(engine, server.origin))


# -- after Run --------------------------------------------------------------------------------

def run_pages(site: Path, only: list[str] | None) -> list[tuple[str, str, str]]:
    """(name, path, widget) of every model page with a live example, and the term page's card."""
    models = sorted(p.parent.name for p in site.glob("models/*/example.mjs"))
    pages = [(name, f"models/{name}/", WIDGET) for name in models] + [CARD]
    return [page for page in pages if not only or page[0] in only]


def after_run(engine: Engine, url: str, widget: str, size: tuple[int, int], shots: Path,
              stem: str) -> dict[str, Any]:
    """Open, scroll Run to the bottom edge, press it, wait; where the answer is, and the PNGs."""
    engine.open(url, viewport=size)
    engine.wait_until(ready(widget), timeout=120)
    selector = json.dumps(run_button(widget))
    engine.evaluate(f"(b => (window.scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 1), 0))"
                    f"(document.querySelector({selector}))")
    engine.click(run_button(widget))
    engine.wait_until(settled(widget), timeout=300)
    # The timed runs come after the answer: their end (or failure) before errors are read.
    with contextlib.suppress(AssertionError):
        engine.wait_until(f"(w => w.dataset.state !== 'done' || w.dataset.medianMs || w.dataset.timingError)"
                          f"(document.querySelector({json.dumps(widget)}))", timeout=120)
    settle(engine)
    place: dict[str, Any] = engine.evaluate(PLACE.replace("WIDGET", json.dumps(widget)))
    engine.screenshot(shots / f"{stem}.png")
    full = engine.name != "webkitgtk"  # WebKitWebDriver shoots the viewport only
    if full:
        full_page(engine, shots / f"{stem}-full.png")
    header, view = place["header"], place["view"]
    picture = place["pictureTop"]
    return {
        **place,
        "distance": round(place["answerBottom"] - place["runTop"]),
        "answer_in_view": header <= place["answerTop"] and place["answerBottom"] <= view,
        "picture_in_view": picture is not None and header <= picture < view,
        "image_in_view": None if place["imageTop"] is None else header <= place["imageTop"] < view,
        "full_png": full,
    }


def yes(flag: bool) -> str:
    return "yes" if flag else "**no**"


def run_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| page | engine | viewport | state | answer | Run top → answer bottom (px) "
             "| answer in view | picture top in view | image top in view | record folded | errors "
             "| other origins |",
             "|---|---|---|---|---|---:|---|---|---|---|---:|---:|"]
    for row in rows:
        if "failed" in row:
            lines.append(f"| {row['page']} | {row['engine']} | {row['viewport']} | FAILED: "
                         f"{row['failed'][:80]} | | | | | | | | |")
            continue
        state = row["state"] + ("" if row["match"] in ("true", "") else f" (match={row['match']})")
        picture = yes(row["picture_in_view"]) + ("" if row["pictureKind"] != "row" else " (row)")
        image = "-" if row["image_in_view"] is None else yes(row["image_in_view"])
        lines.append(
            f"| {row['page']} | {row['engine']} | {row['viewport']} | {state} | {row['answer']} "
            f"| {row['distance']} | {yes(row['answer_in_view'])} | {picture} | {image} "
            f"| {yes(not row['recordOpen'])} | {len(row['errors'])} | {len(row['other_origins'])} |")
    return "\n".join(lines)


def after_runs(engines: list[str], site: Path, out: Path, only: list[str] | None) -> list[dict[str, Any]]:
    shots = out / "after-run"
    shots.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    with engine_server(site, "/onnx-glossary/") as server:
        for name in engines:
            with open_engine(name) as engine:
                for page, path, widget in run_pages(site, only):
                    for size in RUN_SIZES:
                        stem = f"{name}-{page}-{size[0]}"
                        row: dict[str, Any] = {"page": page, "path": path, "engine": name,
                                               "version": getattr(engine, "version", ""),
                                               "viewport": f"{size[0]}x{size[1]}"}
                        try:
                            row |= after_run(engine, server.url + path, widget, size, shots, stem)
                        except (AssertionError, RuntimeError) as error:
                            row["failed"] = str(error)
                        row |= report(engine, server.origin)
                        rows.append(row)
                        print(f"{stem}: {row.get('distance', '-')} px, {row.get('state', row.get('failed'))}"
                              f" {row.get('answer', '')} {row.get('error', '')} {row.get('timingError', '')}",
                              file=sys.stderr)
                        print_problems(stem, row)
    return rows


# -- the record's tools: the shape sweep, both backends ---------------------------------------

SWEPT = """(root => {
  const part = (name) => root.querySelector(`[data-le="${name}"]`);
  const text = (name) => (part(name) || {}).textContent || '';
  const rows = (name) => [...root.querySelectorAll(`[data-le="${name}"] tbody tr`)].map(
    (row) => [...row.cells].map((cell) => cell.textContent.trim()));
  return {
    sweep: part('sweep') && {state: part('sweep').dataset.state, status: text('sweep-state'),
      exported: rows('sweep-exported'), pinned: rows('sweep-pinned'), reading: text('sweep-reading')},
    both: part('both') && {state: part('both').dataset.state, status: text('both-state'), rows: rows('both')},
  };
})(document.querySelector('[data-live-example]'))"""


def scroll_to(engine: Engine, selector: str) -> None:
    engine.evaluate(f"(document.querySelector({json.dumps(selector)}).scrollIntoView({{block: 'start'}}),"
                    f" window.scrollBy(0, -document.querySelector('.md-header').offsetHeight - 8), 0)")
    settle(engine)


def tools(site: Path, out: Path, only: list[str] | None) -> list[dict[str, Any]]:
    shots = out / "tools"
    shots.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    part = WIDGET + ' [data-le="{}"]'
    with (engine_server(site, "/onnx-glossary/") as server,
          contextlib.closing(Chromium(webgpu=True)) as engine):
        for model in [m for m in TOOL_MODELS if not only or m in only]:
            for size in RUN_SIZES:
                stem = f"chromium-{model}-{size[0]}"
                row: dict[str, Any] = {"model": model, "viewport": f"{size[0]}x{size[1]}"}
                try:
                    engine.open(server.url + f"models/{model}/", viewport=size)
                    engine.wait_until(ready(WIDGET), timeout=120)
                    engine.click(part.format("record") + " > summary")
                    engine.click(WIDGET + ' input[data-le-backend][value="webgpu"]')
                    engine.click(WIDGET + ' button[data-action="sweep"]')
                    engine.wait_until(settled(part.format("sweep")), timeout=600)
                    engine.click(WIDGET + ' input[data-le-backend][value="auto"]')
                    engine.click(WIDGET + ' button[data-action="both"]')
                    engine.wait_until(settled(part.format("both")), timeout=600)
                    row |= engine.evaluate(SWEPT)
                    scroll_to(engine, part.format("both"))
                    engine.screenshot(shots / f"{stem}-both.png")
                    scroll_to(engine, part.format("sweep"))
                    engine.screenshot(shots / f"{stem}-sweep.png")
                    full_page(engine, shots / f"{stem}-full.png")
                except (AssertionError, RuntimeError) as error:
                    row["failed"] = str(error)
                row |= report(engine, server.origin)
                rows.append(row)
                states = [(row.get(tool) or {}).get("state") for tool in ("sweep", "both")]
                print(f"{stem}: sweep {states[0]}, both {states[1]} {row.get('failed', '')}", file=sys.stderr)
                print_problems(stem, row)
    return rows


def tools_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| model | viewport | sweep | sweep reading | both backends (backend: first, median, reference) "
             "| errors |", "|---|---|---|---|---|---:|"]
    for row in rows:
        sweep, both = row.get("sweep") or {}, row.get("both") or {}
        cells = "; ".join(f"{r[0]}: {r[2]}, {r[3]}, {r[-1]}" if len(r) >= 7 else " ".join(r)
                          for r in both.get("rows", []))
        swept = sweep.get("state", row.get("failed", "-"))
        lines.append(f"| {row['model']} | {row['viewport']} | {swept} | {sweep.get('reading', '')} "
                     f"| {both.get('state', '-')}: {cells} | {len(row['errors'])} |")
    return "\n".join(lines)


def write(out: Path, name: str, rows: list[dict[str, Any]], table: str) -> None:
    print(table)
    (out / f"{name}.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / f"{name}.md").write_text(table + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--site", type=Path, default=REPO / "site")
    parser.add_argument("--engines", nargs="+", default=["chromium", "firefox"],
                        choices=["chromium", "firefox", "webkitgtk"])
    parser.add_argument("--full", action="store_true", help="also the whole page")
    parser.add_argument("--pages", nargs="+", help="only these pages (by name)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--after-run", action="store_true", help="every live example after Run")
    mode.add_argument("--tools", action="store_true", help="the shape sweep and both backends (Chromium)")
    parser.add_argument("--models", nargs="+", help="--after-run, --tools: only these (onnx: the term card)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.after_run:
        rows = after_runs(args.engines, args.site, args.out, args.models)
        write(args.out, "after-run", rows, run_table(rows))
        return int(any("failed" in row or row["state"] != "done" for row in rows))
    if args.tools:
        rows = tools(args.site, args.out, args.models)
        write(args.out, "tools", rows, tools_table(rows))
        return int(any("failed" in row for row in rows))
    page_types(args.engines, args.site, args.out, args.full, args.pages)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
