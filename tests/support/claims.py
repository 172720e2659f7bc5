"""glossary/claims.yml: every statement of the glossary about what onnx, onnxruntime,
onnxruntime-web (and the browser platform they run on) do, with what backs it.

The file maps a term's slug to a list of entries. Each entry has ``claim``, the sentence (or the
fact-table detail) exactly as the term file writes it, and exactly one of:

- ``test``: a pytest node id (``tests/test_x.py::test_name``) or a node test
  (``tests/js/<file>.mjs::<test name>``) that runs the claim here;
- ``source``: the primary source (an https URL) for a claim that nothing here can run;
- ``cannot_run``: why it cannot run here, when there is no primary source to cite either.

Line breaks and indentation are not part of a claim: both sides are compared with runs of white
space collapsed, so a sentence may wrap differently in the term file.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent.parent
CLAIMS = REPO / "glossary" / "claims.yml"
KINDS = ("test", "source", "cannot_run")
NODE_TEST = re.compile(r'^test\("([^"]+)"', re.MULTILINE)


@dataclass(frozen=True)
class Claim:
    term: str
    claim: str
    kind: str | None  # None when the entry has none of KINDS, or several
    backing: str
    problem: str = ""


def collapse(text: str) -> str:
    return " ".join(text.split())


def load(path: Path = CLAIMS) -> list[Claim]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of term slugs to lists of claims")
    claims = []
    for term, entries in data.items():
        for entry in entries or []:
            kinds = [k for k in KINDS if entry.get(k)]
            unknown = set(entry) - {"claim", *KINDS}
            problem = ""
            if unknown:
                problem = f"unknown key(s) {sorted(unknown)}"
            elif len(kinds) != 1:
                problem = f"needs exactly one of {', '.join(KINDS)}, has {kinds or 'none'}"
            claims.append(Claim(term, str(entry.get("claim") or ""), kinds[0] if len(kinds) == 1 else None,
                                str(entry.get(kinds[0]) if len(kinds) == 1 else ""), problem))
    return claims


def node_test_names(path: Path) -> set[str]:
    return set(NODE_TEST.findall(path.read_text(encoding="utf-8")))


def counts(claims: list[Claim]) -> dict[str, Counter[str]]:
    """Per term: how many claims are backed by a test, a source, or a reason."""
    per_term: dict[str, Counter[str]] = {}
    for claim in claims:
        per_term.setdefault(claim.term, Counter())[claim.kind or "broken"] += 1
    return per_term


if __name__ == "__main__":  # python -m tests.support.claims: the counts per term
    table = counts(load())
    total: Counter[str] = Counter()
    print(f"{'term':32} {'test':>5} {'source':>7} {'cannot':>7}")
    for term in sorted(table):
        row = table[term]
        total.update(row)
        print(f"{term:32} {row['test']:5} {row['source']:7} {row['cannot_run']:7}")
    print(f"{'all ' + str(len(table)) + ' terms':32} {total['test']:5} {total['source']:7} {total['cannot_run']:7}")
