"""The benchmarks' data file: one record per benchmark run, appended by the benchmark scripts.

`scripts/bench_build.py` and `scripts/bench_live.py` each end by appending one record to
`docs/benchmarks.json` (the file `figures_file` in mkdocs.yml names): the date and time, the
machine, the versions measured, the command, and every figure the run measured under a fixed
key. A page prints the newest value of a key with `[[figure: KEY]]` (for example
`[[figure: live.cold-run-s]]`), so the glossary never quotes a stale number. The file's format
is declared in `plugins/onnx_glossary/common/figures.schema.json`.

Only a run with the benchmark's default sizes is recorded (a quick trial with `--terms 50`
would otherwise become the number every page prints); `--record` records any run, `--no-record`
none.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA_FILE = REPO / "docs" / "benchmarks.json"
#: The page that explains the figures (docs-namespace path), for a new file.
PAGE = "benchmarks.md"
KEY = re.compile(r"^[a-z0-9]+(?:[._-][a-z0-9]+)*$")


def figure(value: float, text: str, label: str, target: str | None = None) -> dict[str, Any]:
    """One measured figure: its number, the text a page prints (with its unit), what it is."""
    entry: dict[str, Any] = {"value": float(value), "text": text, "label": label}
    if target is not None:
        entry["target"] = target
    return entry


def seconds(value: float) -> str:
    return f"{value:.2f} s"


def milliseconds(value: float) -> str:
    return f"{value:.3f} ms" if value < 1 else f"{value:.1f} ms"


def ratio(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}"


#: The multiplication sign a speed ratio is printed with ("4.5" and this).
TIMES_SIGN = "\u00d7"


def times(value: float) -> str:
    """A speed ratio as prose prints it: 4.5 and the multiplication sign."""
    return f"{value:.1f}{TIMES_SIGN}"


def machine() -> str:
    """Cores, CPU model, memory, GPU, and the load when the run was made."""
    model = platform.processor() or platform.machine()
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8")
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
        model = found.group(1).strip() if found else model
    except OSError:
        pass
    memory = ""
    try:
        meminfo = Path("/proc/meminfo").read_text(encoding="utf-8")
        found = re.search(r"^MemTotal:\s*(\d+) kB", meminfo, re.MULTILINE)
        memory = f", {round(int(found.group(1)) / 1024 / 1024)} GB" if found else ""
    except OSError:
        pass
    gpu = "a GPU device" if list(Path("/dev/dri").glob("renderD*")) else "no GPU"
    load = f"; load average {os.getloadavg()[0]:.2f} at the start" if hasattr(os, "getloadavg") else ""
    return f"{os.cpu_count()}-core {model}{memory}, {gpu}{load}"


def _installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def versions(*, chromium: str | None = None) -> dict[str, str]:
    """The versions a run depends on: Python and its packages, onnxruntime-web from
    node_modules, and Chromium when the run used it (its executable's path)."""
    found = {"python": platform.python_version()}
    for name in ("mkdocs", "mkdocs-material", "onnxruntime", "onnx"):
        version = _installed(name)
        if version:
            found[name] = version
    package = REPO / "node_modules" / "onnxruntime-web" / "package.json"
    if package.is_file():
        found["onnxruntime-web"] = json.loads(package.read_text(encoding="utf-8"))["version"]
    if chromium:
        done = subprocess.run([chromium, "--version"], capture_output=True, text=True, check=False)
        number = re.search(r"(\d+(?:\.\d+)*)", done.stdout)
        if number:
            found["chromium"] = number.group(1)
    return found


def command_line() -> str:
    """How this run was started, as a maintainer would type it again."""
    script = Path(sys.argv[0])
    shown = script.relative_to(REPO) if script.is_absolute() and script.is_relative_to(REPO) else script
    return " ".join(["python", str(shown), *sys.argv[1:]])


def append_run(figures: Mapping[str, Mapping[str, Any]], *, path: Path = DATA_FILE,
               command: str | None = None, note: str | None = None,
               run_machine: str | None = None, run_versions: Mapping[str, str] | None = None,
               when: datetime | None = None) -> dict[str, Any]:
    """Append one run's record to the data file (made if absent) and return the record.

    The file is written whole to a temporary file beside it and then renamed, so an
    interrupted run never leaves half a file; the earlier records are kept as they are."""
    for key, entry in figures.items():
        if not KEY.match(key) or not {"value", "text", "label"} <= set(entry):
            raise ValueError(f"figure {key!r}: a key of lowercase words joined by . - or _, "
                             "with a value, a text and a label")
    data: dict[str, Any] = (json.loads(path.read_text(encoding="utf-8")) if path.is_file()
                            else {"page": PAGE, "runs": []})
    stamp = (when or datetime.now(UTC)).astimezone(UTC)
    record: dict[str, Any] = {
        "date": stamp.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": run_machine if run_machine is not None else machine(),
        "versions": dict(run_versions if run_versions is not None else versions()),
        "command": command or command_line(),
    }
    if note:
        record["note"] = note
    record["figures"] = {key: dict(entry) for key, entry in figures.items()}
    data["runs"].append(record)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, suffix=".tmp",
                                     delete=False) as partial:
        json.dump(data, partial, indent=1, ensure_ascii=False)
        partial.write("\n")
    Path(partial.name).replace(path)
    return record


def add_arguments(parser: Any) -> None:
    """The recording options every benchmark script takes."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--record", action="store_true",
                       help=f"append this run to {DATA_FILE.relative_to(REPO)} even with other "
                            "than the default sizes")
    group.add_argument("--no-record", action="store_true", help="do not append this run")


def should_record(args: Any, defaults: bool) -> bool:
    if args.no_record:
        return False
    if args.record or defaults:
        return True
    print(f"not recorded in {DATA_FILE.relative_to(REPO)}: not the default sizes (--record to "
          "record anyway)")
    return False


def record(figures: Mapping[str, Mapping[str, Any]], *, chromium: str | None = None) -> None:
    """Append a finished run to the repository's data file and say so."""
    entry = append_run(figures, run_versions=versions(chromium=chromium))
    print(f"recorded {len(figures)} figures in {DATA_FILE.relative_to(REPO)} ({entry['date']})")
