"""YAML front matter of a term file, and the schema it is validated against.

Values keep their lines (:mod:`.yaml_lines`), so each problem names ``path:line``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..common.problems import ContentError, Problem, did_you_mean
from ..common.yaml_lines import BadDate, LineDict, LineList, YamlError, key_line, load_yaml, type_name


def _known_keys(key: str, known: Any) -> str:
    return did_you_mean(key, known, f" (known keys: {', '.join(known)})")


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

    read: Callable[[Any, Reader], Any]
    required: bool
    doc: str


class Reader:
    """Reads values for one file, collecting problems instead of raising on each."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []
        self.line: int | None = None
        self.field = ""  # the key being read, for messages

    def fail(self, message: str, line: int | None = None) -> None:
        self.problems.append(Problem(self.path, line or self.line, message))

    def text(self, value: Any, what: str, line: int | None = None, *, scalars: bool = False) -> str | None:
        """A non-empty string; numbers are accepted where ``scalars`` (a fact detail of 17)."""
        if scalars and isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            self.fail(f"{what} must be text, not {type_name(value)}", line)
            return None
        if not value.strip():
            self.fail(f"{what} is empty: write it or remove the key", line)
            return None
        return value.strip()

    def items(self, value: Any, what: str) -> list[tuple[Any, int | None]]:
        if not isinstance(value, list):
            self.fail(f"'{what}' must be a list (one '- item' per line), not {type_name(value)}")
            return []
        lines = value.item_lines if isinstance(value, LineList) else [None] * len(value)
        return list(zip(value, lines, strict=True))

    def mapping(self, value: Any, what: str, keys: dict[str, bool],
                line: int | None) -> dict[str, Any] | None:
        """A mapping with exactly the given keys (name -> required)."""
        if not isinstance(value, dict):
            self.fail(f"{what} must be a mapping with {', '.join(repr(k) for k in keys)}, "
                      f"not {type_name(value)}", line)
            return None
        key_lines = value.key_lines if isinstance(value, LineDict) else {}
        for key in value:
            if key not in keys:
                self.fail(f"unknown key '{key}' in {what}{_known_keys(str(key), keys)}",
                          key_lines.get(key, line))
        missing = [k for k, required in keys.items() if required and k not in value]
        if missing:
            self.fail(f"{what} is missing {', '.join(repr(k) for k in missing)}", line)
            return None
        return value


def _read_str(value: Any, reader: Reader) -> str | None:
    return reader.text(value, f"'{reader.field}'")


def _read_str_list(value: Any, reader: Reader) -> tuple[str, ...]:
    name = reader.field
    out = []
    for item, line in reader.items(value, name):
        text = reader.text(item, f"each item of '{name}'", line)
        if text is not None:
            out.append(text)
    return tuple(out)


def _read_date(value: Any, reader: Reader) -> dt.date | None:
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
    reader.fail(f"'updated' must be a real date written YYYY-MM-DD, not '{shown}'")
    return None


@dataclass(frozen=True)
class FactRow:
    fact: str
    detail: str


@dataclass(frozen=True)
class Facts:
    caption: str | None
    rows: tuple[FactRow, ...]


def _read_facts(value: Any, reader: Reader) -> Facts | None:
    facts = reader.mapping(value, "'facts'", {"caption": False, "rows": True}, reader.line)
    if facts is None:
        return None
    caption = None
    if "caption" in facts:
        caption = reader.text(facts["caption"], "the facts 'caption'", key_line(facts, "caption"))
    rows = []
    for item, line in reader.items(facts["rows"], "facts rows"):
        row = reader.mapping(item, "each facts row", {"fact": True, "detail": True}, line)
        if row is None:
            continue
        fact = reader.text(row["fact"], "a row's 'fact'", key_line(row, "fact") or line, scalars=True)
        detail = reader.text(row["detail"], "a row's 'detail'", key_line(row, "detail") or line,
                             scalars=True)
        if fact and detail:
            rows.append(FactRow(fact, detail))
    return Facts(caption, tuple(rows))


@dataclass(frozen=True)
class Question:
    question: str
    answer: str  # markdown
    line: int | None


def _read_faq(value: Any, reader: Reader) -> tuple[Question, ...]:
    out = []
    for item, line in reader.items(value, "faq"):
        pair = reader.mapping(item, "each faq entry", {"q": True, "a": True}, line)
        if pair is None:
            continue
        question = reader.text(pair["q"], "a question 'q'", key_line(pair, "q") or line)
        answer = reader.text(pair["a"], "an answer 'a'", key_line(pair, "a") or line)
        if question and answer:
            out.append(Question(question, answer, key_line(pair, "a") or line))
    return tuple(out)


@dataclass(frozen=True)
class Source:
    title: str
    url: str


def _read_sources(value: Any, reader: Reader) -> tuple[Source, ...] | None:
    out = []
    for item, line in reader.items(value, "sources"):
        source = reader.mapping(item, "each source", {"title": True, "url": True}, line)
        if source is None:
            continue
        title = reader.text(source["title"], "a source 'title'", key_line(source, "title") or line)
        url_line = key_line(source, "url") or line
        url = reader.text(source["url"], "a source 'url'", url_line)
        if url is None or title is None:
            continue
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            reader.fail(f"source URL '{url}' is not an http(s) address: link the page the fact "
                        "was read at, starting with https://", url_line)
            continue
        out.append(Source(title, url))
    if not out and not reader.problems:
        reader.fail("'sources' is empty: list at least one specification or documentation page")
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
        reader.line = data.key_lines.get(key, data.line)
        field = TERM_SCHEMA.get(key) if isinstance(key, str) else None
        if field is None:
            reader.fail(f"unknown key '{key}'{_known_keys(str(key), TERM_SCHEMA)}")
            continue
        reader.field = key
        result = field.read(value, reader)
        if result is not None:
            values[key] = result
    for key, field in TERM_SCHEMA.items():
        if field.required and key not in data:
            reader.problems.append(Problem(path, None, f"the required key '{key}' is missing: "
                                           f"{field.doc[0].lower()}{field.doc[1:]}"))
    return values, reader.problems
