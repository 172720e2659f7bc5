"""Write plugins/onnx_glossary/runtime-packages.json from package-lock.json.

The wheel carries that manifest so that a site builds without npm: the plugin downloads exactly
these tarballs and checks them against the lock file's integrity. Run it after changing a
browser package's version in package.json (npm install), and commit both files:

    python scripts/runtime_manifest.py          # write the manifest
    python scripts/runtime_manifest.py --check  # exit 1 if it disagrees with the lock file
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "plugins"))

from onnx_glossary.browser.packages import MANIFEST, SITE_FILES, manifest_from_lock  # noqa: E402


def expected() -> str:
    lock = json.loads((REPO / "package-lock.json").read_text(encoding="utf-8"))
    return json.dumps(manifest_from_lock(lock, SITE_FILES), indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    text = expected()
    if args.check:
        current = MANIFEST.read_text(encoding="utf-8") if MANIFEST.is_file() else ""
        if current != text:
            print(f"{MANIFEST.relative_to(REPO)} disagrees with package-lock.json: run "
                  "python scripts/runtime_manifest.py and commit it", file=sys.stderr)
            return 1
        return 0
    MANIFEST.write_text(text, encoding="utf-8")
    print(f"wrote {MANIFEST.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
