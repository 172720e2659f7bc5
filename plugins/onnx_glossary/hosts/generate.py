"""``onnx-glossary generate OUT``: the site's pages and files as a folder any host can build.

Zensical (Material's successor) runs Python-Markdown extensions but no MkDocs plugins. So this
command runs the plugin once, through MkDocs' own configuration and file collection, and writes
what the plugin would add to a build into ``OUT``:

- ``OUT/docs/``: the hand-written pages, every generated page (terms, the glossary index, model
  pages, the operator index, ``llms.txt``) with its meta description and JSON-LD as front
  matter, and every file the pages need (models, ``reference.json``, ``example.mjs``, pictures,
  the onnxruntime-web runtime, the plugin's CSS and JavaScript);
- ``OUT/overrides/main.html``: the theme override that carries the import map;
- ``OUT/mkdocs.yml``: the site's configuration without the plugin, with the Markdown extension
  listed with its own options (tooltips and embeds), ``docs_dir`` and ``custom_dir`` pointing
  at the two folders above.

Then ``zensical build -f OUT/mkdocs.yml`` builds the site. The command writes only into ``OUT``.
"""

from __future__ import annotations

import argparse
import html
import json
import shutil
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import ConfigurationError, PluginError
from mkdocs.structure.files import Files, get_files

from ..browser import assets, csp
from ..browser.runtime import import_map
from ..hosts.markdown_ext import GlossaryExtension

THEME_DIR = Path(__file__).resolve().parent.parent / "theme"

OVERRIDE = """{#- Written by onnx-glossary generate: the plugin's additions to the theme. -#}
{% extends "base.html" %}
{% block extrahead %}
  {{ super() }}
  <script type="importmap">IMPORT_MAP</script>
  {% if page and page.meta and page.meta.onnx_glossary_jsonld %}
    {% for item in page.meta.onnx_glossary_jsonld %}
      <script type="application/ld+json">{{ item | tojson }}</script>
    {% endfor %}
  {% endif %}
{% endblock %}
"""


class GenerateError(RuntimeError):
    """Something a person must fix; the message says what."""


@dataclass(frozen=True)
class Generated:
    pages: list[str]  # the generated pages' paths, relative to OUT/docs
    csp: bool  # the site wants a Content-Security-Policy: run `onnx-glossary csp` on the build


def generate(config_file: Path, out: Path) -> Generated:
    """Write the folder; returns what it wrote."""
    config_file = config_file.resolve()
    out = out.resolve()
    root = config_file.parent
    for protected in ("docs", "glossary", "models"):
        if out == root / protected or (root / protected) in out.parents:
            raise GenerateError(f"{out} lies inside {protected}/, which the build never writes "
                                "into: choose another folder, e.g. build/zensical")
    try:
        config = load_config(str(config_file))
    except ConfigurationError as error:
        raise GenerateError(f"{config_file}: {error}") from None
    plugin = config.plugins.get("glossary")
    if plugin is None:
        raise GenerateError(f"{config_file} does not list the glossary plugin under plugins:")
    config.plugins.on_startup(command="build", dirty=False)
    config = config.plugins.on_config(config)
    files = config.plugins.on_files(get_files(config), config=config)
    docs = out / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    written = _write_files(files, docs, plugin)
    overrides = out / "overrides"
    if overrides.exists():
        shutil.rmtree(overrides)
    # The plugin's partials (the repository link that asks no other origin) come along.
    shutil.copytree(THEME_DIR, overrides, ignore=shutil.ignore_patterns("main.html"))
    ort = f"{plugin.pages.urls.base_path}{assets.ORT_URI}"
    (overrides / "main.html").write_text(
        OVERRIDE.replace("IMPORT_MAP", html.escape(json.dumps(import_map(ort)), quote=False)),
        encoding="utf-8")
    (out / "mkdocs.yml").write_text(_host_config(config, plugin, root), encoding="utf-8")
    config.plugins.on_shutdown()
    return Generated(written, plugin.config.content_security_policy)


def _write_files(files: Files, docs: Path, plugin: Any) -> list[str]:
    """Every page and file of the build; generated pages get their metadata as front matter."""
    written = []
    for file in files:
        target = docs / file.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        if not file.generated_by or not file.src_uri.endswith(".md"):
            target.write_bytes(file.content_bytes)
            continue
        meta = _page_meta(plugin, file.src_uri)
        front = f"---\n{yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)}---\n\n" if meta else ""
        target.write_text(front + file.content_string, encoding="utf-8")
        written.append(file.src_uri)
    return written


def _page_meta(plugin: Any, src_uri: str) -> dict[str, Any]:
    """What ``on_page_markdown`` gives a generated page under MkDocs, as plain data."""
    from ..render import machine_readable
    from ..render.pages import GLOSSARY_INDEX_URI

    meta: dict[str, Any] = {}
    term = plugin.terms_by_uri.get(src_uri)
    model = plugin.catalog.by_page(src_uri)
    if term is not None:
        meta["description"] = term.summary
        meta["onnx_glossary_jsonld"] = list(plugin.json_ld.get(src_uri, ()))
    elif model is not None:
        meta["description"] = model.description
    elif src_uri == GLOSSARY_INDEX_URI:
        meta["onnx_glossary_jsonld"] = [machine_readable.term_set_json_ld(
            plugin.index, plugin.config.set_name, GLOSSARY_INDEX_URI, plugin.pages.urls)]
    return meta


def _python_name(dumper: yaml.SafeDumper, value: Any) -> yaml.Node:
    return dumper.represent_scalar(f"tag:yaml.org,2002:python/name:{value.__module__}."
                                   f"{value.__qualname__}", "")


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(types.FunctionType, _python_name)


def _host_config(config: MkDocsConfig, plugin: Any, root: Path) -> str:
    """The site's mkdocs.yml for a host without plugins: same theme, nav and extensions."""
    extensions: list[Any] = []
    for name in config.markdown_extensions:
        if isinstance(name, GlossaryExtension) or not isinstance(name, str):
            continue
        options = config.mdx_configs.get(name)
        extensions.append({name: options} if options else name)
    options = plugin.config
    extensions.append({"onnx_glossary": {
        "glossary_dir": str((root / options.glossary_dir).resolve()),
        "models_dir": str((root / options.models_dir).resolve()) if options.models_dir else "",
        "site_url": config.site_url or "",
        "use_directory_urls": config.use_directory_urls,
        "node_modules": str(plugin.node_modules.resolve()),
        "cache_dir": str((root / options.cache_dir).resolve()),
        "live_examples": options.live_examples,
    }})
    theme = {key: value for key, value in config.theme.items()
             if key not in ("custom_dir", "locale") and value is not None}
    theme.update(name=config.theme.name, custom_dir="overrides")
    site: dict[str, Any] = {
        "site_name": config.site_name,
        "site_description": config.site_description,
        "site_url": config.site_url,
        "repo_url": config.repo_url,
        "repo_name": config.repo_name,
        "use_directory_urls": config.use_directory_urls,
        "docs_dir": "docs",
        "theme": theme,
        "nav": config.nav,
        "extra_css": list(config.extra_css),
        "extra_javascript": [_script(script) for script in config.extra_javascript],
        "markdown_extensions": extensions,
    }
    header = "# Written by onnx-glossary generate from the site's mkdocs.yml: edit that one.\n"
    return header + yaml.dump({k: v for k, v in site.items() if v is not None}, Dumper=_Dumper,
                              sort_keys=False, allow_unicode=True)


def _script(script: Any) -> Any:
    """An extra_javascript entry: a module keeps its type, a classic script is its path."""
    kind = getattr(script, "type", None)
    return {"path": str(script.path), "type": kind} if kind else str(script)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="onnx-glossary", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("generate", help="write the site's pages and files for a host "
                                  "without MkDocs plugins (Zensical)")
    command.add_argument("out", type=Path, help="folder to write (created; its docs/ is replaced)")
    command.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"),
                         help="the site's mkdocs.yml (default: ./mkdocs.yml)")
    command = commands.add_parser("csp", help="give every page of a built site the "
                                  "Content-Security-Policy tag (after zensical build) and print "
                                  "the policy, which a host that sends headers can send as one")
    command.add_argument("site", type=Path, help="the built site, e.g. build/zensical/site")
    args = parser.parse_args(argv)
    if args.command == "csp":
        return _csp(args.site)
    try:
        generated = generate(args.config_file, args.out)
    except (GenerateError, PluginError) as error:
        print(f"onnx-glossary: {error}", file=sys.stderr)
        return 1
    then = f", then: onnx-glossary csp {args.out / 'site'}" if generated.csp else ""
    print(f"onnx-glossary: wrote {len(generated.pages)} generated pages and the site's files to "
          f"{args.out}; build it with: zensical build -f {args.out / 'mkdocs.yml'}{then}")
    return 0


def _csp(site: Path) -> int:
    if not (site / "index.html").is_file():
        print(f"onnx-glossary: {site} holds no index.html: name a built site", file=sys.stderr)
        return 1
    applied = csp.apply_to_site(site)
    print(f"onnx-glossary: Content-Security-Policy in {applied.pages} pages of {site}, "
          f"{applied.scripts} inline scripts allowed by hash:", file=sys.stderr)
    print(applied.policy)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
