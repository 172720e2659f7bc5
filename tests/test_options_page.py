"""The option reference, and every host's options, are made from the one declaration
(onnx_glossary.options.Options): each option's name, kind, default and sentence."""

from __future__ import annotations

import argparse
import dataclasses
import html
import re

import pytest
from mkdocs.config import config_options as c
from onnx_glossary.hosts.generate import _add_option_flags
from onnx_glossary.hosts.markdown_ext import GlossaryExtension
from onnx_glossary.hosts.mkdocs_config import GlossaryConfig
from onnx_glossary.options import Options, OptionsError, option_fields, plain_default
from onnx_glossary.render.options_page import OPTIONS_URI, default_text, markdown_of, options_page

from .sitebuild import REPO, Built


def test_every_option_is_listed_with_its_type_default_and_docstring():
    page = options_page()
    plugin = [f for f in option_fields() if f.scope == "plugin"]
    assert re.findall(r"^## `(\w+)`$", page, flags=re.MULTILINE) == [f.name for f in plugin]
    for option in plugin:
        section = page.split(f"## `{option.name}`\n", 1)[1].split("\n## ", 1)[0]
        assert f"Default: {default_text(option)}." in section
        assert markdown_of(option.doc) in section
    for option in option_fields("site"):
        assert f"| `{option.name}` |" in page
    assert "Default: `glossary`." in page and "Default: `50.0`." in page and "Default: `false`." in page


def test_an_option_without_a_sentence_is_an_error():
    empty = dataclasses.replace(option_fields()[0], doc="")
    with pytest.raises(ValueError, match="option 'glossary_dir' has no documentation"):
        options_page([empty])


def test_the_mkdocs_config_is_the_plugin_options_field_by_field():
    schema = dict(GlossaryConfig._schema)
    plugin = option_fields("plugin")
    assert list(schema) == [f.name for f in plugin]
    for option in plugin:
        made = schema[option.name]
        inner = made.option if isinstance(made, c.Optional) else made
        kinds = {"folder": c.Dir, "file": c.File, "text": c.Type, "flag": c.Type, "number": c.Type}
        assert isinstance(inner, kinds[option.kind]), option.name
        assert made.default == plain_default(option), option.name
        if option.kind not in ("folder", "file"):
            assert inner._type is {"text": str, "flag": bool, "number": float}[option.kind]


def test_the_extension_and_generate_take_every_option():
    config = GlossaryExtension().config
    assert list(config) == [f.name for f in option_fields()]
    for option in option_fields():
        default, doc = config[option.name]
        assert doc == option.doc
        assert default == ("" if option.default is None else plain_default(option))
    parser = argparse.ArgumentParser()
    _add_option_flags(parser)
    flags = {a.dest: a for a in parser._actions if a.dest != "help"}
    assert list(flags) == [f.name for f in option_fields("plugin")]
    assert all(option.doc in (flags[option.name].help or "") for option in option_fields("plugin"))


def test_options_from_plain_values_resolve_folders_and_refuse_wrong_kinds(tmp_path):
    options = Options.from_values({"models_dir": "models", "live_examples": False, "site_url": ""},
                                  tmp_path)
    assert options.models_dir == tmp_path / "models" and options.glossary_dir == tmp_path / "glossary"
    assert options.site_url is None and options.live_examples is False
    with pytest.raises(OptionsError, match="'live_examples' must be true or false"):
        Options.from_values({"live_examples": "yes"}, tmp_path)
    with pytest.raises(OptionsError, match="unknown glossary option"):
        Options.from_values({"colour": "red"}, tmp_path)


def test_the_built_site_has_the_page_in_its_nav_and_not_in_docs(real_site: Built):
    assert not (REPO / "docs" / OPTIONS_URI).exists()
    text = html.unescape(real_site.page("reference/options"))
    for option in option_fields("plugin"):
        assert f'id="{option.name}"' in text
    for option in option_fields("site"):
        assert f"<code>{option.name}</code>" in text
    assert "reference/options/" in real_site.page("")
