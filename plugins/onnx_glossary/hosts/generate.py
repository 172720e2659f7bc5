"""``onnx-glossary generate OUT``: the site's pages and files as a folder any host can build.

Zensical (Material's successor) runs Python-Markdown extensions but no MkDocs plugins. So this
command reads the site's mkdocs.yml with MkDocs, translates it into
:class:`~onnx_glossary.options.Options` (the plugin's options, overridden by the command's
``--option`` flags), and writes what :class:`~onnx_glossary.site.Site` adds to a build:

- ``OUT/docs/``: the hand-written pages, every generated page (terms, the glossary index, model
  pages, the operator index, ``llms.txt``, the option reference) with its meta description and
  JSON-LD as front matter, and every file the pages need;
- ``OUT/overrides/``: the plugin's own theme folder (the very template the plugin uses under
  MkDocs), then the site's ``custom_dir`` over it;
- ``OUT/mkdocs.yml``: the site's configuration without plugins, with the Markdown extension
  listed with every option, the theme's values under ``extra.onnx_glossary``, and ``docs_dir``
  and ``custom_dir`` pointing at the two folders above.

Every page is converted once here, with the site's own Markdown extensions, to learn which pages
link to each term ("Mentioned on") and to report links to missing terms, as a build would.
Then ``zensical build -f OUT/mkdocs.yml`` builds the site. The command writes only into ``OUT``.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import markdown
import yaml
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import ConfigurationError
from mkdocs.structure.files import get_files

from ..browser import csp
from ..common.paths import PACKAGE_DIR, shown_path
from ..common.problems import Problem, SetupError
from ..options import Options, OptionsError, option_fields, plain_default
from ..site import Site, SiteContent, escaped_description
from .markdown_ext import GlossaryExtension, PageContext
from .mkdocs_plugin import EXTENSION_NAMES, options_of

THEME_DIR = PACKAGE_DIR / "theme"
log = logging.getLogger("onnx_glossary")


class GenerateError(RuntimeError):
    """Something a person must fix; the message says what."""


@dataclass(frozen=True)
class Generated:
    pages: list[str]  # the generated pages' paths, relative to OUT/docs
    csp: bool  # the site wants a Content-Security-Policy: run `onnx-glossary csp` on the build
    problems: list[Problem]  # what the build would warn of


def generate(config_file: Path, out: Path, overrides: dict[str, Any] | None = None) -> Generated:
    """Write the folder; returns what it wrote. ``overrides``: option values that replace
    mkdocs.yml's (names of :class:`~onnx_glossary.options.Options`)."""
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
    problems: list[Problem] = []
    try:
        options = options_of(plugin.config, config)
        if overrides:
            options = options.replace(**Options.from_values(
                {**_plain(options), **overrides}, root).__dict__)
        site = Site.load(options, root, problems.append, inform=log.info)
    except (OptionsError, SetupError) as error:
        raise GenerateError(str(error)) from None
    files = get_files(config)
    hand_written = {f.src_uri: f.content_string for f in files.documentation_pages()}
    content = site.content(hand_written)
    pages = _converted_pages(site, config, root, files, content, problems)
    docs = out / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    for file in files:
        target = docs / file.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(file.content_bytes)
    for generated in content.files:
        target = docs / generated.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        if generated.source is not None:
            shutil.copyfile(generated.source, target)
        elif isinstance(generated.content, bytes):
            target.write_bytes(generated.content)
        else:
            target.write_text(generated.content or "", encoding="utf-8")
    for uri, text in pages.items():
        target = docs / uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_front_matter(site, uri) + text, encoding="utf-8")
    _write_theme(config, out / "overrides")
    (out / "mkdocs.yml").write_text(_host_config(config, site), encoding="utf-8")
    return Generated(sorted(pages), options.content_security_policy, problems)


def _converted_pages(site: Site, config: MkDocsConfig, root: Path, files: Any,
                     content: SiteContent, problems: list[Problem]) -> dict[str, str]:
    """Convert every page as the build will, recording its term links; returns the generated
    pages' markdown with each term's "Mentioned on" filled in."""
    context = PageContext(site=site, report=problems.append)
    extensions: list[Any] = [name for name in config.markdown_extensions
                             if name not in EXTENSION_NAMES]
    md = markdown.Markdown(extensions=[*extensions, GlossaryExtension(context)],
                           extension_configs=config.mdx_configs)
    for file in files.documentation_pages():
        text = file.content_string
        body = _without_front_matter(text)
        context.begin_page(file.src_uri, body, file_text=text,
                           shown=shown_path(file.abs_src_path, root) if file.abs_src_path else None)
        md.reset().convert(body)
    generated = {page.src_uri: str(page.content or "") for page in content.pages}
    for uri, text in generated.items():
        if uri.endswith(".md"):
            context.begin_page(uri, text)
            md.reset().convert(text)
    backlinks = site.backlinks(context.links)
    problems.extend(site.orphans(backlinks))
    for uri, text in generated.items():
        slot, section = site.mentions(uri, backlinks)
        if slot:
            generated[uri] = text.replace(slot, str(section))
    return generated


def _without_front_matter(text: str) -> str:
    """The markdown a host converts: without the ``---`` front matter (as MkDocs strips it)."""
    from mkdocs.utils.meta import get_data

    return get_data(text)[0]


def _front_matter(site: Site, uri: str) -> str:
    """What the MkDocs plugin gives a generated page's meta, as front matter."""
    if not uri.endswith(".md"):
        return ""
    meta = site.page_meta(uri)
    data: dict[str, Any] = {}
    if meta.description is not None:
        # Material's template writes the description into an attribute unescaped, on every host.
        data["description"] = escaped_description(meta)
    if meta.json_ld:
        data["onnx_glossary_jsonld"] = list(meta.json_ld)
    if not data:
        return ""
    return f"---\n{yaml.safe_dump(data, allow_unicode=True, sort_keys=False)}---\n\n"


def _write_theme(config: MkDocsConfig, overrides: Path) -> None:
    """The plugin's theme folder, then the site's own custom_dir over it (the site's wins, as
    under MkDocs, where its folder comes first)."""
    if overrides.exists():
        shutil.rmtree(overrides)
    shutil.copytree(THEME_DIR, overrides)
    if config.theme.custom_dir:
        shutil.copytree(config.theme.custom_dir, overrides, dirs_exist_ok=True)


def _plain(options: Options) -> dict[str, Any]:
    return {f.name: (str(v) if isinstance(v := getattr(options, f.name), Path) else v)
            for f in option_fields()}


def _python_name(dumper: yaml.SafeDumper, value: Any) -> yaml.Node:
    return dumper.represent_scalar(f"tag:yaml.org,2002:python/name:{value.__module__}."
                                   f"{value.__qualname__}", "")


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(types.FunctionType, _python_name)


def _host_config(config: MkDocsConfig, site: Site) -> str:
    """The site's mkdocs.yml for a host without plugins: same theme, nav and extensions."""
    extensions: list[Any] = []
    for name in config.markdown_extensions:
        if not isinstance(name, str) or name in EXTENSION_NAMES:
            continue
        given = config.mdx_configs.get(name)
        extensions.append({name: given} if given else name)
    options = {name: ("" if value is None else value) for name, value in _plain(site.options).items()}
    options["custom_dir"] = ""  # the theme below carries the site's overrides already
    extensions.append({"onnx_glossary": options})
    theme = {key: value for key, value in config.theme.items()
             if key not in ("custom_dir", "locale") and value is not None}
    theme.update(name=config.theme.name, custom_dir="overrides")
    extra = dict(config.extra)
    extra["onnx_glossary"] = site.theme_context()
    out: dict[str, Any] = {
        "site_name": config.site_name,
        "site_description": config.site_description,
        "site_url": config.site_url,
        "repo_url": config.repo_url,
        "repo_name": config.repo_name,
        "edit_uri": config.edit_uri,
        "use_directory_urls": config.use_directory_urls,
        "docs_dir": "docs",
        "theme": theme,
        "nav": config.nav,
        "extra": extra,
        "extra_css": [*config.extra_css, *site.stylesheets()],
        # The plugin's scripts deferred, as the MkDocs plugin adds them (hosts/mkdocs_plugin.py).
        "extra_javascript": [_script(s) for s in config.extra_javascript]
        + [{"path": path, "defer": True} for path in site.scripts()],
        "markdown_extensions": extensions,
    }
    header = "# Written by onnx-glossary generate from the site's mkdocs.yml: edit that one.\n"
    return header + yaml.dump({k: v for k, v in out.items() if v is not None}, Dumper=_Dumper,
                              sort_keys=False, allow_unicode=True)


def _script(script: Any) -> Any:
    """An extra_javascript entry: a module keeps its type, a classic script is its path."""
    kind = getattr(script, "type", None)
    return {"path": str(script.path), "type": kind} if kind else str(script)


def _add_option_flags(command: argparse.ArgumentParser) -> None:
    """One flag per plugin option, made from its declaration: it replaces mkdocs.yml's value."""
    group = command.add_argument_group("glossary options (each replaces mkdocs.yml's value)")
    for option in option_fields("plugin"):
        flag = "--" + option.name.replace("_", "-")
        default = plain_default(option)
        text = f"{option.doc} (default: {default})"
        if option.kind == "flag":
            group.add_argument(flag, dest=option.name, action=argparse.BooleanOptionalAction,
                               default=None, help=text)
        else:
            group.add_argument(flag, dest=option.name, default=None, metavar=option.kind.upper(),
                               type=float if option.kind == "number" else str, help=text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="onnx-glossary", description=(__doc__ or "").split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("generate", help="write the site's pages and files for a host "
                                  "without MkDocs plugins (Zensical)")
    command.add_argument("out", type=Path, help="folder to write (created; its docs/ is replaced)")
    command.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"),
                         help="the site's mkdocs.yml (default: ./mkdocs.yml)")
    _add_option_flags(command)
    command = commands.add_parser("csp", help="give every page of a built site the "
                                  "Content-Security-Policy tag (after zensical build) and print "
                                  "the policy, which a host that sends headers can send as one")
    command.add_argument("site", type=Path, help="the built site, e.g. build/zensical/site")
    args = parser.parse_args(argv)
    if args.command == "csp":
        return _csp(args.site)
    overrides = {f.name: getattr(args, f.name) for f in option_fields("plugin")
                 if getattr(args, f.name) is not None}
    try:
        generated = generate(args.config_file, args.out, overrides)
    except GenerateError as error:
        print(f"onnx-glossary: {error}", file=sys.stderr)
        return 1
    for problem in generated.problems:
        if problem.level != "debug":
            print(f"{'INFO' if problem.level == 'info' else 'WARNING'}: {problem}", file=sys.stderr)
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
