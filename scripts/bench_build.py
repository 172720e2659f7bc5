"""Benchmark: building a big glossary with the plugin, against fixed baselines, in one run.

P1 (target: ratio <= 1.3). A synthetic glossary (default 1,000 terms, in clusters of 10) plus
this repository's models (``models/`` copied in), built with the plugin and an *empty* analysis
cache, against the baseline: the markdown the plugin hands MkDocs for every page (term pages,
the glossary index, model pages, the operator index, the option reference; captured once, after
``on_page_markdown``) and every file it adds (models, references, the browser runtime, CSS and
JS), written into a plain docs folder and built by plain mkdocs-material without the plugin,
with this site's theme settings. Every build here uses the same plain extensions (admonition,
attr_list, def_list, tables, toc). Both builds make the same HTML pages.

Against hand-written pages (target: ratio <= 1.5, in wall-clock time and in CPU time). The
same plugin build, against the same terms and models written the way a person writes them by
hand in plain Markdown (an admonition with the short answer, a fact table, lists, the
questions as headings, sources, links to the other terms of the cluster, an index page; per
model a short page with its summary, a table of its files and the model to download, and no
live example), built by plain mkdocs-material with those extensions and this site's theme
settings. Measured in the same interleaved runs as P1.

Error path (target: ratio <= 1.2). The same glossary without models, once with about 9 links
per term to terms that do not exist (each a warning with a "did you mean" hint, so the build
is not --strict) and once with those links pointing at existing terms.

Repetitions are interleaved (the order alternates), times are medians. Prints each ratio with
its target and exits with status 1 when one is missed.

    python scripts/bench_build.py [--terms 1000] [--small 20] [--repeat 5] [--no-record]

A run with the default sizes appends its figures (keys ``build.*``) to docs/benchmarks.json, the
data file the pages print measured figures from (``scripts/bench_record.py``).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
import bench_record  # noqa: E402

P1_TARGET = 1.3
HANDWRITTEN_TARGET = 1.5
ERROR_PATH_TARGET = 1.2
CLUSTER = 10  # terms per category: the editorial rules allow at most 12
EXTRA_LINKS = 9  # links per term on the error path
WORDS = (
    "graph", "operator", "tensor", "runtime", "browser", "model", "weight", "export", "shape",
    "opset", "kernel", "thread", "memory", "format", "layer", "input", "output", "batch",
    "precision", "backend",
)

# -- the synthetic glossary ------------------------------------------------------------------


def slug(i: int) -> str:
    return f"term-{i:04d}"


def title(i: int) -> str:
    return f"{WORDS[i % len(WORDS)].title()} concept {i}"


def prose(i: int, sentences: int) -> str:
    out = []
    for s in range(sentences):
        words = [WORDS[(i * 7 + s * 3 + k) % len(WORDS)] for k in range(14)]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def missing_slug(i: int, k: int) -> str:
    """A link target that is not a term, each one different: a slug with a digit dropped (a
    typo), a title written as a slug, or a name that resembles nothing."""
    j = (i * 31 + k * 97) % 10_000
    if k % 3 == 0:
        return f"term-{j:04d}"[:-1] + "x"
    if k % 3 == 1:
        return f"{WORDS[j % len(WORDS)]}-concept-{j}"
    return f"unwritten-{i}-{k}"


def body(i: int, n: int, extra: str) -> str:
    start = (i // CLUSTER) * CLUSTER
    near = [j for j in range(start, min(start + CLUSTER, n)) if j != i][:3]
    links = ", ".join(f"[{title(j)}]({slug(j)}.md)" for j in near)
    if extra == "working":
        far = [(i + 37 * (k + 1)) % n for k in range(EXTRA_LINKS)]
        see = ", ".join(f"[{title(j)}]({slug(j)}.md)" for j in far)
    elif extra == "broken":
        see = ", ".join(f"[topic {k}]({missing_slug(i, k)}.md)" for k in range(EXTRA_LINKS))
    else:
        see = ""
    further = f"\n\nFurther reading: {see}." if see else ""
    return textwrap.dedent(f"""\
        ## What is {title(i).lower()}?

        {prose(i, 4)} See {links}.{further}

        ## Why does it matter?

        {prose(i + 1, 5)}

        - {prose(i + 2, 1)}
        - {prose(i + 3, 1)}
        """)


def term_file(i: int, n: int, extra: str = "") -> str:
    facts = "".join(f"    - fact: Fact {k}\n      detail: {prose(i + k, 1)}\n" for k in range(5))
    mistakes = "".join(f"  - {prose(i + k, 2)}\n" for k in range(3))
    faq = "".join(f"  - q: Question {k} about {title(i)}?\n    a: {prose(i + k, 2)}\n"
                  for k in range(3))
    return (f"---\ntitle: {title(i)}\naka: [Alias {i}]\ncategory: Cluster {i // CLUSTER}\n"
            f"updated: 2026-11-30\nsummary: {prose(i, 2)}\nfacts:\n  caption: Quick facts.\n"
            f"  rows:\n{facts}mistakes:\n{mistakes}faq:\n{faq}sources:\n"
            "  - title: Spec\n    url: https://spec.example.org/spec\n"
            "  - title: Docs\n    url: https://docs.example.com/docs\n"
            f"---\n{body(i, n, extra)}")


# -- projects --------------------------------------------------------------------------------


def _section(text: str, start: str, end: str) -> str:
    """A top-level block of this site's mkdocs.yml, verbatim, so the bench cannot drift."""
    return text[text.index(f"\n{start}:") + 1:text.index(f"\n{end}:") + 1]


SITE_YML = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
THEME = _section(SITE_YML, "theme", "nav")
# Every build, with the plugin or without, uses the plain extensions a hand-written glossary
# needs. The plugin needs none of its own (it adds attr_list when a site lacks it), so the
# extensions a team already runs would cost both sides the same. With this site's own list
# (pymdownx's highlighting, tabs and fences, set up again for every page) the plugin build of
# 1,000 terms took 14.0 s, and 11.5 s with these; 0.9 s of that was a thumbnail's WebP
# encode, made cheaper at the same time (medians of 5 and of 3, 4 December 2026).
EXTENSIONS = ("markdown_extensions:\n  - admonition\n  - attr_list\n  - def_list\n  - tables\n"
              "  - toc:\n      permalink: true\n")
NAV = """\
nav:
  - Home: index.md
  - Glossary: glossary/index.md
  - Models:
      - models/index.md
      - Operators: models/operators.md
  - Option reference: reference/options.md
"""
NAV_NO_MODELS = "nav:\n  - Home: index.md\n  - Glossary: glossary/index.md\n"

# Run once with the plugin: writes what the plugin hands MkDocs (page markdown after every
# plugin's on_page_markdown, the meta it sets, and the files it adds) into a plain docs folder.
CAPTURE_HOOK = '''\
import json, os
from pathlib import Path
from mkdocs.plugins import event_priority

OUT = Path(os.environ["BENCH_BASELINE"])

@event_priority(-100)
def on_config(config):
    extra = {"extra_css": list(config.extra_css),
             "extra_javascript": [str(s) for s in config.extra_javascript]}
    (OUT / "extra.json").write_text(json.dumps(extra))

@event_priority(-100)
def on_files(files, config):
    for file in files:
        if not file.is_documentation_page():
            target = OUT / "docs" / file.src_uri
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(file.content_bytes)

@event_priority(-100)
def on_page_markdown(markdown, page, config, files):
    meta = {k: v for k, v in page.meta.items() if isinstance(v, str)}
    front = "".join(f"{k}: {json.dumps(v)}\\n" for k, v in meta.items())
    target = OUT / "docs" / page.file.src_uri
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text((f"---\\n{front}---\\n\\n" if front else "") + markdown, encoding="utf-8")
    return markdown
'''


def _config(nav: str, plugins: str, extra: str = "") -> str:
    return (f"site_name: Bench\nsite_url: https://docs.team.example/bench/\n{THEME}{nav}"
            f"plugins:\n{plugins}{EXTENSIONS}validation:\n  omitted_files: ignore\n{extra}")


def _glossary_plugin(cache: Path, models: bool) -> str:
    return ("  - search\n  - glossary:\n      glossary_dir: glossary\n"
            + ("      models_dir: models\n" if models else "")
            + f"      node_modules: {REPO / 'node_modules'}\n      cache_dir: {cache}\n")


def plugin_project(root: Path, n: int, *, models: bool, extra: str = "") -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs/index.md").write_text("# Home\n\nA synthetic glossary.\n")
    (root / "glossary").mkdir()
    for i in range(n):
        (root / "glossary" / f"{slug(i)}.md").write_text(term_file(i, n, extra))
    if models:
        shutil.copytree(REPO / "models", root / "models",
                        ignore=shutil.ignore_patterns("export.py", "__pycache__"))
    nav = NAV if models else NAV_NO_MODELS
    (root / "mkdocs.yml").write_text(_config(nav, _glossary_plugin(root / "cache", models)))
    return root


def baseline_project(ours: Path, root: Path) -> Path:
    """Capture the plugin's pages and files once, and make a plain project of them."""
    root.mkdir()
    (root / "docs").mkdir()
    (ours / "capture.py").write_text(CAPTURE_HOOK)
    capture = _config(NAV, _glossary_plugin(root / "capture-cache", True), "hooks: [capture.py]\n")
    (ours / "mkdocs-capture.yml").write_text(capture)
    _mkdocs(ours, "-f", "mkdocs-capture.yml", "--site-dir", str(root / "capture-site"),
            "--strict", env={"BENCH_BASELINE": str(root)})
    shutil.rmtree(root / "capture-site")
    shutil.rmtree(root / "capture-cache")
    extra = json.loads((root / "extra.json").read_text())
    listed = "".join(f"{key}:\n" + "".join(f"  - {json.dumps(v)}\n" for v in values)
                     for key, values in extra.items() if values)
    (root / "mkdocs.yml").write_text(_config(NAV, "  - search\n", listed))
    return root


def handwritten_term(i: int, n: int) -> str:
    """Term ``i`` as a person writes it by hand in plain Markdown: the same words and sections
    as :func:`term_file` (short answer, fact table, body, mistakes, questions, sources, the
    other terms of its cluster), with Markdown's own syntax where the plugin writes HTML."""
    start = (i // CLUSTER) * CLUSTER
    rows = "".join(f"| Fact {k} | {prose(i + k, 1)} |\n" for k in range(5))
    mistakes = "".join(f"{k + 1}. {prose(i + k, 2)}\n" for k in range(3))
    faq = "".join(f"### Question {k} about {title(i)}?\n\n{prose(i + k, 2)}\n\n" for k in range(3))
    cluster = "".join(f"- [{title(j)}]({slug(j)}.md)\n"
                      for j in range(start, min(start + CLUSTER, n)) if j != i)
    return (f"---\ndescription: {prose(i, 2)}\n---\n\n# {title(i)}\n\n"
            f"*Also called Alias {i}. Cluster {i // CLUSTER}, updated 30 November 2026.*\n\n"
            f"!!! note \"The short answer\"\n\n    {prose(i, 2)}\n\n"
            f"## {title(i)} at a glance {{ #at-a-glance }}\n\n"
            f"Quick facts.\n\n| Quick fact | Detail |\n|---|---|\n{rows}\n"
            f"{body(i, n, '')}\n## What people get wrong about {title(i)} {{ #what-people-get-wrong }}\n\n"
            f"{mistakes}\n## Questions people ask {{ #questions }}\n\n{faq}"
            "## Sources { #sources }\n\n- [Spec](https://spec.example.org/spec) (spec.example.org)\n"
            "- [Docs](https://docs.example.com/docs) (docs.example.com)\n\n"
            f"## More in Cluster {i // CLUSTER} {{ #same-cluster }}\n\n{cluster}\n"
            f"[Back to the glossary](index.md){{: .back }}\n")


def handwritten_project(root: Path, n: int) -> Path:
    """The same terms and models as :func:`plugin_project`, written by hand as plain pages
    (an index of the terms by cluster; per model a title, a table of its files, its summary and
    its model file to download, no live example), for plain Material with plain extensions."""
    import yaml

    docs = root / "docs"
    (docs / "glossary").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n\nA glossary written by hand.\n")
    index = [f"# Glossary\n\nAll {n:,} terms, by cluster.\n"]
    for i in range(n):
        (docs / "glossary" / f"{slug(i)}.md").write_text(handwritten_term(i, n))
        if i % CLUSTER == 0:
            index.append(f"\n## Cluster {i // CLUSTER}\n\n")
        index.append(f"- [{title(i)}]({slug(i)}.md): {prose(i, 1)}\n")
    (docs / "glossary/index.md").write_text("".join(index))
    models = sorted(p.parent for p in REPO.glob("models/*/model.onnx"))
    listing = ["# Models\n\n"]
    for model in models:
        name = model.name
        spec = yaml.safe_load((model / "example.yml").read_text(encoding="utf-8"))
        summary = " ".join(str(spec.get(key, "")) for key in ("summary", "about")).strip()
        files = "".join(f"| `{f.name}` | {f.stat().st_size:,} bytes |\n"
                        for f in sorted(model.iterdir()) if f.is_file() and f.suffix != ".py")
        (docs / "models" / name).mkdir(parents=True)
        shutil.copy(model / "model.onnx", docs / "models" / name / "model.onnx")
        (docs / "models" / name / "index.md").write_text(
            f"# {name}\n\n{summary}\n\n| File | Size |\n|---|---:|\n{files}\n"
            "[Download the model](model.onnx)\n", encoding="utf-8")
        listing.append(f"- [{name}]({name}/index.md): {summary}\n")
    (docs / "models/index.md").write_text("".join(listing), encoding="utf-8")
    nav = "nav:\n  - Home: index.md\n  - Glossary: glossary/index.md\n  - Models: models/index.md\n"
    (root / "mkdocs.yml").write_text(
        f"site_name: Bench\nsite_url: https://docs.team.example/bench/\n{THEME}{nav}"
        f"plugins:\n  - search\n{EXTENSIONS}validation:\n  omitted_files: ignore\n")
    return root


# -- measuring -------------------------------------------------------------------------------


def _mkdocs(project: Path, *args: str, env: dict[str, str] | None = None) -> None:
    # --quiet drops warnings before --strict counts them: the capture build passes neither.
    quiet = [] if "--strict" in args else ["--quiet"]
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", *quiet, *args], cwd=project,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})},
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"FAIL: mkdocs build in {project} failed:\n{done.stderr[-3000:]}")


def timed(project: Path, *args: str, before: Callable[[], None] = lambda: None,
          env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system, all threads) of one build."""
    before()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    _mkdocs(project, *args, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime


def interleaved(runs: dict[str, Callable[[], tuple[float, float]]], repeat: int) -> dict[str, float]:
    """Median wall and CPU seconds per run (keys NAME and NAME_cpu); the order alternates so
    that drift in the machine's load hits both alike."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    names = list(runs)
    for rep in range(repeat):
        for name in names if rep % 2 == 0 else reversed(names):
            times[name].append(runs[name]())
    out = {}
    for name, values in times.items():
        out[name] = statistics.median(wall for wall, _ in values)
        out[f"{name}_cpu"] = statistics.median(cpu for _, cpu in values)
    return out


def html_pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html")}


def measure_p1(tmp: Path, n: int, repeat: int, against: Path | None = None) -> dict[str, float]:
    ours = plugin_project(tmp / f"plugin-{n}", n, models=True)
    plain = baseline_project(ours, tmp / f"plain-{n}")
    hand = handwritten_project(tmp / f"hand-{n}", n)
    cache = ours / "cache"
    runs = {
        "plain": lambda: timed(plain),
        "hand": lambda: timed(hand),
        "plugin": lambda: timed(ours, before=lambda: shutil.rmtree(cache, ignore_errors=True)),
    }
    if against is not None:  # the same project built by another version of the plugin
        runs["against"] = lambda: timed(ours, "--site-dir", str(tmp / f"against-{n}"),
                                        before=lambda: shutil.rmtree(cache, ignore_errors=True),
                                        env={"PYTHONPATH": str(against)})
    medians = interleaved(runs, repeat)
    if html_pages(ours / "site") != html_pages(plain / "site"):
        sys.exit(f"FAIL: the plugin and the baseline made different pages at {n} terms")
    page = f"glossary/{slug(n // 2)}/index.html"
    medians["pages"] = len(html_pages(ours / "site"))
    medians["page_bytes"] = (ours / "site" / page).stat().st_size
    medians["plain_page_bytes"] = (plain / "site" / page).stat().st_size
    return medians


def measure_error_path(tmp: Path, n: int, repeat: int) -> dict[str, float]:
    working = plugin_project(tmp / "working", n, models=False, extra="working")
    broken = plugin_project(tmp / "broken", n, models=False, extra="broken")
    return interleaved({"working": lambda: timed(working), "broken": lambda: timed(broken)}, repeat)


def report(what: str, medians: dict[str, float], ours: str, base: str, target: float,
           wall_too: bool = False) -> bool:
    """Print the wall-clock and CPU ratios against the target; True when it is missed.

    The verdict is on CPU time: the machines are shared, and other jobs stretch wall-clock
    time unevenly between the two builds of a pair; a build's own CPU time does not depend on
    them (it counts every thread, so work done in parallel is not hidden). With ``wall_too``
    the wall-clock ratio must meet the target as well."""
    wall = medians[ours] / medians[base]
    cpu = medians[f"{ours}_cpu"] / medians[f"{base}_cpu"]
    missed = cpu > target or (wall_too and wall > target)
    verdict = "FAIL" if missed else "ok"
    both = " (both)" if wall_too else ""
    print(f"\n{what}: {cpu:.2f} in CPU time, {wall:.2f} in wall-clock time "
          f"(target{both} <= {target:.2f}: {verdict})\n")
    return missed


def build_figures(terms: int, p1: dict[int, dict[str, float]], errors: dict[str, float] | None
                  ) -> dict[str, dict[str, object]]:
    """The run's figures under the keys pages name (``[[figure: build.p1]]``)."""
    fig = bench_record.figure
    out: dict[str, dict[str, object]] = {}
    if terms in p1:
        r = p1[terms]
        cpu, wall = r["plugin_cpu"] / r["plain_cpu"], r["plugin"] / r["plain"]
        out["build.p1"] = fig(cpu, bench_record.ratio(cpu), f"A {terms:,}-term build with the "
                              "plugin, against plain Material building the plugin's own output "
                              "(CPU time ratio)", f"<= {P1_TARGET:.2f}")
        out["build.p1-wall"] = fig(wall, bench_record.ratio(wall), f"The same {terms:,}-term "
                                   "builds, wall-clock time ratio")
        out["build.plugin-cpu-s"] = fig(r["plugin_cpu"], bench_record.seconds(r["plugin_cpu"]),
                                        f"CPU time of a {terms:,}-term build with the plugin, "
                                        "empty analysis cache")
        out["build.plain-cpu-s"] = fig(r["plain_cpu"], bench_record.seconds(r["plain_cpu"]),
                                       f"CPU time of plain Material building the same {terms:,} "
                                       "pages")
        hand_cpu, hand_wall = r["plugin_cpu"] / r["hand_cpu"], r["plugin"] / r["hand"]
        out["build.handwritten-cpu"] = fig(hand_cpu, bench_record.ratio(hand_cpu), f"The same "
                                           f"{terms:,}-term build with the plugin, against the "
                                           "same terms and models written by hand as plain "
                                           "Markdown pages (CPU time ratio)",
                                           f"<= {HANDWRITTEN_TARGET:.1f}")
        out["build.handwritten-wall"] = fig(hand_wall, bench_record.ratio(hand_wall), "The same "
                                            "builds against the hand-written pages, wall-clock "
                                            "time ratio", f"<= {HANDWRITTEN_TARGET:.1f}")
    for n, r in p1.items():
        if n != terms:
            small = r["plugin_cpu"] / r["plain_cpu"]
            out["build.p1-small"] = fig(small, bench_record.ratio(small), f"The same ratio at "
                                        f"{n:,} terms (CPU time)")
    if errors is not None:
        cpu = errors["broken_cpu"] / errors["working_cpu"]
        out["build.error-path"] = fig(cpu, bench_record.ratio(cpu), f"A {terms:,}-term build "
                                      f"with {EXTRA_LINKS} broken links per term, against the same "
                                      "build with working links (CPU time ratio)",
                                      f"<= {ERROR_PATH_TARGET:.1f}")
    return out


def compile_plugin() -> None:
    """Give the plugin's modules the bytecode files pip writes for every installed package.

    The baseline's packages (MkDocs, Material, Markdown) were compiled when pip installed them.
    The plugin is installed in editable mode, so Python compiles its modules on first import
    and caches them; but where PYTHONDONTWRITEBYTECODE is set (as on the machines this was
    measured on), it cannot cache them, and every plugin build would compile its 33 modules
    again (about 0.04 s of CPU), which a normal install never does."""
    import onnx_glossary

    compileall.compile_dir(Path(onnx_glossary.__file__).parent, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--small", type=int, default=20, help="also measure P1 at this size "
                        "(no target; 0 to skip)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=("p1", "errors"), help="run one benchmark")
    parser.add_argument("--against", type=Path, help="the plugins/ folder of another checkout: "
                        "P1 also builds with that version, interleaved (an old-against-new A/B)")
    bench_record.add_arguments(parser)
    args = parser.parse_args()
    defaults = (args.terms, args.small, args.repeat, args.only, args.against) == (1000, 20, 5, None, None)
    results: dict[int, dict[str, float]] = {}
    errors: dict[str, float] | None = None
    started = time.perf_counter()
    failed = False
    compile_plugin()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if args.only != "errors":
            sizes = [s for s in (args.small, args.terms) if s]
            print(f"P1: plugin build (empty analysis cache, {len(list(REPO.glob('models/*/')))} "
                  f"models) against the plugin's markdown built by plain mkdocs-material; "
                  f"median of {args.repeat}, interleaved\n")
            print("| terms | pages | baseline (s) | plugin, cold cache (s) | ratio | baseline CPU (s) "
                  "| plugin CPU (s) | CPU ratio | term page, plugin / baseline (bytes) "
                  "| hand-written (s) | hand-written CPU (s) |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            results = {n: measure_p1(tmp, n, args.repeat, args.against) for n in sizes}
            for n, r in results.items():
                print(f"| {n:,} | {r['pages']:,.0f} | {r['plain']:.2f} | {r['plugin']:.2f} "
                      f"| {r['plugin'] / r['plain']:.2f} | {r['plain_cpu']:.2f} | {r['plugin_cpu']:.2f} "
                      f"| {r['plugin_cpu'] / r['plain_cpu']:.2f} "
                      f"| {r['page_bytes']:,.0f} / {r['plain_page_bytes']:,.0f} "
                      f"| {r['hand']:.2f} | {r['hand_cpu']:.2f} |")
            if args.against:
                report(f"P1 of {args.against}", results[args.terms], "against", "plain", P1_TARGET)
                report(f"Hand-written baseline, {args.against}", results[args.terms], "against",
                       "hand", HANDWRITTEN_TARGET, wall_too=True)
            failed |= report("P1", results[args.terms], "plugin", "plain", P1_TARGET)
            failed |= report("Against hand-written pages (the same terms and models as plain "
                             "Markdown, plain Material)", results[args.terms], "plugin", "hand",
                             HANDWRITTEN_TARGET, wall_too=True)
        if args.only != "p1":
            r = errors = measure_error_path(tmp, args.terms, args.repeat)
            print(f"Error path, {args.terms:,} terms, {EXTRA_LINKS} links each, median of "
                  f"{args.repeat}: working links {r['working']:.2f} s ({r['working_cpu']:.2f} s CPU), "
                  f"broken links {r['broken']:.2f} s ({r['broken_cpu']:.2f} s CPU)")
            failed |= report("Error path", r, "broken", "working", ERROR_PATH_TARGET)
    print(f"bench_build took {time.perf_counter() - started:.0f} s")
    if bench_record.should_record(args, defaults):
        bench_record.record(build_figures(args.terms, results, errors))
    if failed:
        print("FAIL: a target was missed")
        sys.exit(1)


if __name__ == "__main__":
    main()
