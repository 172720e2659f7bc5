"""The option reference is made from the config class: every option, its type, default and
docstring, and an option without a docstring stops the build."""

from __future__ import annotations

import html
import re

import pytest
from mkdocs.config import base
from mkdocs.config import config_options as c
from onnx_glossary.hosts.markdown_ext import GlossaryExtension
from onnx_glossary.hosts.mkdocs_config import GlossaryConfig
from onnx_glossary.render.options_page import (
    OPTIONS_URI,
    default_text,
    markdown_of,
    option_docs,
    options_page,
)

from .sitebuild import REPO, Built


def test_every_option_is_listed_with_its_type_default_and_docstring():
    page = options_page(GlossaryConfig)
    names = [name for name, _ in GlossaryConfig._schema]
    assert re.findall(r"^## `(\w+)`$", page, flags=re.MULTILINE) == names
    docs = option_docs(GlossaryConfig)
    for name, option in GlossaryConfig._schema:
        section = page.split(f"## `{name}`\n", 1)[1].split("\n## ", 1)[0]
        assert f"Default: {default_text(option)}." in section
        assert markdown_of(docs[name]) in section
        assert len(docs[name]) > 20, f"{name}: say what the option does"
    assert "Default: `glossary`." in page and "Default: `50.0`." in page and "Default: `false`." in page


class Undocumented(base.Config):
    documented = c.Type(str, default="x")
    """What it does."""

    forgotten = c.Type(bool, default=False)


def test_an_option_without_a_docstring_is_an_error():
    with pytest.raises(ValueError, match="option 'forgotten' has no docstring"):
        options_page(Undocumented)


def test_the_built_site_has_the_page_in_its_nav_and_not_in_docs(real_site: Built):
    assert not (REPO / "docs" / OPTIONS_URI).exists()
    text = html.unescape(real_site.page("reference/options"))
    for name, _ in GlossaryConfig._schema:
        assert f'id="{name}"' in text
    for name in GlossaryExtension().config:
        assert f"<code>{name}</code>" in text
    assert 'href="reference/options/"' in real_site.page("") or "reference/options/" in real_site.page("")
