"""Example models: ``models/<name>/model.onnx`` -> analysed, cached :class:`ModelEntry` objects.

Pure (no MkDocs). The expensive work (onnx checker, shape inference, a Python onnxruntime run for
the reference outputs) is cached by the content hash of everything it reads, in memory (kept
across ``mkdocs serve`` rebuilds) and on disk (kept across runs), so an unchanged model is never
analysed twice.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..common.paths import shown_path
from ..common.problems import Finding, Problem, Severity
from ..models.example_spec import EXAMPLE_FILE, data_set_files
from ..models.facts import ModelFacts, from_json_dict, to_json_dict, verdict

# onnx and onnxruntime take a third of a second to import: a site without models (or a
# `mkdocs serve` of the glossary alone) should not pay for them, so the modules that need
# them are imported when models are first loaded.
if TYPE_CHECKING:
    from ..browser.runtime import BrowserRuntime
    from ..browser.webgpu_kernels import WebGpuKernels
    from ..models.example_spec import ExampleSpec, PipelineSpec
    from ..models.pipeline import Wired

MODELS_URI = "models"
MODEL_FILE = "model.onnx"
RESERVED_NAMES = frozenset({"index", "operators"})
# Bumped whenever the cached entry's layout changes, so an old cache is never misread.
CACHE_FORMAT = 6
NAME_RE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")


def _run_errors() -> tuple[type[BaseException], ...]:
    """What computing a reference can raise for a model that passed the checker: onnxruntime's
    own exception classes derive straight from Exception."""
    from onnxruntime.capi import onnxruntime_pybind11_state as state

    names = ("Fail", "RuntimeException", "InvalidGraph", "InvalidArgument", "NotImplemented",
             "InvalidProtobuf", "NoSuchFile")
    return (ValueError, OSError, *(getattr(state, name) for name in names))


@dataclass(frozen=True)
class ModelEntry:
    """One example model, analysed, with its reference data for the live example."""

    name: str
    folder: Path
    facts: ModelFacts
    reference: Mapping[str, Any] | None  # None when no sample could be run
    reference_json: str | None
    picture: Path | None  # the shipped sample picture of an image model
    findings: tuple[Finding, ...] = ()  # the model's own, then the live example's
    summary: str | None = None  # example.yml's plain-words sentence, first on its page
    about: str | None = None  # example.yml's further words about the model
    role: str = "example"  # "example", or "test-file" (listed apart in the models index)
    reason: str | None = None  # why a test file is one
    pipeline: PipelineSpec | None = None  # the models example.yml runs before this one
    pipeline_json: str | None = None  # their reference, pipeline.json (once checked and run)
    pipeline_reference: Mapping[str, Any] | None = None  # the same, parsed

    @property
    def verdict(self) -> Severity | None:
        """The worst finding: None (runs), "note"/"warning" (runs, with notes), "refusal"."""
        return verdict(self.findings)

    @property
    def page_uri(self) -> str:
        return f"{MODELS_URI}/{self.name}/index.md"

    @property
    def description(self) -> str:
        """One sentence for search engines (the page's meta description)."""
        facts = self.facts
        inputs = ", ".join(f"{t.name} ({t.elem_type})" for t in facts.inputs)
        opsets = ", ".join(f"{d} {v}" for d, v in facts.opsets.items())
        runs = "runs" if facts.runs_in_browser else "does not run"
        return (f"The ONNX model {self.name}: inputs {inputs}; opsets {opsets}; "
                f"{facts.node_count} node{'' if facts.node_count == 1 else 's'}; {runs} in "
                f"onnxruntime-web {facts.ort_web_version}.")

    @property
    def live(self) -> bool:
        return self.reference is not None and self.facts.runs_in_browser and not any(
            f.severity == "warning" for f in self.findings)


@dataclass
class Catalog:
    models: dict[str, ModelEntry] = field(default_factory=dict)
    runtime: BrowserRuntime | None = None
    webgpu_basis: str | None = None  # what the WebGPU columns are based on, one sentence

    @classmethod
    def empty(cls) -> Catalog:
        return cls()

    def by_page(self, src_uri: str) -> ModelEntry | None:
        """The model whose page has this path, if any."""
        folder, name = posixpath.split(src_uri)
        if name != "index.md" or posixpath.dirname(folder) != MODELS_URI:
            return None
        return self.models.get(posixpath.basename(folder))


class AnalysisCache:
    """Analyses keyed by content hash: a dict in memory, JSON files on disk."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.memory: dict[str, dict[str, Any]] = {}
        self.misses = 0  # analyses actually run, for tests and the benchmark

    def get(self, key: str) -> dict[str, Any] | None:
        if key in self.memory:
            return self.memory[key]
        if self.directory is None:
            return None
        path = self.directory / f"{key}.json"
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # absent or unreadable: analyse again, the file is overwritten
        self.memory[key] = entry
        return entry

    def put(self, key: str, entry: dict[str, Any]) -> None:
        self.memory[key] = entry
        if self.directory is None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            temporary = self.directory / f"{key}.json.tmp"
            temporary.write_text(json.dumps(entry), encoding="utf-8")
            temporary.replace(self.directory / f"{key}.json")
        except OSError:
            pass  # a read-only checkout still builds; it only loses the disk cache


def load_catalog(models_dir: Path | None, root: Path, cache: AnalysisCache, *,
                 size_budget_bytes: int, node_modules: Path) -> tuple[Catalog, list[Problem]]:
    """Analyse every ``models/<name>/model.onnx``; each unusable model is one problem."""
    if models_dir is None:
        return Catalog.empty(), []
    from ..browser.runtime import browser_runtime
    from ..browser.webgpu_kernels import load_webgpu_kernels

    webgpu = load_webgpu_kernels()
    runtime = browser_runtime(node_modules)
    catalog = Catalog(runtime=runtime, webgpu_basis=webgpu.basis(runtime.version))
    problems: list[Problem] = []
    for folder in sorted(p for p in models_dir.iterdir() if p.is_dir()):
        shown = shown_path(folder, root)
        model_file = folder / MODEL_FILE
        if not model_file.is_file():
            if not folder.name.startswith((".", "_")):
                problems.append(Problem(shown, None, f"no {MODEL_FILE} in this folder: export it "
                                        "(make models) or remove the folder"))
            continue
        if not NAME_RE.match(folder.name) or folder.name in RESERVED_NAMES:
            problems.append(Problem(shown, None, "the folder name is not a usable model name: use "
                                    "lowercase letters, digits, '-' and '_' (not index or operators)"))
            continue
        entry, found = _load_model(folder, model_file, root, cache, webgpu, runtime, size_budget_bytes)
        problems.extend(found)
        if entry is not None:
            catalog.models[entry.name] = entry
    problems += _pipelines(catalog, root, cache)
    return catalog, problems


def _pipelines(catalog: Catalog, root: Path, cache: AnalysisCache) -> list[Problem]:
    """Check every declared pipeline against the models and compute its reference (cached by
    the content of every model it runs, its declaration and its picture)."""
    from ..models.pipeline import check_pipeline

    problems: list[Problem] = []
    facts = {name: entry.facts for name, entry in catalog.models.items()}
    readings = {name: (entry.reference or {}).get("reading") for name, entry in catalog.models.items()}
    for entry in list(catalog.models.values()):
        if entry.pipeline is None:
            continue
        shown = shown_path(entry.folder / EXAMPLE_FILE, root)
        steps, found = check_pipeline(entry.name, entry.pipeline, facts, readings, shown)
        problems += found
        if steps is None:
            continue
        first = catalog.models[steps[0].model]
        if first.picture is None:
            problems.append(Problem(shown, entry.pipeline.line, f"the first step, '{first.name}', "
                                    "has no sample picture (image: in its example.yml) to run on"))
            continue
        used = [catalog.models[step.model] for step in steps]
        key = hashlib.sha256(json.dumps([
            CACHE_FORMAT, __version__, version("onnxruntime"), [e.facts.sha256 for e in used],
            [(s.model, dict(s.feeds), s.reading) for s in steps],
            [e.reference.get("tolerance") if e.reference else None for e in used],
            hashlib.sha256(first.picture.read_bytes()).hexdigest()], sort_keys=True).encode()
        ).hexdigest()
        cached = cache.get(key)
        if cached is None:
            cache.misses += 1
            try:
                cached = {"pipeline": _pipeline_json(steps, used, first)}
            except _run_errors() as error:
                reason = " ".join(str(error).split())[:300]
                cached = {"error": f"the pipeline could not run on {first.picture.name}: {reason}"}
            cache.put(key, cached)
        if "error" in cached:
            problems.append(Problem(shown, entry.pipeline.line, cached["error"]))
            continue
        catalog.models[entry.name] = dataclasses.replace(
            entry, pipeline_json=cached["pipeline"], pipeline_reference=json.loads(cached["pipeline"]))
    return problems


def _pipeline_json(steps: tuple[Wired, ...], used: list[ModelEntry], first: ModelEntry) -> str:
    from ..models.example_spec import tolerance
    from ..models.pipeline import compute_pipeline_reference

    assert first.picture is not None
    files = {e.name: e.folder / MODEL_FILE for e in used}
    tolerances = {e.name: tolerance(e.reference or {}) for e in used}
    return json.dumps(compute_pipeline_reference(steps, files, tolerances, first.picture,
                                                 first.name), allow_nan=False)


def _load_model(folder: Path, model_file: Path, root: Path, cache: AnalysisCache,
                webgpu: WebGpuKernels, runtime: BrowserRuntime,
                budget: int) -> tuple[ModelEntry | None, list[Problem]]:
    from .example_spec import ExampleSpecError, load_example_spec

    shown_model = shown_path(model_file, root)
    try:
        spec = load_example_spec(folder, shown_path(folder / EXAMPLE_FILE, root))
    except ExampleSpecError as error:
        return None, error.problems
    picture = folder / spec.image if spec.image else None
    key = _cache_key(model_file, folder, picture, webgpu, runtime, budget)
    cached = cache.get(key)
    if cached is None:
        cache.misses += 1
        cached = _analyse(folder, model_file, spec, webgpu, runtime, budget)
        cache.put(key, cached)
    if "error" in cached:
        return None, [Problem(shown_model, None, _without_path(cached["error"], model_file))]
    facts = from_json_dict(ModelFacts, cached["facts"])
    live = tuple(from_json_dict(Finding, item) for item in cached.get("findings", []))
    reference_json = cached.get("reference")
    entry = ModelEntry(
        name=folder.name,
        folder=folder,
        facts=facts,
        reference=json.loads(reference_json) if reference_json else None,
        reference_json=reference_json,
        picture=picture if picture and picture.is_file() else None,
        findings=(*facts.findings, *live),
        summary=spec.summary,
        about=spec.about,
        role=spec.role,
        reason=spec.reason,
        pipeline=spec.pipeline,
    )
    problems = _problems(shown_model, entry.findings, runtime)
    if entry.live and entry.role == "example" and not entry.summary:
        # Required of an example.yml; a model without one gets the reminder as information.
        written = (folder / EXAMPLE_FILE).is_file()
        problems.append(Problem(shown_path(folder / EXAMPLE_FILE, root), 1 if written else None,
                                "no 'summary': write one plain sentence saying what the model "
                                "does and what a reader can try; it opens the model's page and "
                                "its line in the index", level="warning" if written else "info"))
    return entry, problems


def _problems(path: str, findings: tuple[Finding, ...], runtime: BrowserRuntime) -> list[Problem]:
    """The build log's lines: one per finding, except that all refusals make one line."""
    refused = [f for f in findings if f.severity == "refusal"]
    problems = [f.problem(path) for f in findings if f.severity != "refusal"]
    if refused:
        fixes = list(dict.fromkeys(f.fix for f in refused if f.fix))
        reasons = "; ".join(f.message for f in refused)
        problems.insert(0, Finding("refusal", f"does not run in {runtime.name}: {reasons}",
                                   "; ".join(fixes)).problem(path))
    return problems


def _analyse(folder: Path, model_file: Path, spec: ExampleSpec, webgpu: WebGpuKernels,
             runtime: BrowserRuntime, budget: int) -> dict[str, Any]:
    """The cacheable analysis: the facts, the reference, and the live example's findings."""
    from ..models.analysis import ModelError, analyse_model
    from ..models.reference import compute_reference

    try:
        facts = analyse_model(model_file, size_budget_bytes=budget, webgpu=webgpu,
                              runtime=runtime, name=folder.name)
    except ModelError as error:
        return {"error": str(error)}
    entry: dict[str, Any] = {"facts": to_json_dict(facts), "findings": []}
    if not facts.runs_in_browser or facts.external_data:
        return entry  # the facts already say why there is no live example
    try:
        reference = compute_reference(model_file, facts, spec, folder)
    except _run_errors() as error:
        reason = " ".join(str(error).split())[:300]
        entry["findings"].append(to_json_dict(Finding(
            "warning", f"No live example: the build could not run a sample input ({reason})",
            f"describe the input in models/{folder.name}/{EXAMPLE_FILE} (dims: for symbolic "
            "sizes, image: for a picture input) so that Python onnxruntime can run it")))
        return entry
    entry["reference"] = reference.to_json()
    found = [Finding("note", note) for note in reference.notes]
    found += [Finding("warning", problem, "fix the data set, or the model") for problem in reference.problems]
    found += _reading_findings(reference.reading, facts, folder.name)
    entry["findings"] = [to_json_dict(f) for f in found]
    return entry


def _reading_findings(reading: Mapping[str, Any] | None, facts: ModelFacts,
                      name: str) -> list[Finding]:
    """A classifier's answer only reads if there is one class name per score."""
    if not reading or reading["kind"] != "classes":
        return []
    output = next(t for t in facts.outputs if t.name == reading["tensor"])
    width = output.shape[-1] if output.shape else None
    classes = reading["classes"]
    if not classes:
        return [Finding("warning", f"output '{output.name}' reads as classes but has no class names",
                        f"list them under output.classes in models/{name}/{EXAMPLE_FILE}, or "
                        "store a JSON array in the model's metadata_props key class_names")]
    if isinstance(width, int) and width != len(classes):
        return [Finding("warning", f"output '{output.name}' has {width} scores but "
                        f"{len(classes)} class names", "give one class name per score")]
    return []


def _cache_key(model_file: Path, folder: Path, picture: Path | None, webgpu: WebGpuKernels,
               runtime: BrowserRuntime, budget: int) -> str:
    """Everything the analysis reads: the bytes of the model, its example.yml and picture,
    and the versions of the code and tables that interpret them."""
    digest = hashlib.sha256()
    for path in (model_file, folder / "example.yml", picture):
        digest.update(b"\0")
        if path is not None and path.is_file():
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    for data_set in data_set_files(folder):
        digest.update(data_set.relative_to(folder).as_posix().encode())
        digest.update(hashlib.sha256(data_set.read_bytes()).digest())
    for extra in sorted(folder.glob(f"{MODEL_FILE}.data")) + sorted(folder.glob("*.onnx_data")):
        digest.update(extra.name.encode() + str(extra.stat().st_size).encode())
    digest.update(json.dumps([CACHE_FORMAT, __version__, version("onnxruntime"), runtime.version,
                              webgpu.digest, webgpu.version, budget]).encode())
    return digest.hexdigest()


def _without_path(message: str, path: Path) -> str:
    """ModelError messages start with the path; the Problem names it already (shorter)."""
    return message.removeprefix(f"{path}: ")
