"""Build a real MkDocs site in-process and collect its warnings (used by the site tests)."""

from __future__ import annotations

import logging
import shutil
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import onnx
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "models"
# The onnx package's own test models (real architectures, generated weights, IR 3 / opset 9).
LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"


@dataclass
class Built:
    site: Path
    warnings: list[str] = field(default_factory=list)
    aborted: bool = False
    plugin: Any = None  # the glossary plugin instance that built it
    site_url: str | None = None  # as configured (the real site's comes from SITE_URL or its default)

    def ours(self) -> list[str]:
        """The plugin's own warnings, without MkDocs' plugin-name prefix."""
        return [w.removeprefix("onnx_glossary: ") for w in self.warnings
                if w.startswith("onnx_glossary: ")]

    def page(self, url_path: str) -> str:
        return (self.site / url_path / "index.html").read_text(encoding="utf-8")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def build_site(config_file: Path, *, strict: bool = False, site_dir: Path | None = None,
               **overrides: object) -> Built:
    site = site_dir or config_file.parent / "site"
    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(str(config_file), strict=strict, site_dir=str(site), **overrides)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
            aborted = False
        except Abort:
            aborted = True
        finally:
            config.plugins.on_shutdown()
    finally:
        logger.removeHandler(handler)
    return Built(site, handler.messages, aborted, config.plugins.get("glossary"), config.site_url)


def variant_config(root: Path, **options: object) -> Path:
    """A copy of this repository's mkdocs.yml in ``root`` with extra glossary plugin options
    (e.g. ``persistent_cache=True``); every path still points into the repository."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    extra = "".join(f"      {name}: {str(value).lower() if isinstance(value, bool) else value}\n"
                    for name, value in options.items())
    text = text.replace("      set_name:", f"{extra}      node_modules: {REPO / 'node_modules'}\n"
                        f"      diagrams_dir: {REPO / 'diagrams'}\n      set_name:")
    text = text.replace("glossary_dir: glossary", f"glossary_dir: {REPO / 'glossary'}")
    text = text.replace("models_dir: models", f"models_dir: {REPO / 'models'}")
    text = text.replace("figures_file: docs/", f"figures_file: {REPO / 'docs'}/")
    config = root / "mkdocs.yml"
    config.write_text(text + f"docs_dir: {REPO / 'docs'}\n", encoding="utf-8")
    return config


MKDOCS_YML = """\
site_name: Tiny glossary
site_url: https://docs.team.example/repo/
repo_url: https://git.team.example/repo
edit_uri: edit/main/docs/
theme:
  name: material
  font: false
  features: [navigation.instant, content.tooltips, content.action.edit]
nav:
  - Home: index.md
  - Glossary: glossary/index.md
plugins:
  - search
  - glossary:
      node_modules: {node_modules}
      set_name: Tiny set
      quality_checks: false  # tiny terms; tests/test_quality.py builds with the checks on
markdown_extensions: [attr_list, md_in_html, toc]
"""


def write_project(root: Path, terms: dict[str, str], docs: dict[str, str] | None = None,
                  yml: str | None = None) -> Path:
    """A project folder with mkdocs.yml, docs/ and glossary/; returns the mkdocs.yml path."""
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "glossary").mkdir(exist_ok=True)
    for name, text in (docs or {"index.md": "# Home\n"}).items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    for slug, text in terms.items():
        (root / "glossary" / f"{slug}.md").write_text(textwrap.dedent(text), encoding="utf-8")
    config = root / "mkdocs.yml"
    config.write_text(yml or MKDOCS_YML.format(node_modules=REPO / "node_modules"), encoding="utf-8")
    return config


def term(title: str, category: str = "Cat A", *, extra: str = "", body: str = "Body text.\n",
         summary: str | None = None) -> str:
    """A valid term file's text; ``extra`` adds front-matter lines."""
    return (
        "---\n"
        f"title: {title}\n"
        f"category: {category}\n"
        "updated: 2026-11-30\n"
        f"summary: {summary or title + ' in one sentence.'}\n"
        "sources:\n"
        "  - title: Spec\n"
        "    url: https://example.org/spec\n"
        f"{extra}"
        "---\n"
        f"{body}"
    )


YML_WITH_MODELS = """\
site_name: Models
site_url: https://docs.team.example/repo/
theme:
  name: material
  font: false
plugins:
  - glossary:
      node_modules: {node_modules}
      models_dir: models
      quality_checks: false
{extra}
markdown_extensions: [attr_list, md_in_html, toc]
"""


def project(root: Path, models: dict[str, onnx.ModelProto | bytes], *,
            terms: dict[str, str] | None = None, docs: dict[str, str] | None = None,
            extra: str = "") -> Path:
    """A project with models/<name>/model.onnx for each entry (a ModelProto or raw bytes)."""
    for name, content in models.items():
        folder = root / "models" / name
        folder.mkdir(parents=True, exist_ok=True)
        data = content if isinstance(content, bytes) else content.SerializeToString()
        (folder / "model.onnx").write_bytes(data)
    return write_project(root, terms or {"t": term("T")}, docs=docs,
                         yml=YML_WITH_MODELS.format(node_modules=REPO / "node_modules", extra=extra))


class _WidgetAttributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.attrs: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.attrs and any(name == "data-live-example" for name, _ in attrs):
            self.attrs = dict(attrs)


def widget_attributes(html: str) -> dict[str, str | None]:
    """The attributes of the first live-example widget (``data-live-example``) in ``html``."""
    parser = _WidgetAttributes()
    parser.feed(html)
    return parser.attrs


def cards_site(root: Path, names: Iterable[str]) -> Built:
    """A site whose one docs page, cards/, embeds the live example of each named model of
    this repository, built with --strict into ``root / "site"``."""
    names = list(names)
    for name in names:
        shutil.copytree(MODELS / name, root / "models" / name,
                        ignore=shutil.ignore_patterns("export.py", "__pycache__"))
    embeds = "".join(f"[[live-example: {name}]]\n\n" for name in names)
    config = write_project(root, {"t": term("T")},
                           docs={"index.md": "# Home\n", "cards.md": "# Cards\n\n" + embeds},
                           yml=YML_WITH_MODELS.format(node_modules=REPO / "node_modules", extra=""))
    built = build_site(config, strict=True, site_dir=root / "site")
    assert not built.aborted, built.warnings
    return built
