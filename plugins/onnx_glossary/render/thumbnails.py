"""Small pictures of a model's answer on its default sample, made at build time from the
reference outputs (what Python onnxruntime computed), for the models index and the home page.

A classifier's answer is drawn as bars (SVG), a picture or a map as a PNG of the output (a map
over its input picture), a mask as the picture's cut-out, found faces as boxes on the picture,
text lines as their boxes on the picture (:mod:`.text_boxes`), numbers as a short SVG table. Text from a
model or example.yml is escaped. Pure: no MkDocs imports.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from .text_boxes import text_boxes

#: The side of a thumbnail, in CSS pixels (pictures are made at twice that for sharp screens).
SIDE = 96


@dataclass(frozen=True)
class Thumbnail:
    """One picture of an answer: its file name next to the model, its bytes, and the answer
    in words (its alt text)."""

    name: str
    content: bytes
    alt: str
    caption: str = ""  # a few words under the picture where it is shown large (a demo)


def _output(reference: Mapping[str, Any]) -> Mapping[str, Any] | None:
    reading = reference.get("reading") or {}
    outputs = reference.get("outputs") or []
    return next((o for o in outputs if o["name"] == reading.get("tensor")), outputs[0] if outputs else None)


def _probabilities(values: Sequence[float], softmax: bool) -> list[float]:
    if not softmax:
        return [float(v) for v in values]
    top = max(values)
    exps = [math.exp(float(v) - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def answer_thumbnail(reference: Mapping[str, Any], picture: bytes | None = None) -> Thumbnail | None:
    """The thumbnail of the default sample's answer, or None when its reading has none."""
    reading = reference.get("reading") or {}
    output = _output(reference)
    if not output or not output.get("data"):
        return None
    kind = reading.get("kind")
    if kind == "classes":
        return _classes(output, reading)
    if kind in ("picture", "heatmap"):
        return _picture(output, reading, reference, picture)
    if kind in ("mask", "text-lines", "faces"):
        return _over_picture(kind, output, reference, picture) if picture is not None else None
    return _numbers(output)


def _classes(output: Mapping[str, Any], reading: Mapping[str, Any]) -> Thumbnail:
    width = int(output["dims"][-1]) if output["dims"] else len(output["data"])
    scores = _probabilities(output["data"][:width], bool(reading.get("softmax")))
    names = list(reading.get("classes") or []) or [str(i) for i in range(width)]
    best = max(range(len(scores)), key=lambda i: scores[i])
    name, share = names[best], scores[best]
    size = 44 if len(name) <= 3 else max(12, int(150 / len(name)))
    body = (f'<text x="48" y="52" font-size="{size}" text-anchor="middle" font-weight="bold">'
            f"{escape(name)}</text>"
            f'<rect x="8" y="66" width="80" height="10" rx="3" fill="#c5cae9"/>'
            f'<rect x="8" y="66" width="{max(1.0, 80 * share):.1f}" height="10" rx="3" fill="#3f51b5"/>'
            f'<text x="48" y="92" font-size="14" text-anchor="middle">{100 * share:.0f} %</text>')
    alt = f"{name} · {100 * share:.0f} %"
    return Thumbnail("answer.svg", _svg(body, alt), alt)


def _numbers(output: Mapping[str, Any]) -> Thumbnail:
    values = [v for v in output["data"][:3]]
    lines = "".join(f'<text x="48" y="{30 + 28 * i}" font-size="18" text-anchor="middle">'
                    f"{escape(_short(v))}</text>" for i, v in enumerate(values))
    alt = ", ".join(_short(v) for v in values)
    return Thumbnail("answer.svg", _svg(lines, alt), alt)


def _short(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _svg(body: str, title: str) -> bytes:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIDE}" height="{SIDE}" '
            f'viewBox="0 0 {SIDE} {SIDE}" font-family="sans-serif" fill="#333">'
            f"<title>{escape(title)}</title>{body}</svg>\n").encode()


def _picture(output: Mapping[str, Any], reading: Mapping[str, Any],
             reference: Mapping[str, Any], picture: bytes | None) -> Thumbnail | None:
    import numpy as np
    from PIL import Image

    dims = [int(d) for d in output["dims"]]
    data = np.asarray(output["data"], dtype=np.float64)
    if output["type"] == "uint8" and dims and dims[-1] == 4:  # an RGBA picture
        image = Image.fromarray(data.reshape(dims[-3], dims[-2], 4).astype(np.uint8), "RGBA")
    elif len(dims) >= 2:
        height, width = dims[-2], dims[-1]
        plane = data.reshape(-1, height, width)[0]
        low, high = float(plane.min()), float(plane.max())
        grey = ((plane - low) / (high - low or 1) * 255).astype(np.uint8)
        if reading.get("kind") == "heatmap" and picture is not None:
            base = Image.open(io.BytesIO(picture)).convert("RGB").resize((width, height))
            heat = Image.new("RGB", (width, height), (255, 193, 7))
            image = Image.composite(heat, base, Image.fromarray(grey, "L"))
        else:
            image = Image.fromarray(grey, "L")
    else:
        return None
    image.thumbnail((2 * SIDE, 2 * SIDE), Image.Resampling.LANCZOS)
    if min(image.size) < SIDE:  # a tiny output (12 x 12) is shown in crisp blocks
        scale = max(1, (2 * SIDE) // max(image.size))
        image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    out = io.BytesIO()
    _square(image).save(out, "PNG", optimize=True)
    return Thumbnail("answer.png", out.getvalue(), "the output picture")


def preview_name(picture_name: str) -> str:
    """The file name of a sample picture's preview, next to it: ``sample.png`` ->
    ``sample.preview.webp``."""
    return picture_name.rsplit(".", 1)[0] + ".preview.webp"


@functools.lru_cache(maxsize=32)  # made once per picture, not again at each rebuild (serve)
def picture_preview(picture: bytes) -> bytes:
    """A sample picture as pages show it (a demo's first picture, a widget's input): WebP at
    quality 85, about a sixth of the PNG's bytes, which a phone on a slow network waits for
    before the page's largest picture appears. Runs still read the file itself."""
    from PIL import Image

    with Image.open(io.BytesIO(picture)) as image:
        out = io.BytesIO()
        image.convert("RGBA" if "A" in image.getbands() else "RGB").save(out, "WEBP", quality=85, method=6)
    return out.getvalue()


def _square(image: Any) -> Any:
    """The picture centred on a transparent square. Pages show answers in square boxes (64 px
    in the model lists, 256 px in a demo): a 3:2 output would be stretched to fit."""
    from PIL import Image

    if image.width == image.height:
        return image
    side = max(image.size)
    canvas = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    canvas.paste(image.convert("RGBA"), ((side - image.width) // 2, (side - image.height) // 2))
    return canvas


def _over_picture(kind: str, output: Mapping[str, Any], reference: Mapping[str, Any],
                  picture: bytes) -> Thumbnail | None:
    """The answer drawn on the sample picture it was computed from (as the widget draws it)."""
    import numpy as np
    from PIL import Image, ImageDraw

    base = Image.open(io.BytesIO(picture)).convert("RGBA")
    if kind == "faces":
        outputs = {o["name"]: o for o in reference.get("outputs") or []}
        boxes = (outputs.get("boxes") or {}).get("data") or []
        count = len(boxes) // 4
        draw = ImageDraw.Draw(base)
        line = max(2, round(base.width / 64))
        for i in range(count):
            x0, y0, x1, y1 = (float(v) for v in boxes[4 * i:4 * i + 4])
            draw.rectangle((x0, y0, x1, y1), outline=(255, 193, 7, 255), width=line)
        alt = f"{count} face{'s' if count != 1 else ''} boxed on the photo"
        caption = f"{count} face{'s' if count != 1 else ''} found"
        image = base
    else:
        dims = [int(d) for d in output["dims"]]
        height, width = dims[-2], dims[-1]
        plane = np.clip(np.asarray(output["data"], dtype=np.float64).reshape(-1, height, width)[0], 0, 1)
        level = Image.fromarray((plane * 255).astype(np.uint8), "L")
        base = base.resize((width, height))
        if kind == "mask":
            base.putalpha(level)  # the background becomes transparent
            image = base
            alt = f"the photo with its background removed ({100 * float((plane > 0.5).mean()):.0f} % kept)"
            caption = "the background removed"
        else:  # the lines the detector's own post-processing finds, boxed as the widget does
            boxes = text_boxes(output["data"], width, height)
            draw = ImageDraw.Draw(base)
            for box in boxes:
                draw.rectangle(box, outline=(233, 30, 99, 255), width=max(2, round(width / 160)))
            image = base
            caption = f"{len(boxes)} line{'s' if len(boxes) != 1 else ''} of text found"
            alt = caption + ", boxed on the picture"
    # Kept at up to 320 px: the same file is the answer of a home page's demo ([[demo: NAME]]).
    image.thumbnail((320, 320), Image.Resampling.LANCZOS)
    # A photo: WebP (with its transparency for a cut-out) is a fifth of the PNG's bytes. At
    # method 4, not 6: libwebp's slowest method spends its effort on the alpha plane, and
    # the background-removal cut-out took 946 ms at 6 against 13 ms at 4, for 15,154 against
    # 15,502 bytes (256 px, Pillow 13, measured here).
    out = io.BytesIO()
    _square(image).save(out, "WEBP", quality=80, method=4)
    return Thumbnail("answer.webp", out.getvalue(), alt, caption)
