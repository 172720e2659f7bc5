"""glossary/claims.yml is complete and true to the glossary: every listed sentence is still in
its term, every listed test exists, every entry has exactly one backing, and every claim test
is listed. (The claim tests themselves are tests/test_claims_*.py and tests/js/*.claims.mjs.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .support.claims import REPO, collapse, counts, load, node_test_names

GLOSSARY = REPO / "glossary"
CLAIM_TESTS = sorted((REPO / "tests").glob("test_claims_*.py"))
CLAIM_JS = sorted((REPO / "tests" / "js").glob("*.claims.mjs"))
#: The claim tests that back no sentence by themselves (they check the claims file or run others).
NOT_CLAIMS = {"tests/test_claims_file.py", "tests/test_claims_node.py"}


@pytest.fixture(scope="module")
def claims():
    return load()


@pytest.fixture(scope="module")
def pytest_ids() -> set[str]:
    """The node ids pytest collects from the files claims.yml names (one collection run)."""
    files = sorted({c.backing.split("::")[0] for c in load() if c.kind == "test"
                    and c.backing.endswith(".py") is False and ".py::" in c.backing})
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                             *files], cwd=REPO, capture_output=True, text=True, timeout=300)
    ids = {line.strip() for line in result.stdout.splitlines() if "::" in line}
    assert ids, result.stdout + result.stderr
    return ids


def test_the_build_reads_only_markdown_from_the_glossary_folder(tmp_path: Path) -> None:
    # claims.yml sits beside the term files: the plugin's reader takes glossary/*.md only, so a
    # .yml there is neither a term nor a problem, even when it is not valid YAML at all.
    from onnx_glossary.glossary.index import load_glossary

    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "onnx.md").write_text((GLOSSARY / "onnx.md").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "claims.yml").write_text("{ not: yaml: [", encoding="utf-8")
    index, problems = load_glossary(folder, tmp_path)
    assert [term.slug for term in index.terms] == ["onnx"]
    assert [p for p in problems if "claims" in str(p)] == []


def test_every_entry_names_a_term_and_has_exactly_one_backing(claims) -> None:
    problems = [f"{c.term}: {c.claim[:60]!r}: {c.problem}" for c in claims if c.problem]
    problems += [f"{c.term}: no term file glossary/{c.term}.md" for c in claims
                 if not (GLOSSARY / f"{c.term}.md").is_file()]
    problems += [f"{c.term}: an empty claim" for c in claims if not c.claim.strip()]
    assert problems == []


def test_every_listed_sentence_is_still_in_its_term(claims) -> None:
    texts = {path.stem: collapse(path.read_text(encoding="utf-8")) for path in GLOSSARY.glob("*.md")}
    missing = [f"{c.term}: {c.claim!r}" for c in claims
               if c.term in texts and collapse(c.claim) not in texts[c.term]]
    assert missing == [], "sentences no longer in their term (edit claims.yml with the term):\n" + "\n".join(missing)


def test_no_sentence_is_listed_twice(claims) -> None:
    seen: dict[tuple[str, str], int] = {}
    for c in claims:
        seen[(c.term, collapse(c.claim))] = seen.get((c.term, collapse(c.claim)), 0) + 1
    assert [key for key, n in seen.items() if n > 1] == []


def test_sources_are_https_urls(claims) -> None:
    assert [c.backing for c in claims if c.kind == "source"
            and not re.match(r"^https://[^\s/]+\.[^\s/]+/\S*$", c.backing)] == []


def test_every_listed_test_exists(claims, pytest_ids) -> None:
    missing = []
    for c in claims:
        if c.kind != "test":
            continue
        path, _, name = c.backing.partition("::")
        if path.endswith(".mjs"):
            file = REPO / path
            if not file.is_file() or name not in node_test_names(file):
                missing.append(c.backing)
        elif c.backing not in pytest_ids:
            missing.append(c.backing)
    assert missing == []


def test_every_claim_test_backs_a_listed_claim(claims, pytest_ids) -> None:
    listed = {c.backing for c in claims if c.kind == "test"}
    unlisted = [test_id for test_id in sorted(pytest_ids)
                if test_id.split("::")[0] in {str(p.relative_to(REPO)) for p in CLAIM_TESTS}
                and test_id.split("::")[0] not in NOT_CLAIMS and test_id not in listed]
    for path in CLAIM_JS:
        rel = str(path.relative_to(REPO))
        unlisted += [f"{rel}::{name}" for name in sorted(node_test_names(path)) if f"{rel}::{name}" not in listed]
    assert unlisted == []


def test_claim_tests_are_named_after_a_term_and_a_claim(claims) -> None:
    terms = {path.stem.replace("-", "_") for path in GLOSSARY.glob("*.md")}
    badly_named = []
    claim_files = {str(p.relative_to(REPO)) for p in (*CLAIM_TESTS, *CLAIM_JS)}
    for c in claims:
        if c.kind == "test" and c.backing.split("::")[0] in claim_files:
            name = c.backing.split("::")[-1].removeprefix("test_")
            if name.split("__")[0] not in terms:
                badly_named.append(c.backing)
    assert badly_named == []


def test_every_term_has_its_claims_listed(claims) -> None:
    per_term = counts(claims)
    assert sorted(p.stem for p in GLOSSARY.glob("*.md") if p.stem not in per_term) == []
