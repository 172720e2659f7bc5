"""Which operators have a WebGPU kernel in the pinned onnxruntime-web build.

The npm package ships `docs/webgpu-operators.md`, generated from the kernel registrations.
It describes the JSEP WebGPU build (`onnxruntime-web`); no list ships for the native WebGPU
EP, so pages should name this file as their source rather than claim more.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

TABLE_PATH = Path("onnxruntime-web") / "docs" / "webgpu-operators.md"
PACKAGE_JSON = Path("onnxruntime-web") / "package.json"

# Domains the table covers. An operator of one of these domains missing from the table
# has no WebGPU kernel (onnxruntime-web runs it on WASM instead). ai.onnx.ml has no WebGPU
# kernels at all, so it is known too. Anything else is a custom domain: unknown.
KNOWN_DOMAINS = frozenset({"ai.onnx", "ai.onnx.ml", "com.microsoft", "com.ms.internal.nhwc"})

_DOMAIN_RANGES = re.compile(r"([A-Za-z0-9_.]+)\(([^)]*)\)")
_RANGE = re.compile(r"^(\d+)(?:-(\d+)|(\+))?$")


@dataclass(frozen=True)
class OpsetRange:
    """Opset versions `first` to `last` inclusive; `last is None` means "and above"."""

    first: int
    last: int | None

    def __contains__(self, version: object) -> bool:
        if not isinstance(version, int):
            return False
        return self.first <= version and (self.last is None or version <= self.last)

    def __str__(self) -> str:
        if self.last is None:
            return f"{self.first}+"
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True)
class WebGpuSupport:
    """Operator (domain, op type) -> opset ranges that have a WebGPU kernel."""

    kernels: Mapping[tuple[str, str], tuple[OpsetRange, ...]]
    # The table's "Comments" column per operator, e.g. "conv3d is not supported".
    notes: Mapping[str, str]
    source: str  # e.g. "onnxruntime-web/docs/webgpu-operators.md (onnxruntime-web 1.30.0)"
    version: str

    def supports(self, domain: str, op_type: str, opset: int) -> bool | None:
        """True/False for a kernel at this opset (or since_version); None if unknowable."""
        domain = normalise_domain(domain)
        if domain not in KNOWN_DOMAINS:
            return None
        ranges = self.kernels.get((domain, op_type), ())
        return any(opset in r for r in ranges)

    def ranges(self, domain: str, op_type: str) -> str:
        """The table's own spelling, e.g. "7-12,13,14+", or "" when absent."""
        return ",".join(str(r) for r in self.kernels.get((normalise_domain(domain), op_type), ()))


def normalise_domain(domain: str) -> str:
    return "ai.onnx" if domain in ("", "ai.onnx") else domain


def parse_ranges(text: str) -> tuple[OpsetRange, ...]:
    """Parse "7-12,13,14+" into ranges; raise ValueError on anything else."""
    ranges = []
    for part in text.split(","):
        match = _RANGE.match(part.strip())
        if not match:
            raise ValueError(f"bad opset range {part.strip()!r} in {text!r}")
        first = int(match.group(1))
        if match.group(3):
            last = None
        elif match.group(2):
            last = int(match.group(2))
        else:
            last = first
        ranges.append(OpsetRange(first, last))
    return tuple(ranges)


def parse_table(text: str, *, source: str, version: str) -> WebGpuSupport:
    """Parse the markdown table; a changed format raises ValueError naming the line."""
    kernels: dict[tuple[str, str], tuple[OpsetRange, ...]] = {}
    notes: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 2 or cells[0] in ("Operator", "") or set(
            cells[0]
        ) <= set(":-"):
            continue
        op_type, opsets = cells[0], cells[1]
        if len(cells) > 2 and cells[2]:
            notes[op_type] = cells[2]
        found = _DOMAIN_RANGES.findall(opsets)
        if not found:
            raise ValueError(f"{source}:{number}: cannot read opsets {opsets!r} for {op_type}")
        for domain, range_text in found:
            try:
                kernels[(domain, op_type)] = parse_ranges(range_text)
            except ValueError as error:
                raise ValueError(f"{source}:{number}: {error}") from None
    if not kernels:
        raise ValueError(f"{source}: no operator rows found; has the file format changed?")
    return WebGpuSupport(kernels=kernels, notes=notes, source=source, version=version)


def package_version(node_modules: Path) -> str | None:
    """The installed onnxruntime-web version, or None when the package is not there."""
    package_json = node_modules / PACKAGE_JSON
    if not package_json.is_file():
        return None
    version = json.loads(package_json.read_text(encoding="utf-8")).get("version")
    return str(version) if version else None


def load_webgpu_support(node_modules: Path) -> WebGpuSupport:
    """Read the table from an installed onnxruntime-web; FileNotFoundError says what to run."""
    table = node_modules / TABLE_PATH
    if not table.is_file():
        raise FileNotFoundError(
            f"{table} not found: run `npm ci` so that onnxruntime-web is installed"
        )
    version = package_version(node_modules) or "unknown"
    source = f"{TABLE_PATH.as_posix()} (onnxruntime-web {version})"
    return parse_table(table.read_text(encoding="utf-8"), source=source, version=version)
