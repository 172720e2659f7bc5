"""The option reference page, made at build time from the typed configuration itself.

Each option's name, type and default come from :class:`~.config.GlossaryConfig`'s schema and
its text from the docstring under it in ``config.py`` (read with ``ast``), so the page cannot
drift from the code. An option without a docstring is an error, not a blank row. Part of the
MkDocs adapter: it reads MkDocs' config classes.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c

from ..hosts.mkdocs_config import GlossaryConfig

OPTIONS_URI = "reference/options.md"


def option_docs(config_class: type[base.Config] = GlossaryConfig) -> dict[str, str]:
    """Each option's docstring, in source order; ValueError names an undocumented one."""
    source = Path(inspect.getfile(config_class)).read_text(encoding="utf-8")
    tree = ast.parse(source)
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == config_class.__name__]
    if not classes:
        raise ValueError(f"cannot find class {config_class.__name__} in {inspect.getfile(config_class)}")
    body = classes[0].body
    docs: dict[str, str] = {}
    for statement, following in zip(body, [*body[1:], None], strict=True):
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(
                statement.targets[0], ast.Name):
            text = (following.value.value if isinstance(following, ast.Expr)
                    and isinstance(following.value, ast.Constant)
                    and isinstance(following.value.value, str) else "")
            docs[statement.targets[0].id] = inspect.cleandoc(text)
    for name, _ in config_class._schema:  # type: ignore[attr-defined]
        if not docs.get(name):
            raise ValueError(f"{inspect.getfile(config_class)}: option '{name}' has no docstring: "
                             "write one under it, it is the option's entry in the reference")
    return docs


def type_name(option: c.BaseConfigOption[Any]) -> str:
    """A reader's name for an option's type."""
    if isinstance(option, c.Optional):
        return type_name(option.option)
    if isinstance(option, c.Dir):
        return "folder path"
    kind: Any = getattr(option, "_type", None)
    names: dict[Any, str] = {str: "string", bool: "boolean", float: "number", int: "integer"}
    return names.get(kind) or str(getattr(kind, "__name__", type(option).__name__))


def default_text(option: c.BaseConfigOption[Any]) -> str:
    default = option.default
    if default is None:
        return "unset"
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    return f"`{default}`"


def markdown_of(text: str) -> str:
    """Docstring markup (``code``) as markdown (`code`)."""
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.DOTALL)


def options_page(config_class: type[base.Config] = GlossaryConfig,
                 extension_options: Mapping[str, list[Any]] | None = None) -> str:
    docs = option_docs(config_class)
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
        *(f"      {name}: {_yaml_default(option)}" for name, option in config_class._schema
          if option.default is not None),
        "```",
        "",
    ]
    for name, option in config_class._schema:
        lines += [f"## `{name}`", "", f"Type: {type_name(option)}. Default: {default_text(option)}.",
                  "", markdown_of(docs[name]), ""]
    if extension_options:
        lines += ["## Markdown extension `onnx_glossary`", "",
                  "For hosts without MkDocs plugins (Zensical): list it under `markdown_extensions:`. "
                  "Under MkDocs the plugin replaces it with its own instance.", "",
                  "| option | default | what it does |", "|---|---|---|"]
        for name, (default, text) in extension_options.items():
            shown = str(default).lower() if isinstance(default, bool) else default
            lines.append(f"| `{name}` | {f'`{shown}`' if shown != '' else 'empty'} | {text} |")
        lines.append("")
    return "\n".join(lines)


def _yaml_default(option: c.BaseConfigOption[Any]) -> str:
    default = option.default
    return str(default).lower() if isinstance(default, bool) else str(default)
