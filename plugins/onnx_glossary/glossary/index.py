"""Glossary term files -> :class:`Term` objects -> a validated :class:`GlossaryIndex`.

Pure: no MkDocs imports. Every problem is a :class:`Problem` naming ``path:line``; a term whose
required fields are broken is left out of the index (its page cannot be made), a term with a
lesser problem (an unknown related slug, say) keeps its page without the broken part.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath

from ..common.paths import shown_path
from ..common.problems import ContentError, Problem
from ..common.suggestions import Suggestions, did_you_mean
from ..glossary.frontmatter import (
    Facts,
    Question,
    Source,
    load_front_matter,
    read_term_fields,
    split_front_matter,
)
from .links import GLOSSARY_URI, link_target, term_slug_of

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RESERVED_SLUGS = frozenset({"index"})


@dataclass(frozen=True)
class Term:
    """One glossary entry, parsed and validated on its own."""

    slug: str
    path: str  # shown in messages, relative to the project root
    title: str
    category: str
    updated: dt.date
    summary: str
    sources: tuple[Source, ...]
    aka: tuple[str, ...] = ()
    facts: Facts | None = None
    mistakes: tuple[str, ...] = ()
    faq: tuple[Question, ...] = ()
    related: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    body: str = ""
    body_line: int = 1
    lines: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    item_lines: dict[str, list[int]] = field(default_factory=dict, compare=False, hash=False)

    @property
    def src_uri(self) -> str:
        """The term page's path in the site's docs namespace."""
        return f"{GLOSSARY_URI}/{self.slug}.md"

    @property
    def names(self) -> tuple[str, ...]:
        return (self.title, *self.aka)

    @property
    def letter(self) -> str:
        """The A-Z index letter: first letter or digit of the title; '#' for anything else."""
        for char in self.title:
            if char.isalpha():
                return char.upper()
            if char.isdigit():
                return "#"
        return "#"

    @property
    def sort_key(self) -> str:
        return re.sub(r"[^0-9a-z]+", " ", self.title.casefold()).strip()


def parse_term(text: str, path: str, slug: str) -> tuple[Term | None, list[Problem]]:
    """Parse one term file. Returns ``None`` for the term when no page can be made of it."""
    problems: list[Problem] = []
    try:
        split = split_front_matter(text, path)
        data, problems = load_front_matter(split, path)
    except ContentError as error:
        return None, [error.problem]
    if not SLUG_RE.match(slug) or slug in RESERVED_SLUGS:
        problems.append(Problem(path, None, f"the file name '{slug}.md' is not a usable slug: use "
                                "lowercase letters, digits and single hyphens (and not 'index')"))
    values, field_problems = read_term_fields(data, path)
    problems.extend(field_problems)
    required = ("title", "category", "updated", "summary", "sources")
    if any(key not in values for key in required):
        return None, problems
    term = Term(
        slug=slug,
        path=path,
        body=split.body,
        body_line=split.body_line,
        lines={str(k): line for k, line in data.key_lines.items()},
        item_lines={str(k): v.item_lines for k, v in data.items() if hasattr(v, "item_lines")},
        **values,
    )
    return term, problems


@dataclass(frozen=True)
class GlossaryIndex:
    """All valid terms, and the ways into them."""

    terms: tuple[Term, ...]  # sorted by title
    by_slug: dict[str, Term]

    @classmethod
    def of(cls, terms: Iterable[Term]) -> GlossaryIndex:
        ordered = tuple(sorted(terms, key=lambda t: (t.sort_key, t.slug)))
        return cls(ordered, {t.slug: t for t in ordered})

    def __len__(self) -> int:
        return len(self.terms)

    def categories(self) -> dict[str, tuple[Term, ...]]:
        out: dict[str, list[Term]] = {}
        for term in self.terms:
            out.setdefault(term.category, []).append(term)
        return {name: tuple(out[name]) for name in sorted(out, key=str.casefold)}

    def letters(self) -> dict[str, tuple[Term, ...]]:
        out: dict[str, list[Term]] = {}
        for term in self.terms:
            out.setdefault(term.letter, []).append(term)
        return {letter: tuple(out[letter]) for letter in sorted(out, key=lambda x: (x == "#", x))}

    def neighbours(self, term: Term) -> tuple[Term, ...]:
        """Every other term of the same category: one hop from each other."""
        return tuple(t for t in self._by_category.get(term.category, ()) if t is not term)

    @cached_property
    def _by_category(self) -> dict[str, list[Term]]:
        # Looked up once per term page: scanning every term each time made 1,000 pages a
        # million comparisons.
        out: dict[str, list[Term]] = {}
        for term in self.terms:
            out.setdefault(term.category, []).append(term)
        return out

    def related(self, term: Term) -> tuple[Term, ...]:
        return tuple(self.by_slug[s] for s in term.related if s in self.by_slug)

    def model_mentions(self) -> dict[str, list[tuple[str, str]]]:
        """For each example model: (title, page path) of the terms that list it."""
        out: dict[str, list[tuple[str, str]]] = {}
        for term in self.terms:
            for name in term.models:
                out.setdefault(name, []).append((term.title, term.src_uri))
        return out

    def find(self, name: str) -> Term | None:
        """The term whose slug, title or alias is ``name`` (ignoring case), if any."""
        key = name.casefold()
        return self.by_slug.get(key) or self._by_name.get(key)

    @cached_property
    def suggestions(self) -> Suggestions:
        """"Did you mean" over the slugs, cached per misspelt slug for the whole build."""
        return Suggestions(sorted(self.by_slug))

    @cached_property
    def _by_name(self) -> dict[str, Term]:
        return {n.casefold(): t for t in self.terms for n in t.names}

    def resolve(self, href: str, from_uri: str) -> Term | None:
        target = link_target(href, from_uri)
        slug = term_slug_of(target) if target else None
        return self.by_slug.get(slug) if slug else None


def _nearest(slug: str, index: GlossaryIndex) -> str:
    close = index.suggestions.closest(slug)
    return f": did you mean '{close}.md'?" if close else f": create glossary/{slug}.md or fix the link"


def load_glossary(glossary_dir: Path, display_root: Path,
                  model_names: Sequence[str] | None = None) -> tuple[GlossaryIndex, list[Problem]]:
    """Read every ``*.md`` in ``glossary_dir`` and validate the set as a whole.

    ``model_names`` are the example models that exist; ``None`` skips that check.
    """
    terms: list[Term] = []
    problems: list[Problem] = []
    folder = PurePosixPath(shown_path(glossary_dir, display_root))  # resolved once, not per file
    for file in sorted(glossary_dir.glob("*.md")):
        shown = (folder / file.name).as_posix()
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            problems.append(Problem(shown, None, f"cannot be read as UTF-8 text ({error})"))
            continue
        term, found = parse_term(text, shown, file.stem)
        problems.extend(found)
        if term is not None:
            terms.append(term)
    terms, found = _drop_duplicates(terms)
    problems.extend(found)
    index = GlossaryIndex.of(terms)
    for term in index.terms:
        problems.extend(_check_cross_references(term, index, model_names))
    return index, problems


def _drop_duplicates(terms: list[Term]) -> tuple[list[Term], list[Problem]]:
    """Titles and aliases must be unique across terms, case-insensitively (search and links
    would otherwise be ambiguous); the later file loses the clashing name."""
    problems: list[Problem] = []
    seen_slugs: dict[str, Term] = {}
    kept: list[Term] = []
    for term in terms:
        other = seen_slugs.get(term.slug.casefold())
        if other is not None:
            problems.append(Problem(term.path, None, f"the slug '{term.slug}' duplicates "
                                    f"{other.path}: rename one of the files"))
            continue
        seen_slugs[term.slug.casefold()] = term
        kept.append(term)
    owners: dict[str, tuple[Term, str]] = {}
    for term in kept:
        aka_lines = term.item_lines.get("aka", [])
        for position, name in enumerate(term.names):
            key = name.casefold()
            if position == 0:
                what, line = "title", term.lines.get("title")
            else:
                what = "alias"
                line = aka_lines[position - 1] if position - 1 < len(aka_lines) else term.lines.get("aka")
            owner = owners.get(key)
            if owner is None:
                owners[key] = (term, what)
            elif owner[0] is term:
                problems.append(Problem(term.path, line, f"the {what} '{name}' repeats this "
                                        "term's own title or alias: remove it"))
            else:
                problems.append(Problem(term.path, line, f"the {what} '{name}' is already the "
                                        f"{owner[1]} of {owner[0].path}: names must be unique "
                                        "across terms (ignoring case); rename or remove one"))
    return kept, problems


def _check_cross_references(term: Term, index: GlossaryIndex,
                            model_names: Sequence[str] | None) -> list[Problem]:
    problems: list[Problem] = []
    related_lines = term.item_lines.get("related", [])
    for position, slug in enumerate(term.related):
        line = related_lines[position] if position < len(related_lines) else term.lines.get("related")
        if slug not in index.by_slug:
            problems.append(Problem(term.path, line, f"'related' names the unknown term '{slug}'"
                                    f"{_nearest(slug, index)}"))
        elif slug == term.slug:
            problems.append(Problem(term.path, line, "'related' names the term itself: remove it"))
    if model_names is not None:
        model_lines = term.item_lines.get("models", [])
        for position, name in enumerate(term.models):
            if name not in model_names:
                line = model_lines[position] if position < len(model_lines) else term.lines.get("models")
                hint = did_you_mean(name, model_names, f": add models/{name}/model.onnx or use "
                                    f"one of {', '.join(model_names) or 'none'}")
                problems.append(Problem(term.path, line, f"'models' names the unknown model "
                                        f"'{name}'{hint}"))
    return problems
