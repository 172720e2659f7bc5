"""Write the sample photos of the MediaPipe models into this folder.

scikit-image's `astronaut` (public domain), `coffee` and `chelsea` (both CC0) from the pinned
scikit-image wheel on PyPI (downloaded with pip into ~/.cache/onnx-glossary/, SHA-256
checked), scaled to a long side of 256 px, and `astronaut-tilted`, the scaled astronaut
turned 25 degrees. What and why: `SOURCE.md` next to this file; the code:
`onnx_glossary.models.tflite_export.make_photos`.

Run `python models/_photos/photos.py [--out DIR]`.
"""

from __future__ import annotations

from onnx_glossary.models.export_tools import parse_out_dir, run_main
from onnx_glossary.models.tflite_export import make_photos


def main() -> None:
    out_dir = parse_out_dir(__file__)
    for name, data in make_photos("models/_photos").items():
        (out_dir / f"{name}.png").write_bytes(data)
        print(f"wrote {out_dir / name}.png ({len(data)} bytes)")


if __name__ == "__main__":
    run_main(main)
