"""YAML front matter of a term file, and the schema it is validated against.

Values keep their lines (:mod:`.yaml_lines`), so each problem names ``path:line``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..common.problems import ContentError, Problem
from ..common.schema import Reader, known_keys_hint
from ..common.yaml_lines import BadDate, LineDict, YamlError, key_line, load_yaml


@dataclass(frozen=True)
class SplitSource:
    """A markdown file cut into its front matter and body."""

    front_matter: str
    body: str
    body_line: int  # line of the file where the body starts (1-based)


def split_front_matter(text: str, path: str) -> SplitSource:
    """Separate the ``---`` fenced YAML block at the top of a file from the body."""
    if not text.strip():
        raise ContentError(Problem(path, None, "the file is empty: add front matter with title, "
                                   "category, updated, summary and sources (see the contributing page)"))
    lines = text.splitlines(keepends=True)
    if lines[0].strip() != "---":
        raise ContentError(Problem(path, 1, "no YAML front matter: start the file with a '---' line, "
                                   "the term's fields, and a closing '---' line"))
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ("---", "..."):
            return SplitSource("".join(lines[1:index]), "".join(lines[index + 1:]), index + 2)
    raise ContentError(Problem(path, 1, "the front matter is never closed: add a '---' line after "
                               "the last field"))


def load_front_matter(split: SplitSource, path: str) -> tuple[LineDict, list[Problem]]:
    """Parse front matter YAML, keeping line numbers relative to the whole file."""
    try:
        # The opening '---' line precedes the YAML text: its first line is line 2 of the file.
        data, duplicates = load_yaml(split.front_matter, first_line=2)
    except YamlError as error:
        raise ContentError(Problem(path, error.line, f"the front matter is not valid YAML "
                                   f"({error.what}): check indentation, and quote text that "
                                   "contains ': '")) from None
    if data is None:
        raise ContentError(Problem(path, 1, "the front matter is empty: add title, category, "
                                   "updated, summary and sources"))
    if not isinstance(data, LineDict):
        raise ContentError(Problem(path, 2, "the front matter must be a mapping of 'key: value' "
                                   "lines"))
    problems = [Problem(path, line, f"the key '{key}' appears twice: keep one")
                for key, line in duplicates]
    return data, problems


# ---------------------------------------------------------------------------------------------
# The schema of a term's front matter.


@dataclass(frozen=True)
class Field:
    """One front-matter key: its reader, whether it is required, and what it is for."""

    read: Callable[[Any, int | None, str, Reader], Any]
    required: bool
    doc: str


def _read_str(value: Any, line: int | None, key: str, reader: Reader) -> str | None:
    return reader.text(value, line, f"'{key}'")


def _read_str_list(value: Any, line: int | None, key: str, reader: Reader) -> tuple[str, ...]:
    return reader.texts(value, line, f"'{key}'")


def _read_date(value: Any, line: int | None, key: str, reader: Reader) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    shown = value.text if isinstance(value, BadDate) else value
    reader.fail(line, f"'{key}' must be a real date written YYYY-MM-DD, not '{shown}'")
    return None


@dataclass(frozen=True)
class FactRow:
    fact: str
    detail: str


@dataclass(frozen=True)
class Facts:
    caption: str | None
    rows: tuple[FactRow, ...]


def _read_facts(value: Any, line: int | None, key: str, reader: Reader) -> Facts | None:
    facts = reader.mapping(value, line, f"'{key}'", {"caption": False, "rows": True})
    if facts is None:
        return None
    caption = None
    if "caption" in facts:
        caption = reader.text(facts["caption"], key_line(facts, "caption"), "the facts 'caption'")
    rows = []
    for item, at in reader.items(facts["rows"], key_line(facts, "rows", line), "'facts rows'"):
        row = reader.mapping(item, at, "each facts row", {"fact": True, "detail": True})
        if row is None:
            continue
        fact = reader.text(row["fact"], key_line(row, "fact", at), "a row's 'fact'", scalars=True)
        detail = reader.text(row["detail"], key_line(row, "detail", at), "a row's 'detail'",
                             scalars=True)
        if fact and detail:
            rows.append(FactRow(fact, detail))
    return Facts(caption, tuple(rows))


@dataclass(frozen=True)
class Question:
    question: str
    answer: str  # markdown
    line: int | None


def _read_faq(value: Any, line: int | None, key: str, reader: Reader) -> tuple[Question, ...]:
    out = []
    for item, at in reader.items(value, line, f"'{key}'"):
        pair = reader.mapping(item, at, "each faq entry", {"q": True, "a": True})
        if pair is None:
            continue
        question = reader.text(pair["q"], key_line(pair, "q", at), "a question 'q'")
        answer = reader.text(pair["a"], key_line(pair, "a", at), "an answer 'a'")
        if question and answer:
            out.append(Question(question, answer, key_line(pair, "a", at)))
    return tuple(out)


@dataclass(frozen=True)
class Source:
    title: str
    url: str


def _read_sources(value: Any, line: int | None, key: str, reader: Reader) -> tuple[Source, ...] | None:
    out = []
    before = len(reader.problems)
    for item, at in reader.items(value, line, f"'{key}'"):
        source = reader.mapping(item, at, "each source", {"title": True, "url": True})
        if source is None:
            continue
        title = reader.text(source["title"], key_line(source, "title", at), "a source 'title'")
        url_line = key_line(source, "url", at)
        url = reader.text(source["url"], url_line, "a source 'url'")
        if url is None or title is None:
            continue
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            reader.fail(url_line, f"source URL '{url}' is not an http(s) address: link the page "
                        "the fact was read at, starting with https://")
            continue
        out.append(Source(title, url))
    if not out and len(reader.problems) == before:
        reader.fail(line, "'sources' is empty: list at least one specification or documentation page")
    return tuple(out) or None  # a term with no usable source is not published


TERM_SCHEMA: dict[str, Field] = {
    "title": Field(_read_str, True, "The term as readers know it; the page heading."),
    "aka": Field(_read_str_list, False, "Other names; search finds the term by each."),
    "category": Field(_read_str, True, "The cluster; every term of a category links to the others."),
    "updated": Field(_read_date, True, "Date of the last factual review, YYYY-MM-DD."),
    "summary": Field(_read_str, True, "The short answer, plain text; also the tooltip and meta "
                     "description."),
    "facts": Field(_read_facts, False, "The 'at a glance' table: optional caption, rows of "
                   "fact/detail."),
    "mistakes": Field(_read_str_list, False, "What people get wrong, one markdown paragraph each."),
    "faq": Field(_read_faq, False, "Questions people ask: q (text) and a (markdown)."),
    "sources": Field(_read_sources, True, "Where the facts come from: title and http(s) url."),
    "related": Field(_read_str_list, False, "Slugs of related terms in other categories."),
    "models": Field(_read_str_list, False, "Names of example models under models/."),
}


def read_term_fields(data: LineDict, path: str) -> tuple[dict[str, Any], list[Problem]]:
    """Validate front matter against :data:`TERM_SCHEMA`.

    Returns the values that passed (a missing or broken required field is absent) and the
    problems, each naming the line of the offending key or item.
    """
    reader = Reader(path)
    values: dict[str, Any] = {}
    for key, value in data.items():
        line = data.key_lines.get(key, data.line)
        field = TERM_SCHEMA.get(key) if isinstance(key, str) else None
        if field is None:
            reader.fail(line, f"unknown key '{key}'{known_keys_hint(str(key), TERM_SCHEMA)}")
            continue
        result = field.read(value, line, key, reader)
        if result is not None:
            values[key] = result
    for key, field in TERM_SCHEMA.items():
        if field.required and key not in data:
            reader.problems.append(Problem(path, None, f"the required key '{key}' is missing: "
                                           f"{field.doc[0].lower()}{field.doc[1:]}"))
    return values, reader.problems
