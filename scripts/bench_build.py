"""Benchmark: building a glossary with the plugin versus the same pages as plain markdown.

Generates a synthetic glossary (terms in clusters of 20, each with facts, mistakes, questions,
sources and cross-links), builds it with the plugin, and builds the same pages written as plain
mkdocs-material markdown without the plugin, in the same run and with the same nav (home and
glossary index only). Prints median build times, their ratio, and the size of one term page at
20 and at 1,000 terms (which should not grow with the number of terms).

    python scripts/bench_build.py [--terms 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLUSTER = 20
WORDS = (
    "graph", "operator", "tensor", "runtime", "browser", "model", "weight", "export", "shape",
    "opset", "kernel", "thread", "memory", "format", "layer", "input", "output", "batch",
    "precision", "backend",
)


def slug(i: int) -> str:
    return f"term-{i:04d}"


def title(i: int) -> str:
    return f"{WORDS[i % len(WORDS)].title()} concept {i}"


def prose(i: int, n: int, sentences: int) -> str:
    out = []
    for s in range(sentences):
        words = [WORDS[(i * 7 + s * 3 + k) % len(WORDS)] for k in range(14)]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def neighbours(i: int, n: int) -> list[int]:
    start = (i // CLUSTER) * CLUSTER
    return [j for j in range(start, min(start + CLUSTER, n)) if j != i]


def summary(i: int, n: int) -> str:
    return prose(i, n, 2)


def body(i: int, n: int, link: str) -> str:
    links = ", ".join(f"[{title(j)}]({link.format(slug(j))})" for j in neighbours(i, n)[:3])
    return textwrap.dedent(f"""\
        ## What is {title(i).lower()}?

        {prose(i, n, 4)} See {links}.

        ## Why does it matter?

        {prose(i + 1, n, 5)}

        - {prose(i + 2, n, 1)}
        - {prose(i + 3, n, 1)}
        """)


def term_file(i: int, n: int) -> str:
    facts = "".join(f"    - fact: Fact {k}\n      detail: {prose(i + k, n, 1)}\n" for k in range(5))
    mistakes = "".join(f"  - {prose(i + k, n, 2)}\n" for k in range(3))
    faq = "".join(f"  - q: Question {k} about {title(i)}?\n    a: {prose(i + k, n, 2)}\n"
                  for k in range(3))
    return (f"---\ntitle: {title(i)}\naka: [Alias {i}]\ncategory: Cluster {i // CLUSTER}\n"
            f"updated: 2026-11-30\nsummary: {summary(i, n)}\nfacts:\n  caption: Quick facts.\n"
            f"  rows:\n{facts}mistakes:\n{mistakes}faq:\n{faq}sources:\n"
            "  - title: Spec\n    url: https://example.org/spec\n"
            "  - title: Docs\n    url: https://example.org/docs\n"
            f"---\n{body(i, n, '{}.md')}")


def plain_page(i: int, n: int) -> str:
    """The same content as a hand-written mkdocs-material page: the tooltips the plugin adds
    are written as markdown link titles, as an author without the plugin would."""
    rows = "".join(f"| Fact {k} | {prose(i + k, n, 1)} |\n" for k in range(5))
    mistakes = "".join(f"{k + 1}. {prose(i + k, n, 2)}\n" for k in range(3))
    faq = "".join(f"### Question {k} about {title(i)}?\n\n{prose(i + k, n, 2)}\n\n" for k in range(3))
    cluster = "".join(f'- [{title(j)}]({slug(j)}.md "{summary(j, n)}")\n' for j in neighbours(i, n))
    return (f"# {title(i)}\n\nAlso called *Alias {i}*. Cluster {i // CLUSTER}. Updated 30 November "
            f"2026.\n\n> {prose(i, n, 2)}\n\n## At a glance\n\nQuick facts.\n\n| Quick fact | Detail |\n"
            f"|---|---|\n{rows}\n{plain_body(i, n)}\n## What people get wrong\n\n{mistakes}\n"
            f"## Questions people ask\n\n{faq}## Sources\n\n- [Spec](https://example.org/spec)\n"
            f"- [Docs](https://example.org/docs)\n\n## Same cluster\n\n{cluster}\n"
            "[Back to the glossary](index.md)\n")


def plain_body(i: int, n: int) -> str:
    text = body(i, n, "{}.md")
    for j in neighbours(i, n)[:3]:
        text = text.replace(f"({slug(j)}.md)", f'({slug(j)}.md "{summary(j, n)}")')
    return text


CONFIG = """\
site_name: Bench
site_url: https://example.github.io/repo/
theme:
  name: material
  font: false
nav:
  - index.md
  - glossary/index.md
plugins:
{plugins}
markdown_extensions: [attr_list, md_in_html, tables, toc]
validation:
  omitted_files: ignore
"""


def make_projects(root: Path, n: int) -> tuple[Path, Path]:
    ours, plain = root / "plugin", root / "plain"
    for project in (ours, plain):
        (project / "docs").mkdir(parents=True)
        (project / "docs/index.md").write_text("# Home\n")
    (ours / "glossary").mkdir()
    for i in range(n):
        (ours / "glossary" / f"{slug(i)}.md").write_text(term_file(i, n))
    (ours / "mkdocs.yml").write_text(CONFIG.format(plugins=(
        "  - search\n  - glossary:\n"
        f"      node_modules: {REPO / 'node_modules'}\n      live_examples: false\n")))
    (plain / "docs/glossary").mkdir()
    index = "".join(f"- [{title(i)}]({slug(i)}.md)\n" for i in range(n))
    (plain / "docs/glossary/index.md").write_text(f"# Glossary\n\nAll {n} terms.\n\n{index}")
    for i in range(n):
        (plain / "docs/glossary" / f"{slug(i)}.md").write_text(plain_page(i, n))
    (plain / "mkdocs.yml").write_text(CONFIG.format(plugins="  - search\n"))
    return ours, plain


def build(project: Path) -> float:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
                   cwd=project, check=True, env=env)
    return time.perf_counter() - start


def measure(n: int, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        ours, plain = make_projects(Path(tmp), n)
        times: dict[str, list[float]] = {"plugin": [], "plain": []}
        for _ in range(repeat):  # interleaved, so drift in machine load hits both alike
            times["plain"].append(build(plain))
            times["plugin"].append(build(ours))
        page = ours / "site/glossary" / slug(n // 2) / "index.html"
        plain_page_file = plain / "site/glossary" / slug(n // 2) / "index.html"
        return {"plugin": statistics.median(times["plugin"]),
                "plain": statistics.median(times["plain"]),
                "page_bytes": page.stat().st_size,
                "plain_page_bytes": plain_page_file.stat().st_size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    small = measure(20, args.repeat)
    large = measure(args.terms, args.repeat)
    print("| terms | plain build (s) | plugin build (s) | ratio | term page, plugin (bytes) "
          "| term page, plain (bytes) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n, r in ((20, small), (args.terms, large)):
        print(f"| {n:,} | {r['plain']:.2f} | {r['plugin']:.2f} | {r['plugin'] / r['plain']:.2f} "
              f"| {r['page_bytes']:,} | {r['plain_page_bytes']:,} |")
    growth = large["page_bytes"] / small["page_bytes"]
    print(f"\nTerm page size at {args.terms:,} terms / at 20 terms: {growth:.3f}")


if __name__ == "__main__":
    main()
