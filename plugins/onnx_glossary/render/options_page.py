"""The option reference page, made at build time from :class:`~onnx_glossary.options.Options`.

Each option's name, kind, default and text come from its one declaration, so the page cannot
drift from the code; an option without a documentation sentence is an error, not a blank row.
Pure: no MkDocs imports.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..options import OptionField, option_fields, plain_default

OPTIONS_URI = "reference/options.md"

_KIND_NAMES = {"folder": "folder path", "file": "file path", "text": "string", "flag": "boolean",
               "number": "number"}


def type_name(option: OptionField) -> str:
    """A reader's name for an option's kind."""
    return _KIND_NAMES[option.kind]


def default_text(option: OptionField) -> str:
    default = plain_default(option)
    if default is None:
        return "unset"
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    if default == "":
        return "empty"
    return f"`{default}`"


def markdown_of(text: str) -> str:
    """Docstring markup (``code``) as markdown (`code`)."""
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.DOTALL)


def _check_documented(options: Sequence[OptionField]) -> None:
    for option in options:
        if len(option.doc) < 20:
            raise ValueError(f"option '{option.name}' has no documentation: write a sentence in "
                             "its declaration (onnx_glossary/options.py), it is its entry here")


def options_page(options: Sequence[OptionField] | None = None) -> str:
    fields = list(options if options is not None else option_fields())
    _check_documented(fields)
    plugin = [f for f in fields if f.scope == "plugin"]
    lines = [
        "# Option reference",
        "",
        "Options of the `glossary` plugin, under `plugins:` in `mkdocs.yml`. Paths are relative to "
        "the folder of `mkdocs.yml`. This page is made from the plugin's code each time the site "
        "is built.",
        "",
        "```yaml",
        "plugins:",
        "  - glossary:",
        *(f"      {f.name}: {_yaml(plain_default(f))}" for f in plugin if f.default is not None),
        "```",
        "",
    ]
    for option in plugin:
        lines += [f"## `{option.name}`", "",
                  f"Type: {type_name(option)}. Default: {default_text(option)}.", "",
                  markdown_of(option.doc), ""]
    lines += ["## Markdown extension `onnx_glossary`", "",
              "For hosts without MkDocs plugins (Zensical): list it under `markdown_extensions:` "
              "with the options above, and with these, which MkDocs takes from the top of "
              "`mkdocs.yml`. `onnx-glossary generate` writes them for you. Under MkDocs the "
              "plugin replaces the extension with its own instance.", "",
              "| option | default | what it does |", "|---|---|---|"]
    for option in fields:
        if option.scope == "site":
            lines.append(f"| `{option.name}` | {default_text(option)} | {markdown_of(option.doc)} |")
    lines.append("")
    return "\n".join(lines)


def _yaml(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
