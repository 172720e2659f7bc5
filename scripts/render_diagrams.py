"""Draw every ```mermaid fence of the site's pages into an SVG, ahead of time.

    python scripts/render_diagrams.py            # draw what is missing or stale, delete leftovers
    python scripts/render_diagrams.py --check    # exit 1 if a drawing is missing, stale or left over
    python scripts/render_diagrams.py --force    # draw every diagram again

The build shows each fence as the drawing committed for its text (the glossary option
diagrams_dir, ``diagrams/`` here), so a site builder needs neither Node nor a browser, and a
reader neither waits for mermaid nor sees a diagram's source. This script is the one place that
runs mermaid: the version pinned in package.json (``npm ci`` puts it in node_modules/), in
Debian's Chromium driven by playwright. It reads mkdocs.yml for the pages (docs_dir and the
glossary's term files) and the folder. Each drawing records the SHA-256 of the text it was drawn
from; ``tests/test_diagrams.py`` fails when one is stale.

A diagram wider than a phone's column can show at 12 px labels gets a second, narrow drawing:
top-down, its labels wrapped shorter. Colours are left to the page (CSS variables of the theme,
``currentColor``), so a drawing follows the light and the dark palette.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "plugins"))

from onnx_glossary.glossary.index import GLOSSARY_URI  # noqa: E402
from onnx_glossary.render.diagrams import (  # noqa: E402
    LABEL_PX,
    PHONE_MAX_WIDTH,
    Drawing,
    Wanted,
    read_drawing,
    stale,
    wanted,
)

#: The theme's own font stack (mkdocs-material with ``font: false``), so labels are measured
#: in the font a reader's page uses. Here that resolves to DejaVu Sans, wider than Helvetica
#: or Arial: a label measured here fits its box wherever it is read.
FONT = "-apple-system, BlinkMacSystemFont, Helvetica, Arial, sans-serif"
COMMON = {"startOnLoad": False, "theme": "base", "htmlLabels": False, "fontFamily": FONT,
          "fontSize": LABEL_PX, "securityLevel": "strict"}
CONFIG = {
    "written": {**COMMON, "flowchart": {"useMaxWidth": False, "wrappingWidth": 200, "minNodeWidth": 60}},
    "narrow": {**COMMON, "look": "classic", "flowchart": {"useMaxWidth": False, "wrappingWidth": 200,
                                        "nodeSpacing": 12, "rankSpacing": 24, "padding": 6,
                                                            "minNodeWidth": 40}},
}
_DIRECTION = re.compile(r"^(\s*(?:flowchart|graph))\s+(?:LR|RL|TB|BT|TD)\b", re.M)

#: The page's colours, by the theme's CSS variables (with plain fallbacks for the file seen
#: alone): no colour is written into a drawing.
STYLE = """#{id}{{font-family:var(--md-text-font-family,{font});font-size:{size}px}}
#{id} text{{fill:var(--md-typeset-color,currentColor)}}
#{id} :is(.node,.edgeLabel) text{{text-anchor:middle}}
#{id} .node>:is(rect,polygon,circle,ellipse,path){{fill:var(--md-code-bg-color,none);
stroke:var(--md-typeset-a-color,currentColor);stroke-width:1.5px}}
#{id} .label rect{{fill:none;stroke:none}}
#{id} .flowchart-link{{stroke:var(--md-default-fg-color--light,currentColor);stroke-width:1.5px;fill:none}}
#{id} marker path,#{id} marker polygon,#{id} marker circle{{
fill:var(--md-default-fg-color--light,currentColor);stroke:none}}
#{id} .edgeLabel rect,#{id} .labelBkg{{fill:var(--md-default-bg-color,none);opacity:1}}"""

RENDER = """async ([url, id, text, config]) => {
  const { default: mermaid } = await import(url);
  mermaid.initialize(config);
  const { svg } = await mermaid.render(id, text);
  return svg;
}"""

_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(")


def clean(svg: str, element_id: str, sha: str, layout: str) -> str:
    """Mermaid's SVG without its colours, animations and bookkeeping: the shapes and words,
    the page's colours, the source's hash."""
    svg = re.sub(r"<style>.*?</style>", "", svg, flags=re.S)
    svg = re.sub(r'\s(?:data-points|data-look|data-edge|data-et|data-id|data-node)="[^"]*"', "", svg)
    svg = re.sub(r'\sstyle=""', "", svg)
    svg = re.sub(r'\sstyle="stroke-dasharray:[^"]*"', "", svg)
    svg = re.sub(r"<rect></rect>", "", svg)
    used = set(re.findall(r"url\(#([^)]+)\)", svg))
    for tag in ("marker", "filter", "linearGradient", "radialGradient"):  # defined, unused
        svg = re.sub(rf'<{tag} id="([^"]+)".*?</{tag}>',
                     lambda m: m.group(0) if m.group(1) in used else "", svg, flags=re.S)
    svg = svg.replace("<defs></defs>", "")
    svg = re.sub(r"(\d+\.\d{2})\d+", r"\1", svg)
    root = re.match(r"<svg\b[^>]*>", svg)
    assert root is not None, svg[:200]
    view = re.search(r'viewBox="([^"]+)"', root.group(0))
    assert view is not None
    left, top, width, height = (float(v) for v in view.group(1).split())
    role = re.search(r'role="[^"]*"', root.group(0))
    described = re.search(r'aria-roledescription="[^"]*"', root.group(0))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" id="{element_id}" class="flowchart" '
            f'width="{width:.0f}" height="{height:.0f}" viewBox="{left:g} {top:g} {width:g} {height:g}" '
            f'{role.group(0) if role else ""} {described.group(0) if described else ""} '
            f'data-source-sha256="{sha}" data-layout="{layout}">')
    style = STYLE.format(id=element_id, font=FONT, size=f"{LABEL_PX:g}")
    out = head + f"<style>{style}</style>" + svg[root.end():]
    found = _COLOUR.search(out)
    if found:
        raise SystemExit(f"{element_id}: mermaid wrote a colour ({found.group(0)}...) that "
                         "clean() does not remove: extend it")
    return out + "\n"


def pages_of(config_file: Path) -> tuple[dict[str, str], Path]:
    """The site's pages with their text (docs namespace), and the drawings' folder."""
    from mkdocs.config import load_config
    from onnx_glossary.hosts.mkdocs_plugin import options_of

    config = load_config(str(config_file))
    options = options_of(config.plugins["glossary"].config, config)
    docs = Path(config.docs_dir)
    pages = {path.relative_to(docs).as_posix(): path.read_text(encoding="utf-8")
             for path in sorted(docs.rglob("*.md"))}
    pages.update({f"{GLOSSARY_URI}/{path.name}": path.read_text(encoding="utf-8")
                  for path in sorted(options.glossary_dir.glob("*.md"))})
    return pages, options.diagrams_dir


def draw(todo: list[Wanted], folder: Path) -> None:
    from tests.support.browser import StaticServer, chromium

    mermaid = REPO / "node_modules" / "mermaid" / "dist" / "mermaid.esm.min.mjs"
    if not mermaid.is_file():
        raise SystemExit(f"{mermaid.relative_to(REPO)} is missing: run npm ci")
    with StaticServer(REPO / "node_modules", "/") as server, chromium() as browser:
        page = browser.new_page()
        page.goto(server.url + "mermaid/package.json")  # an origin to import modules from
        page.set_content(f"<!doctype html><body style='font-family: {FONT}'></body>")
        url = server.url + "mermaid/dist/mermaid.esm.min.mjs"
        for diagram in todo:
            source = diagram.fence.source
            written = _draw(page, url, diagram, "written", source, folder)
            if written.width <= PHONE_MAX_WIDTH:
                (folder / diagram.file("narrow")).unlink(missing_ok=True)
                continue
            # Narrow: top-down, or as written if that is narrower (three inputs side by side
            # are wider top-down than left to right), each with its labels wrapped shorter.
            turned = _DIRECTION.sub(r"\1 TD", source, count=1)
            tries = [_draw(page, url, diagram, "narrow", text, folder)
                     for text in dict.fromkeys((turned, source))]
            best = min(tries, key=lambda drawing: drawing.width)

            best.path.write_text(best.svg + "\n", encoding="utf-8")
            print(f"wrote {_shown(best.path)} ({best.width:.0f} x {best.height:.0f} px)")


def _draw(page, url: str, diagram: Wanted, layout: str, text: str, folder: Path) -> Drawing:  # type: ignore[no-untyped-def]
    element_id = "gl-d-" + re.sub(r"[^a-z0-9]+", "-", diagram.file(layout).lower()
                                  .removesuffix(".svg")).strip("-")
    svg = page.evaluate(RENDER, [url, element_id, text, CONFIG[layout]])
    path = folder / diagram.file(layout)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(clean(svg, element_id, diagram.fence.sha256, layout), encoding="utf-8")
    drawing = read_drawing(path)
    assert drawing is not None
    if layout == "written":
        print(f"wrote {_shown(path)} ({drawing.width:.0f} x {drawing.height:.0f} px)")
    return drawing


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO) if path.is_relative_to(REPO) else path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", type=Path, default=REPO / "mkdocs.yml")
    parser.add_argument("--check", action="store_true", help="only check; exit 1 on a problem")
    parser.add_argument("--force", action="store_true", help="draw every diagram again")
    args = parser.parse_args(argv)
    pages, folder = pages_of(args.config)
    diagrams = wanted(pages)
    problems = stale(diagrams, folder)
    if args.check:
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    todo = diagrams if args.force else [d for d in diagrams if any(
        line.startswith(f"{d.page_uri} (diagram {d.number})") for line in problems)]
    draw(todo, folder)
    for line in stale(diagrams, folder):
        if line.endswith("delete it"):
            (folder / line.split(" is the drawing")[0]).unlink()
            print(f"deleted {line.split(' is the drawing')[0]}")
    left = [line for line in stale(diagrams, folder) if not line.endswith("delete it")]
    for line in left:
        print(line, file=sys.stderr)
    print(json.dumps({"diagrams": len(diagrams), "drawn": len(todo)}))
    return 1 if left else 0


if __name__ == "__main__":
    raise SystemExit(main())
