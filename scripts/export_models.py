"""Re-run every `models/*/export.py`, dependencies first; exit 1 if any fails.

`make models` calls this. Each script writes into its own folder and checks its own
parity, so this runner only orders them and reports.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
# A model listed here is exported after the ones it is derived from.
DEPENDS_ON = {"digits-int8": ("digits",), "edges-int8": ("edges",)}


def export_order(names: list[str]) -> list[str]:
    """Alphabetical, except that a derived model follows what it is derived from."""
    ordered: list[str] = []

    def visit(name: str, stack: tuple[str, ...]) -> None:
        if name in ordered:
            return
        if name in stack:
            raise SystemExit(f"export dependency cycle: {' -> '.join((*stack, name))}")
        for dependency in DEPENDS_ON.get(name, ()):
            if dependency not in names:
                raise SystemExit(f"{name} needs models/{dependency}/export.py, which is missing")
            visit(dependency, (*stack, name))
        ordered.append(name)

    for name in sorted(names):
        visit(name, ())
    return ordered


def main() -> int:
    names = [script.parent.name for script in MODELS_DIR.glob("*/export.py")]
    failed: list[str] = []
    for name in export_order(names):
        script = MODELS_DIR / name / "export.py"
        print(f"== {name}: {sys.executable} {script.relative_to(MODELS_DIR.parent)}", flush=True)
        started = time.perf_counter()
        result = subprocess.run([sys.executable, str(script)], check=False)
        elapsed = time.perf_counter() - started
        if result.returncode != 0:
            print(f"!! {name}: failed with exit code {result.returncode} ({elapsed:.1f} s)")
            failed.append(name)
            if any(name in deps for deps in DEPENDS_ON.values()):
                # Derived models would quantise a stale or missing float model.
                print("!! stopping: later models depend on this one")
                break
        else:
            print(f"ok {name} ({elapsed:.1f} s)")
    if failed:
        print(f"export failed for: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"exported {len(names)} models")
    return 0


if __name__ == "__main__":
    sys.exit(main())
