"""Lighthouse on every page type of the built site, beside a plain mkdocs-material page.

The site is built into a temporary folder (or ``--site``: a folder already built) and served
under ``/onnx-glossary/`` as GitHub Pages serves it: gzip-compressed, with
``Cache-Control: max-age=600``, a missing address answered by the site's ``404.html`` with
status 404. Beside it, on its own server under the same sub-path, a plain mkdocs-material site
of one page holding the ONNX term's text (the body of ``glossary/onnx.md``), built without the
plugin: what the same words cost without it.

Lighthouse is the version pinned in package.json (``node_modules/.bin/lighthouse``), run on
Debian's Chromium (``CHROME_PATH``), headless, with its default mobile settings: simulated slow
4G and a 4x slower CPU. Each round runs the plain page, then every page type once, so that a
machine's drift hits every page alike; each figure is the median of its rounds (``--runs``,
default 5). Other processes on the machine stretch every time: the times count only beside the
plain page's, which must itself score at least 98 for the run to count.

Targets, for every page type: performance at least 95, total blocking time at most 200 ms, LCP
at most 2.5 s, and accessibility, best practices and SEO at 100. Prints a table with each
target beside it and exits 1 when one is missed.

usage: .venv/bin/python scripts/bench_lighthouse.py [--runs 5] [--site DIR] [--keep DIR]
       [--only KEY ...] [--record | --no-record]

A run with the default settings appends its figures (keys ``lighthouse.*``) to
docs/benchmarks.json (``scripts/bench_record.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import bench_record  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_FLAGS, GITHUB_PAGES_CACHE, StaticServer  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
PREFIX = "/onnx-glossary/"
DEFAULT_RUNS = 5
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")

#: What a page must reach; the plain page's own floor decides whether the run counts.
PERFORMANCE_TARGET = 95
PLAIN_PERFORMANCE_TARGET = 98
TBT_TARGET_MS = 200.0
LCP_TARGET_MS = 2500.0
OTHER_CATEGORY_TARGET = 100

#: Built-page markers: a term page's diagram and its model card (the plugin's own classes).
DIAGRAM_MARK = 'class="gl-diagram"'
CARD_MARK = 'class="gl-model-card"'
#: An address the site does not have: the host answers it with 404.html, status 404.
MISSING_PATH = "no-such-page/"


@dataclass(frozen=True)
class PageType:
    """One page type: its key in the figures, its name in the table, its path under the site."""

    key: str
    label: str
    path: str


@dataclass(frozen=True)
class Audit:
    """What one Lighthouse report (or the median of several) says about a page."""

    performance: float
    accessibility: float
    best_practices: float
    seo: float
    fcp_ms: float
    lcp_ms: float
    tbt_ms: float
    bytes: float


def audit_from_report(report: dict[str, Any], *, missing: bool = False) -> Audit:
    """The scores (0 to 100) and metrics of a Lighthouse JSON report (its ``lhr``).

    ``missing``: the page answers an address the site does not have (status 404 by design);
    its scores leave out the audits that judge that status itself (:func:`status_audits`)."""
    if report.get("runtimeError", {}).get("code") not in (None, "NO_ERROR"):
        raise ValueError(f"{report.get('finalDisplayedUrl')}: {report['runtimeError']['message']}")
    audits = report["audits"]
    left_out = status_audits(report) if missing else set()

    def metric(name: str) -> float:
        return float(audits[name]["numericValue"])

    performance, accessibility, best_practices, seo = (
        category_score(report, name, left_out) for name in CATEGORIES)
    return Audit(performance, accessibility, best_practices, seo,
                 metric("first-contentful-paint"), metric("largest-contentful-paint"),
                 metric("total-blocking-time"), metric("total-byte-weight"))


def status_audits(report: dict[str, Any]) -> set[str]:
    """The audits a 404 answer fails by being one: the status code, and the console's errors
    when each is the browser's "Failed to load resource" for the page's own address."""
    found = {"http-status-code"}
    errors = report["audits"].get("errors-in-console", {}).get("details", {}).get("items", [])
    page = report.get("finalDisplayedUrl")
    if all(e.get("source") == "network" and e.get("sourceLocation", {}).get("url") == page
           and "404" in e.get("description", "") for e in errors):
        found.add("errors-in-console")
    return found


def category_score(report: dict[str, Any], name: str, left_out: Collection[str] = ()) -> float:
    """A category's score out of 100: Lighthouse's own, or with ``left_out`` audits dropped,
    the weighted mean of the others as Lighthouse computes it."""
    category = report["categories"][name]
    refs = category.get("auditRefs", [])
    if not set(left_out) & {ref["id"] for ref in refs}:
        if category["score"] is None:
            raise ValueError(f"{report.get('finalDisplayedUrl')}: no {name} score")
        return round(float(category["score"]) * 100)
    scored = [(ref["weight"], report["audits"][ref["id"]]["score"]) for ref in refs
              if ref["id"] not in left_out and ref["weight"] > 0
              and report["audits"][ref["id"]]["score"] is not None]
    return round(100 * sum(w * s for w, s in scored) / sum(w for w, _ in scored))


def median_audit(audits: Sequence[Audit]) -> Audit:
    """Each field's median over the runs (so the medians may come from different runs)."""
    if not audits:
        raise ValueError("no runs to take a median of")
    return Audit(**{f.name: statistics.median(getattr(a, f.name) for a in audits)
                    for f in fields(Audit)})


def misses(audit: Audit, *, plain: bool = False) -> list[str]:
    """The targets a page's medians miss, in words; none for a page that meets them all.
    The plain page is held to its own floor (the run counts only when it scores that)."""
    if plain:
        return ([] if audit.performance >= PLAIN_PERFORMANCE_TARGET else
                [f"performance {audit.performance:.0f} < {PLAIN_PERFORMANCE_TARGET}: the run "
                 "does not count"])
    found = []
    if audit.performance < PERFORMANCE_TARGET:
        found.append(f"performance {audit.performance:.0f} < {PERFORMANCE_TARGET}")
    if audit.tbt_ms > TBT_TARGET_MS:
        found.append(f"TBT {audit.tbt_ms:.0f} ms > {TBT_TARGET_MS:.0f} ms")
    if audit.lcp_ms > LCP_TARGET_MS:
        found.append(f"LCP {audit.lcp_ms / 1000:.2f} s > {LCP_TARGET_MS / 1000:.1f} s")
    for name in ("accessibility", "best_practices", "seo"):
        value = getattr(audit, name)
        if value < OTHER_CATEGORY_TARGET:
            found.append(f"{name.replace('_', ' ')} {value:.0f} < {OTHER_CATEGORY_TARGET}")
    return found


# -- the pages -------------------------------------------------------------------------------


def term_without_extras(site: Path) -> str:
    """The first term page (by name) with neither a diagram nor a model card."""
    for page in sorted((site / "glossary").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        if DIAGRAM_MARK not in html and CARD_MARK not in html:
            return f"glossary/{page.parent.name}/"
    raise SystemExit(f"{site}: every term page has a diagram or a model card")


def model_pages(site: Path) -> list[str]:
    """Every model page of the built site (a folder of models/ holding a model and a page)."""
    return sorted(f"models/{p.parent.name}/" for p in (site / "models").glob("*/index.html")
                  if (p.parent / "model.onnx").is_file())


def bytes_before_run(browser: Any, url: str) -> int:
    """Bytes a page transfers (headers and bodies, as sent) from loading until the network is
    idle, in a fresh context of headless Chromium: what a reader downloads before pressing Run."""
    total = 0

    def count(request: Any) -> None:
        nonlocal total
        sizes = request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]

    context = browser.new_context()
    page = context.new_page()
    page.on("requestfinished", count)
    page.goto(url, wait_until="networkidle")
    context.close()
    return total


def heaviest_model_page(server_url: str, site: Path) -> tuple[str, int]:
    """The model page that transfers the most bytes before Run, and how many."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS))
        sizes = {path: bytes_before_run(browser, server_url + path) for path in model_pages(site)}
        browser.close()
    heaviest = max(sizes, key=lambda path: sizes[path])
    return heaviest, sizes[heaviest]


def page_types(site: Path, heaviest: str) -> list[PageType]:
    """Every page type issue 27 names, resolved against the built site."""
    return [
        PageType("home", "home", ""),
        PageType("glossary-index", "glossary index", "glossary/"),
        PageType("term-diagram", "glossary/onnx/ (a diagram and a card)", "glossary/onnx/"),
        PageType("term-plain", f"{term_without_extras(site)} (neither)", term_without_extras(site)),
        PageType("models-index", "models index", "models/"),
        PageType("digits", "models/digits/", "models/digits/"),
        PageType("heaviest-model", f"{heaviest} (most bytes before Run)", heaviest),
        PageType("operators", "operator index", "models/operators/"),
        PageType("not-found", "404 (a missing address)", MISSING_PATH),
    ]


# -- the plain page --------------------------------------------------------------------------

PLAIN_CONFIG = """\
site_name: ONNX in the browser, a glossary
site_url: {site_url}
theme:
  name: material
  font: false
  language: en
markdown_extensions:
  - abbr
  - admonition
  - attr_list
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.highlight
  - pymdownx.inlinehilite
  - pymdownx.tabbed:
      alternate_style: true
  - pymdownx.superfences
"""


def plain_markdown(term_file: Path) -> str:
    """The term's text as a hand-written page: its summary as the page's description (Material
    prints it as the meta description), its title, its summary again, then its body."""
    text = term_file.read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    meta = yaml.safe_load(front)
    return (f"---\ndescription: {json.dumps(meta['summary'])}\n---\n"
            f"# {meta['title']}\n\n{meta['summary']}\n\n{body}")


def build_plain_site(work: Path, site_url: str) -> Path:
    """A plain mkdocs-material site (no plugin; Material's own defaults, no web fonts, the
    site's Markdown extensions) with the ONNX term's text on its page ``onnx/``."""
    docs = work / "plain" / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Plain\n\n[ONNX](onnx.md)\n", encoding="utf-8")
    (docs / "onnx.md").write_text(plain_markdown(ROOT / "glossary" / "onnx.md"), encoding="utf-8")
    config = work / "plain" / "mkdocs.yml"
    config.write_text(PLAIN_CONFIG.format(site_url=site_url), encoding="utf-8")
    site = work / "plain" / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config),
                           "-d", str(site)], capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the plain site did not build:\n{done.stderr}")
    return site


# -- Lighthouse ------------------------------------------------------------------------------


def lighthouse(url: str, report: Path, *, missing: bool = False) -> Audit:
    """One Lighthouse run (mobile, simulated throttling) on ``url``; its JSON kept at
    ``report``. ``missing``: the page answers 404 by design, which Lighthouse then accepts."""
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
               f"--only-categories={','.join(CATEGORIES)}",
               f"--chrome-flags={' '.join(CHROMIUM_FLAGS)}",
               # The full-page screenshot is for the HTML report's viewer: no score or metric
               # reads it, and it took 1.2 s of each 8.7 s run here.
               "--disable-full-page-screenshot",
               *(["--ignore-status-code"] if missing else [])]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=600)
    if done.returncode or not report.is_file():
        raise SystemExit(f"lighthouse {url} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return audit_from_report(json.loads(report.read_text(encoding="utf-8")), missing=missing)


def measure(pages: Sequence[PageType], site_url: str, plain_url: str, runs: int,
            reports: Path) -> tuple[list[Audit], dict[str, list[Audit]]]:
    """``runs`` rounds of the plain page then every page type; every run's audit."""
    plain: list[Audit] = []
    found: dict[str, list[Audit]] = {page.key: [] for page in pages}
    for number in range(1, runs + 1):
        plain.append(lighthouse(plain_url, reports / f"plain-{number}.json"))
        print(f"round {number}/{runs}: plain {plain[-1].performance:.0f}", end="", flush=True)
        for page in pages:
            audit = lighthouse(site_url + page.path, reports / f"{page.key}-{number}.json",
                               missing=page.path == MISSING_PATH)
            found[page.key].append(audit)
            print(f", {page.key} {audit.performance:.0f}", end="", flush=True)
        print(f" (load {os.getloadavg()[0]:.1f})")
    return plain, found


# -- the table and the record ----------------------------------------------------------------


def row(label: str, audit: Audit, verdict: str) -> str:
    return (f"| {label} | {audit.performance:.0f} | {audit.fcp_ms / 1000:.1f} s "
            f"| {audit.lcp_ms / 1000:.1f} s | {audit.tbt_ms:,.0f} ms | {audit.bytes / 1024:,.0f} KB "
            f"| {audit.accessibility:.0f} | {audit.best_practices:.0f} | {audit.seo:.0f} | {verdict} |")


def table(pages: Sequence[PageType], plain: Audit, medians: dict[str, Audit]) -> list[str]:
    """The markdown table: the targets, the plain page, every page type and what it misses."""
    lines = ["| page | performance | FCP | LCP | total blocking time | bytes | accessibility "
             "| best practices | SEO | missed |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
             f"| *target* | ≥ {PERFORMANCE_TARGET} (plain ≥ {PLAIN_PERFORMANCE_TARGET}) | "
             f"| ≤ {LCP_TARGET_MS / 1000:.1f} s | ≤ {TBT_TARGET_MS:.0f} ms | | 100 | 100 | 100 | |",
             row("plain Material page (the ONNX term's text)", plain,
                 "; ".join(misses(plain, plain=True)) or "none")]
    lines += [row(page.label, medians[page.key], "; ".join(misses(medians[page.key])) or "none")
              for page in pages]
    return lines


def figures(pages: Sequence[PageType], plain: Audit,
            medians: dict[str, Audit]) -> dict[str, dict[str, object]]:
    """The run's figures (``lighthouse.<page>.<metric>``): medians of the run."""
    fig = bench_record.figure
    found: dict[str, dict[str, object]] = {}
    for key, label, audit, target in (("plain", "a plain mkdocs-material page with the ONNX "
                                       "term's text", plain, f">= {PLAIN_PERFORMANCE_TARGET}"),
                                      *((p.key, p.label, medians[p.key], f">= {PERFORMANCE_TARGET}")
                                        for p in pages)):
        found[f"lighthouse.{key}.performance"] = fig(
            audit.performance, f"{audit.performance:.0f}",
            f"Lighthouse mobile performance score, {label}", target)
        found[f"lighthouse.{key}.fcp-s"] = fig(audit.fcp_ms / 1000, bench_record.seconds(
            audit.fcp_ms / 1000), f"Lighthouse first contentful paint, {label}")
        found[f"lighthouse.{key}.lcp-s"] = fig(audit.lcp_ms / 1000, bench_record.seconds(
            audit.lcp_ms / 1000), f"Lighthouse largest contentful paint, {label}",
            None if key == "plain" else f"<= {LCP_TARGET_MS / 1000:.1f}")
        found[f"lighthouse.{key}.tbt-ms"] = fig(audit.tbt_ms, f"{audit.tbt_ms:,.0f} ms",
                                                f"Lighthouse total blocking time, {label}",
                                                None if key == "plain" else f"<= {TBT_TARGET_MS:.0f}")
        found[f"lighthouse.{key}.kb"] = fig(audit.bytes / 1024, f"{audit.bytes / 1024:,.0f} KB",
                                            f"Bytes transferred (gzip), {label}")
    lowest = min(min(a.accessibility, a.best_practices, a.seo) for a in medians.values())
    found["lighthouse.other-categories-min"] = fig(
        lowest, f"{lowest:.0f}", "The lowest Lighthouse accessibility, best-practices or SEO "
        "score of any page type", f">= {OTHER_CATEGORY_TARGET}")
    return found


# -- the run ---------------------------------------------------------------------------------


def build_site(site_dir: Path, site_url: str) -> None:
    """The site as `make build` builds it, for ``site_url`` (canonical links name the server)."""
    from tests.sitebuild import build_site as build

    built = build(ROOT / "mkdocs.yml", site_dir=site_dir, strict=True, site_url=site_url)
    if built.aborted:
        raise SystemExit("the site did not build:\n" + "\n".join(built.warnings))


def serve(root: Path) -> StaticServer:
    """``root`` under /onnx-glossary/ as GitHub Pages serves a site."""
    return StaticServer(root, PREFIX, cache_control=GITHUB_PAGES_CACHE, gzip=True, not_found=True)


def chosen(pages: Iterable[PageType], only: Sequence[str] | None) -> list[PageType]:
    return [page for page in pages if not only or page.key in only]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS,
                        help="Lighthouse runs per page (and of the plain page), medians")
    parser.add_argument("--site", type=Path, help="a site already built (default: build one)")
    parser.add_argument("--keep", type=Path, help="keep every Lighthouse JSON report here")
    parser.add_argument("--only", nargs="+", metavar="KEY", help="only these page types")
    bench_record.add_arguments(parser)
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        raise SystemExit(f"{LIGHTHOUSE} is missing: run 'npm ci' (make setup does)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        site = args.site.resolve() if args.site else work / "site"
        site.mkdir(exist_ok=True)
        with serve(site) as server, serve(work / "plain" / "site") as plain_server:
            if not args.site:
                build_site(site, server.url)
            build_plain_site(work, plain_server.url)
            heaviest, heaviest_bytes = heaviest_model_page(server.url, site)
            print(f"the model page with the most bytes before Run: {heaviest} "
                  f"({heaviest_bytes / 1024:,.0f} KB)")
            pages = chosen(page_types(site, heaviest), args.only)
            reports = args.keep or work / "reports"
            reports.mkdir(parents=True, exist_ok=True)
            load = os.getloadavg()[0]
            plain_runs, runs = measure(pages, server.url, plain_server.url + "onnx/", args.runs,
                                       reports)
    plain = median_audit(plain_runs)
    medians = {key: median_audit(audits) for key, audits in runs.items()}
    print(f"\nLighthouse {lighthouse_version()}, mobile (simulated slow 4G, 4x CPU), Chromium "
          f"headless; medians of {args.runs} interleaved runs; load average {load:.2f} at the "
          f"start, {os.getloadavg()[0]:.2f} at the end.\n")
    print("\n".join(table(pages, plain, medians)))
    missed = misses(plain, plain=True) + [m for a in medians.values() for m in misses(a)]
    defaults = args.runs == DEFAULT_RUNS and not args.only and not args.site
    if bench_record.should_record(args, defaults):
        found = figures(pages, plain, medians)
        versions = {**bench_record.versions(chromium=CHROMIUM), "lighthouse": lighthouse_version()}
        entry = bench_record.append_run(found, run_versions=versions)
        print(f"recorded {len(found)} figures in {bench_record.DATA_FILE.relative_to(ROOT)} "
              f"({entry['date']})")
    if missed:
        print(f"\n{len(missed)} targets missed")
        raise SystemExit(1)


def lighthouse_version() -> str:
    package = ROOT / "node_modules" / "lighthouse" / "package.json"
    return str(json.loads(package.read_text(encoding="utf-8"))["version"])


if __name__ == "__main__":
    main()
