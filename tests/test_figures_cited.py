# ruff: noqa: RUF002 (the rule is about the multiplication sign and the en dash)
"""Measured figures come from one place: a glossary page never quotes a number of its own that
the benchmarks' data file should give.

The rule, applied to every term file (its whole text, front matter and body, code included):
a *figure* is a number written in digits (``14.2``, ``1,000``; a range ``0.31 to 0.33``,
``4.5-4.8`` or ``4.5–4.8`` counts as one) that is followed by one of the units

- ``ms``, ``µs``, ``MB``, ``KB``, ``kB``, ``GB``, ``MiB``, ``KiB``, ``GiB`` (with or without a
  space), or ``s`` after a space (so the ``1s and 0s`` of a mask are no seconds);
- ``×`` not followed by another number (``4.5×`` is a ratio; ``16 × 16`` and ``128 × 128`` are
  sizes), or the word ``times``;

and that is not part of a longer word or number (``opset 17``, ``v1.2`` and ``2e-4`` have no
such unit; ``x2`` starts with a letter). Text inside ``[[figure: KEY]]`` is not read: the embed
prints the newest measured value from docs/benchmarks.json.

Every other figure must be listed for its term in glossary/cited-figures.yml, with either the
primary source of a fact of the platform (an https URL) or the claim test that reads it from a
file this repository holds or pins (a model's size, a runtime file's size). A figure measured on
this site's machines has no place in that list: it is written as ``[[figure: KEY]]``.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
import yaml

from .sitebuild import REPO
from .support.claims import node_test_names

GLOSSARY = REPO / "glossary"
CITED = GLOSSARY / "cited-figures.yml"
NUMBER = r"\d+(?:[.,]\d+)*"
SPACE = "[ \u00a0\u202f]"
FIGURE = re.compile(
    rf"(?<![\w.\-]){NUMBER}(?:\s*(?:–|-|to)\s*{NUMBER})?"
    rf"(?:{SPACE}*(?:ms|µs|MB|KB|kB|GB|MiB|KiB|GiB|×(?!{SPACE}*\d)|times)|{SPACE}+s)(?!\w)")
EMBED = re.compile(r"\[\[figure:[^\]]*\]\]")


def figures_in(text: str) -> Counter[str]:
    """The figures of a text by the rule above, white space collapsed, with their counts."""
    return Counter(" ".join(m.group(0).split()) for m in FIGURE.finditer(EMBED.sub(" ", text)))


def cited() -> dict[str, list[dict[str, str]]]:
    data = yaml.safe_load(CITED.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{CITED}: a mapping of term slugs to lists"
    return data


@pytest.fixture(scope="module")
def in_terms() -> dict[str, Counter[str]]:
    return {path.stem: figures_in(path.read_text(encoding="utf-8")) for path in sorted(GLOSSARY.glob("*.md"))}


@pytest.mark.parametrize(("text", "found"), [
    ("0.31 to 0.33 s from Run, 0.65 s otherwise", ["0.31 to 0.33 s", "0.65 s"]),
    ("a 73 KB bundle plus a 14.2 MB .wasm (3.7 MB gzipped), 16.8MB", ["73 KB", "14.2 MB", "3.7 MB", "16.8MB"]),
    ("ran 4.5 to 4.8 times slower, or 4.5×, or 2 × faster", ["4.5 to 4.8 times", "4.5×", "2 ×"]),
    ("steps of 0.1 ms; 50 µs; 100 MiB; 1 GB; 2,048 KB", ["0.1 ms", "50 µs", "100 MiB", "1 GB", "2,048 KB"]),
    ("opset 17, IR 8, 16 × 16 grid, 128×128 input, an attention mask of 1s and 0s", []),
    ("within 2e-4, 1.6e-7, v1.2 s, float32 [1, 3], 10 steps, 3 sizes, x2 times", []),
    ("printed by [[figure: live.cold-run-s]] and [[figure: build.p1]]", []),
])
def test_the_rule_catches_measured_looking_figures_only(text: str, found: list[str]) -> None:
    assert list(figures_in(text)) == found


def test_every_figure_of_a_term_is_measured_here_or_cited(in_terms) -> None:
    listed = {term: {entry["figure"] for entry in entries or []} for term, entries in cited().items()}
    unlisted = [f"glossary/{term}.md: {figure!r} ({n}×)" for term, found in in_terms.items()
                for figure, n in sorted(found.items()) if figure not in listed.get(term, set())]
    assert unlisted == [], (
        "figures that neither come from the benchmarks' data file nor are cited: write a figure "
        "measured on this site as [[figure: KEY]] (docs/benchmarks.json), or list a fact of the "
        "platform in glossary/cited-figures.yml with its source:\n" + "\n".join(unlisted))


def test_every_cited_figure_is_still_in_its_term(in_terms) -> None:
    stale = [f"{term}: {entry['figure']!r}" for term, entries in cited().items() for entry in entries or []
             if entry["figure"] not in in_terms.get(term, Counter())]
    assert stale == [], "listed in glossary/cited-figures.yml but gone from the term:\n" + "\n".join(stale)


def test_every_cited_figure_has_one_source_or_one_test_that_exists() -> None:
    problems = []
    for term, entries in cited().items():
        if not (GLOSSARY / f"{term}.md").is_file():
            problems.append(f"{term}: no term file glossary/{term}.md")
        for entry in entries or []:
            backing = {key: entry[key] for key in ("source", "test") if entry.get(key)}
            what = f"{term}: {entry.get('figure')!r}"
            if set(entry) - {"figure", "source", "test"} or len(backing) != 1:
                problems.append(f"{what}: needs a figure and exactly one of source, test")
            elif "source" in backing and not re.match(r"^https://[^\s/]+\.[^\s/]+/\S*$", backing["source"]):
                problems.append(f"{what}: the source must be an https URL")
            elif "test" in backing and not _test_exists(backing["test"]):
                problems.append(f"{what}: no test {backing['test']}")
    assert problems == []


def _test_exists(test_id: str) -> bool:
    path, _, name = test_id.partition("::")
    file = REPO / path
    if not file.is_file() or not name:
        return False
    if path.endswith(".mjs"):
        return name in node_test_names(file)
    return re.search(rf"^def {re.escape(name)}\(", file.read_text(encoding="utf-8"), re.MULTILINE) is not None


def test_no_figure_is_cited_twice_for_a_term() -> None:
    twice = [(term, figure) for term, entries in cited().items()
             for figure, n in Counter(e["figure"] for e in entries or []).items() if n > 1]
    assert twice == []

