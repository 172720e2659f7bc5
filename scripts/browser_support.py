"""Write plugins/onnx_glossary/data/browser-support.json from MDN's browser-compat-data.

The npm package @mdn/browser-compat-data is pinned exactly as a devDependency (package.json and
package-lock.json); this script reads its data.json from node_modules and keeps only the few
features an in-browser ONNX page depends on, for the browsers most readers use. The plugin reads
the small file, so sites built with the plugin never download the package. Run it after bumping
the package, and commit the file (tests/test_browser_support.py compares the two):

    python scripts/browser_support.py          # write the data file
    python scripts/browser_support.py --check  # exit 1 if it differs from what the package gives
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "node_modules" / "@mdn" / "browser-compat-data"
DATA_FILE = REPO / "plugins" / "onnx_glossary" / "data" / "browser-support.json"

#: (id, the name a reader knows, the feature's path in browser-compat-data), in table order.
FEATURES = (
    ("webgpu", "WebGPU", "api.GPU"),
    ("webnn", "WebNN", "api.ML"),
    ("wasm-simd", "WebAssembly SIMD (128-bit)", "webassembly.fixed-width-SIMD"),
    ("wasm-threads", "WebAssembly threads and atomics", "webassembly.threads-and-atomics"),
    ("sharedarraybuffer", "SharedArrayBuffer", "javascript.builtins.SharedArrayBuffer"),
    ("cross-origin-isolated", "crossOriginIsolated", "api.crossOriginIsolated"),
    ("jspi", "WebAssembly JSPI", "webassembly.jspi"),
    ("wasm-unsafe-eval", "CSP 'wasm-unsafe-eval'",
     "http.headers.Content-Security-Policy.script-src.wasm-unsafe-eval"),
    ("import-maps", "Import maps", "html.elements.script.type.importmap"),
    ("float16array", "Float16Array", "javascript.builtins.Float16Array"),
    ("bigint64array", "BigInt64Array", "javascript.builtins.BigInt64Array"),
)

#: The table's columns: browser-compat-data's browser ids and their names.
BROWSERS = (
    ("chrome", "Chrome"),
    ("edge", "Edge"),
    ("firefox", "Firefox"),
    ("safari", "Safari"),
    ("chrome_android", "Chrome for Android"),
    ("safari_ios", "Safari on iOS"),
)

TAG = re.compile(r"<[^>]+>")


def plain(note: str) -> str:
    """A note without its HTML markup, as plain text (the data file is read as untrusted text)."""
    return html.unescape(TAG.sub("", note)).strip()


def statement(entry: dict[str, Any]) -> dict[str, Any]:
    """One support statement: the fields a table cell needs, nothing else."""
    kept: dict[str, Any] = {"version_added": entry.get("version_added")}
    for key in ("version_removed", "partial_implementation", "prefix", "alternative_name"):
        if entry.get(key):
            kept[key] = entry[key]
    if entry.get("flags"):
        kept["flags"] = True
    notes = entry.get("notes")
    if notes:
        kept["notes"] = [plain(n) for n in ([notes] if isinstance(notes, str) else notes)]
    return kept


def extract(data: dict[str, Any]) -> dict[str, Any]:
    """The data file's content from browser-compat-data's whole data.json."""
    features = []
    for feature_id, title, path in FEATURES:
        node: Any = data
        for key in path.split("."):
            node = node[key]
        compat = node["__compat"]
        support = {}
        for browser, _ in BROWSERS:
            entries = compat["support"].get(browser, {"version_added": False})
            support[browser] = [statement(e) for e in (entries if isinstance(entries, list) else [entries])]
        features.append({
            "id": feature_id, "title": title, "bcd_path": path,
            "mdn_url": compat.get("mdn_url"), "spec_url": compat.get("spec_url"),
            "experimental": compat["status"]["experimental"], "support": support,
        })
    meta = data["__meta"]
    return {
        "source": {"package": "@mdn/browser-compat-data", "version": meta["version"],
                   "timestamp": meta["timestamp"], "license": "CC0-1.0"},
        "browsers": [{"id": b, "name": name} for b, name in BROWSERS],
        "features": features,
    }


def expected_text(package: Path = PACKAGE) -> str:
    data = json.loads((package / "data.json").read_text(encoding="utf-8"))
    return json.dumps(extract(data), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    if not (PACKAGE / "data.json").is_file():
        print(f"{PACKAGE.relative_to(REPO)} is missing: run npm ci (it is a devDependency)", file=sys.stderr)
        return 1
    text = expected_text()
    if args.check:
        current = DATA_FILE.read_text(encoding="utf-8") if DATA_FILE.is_file() else ""
        if current != text:
            print(f"{DATA_FILE.relative_to(REPO)} differs from @mdn/browser-compat-data in node_modules: "
                  "run python scripts/browser_support.py and commit it", file=sys.stderr)
            return 1
        return 0
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
