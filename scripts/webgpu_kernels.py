"""Write plugins/onnx_glossary/data/webgpu-kernels.json: where the shipped WebGPU runtime puts
each operator, measured in headless Chromium.

The model pages' WebGPU column and the operator index read this table; a page says "not
measured for this runtime" for an operator it lacks, and every operator once the installed
onnxruntime-web is not the version it was measured with. Run it whenever the runtime changes
(after `npm install --save-exact onnxruntime-web@X` and `python scripts/runtime_manifest.py`),
and commit the file:

    python scripts/webgpu_kernels.py

How: Chromium with a software WebGPU adapter (--enable-unsafe-webgpu, SwiftShader) loads
onnxruntime-web/webgpu (the native WebGPU execution provider, the build the live examples
use) and creates sessions with executionProviders ["webgpu"] and logSeverityLevel 0, running
nothing: the runtime logs "Node placements" while a session is created, and the widget's own
parser (plugins/onnx_glossary/assets/live-example-placement.mjs) reads them. One session for
each shipped model (models/*/model.onnx), and one for a one-node model of every distinct use
of an operator in them: the operator, the version of its definition and the element types of
its inputs, cut from a shipped model (tests/support/placement.py). Takes about half a minute.
tests/test_webgpu_kernels.py checks the table against the browser for every shipped model.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "plugins"))

from onnx_glossary.browser.runtime import package_version  # noqa: E402
from onnx_glossary.browser.webgpu_kernels import TABLE, WASM_EP, WEBGPU_EP  # noqa: E402

from tests.support.placement import (  # noqa: E402
    PlacementError,
    Placements,
    kernel_entry,
    model_cases,
    model_entry,
    one_node_cases,
    shipped_models,
)


def measure(models_dir: Path = REPO / "models") -> dict[str, Any]:
    models = shipped_models(models_dir)
    shipped = list(model_cases(models))
    cut = list(one_node_cases(models))
    with tempfile.TemporaryDirectory() as folder, Placements([*shipped, *cut], Path(folder)) as page:
        adapter = page.adapter()
        if adapter is None:
            raise SystemExit("no WebGPU adapter in headless Chromium: the table needs "
                             "--enable-unsafe-webgpu and Chromium's software adapter")
        ops = {case.key: kernel_entry(case, page.of(case)) for case in cut}
        placed = {case.source: model_entry(case, page.of(case)) for case in shipped}
        browser = page.version
    return {
        "onnxruntime-web": package_version(REPO / "node_modules"),
        "measured_with": {
            "script": "scripts/webgpu_kernels.py",
            "browser": f"headless Chromium {browser}",
            "adapter": " ".join(filter(None, (adapter["vendor"], adapter["architecture"])))
            + (" (a software fallback adapter)" if adapter["fallback"] else ""),
            "import": "onnxruntime-web/webgpu",
            "session_options": {"executionProviders": ["webgpu"], "logSeverityLevel": 0},
        },
        "providers": {"webgpu": WEBGPU_EP, "wasm": WASM_EP},
        "ops": dict(sorted(ops.items())),
        "models": dict(sorted(placed.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", type=Path, default=TABLE, help="where to write the table")
    args = parser.parse_args(argv)
    try:
        table = measure()
    except PlacementError as error:
        print(f"scripts/webgpu_kernels.py: {error}", file=sys.stderr)
        return 1
    args.output.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    on_webgpu = sum(entry["webgpu"] for entry in table["ops"].values())
    print(f"wrote {args.output.relative_to(REPO) if args.output.is_relative_to(REPO) else args.output}: "
          f"{len(table['ops'])} operator uses ({on_webgpu} on WebGPU), {len(table['models'])} models, "
          f"onnxruntime-web {table['onnxruntime-web']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
