"""Re-run every `models/*/export.py`, dependencies first; exit 1 if any fails.

`make models` calls this. Each script writes into its own folder and checks its own
parity, so this runner only orders them and reports. What a script needs is declared in
the script itself (see `export_tools.ExportScript`): `DERIVED_FROM` orders it after its
source, `EXPORT_VENV` runs it with another virtual environment's Python (TensorFlow).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from onnx_glossary.models.export_tools import export_command, export_python, export_scripts

REPO = Path(__file__).resolve().parent.parent
MODELS_DIR = REPO / "models"


def main() -> int:
    try:
        scripts = export_scripts(MODELS_DIR)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    failed: list[str] = []
    for script in scripts:
        python = export_python(script, REPO)
        if failed and script.derived_from in failed:
            print(f"!! {script.name}: skipped, {script.derived_from} failed")
            failed.append(script.name)
            continue
        if not python.exists():
            print(f"!! {script.name}: {python} not found; run `make setup-tf` (EXPORT_VENV "
                  f"{script.venv} in {script.path.relative_to(REPO)})")
            failed.append(script.name)
            continue
        print(f"== {script.name}: {' '.join(export_command(script, REPO))}", flush=True)
        started = time.perf_counter()
        result = subprocess.run(export_command(script, REPO), check=False)
        elapsed = time.perf_counter() - started
        if result.returncode != 0:
            print(f"!! {script.name}: failed with exit code {result.returncode} ({elapsed:.1f} s)")
            failed.append(script.name)
        else:
            print(f"ok {script.name} ({elapsed:.1f} s)")
    if failed:
        print(f"export failed for: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"exported {len(scripts)} models")
    return 0


if __name__ == "__main__":
    sys.exit(main())
