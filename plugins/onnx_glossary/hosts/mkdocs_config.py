"""The plugin's typed MkDocs configuration, made from :class:`~onnx_glossary.options.Options`.

MkDocs validates ``plugins: - glossary: ...`` against :class:`GlossaryConfig`, whose schema is
built here from the plugin-scope options: one declaration, so the two cannot drift. Folders are
``config_options.Dir``, which MkDocs resolves against the folder of mkdocs.yml.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c

from ..options import OptionField, option_fields, plain_default


def config_option(option: OptionField) -> c.BaseConfigOption[Any]:
    """The MkDocs config option that validates one of ours."""
    default = plain_default(option)
    made: c.BaseConfigOption[Any]
    if option.kind in ("folder", "file"):
        path_option = c.Dir if option.kind == "folder" else c.File
        if option.optional:
            made = c.Optional(path_option(exists=option.must_exist))
        else:
            made = path_option(exists=option.must_exist, default=default)
    else:
        kind = {"text": str, "flag": bool, "number": float}[option.kind]
        made = c.Optional(c.Type(kind)) if option.optional else c.Type(kind, default=default)
    return made


def _config_class() -> type[base.Config]:
    schema = {option.name: config_option(option) for option in option_fields("plugin")}
    return type("GlossaryConfig", (base.Config,), {
        "__doc__": "Options of the ``glossary`` plugin (see onnx_glossary.options.Options).",
        "__module__": __name__, **schema})


GlossaryConfig = _config_class()
