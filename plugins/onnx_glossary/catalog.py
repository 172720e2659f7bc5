"""Example models: ``models/<name>/model.onnx`` -> analysed, cached :class:`ModelEntry` objects,
and the pages, files and embeds made from them.

Pure (no MkDocs). The expensive work (onnx checker, shape inference, a Python onnxruntime run for
the reference outputs) is cached by the content hash of everything it reads, in memory (kept
across ``mkdocs serve`` rebuilds) and on disk (kept across runs), so an unchanged model is never
analysed twice.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__, render
from .live_example import render_live_example, render_snippet_js
from .problems import Problem

# onnx and onnxruntime take a third of a second to import: a site without models (or a
# `mkdocs serve` of the glossary alone) should not pay for them, so the modules that need
# them are imported when models are first loaded.
if TYPE_CHECKING:
    from .model_facts import BrowserRuntime, ModelFacts
    from .reference import ExampleSpec
    from .webgpu_ops import WebGpuSupport

MODELS_URI = "models"
MODEL_FILE = "model.onnx"
RESERVED_NAMES = frozenset({"index", "operators"})
NAME_RE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")


def _run_errors() -> tuple[type[BaseException], ...]:
    """What computing a reference can raise for a model that passed the checker: onnxruntime's
    own exception classes derive straight from Exception."""
    from onnxruntime.capi import onnxruntime_pybind11_state as state

    names = ("Fail", "RuntimeException", "InvalidGraph", "InvalidArgument", "NotImplemented",
             "InvalidProtobuf", "NoSuchFile")
    return (ValueError, OSError, *(getattr(state, name) for name in names))


class SetupError(RuntimeError):
    """The environment lacks something the build needs (not a content problem)."""


@dataclass(frozen=True)
class ModelEntry:
    """One example model, analysed, with its reference data for the live example."""

    name: str
    folder: Path
    facts: ModelFacts
    reference: Mapping[str, Any] | None  # None when no sample could be run
    reference_json: str | None
    picture: Path | None  # the shipped sample picture of an image model

    @property
    def page_uri(self) -> str:
        return f"{MODELS_URI}/{self.name}/index.md"

    @property
    def description(self) -> str:
        """One sentence for search engines (the page's meta description)."""
        facts = self.facts
        inputs = ", ".join(f"{t.name} ({t.elem_type})" for t in facts.inputs)
        opsets = ", ".join(f"{d} {v}" for d, v in facts.opsets.items())
        verdict = "runs" if facts.runs_in_browser else "does not run"
        return (f"The ONNX model {self.name}: inputs {inputs}; opsets {opsets}; "
                f"{facts.node_count} node{'' if facts.node_count == 1 else 's'}; {verdict} in "
                f"onnxruntime-web {facts.ort_web_version}.")

    @property
    def live(self) -> bool:
        return self.reference is not None and self.facts.runs_in_browser


@dataclass
class Catalog:
    models: dict[str, ModelEntry] = field(default_factory=dict)
    runtime: BrowserRuntime | None = None
    webgpu_source: str | None = None

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
    from .model_facts import browser_runtime
    from .webgpu_ops import load_webgpu_support

    try:
        webgpu = load_webgpu_support(node_modules)
    except FileNotFoundError as error:
        raise SetupError(str(error)) from None
    runtime = browser_runtime(node_modules)
    catalog = Catalog(runtime=runtime, webgpu_source=webgpu.source)
    problems: list[Problem] = []
    for folder in sorted(p for p in models_dir.iterdir() if p.is_dir()):
        shown = _shown(folder, root)
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
    return catalog, problems


def _load_model(folder: Path, model_file: Path, root: Path, cache: AnalysisCache,
                webgpu: WebGpuSupport, runtime: BrowserRuntime,
                budget: int) -> tuple[ModelEntry | None, list[Problem]]:
    from .model_facts import ModelFacts
    from .reference import load_example_spec

    shown_model = _shown(model_file, root)
    try:
        spec = load_example_spec(folder)
    except ValueError as error:
        return None, [Problem(_shown(folder, root) + "/example.yml", None, str(error))]
    picture = folder / spec.image if spec.image else None
    key = _cache_key(model_file, folder, picture, webgpu, runtime, budget)
    cached = cache.get(key)
    if cached is None:
        cache.misses += 1
        cached = _analyse(folder, model_file, spec, webgpu, runtime, budget)
        cache.put(key, cached)
    if "error" in cached:
        return None, [Problem(shown_model, None, _without_path(cached["error"], model_file))]
    facts = ModelFacts.from_dict(cached["facts"])
    # The page states every finding; only those that break the live example fail --strict.
    problems = [Problem(shown_model, None, warning, level="info") for warning in facts.warnings]
    if facts.external_data:
        problems.append(Problem(shown_model, None, "weights are stored in external data files, "
                                "which the site does not publish: save the model as one file "
                                "(onnx.save_model(..., save_as_external_data=False))"))
    if not facts.runs_in_browser:
        problems.append(Problem(shown_model, None, "the shipped browser runtime (onnxruntime-web "
                                f"{facts.ort_web_version}) cannot run this model: "
                                f"{facts.browser_reason}"))
    if cached.get("reference_error"):
        problems.append(Problem(shown_model, None, "no reference outputs, so no live example: "
                                + cached["reference_error"]))
    problems.extend(Problem(shown_model, None, note, level="info") for note in cached.get("notes", []))
    reference_json = cached.get("reference")
    entry = ModelEntry(
        name=folder.name,
        folder=folder,
        facts=facts,
        reference=json.loads(reference_json) if reference_json else None,
        reference_json=reference_json,
        picture=picture if picture and picture.is_file() else None,
    )
    return entry, problems


def _analyse(folder: Path, model_file: Path, spec: ExampleSpec, webgpu: WebGpuSupport,
             runtime: BrowserRuntime, budget: int) -> dict[str, Any]:
    from .model_facts import ModelError, analyse_model
    from .reference import compute_reference

    try:
        facts = analyse_model(model_file, size_budget_bytes=budget, webgpu=webgpu,
                              runtime=runtime, name=folder.name)
    except ModelError as error:
        return {"error": str(error)}
    entry: dict[str, Any] = {"facts": facts.to_dict()}
    try:
        reference = compute_reference(model_file, facts, spec, folder)
    except _run_errors() as error:
        entry["reference_error"] = " ".join(str(error).split())[:300]
        return entry
    entry["reference"] = reference.to_json()
    entry["notes"] = list(reference.notes)
    return entry


def _cache_key(model_file: Path, folder: Path, picture: Path | None, webgpu: WebGpuSupport,
               runtime: BrowserRuntime, budget: int) -> str:
    """Everything the analysis reads: the bytes of the model, its example.yml and picture,
    and the versions of the code and tables that interpret them."""
    digest = hashlib.sha256()
    for path in (model_file, folder / "example.yml", picture):
        digest.update(b"\0")
        if path is not None and path.is_file():
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    for extra in sorted(folder.glob(f"{MODEL_FILE}.data")) + sorted(folder.glob("*.onnx_data")):
        digest.update(extra.name.encode() + str(extra.stat().st_size).encode())
    digest.update(json.dumps([__version__, version("onnxruntime"), runtime.version,
                              webgpu.source, webgpu.version, budget]).encode())
    return digest.hexdigest()


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _without_path(message: str, path: Path) -> str:
    """ModelError messages start with the path; the Problem names it already (shorter)."""
    return message.removeprefix(f"{path}: ")


# ---------------------------------------------------------------------------------------------
# Pages, files and embeds.


def generated_files(catalog: Catalog, *, use_directory_urls: bool, live: bool,
                    mentions: Mapping[str, Sequence[tuple[str, str]]] | None = None,
                    ) -> Iterator[tuple[str, str | Path]]:
    """(docs-namespace path, content or source file) for every model page and file."""
    if not catalog.models:
        return
    mentions = mentions or {}
    yield f"{MODELS_URI}/index.md", render.render(
        "models_index.md.jinja", models=list(catalog.models.values()), runtime=catalog.runtime)
    yield f"{MODELS_URI}/operators.md", render.render(
        "operator_index.md.jinja", operators=operator_index(catalog), catalog=catalog)
    for entry in catalog.models.values():
        folder = f"{MODELS_URI}/{entry.name}/"
        live_here = live and entry.live
        widget = (render_live_example(entry.facts, entry.reference or {}, "./")
                  if live_here else None)
        yield entry.page_uri, render.render(
            "model_page.md.jinja", entry=entry, facts=entry.facts, catalog=catalog,
            widget=widget, original=_original(catalog, entry),
            mentions=[(title, posixpath.relpath(uri, folder.rstrip("/"))) for title, uri in
                      mentions.get(entry.name, ())])
        yield folder + MODEL_FILE, entry.folder / MODEL_FILE
        if entry.reference_json is not None:
            yield folder + "reference.json", entry.reference_json
        if live_here and entry.reference is not None:
            yield folder + "example.mjs", render_snippet_js(entry.facts, entry.reference)
        if entry.picture is not None:
            yield folder + entry.picture.name, entry.picture


def _original(catalog: Catalog, entry: ModelEntry) -> ModelEntry | None:
    """The float model a quantised one was made from (its metadata names it)."""
    name = entry.facts.metadata.get("quantized_from") or entry.facts.metadata.get("quantised_from")
    return catalog.models.get(name) if name else None


@dataclass(frozen=True)
class OperatorRow:
    domain: str
    op_type: str
    spec_url: str | None
    models: tuple[tuple[str, int], ...]  # (model name, node count)
    webgpu: bool | None


def operator_index(catalog: Catalog) -> list[OperatorRow]:
    found: dict[tuple[str, str], list[Any]] = {}
    for entry in catalog.models.values():
        for op in entry.facts.operators:
            row = found.setdefault((op.domain, op.op_type), [op.spec_url, [], []])
            row[1].append((entry.name, op.count))
            row[2].append(op.webgpu)
    rows = []
    for (domain, op_type), (url, models, webgpu) in sorted(
            found.items(), key=lambda item: (item[0][0] != "ai.onnx", item[0][0], item[0][1].lower())):
        verdict = None if None in webgpu else all(webgpu)
        rows.append(OperatorRow(domain, op_type, url, tuple(models), verdict))
    return rows


def render_embed(catalog: Catalog, kind: str, name: str, from_uri: str, *,
                 use_directory_urls: bool, live: bool) -> str | None:
    """HTML for ``[[model-card: NAME]]`` or ``[[live-example: NAME]]`` on the page ``from_uri``."""
    entry = catalog.models.get(name)
    if entry is None:
        return None
    page = render.relative_url(from_uri, entry.page_uri, use_directory_urls)
    if kind == "live-example":
        if not (live and entry.live):
            return render.render("model_card.html.jinja", entry=entry, facts=entry.facts,
                                 page_url=page, note="This model has no live example.")
        folder = render.relative_folder(from_uri, f"{MODELS_URI}/{name}", use_directory_urls)
        return str(render_live_example(entry.facts, entry.reference or {}, folder))
    return render.render("model_card.html.jinja", entry=entry, facts=entry.facts, page_url=page,
                         note=None)
