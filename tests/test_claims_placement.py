"""What the glossary says about node placement, CPU fallback and profiling, run here.

The browser claims run in one headless Chromium with a software WebGPU adapter, on the shipped
onnxruntime-web (node_modules) through tests/support/placement.py: its page captures the console
from before the runtime starts; a second, plain page leaves the console alone, for the claims
about which console function the runtime uses. The Python claims run Python onnxruntime. Named
``<term>__<claim>``; glossary/claims.yml says which sentence each one backs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime
import pytest

from .sitebuild import REPO
from .support.browser import wait_until
from .support.placement import Case, Placements, model_cases, one_node_cases, shipped_models

PACKAGE = REPO / "node_modules" / "onnxruntime-web"
WEBGPU, WASM = "WebGpuExecutionProvider", "CPUExecutionProvider"
#: The operators whose int64 uses the WebGPU build places on the CPU and float32 uses on WebGPU.
INT64_ON_CPU = ("Cast", "Concat", "Gather", "Reshape", "Slice", "Squeeze", "Sub", "Transpose")
#: Operators the JSEP build's table has no row for, which the native WebGPU provider places on WebGPU.
NOT_IN_THE_JSEP_TABLE = ("TopK", "PRelu", "Max", "Min")
#: A page that leaves the console as the browser made it.
PLAIN = """<!doctype html><meta charset="utf-8"><title>plain</title>
<script type="module">
window.ort = await import("./ort/ort.webgpu.bundle.min.mjs");
window.ort.env.wasm.numThreads = 1;
window.plainReady = true;
</script>
"""


def _first_input(case: Case) -> str:
    return case.key.split("(", 1)[1].split(",")[0].rstrip(")")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Placements, dict[str, Case]]]:
    models = shipped_models()
    cases = {case.source: case for case in model_cases(
        {name: models[name] for name in ("linear", "face-detection", "squeezenet")})}
    cut = [case for case in one_node_cases(models)
           if (case.op_type in INT64_ON_CPU and _first_input(case) in ("int64", "float32"))
           or case.op_type in NOT_IN_THE_JSEP_TABLE]
    folder = tmp_path_factory.mktemp("placement-claims")
    with Placements([*cases.values(), *cut], folder) as page:
        assert page.adapter() is not None, "no software WebGPU adapter (--enable-unsafe-webgpu)"
        (folder / "plain.html").write_text(PLAIN, encoding="utf-8")
        yield page, {**cases, **{case.key: case for case in cut}}


def _plain_page(page: Placements) -> tuple[Any, list[tuple[str, str]]]:
    """A fresh page whose console the runtime writes to as it is; every message, with its type."""
    plain = page.browser.new_page()
    said: list[tuple[str, str]] = []
    plain.on("console", lambda message: said.append((message.type, message.text)))
    plain.goto(page.page.url.rsplit("/", 1)[0] + "/plain.html")
    wait_until(plain, "window.plainReady === true")
    return plain, said


def _create(page: Placements, case: Case, options: dict[str, Any]) -> list[str]:
    """The console lines of creating (and releasing) one session with these options."""
    return page.page.evaluate("""async ([url, options]) => {
      window.consoleLines.length = 0;
      try { const session = await ort.InferenceSession.create(url, options); await session.release(); }
      catch (error) { return ["error: " + error.message]; }
      return window.consoleLines.slice();
    }""", [page.files[case.key], options])


# -- node placement ---------------------------------------------------------------------------


@pytest.mark.browser
def test_node_placement__logged_at_creation_with_log_severity_level_0(browser) -> None:
    page, cases = browser
    # Nothing runs: the session is created and released, and the log has said where the node went.
    assert page.of(cases["linear"])["placement"] == {
        "providers": {WEBGPU: 1}, "nodes": [], "graphs": 1, "listed": False}
    lines = _create(page, cases["linear"], {"executionProviders": ["webgpu"], "logSeverityLevel": 0})
    assert any(line.endswith("] Node placements") for line in lines)
    assert any(line.endswith("All nodes placed on [WebGpuExecutionProvider]. Number of nodes: 1") for line in lines)
    assert any(line.endswith("All nodes placed on [CPUExecutionProvider]. Number of nodes: 1") for line in
               _create(page, cases["linear"], {"executionProviders": ["wasm"], "logSeverityLevel": 0}))
    # At the default level there is no placement block (and for one provider nothing at all).
    assert _create(page, cases["linear"], {"executionProviders": ["webgpu"]}) == []


@pytest.mark.browser
def test_node_placement__a_split_graph_lists_every_node_under_its_provider(browser) -> None:
    page, cases = browser
    lines = _create(page, cases["face-detection"], {"executionProviders": ["webgpu"], "logSeverityLevel": 0})
    headers = [line.split("] ", 1)[1] for line in lines if "placed on [" in line]
    assert headers == [" Node(s) placed on [WebGpuExecutionProvider]. Number of nodes: 213",
                       " Node(s) placed on [CPUExecutionProvider]. Number of nodes: 8"]
    assert len(lines) > 300  # the rest of the verbose log, in the same console
    placement = page.of(cases["face-detection"])["placement"]
    assert placement["listed"] and len(placement["nodes"]) == 221
    names = [n["name"] for n in placement["nodes"]]
    assert "" in names and "core.Reshape_92" in names  # the optimised graph's names, often empty
    on_cpu = sorted(n["opType"] for n in placement["nodes"] if n["provider"] == WASM)
    assert on_cpu == ["Cast", "Gather", "NonMaxSuppression", "Shape", "Shape", "Slice", "Slice", "Squeeze"]
    assert all(re.fullmatch(r"  \S+ \(.*\)", line.split("] ", 1)[1]) for line in lines
               if "VerifyEachNodeIsAssignedToAnEp]   " in line)


@pytest.mark.browser
def test_node_placement__the_log_counts_the_optimised_graph(browser) -> None:
    page, cases = browser
    import onnx

    assert len(onnx.load(REPO / "models" / "squeezenet" / "model.onnx").graph.node) == 105
    assert page.of(cases["squeezenet"])["placement"]["providers"] == {WEBGPU: 41}


@pytest.mark.browser
def test_node_placement__the_log_goes_through_console_error_bound_at_start(browser) -> None:
    page, cases = browser
    plain, said = _plain_page(page)
    try:
        url = page.files[cases["linear"].key]
        caught = plain.evaluate("""async (url) => {
          const options = { executionProviders: ["webgpu"], logSeverityLevel: 0 };
          await (await ort.InferenceSession.create(url, options)).release();  // the runtime starts
          const caught = [];
          const original = console.error;
          console.error = (...args) => { caught.push(args.join(" ")); };
          try { await (await ort.InferenceSession.create(url, options)).release(); }
          finally { console.error = original; }
          return caught;
        }""", url)
    finally:
        plain.close()
    placements = [kind for kind, text in said if text.endswith("] Node placements")]
    assert placements == ["error", "error"]  # both sessions wrote to console.error...
    assert caught == []  # ...but the wrapper put in place after the runtime started saw nothing


@pytest.mark.browser
def test_node_placement__a_log_id_marks_every_line_of_its_session_also_while_it_runs(browser) -> None:
    page, cases = browser
    lines = page.page.evaluate("""async (url) => {
      window.consoleLines.length = 0;
      const options = { executionProviders: ["webgpu"], logSeverityLevel: 0, logId: "mine-1" };
      const session = await ort.InferenceSession.create(url, options);
      const created = window.consoleLines.slice();
      const input = new ort.Tensor("float32", new Float32Array(6), [2, 3]);
      await session.run({ input });
      await session.run({ input });
      const ran = window.consoleLines.slice(created.length);
      await session.release();
      return { created, ran };
    }""", page.files[cases["linear"].key])
    ids = {re.search(r"\[[VIWEF]:onnxruntime:([^,]*), ", line).group(1)  # type: ignore[union-attr]
           for line in lines["created"] + lines["ran"]}
    assert ids == {"mine-1"} and len(lines["created"]) > 100
    assert any(line.endswith("] Node placements") for line in lines["created"])
    # While it runs: one info line per shader the WebGPU provider starts, each run.
    starting = [line for line in lines["ran"] if "[I:onnxruntime:mine-1, " in line and "Starting program" in line]
    assert len(starting) == 2 == len(lines["ran"]), lines["ran"]


@pytest.mark.browser
def test_node_placement__a_split_warns_at_the_default_level(browser) -> None:
    page, cases = browser
    lines = [line.split("] ", 1)[1].replace("\x1b[m", "") for line in
             _create(page, cases["face-detection"], {"executionProviders": ["webgpu"]})]
    assert lines == [
        "Some nodes were not assigned to the preferred execution providers which may or may not have an "
        "negative impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf.",
        "Rerunning with verbose output on a non-minimal build will show node assignments."]


@pytest.mark.browser
def test_node_placement__cast_goes_to_webgpu_for_float32_and_to_the_cpu_for_int64(browser) -> None:
    page, cases = browser
    where = {key: page.of(case)["placement"]["providers"] for key, case in cases.items()
             if key.startswith("ai.onnx/Cast@13(")}
    assert where["ai.onnx/Cast@13(float32)"] == {WEBGPU: 1}
    assert where["ai.onnx/Cast@13(int64)"] == {WASM: 1}


def test_node_placement__python_logs_the_same_lines_to_stderr() -> None:
    script = ("import onnxruntime as ort\n"
              "options = ort.SessionOptions()\noptions.log_severity_level = 0\n"
              f"ort.InferenceSession({str(REPO / 'models' / 'squeezenet' / 'model.onnx')!r}, options,"
              " providers=['CPUExecutionProvider'])\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "VerifyEachNodeIsAssignedToAnEp] Node placements" in result.stderr
    assert "All nodes placed on [CPUExecutionProvider]. Number of nodes: 40" in result.stderr
    assert "Node placements" not in result.stdout


# -- CPU fallback -----------------------------------------------------------------------------


@pytest.mark.browser
def test_cpu_fallback__the_cpu_provider_takes_what_webgpu_cannot_even_unlisted(browser) -> None:
    page, cases = browser
    placement = page.of(cases["face-detection"], ("webgpu",))["placement"]  # webgpu alone
    assert placement["providers"] == {WEBGPU: 213, WASM: 8}
    assert {"provider": WASM, "opType": "NonMaxSuppression", "name": ""} in placement["nodes"]


@pytest.mark.browser
def test_cpu_fallback__copy_nodes_on_the_gpu_provider_at_each_boundary(browser) -> None:
    page, cases = browser
    nodes = page.of(cases["face-detection"])["placement"]["nodes"]
    copies = sorted((n["provider"], n["opType"]) for n in nodes if n["opType"].startswith("Memcpy"))
    assert copies == [(WEBGPU, "MemcpyFromHost")] * 4 + [(WEBGPU, "MemcpyToHost")] * 3
    assert sum(n["provider"] == WASM for n in nodes) == 8


@pytest.mark.browser
def test_cpu_fallback__int64_uses_run_on_the_cpu_float32_uses_on_webgpu(browser) -> None:
    page, cases = browser
    found: dict[tuple[str, str], set[str]] = {}
    for case in cases.values():
        if case.op_type in INT64_ON_CPU and not case.key.startswith("model:"):
            (provider,) = page.of(case)["placement"]["providers"]
            found.setdefault((case.op_type, _first_input(case)), set()).add(provider)
    assert found == {**{(op, "int64"): {WASM} for op in INT64_ON_CPU},
                     **{(op, "float32"): {WEBGPU} for op in INT64_ON_CPU}}


@pytest.mark.browser
def test_cpu_fallback__the_jsep_table_lacks_operators_the_native_provider_places_on_webgpu(browser) -> None:
    page, cases = browser
    table = (PACKAGE / "docs" / "webgpu-operators.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")}
    assert rows.isdisjoint(NOT_IN_THE_JSEP_TABLE) and "Conv" in rows
    placed = {case.op_type: page.of(case)["placement"]["providers"] for case in cases.values()
              if case.op_type in NOT_IN_THE_JSEP_TABLE}
    assert placed == {op: {WEBGPU: 1} for op in NOT_IN_THE_JSEP_TABLE}


@pytest.mark.browser
def test_cpu_fallback__disabling_it_makes_creation_fail(browser) -> None:
    page, cases = browser
    options = {"executionProviders": ["webgpu"], "extra": {"session": {"disable_cpu_ep_fallback": "1"}}}
    (failure,) = _create(page, cases["face-detection"], options)
    assert ("This session contains graph nodes that are assigned to the default CPU EP, but fallback to "
            "CPU EP has been explicitly disabled by the user.") in failure
    assert not any(line.startswith("error:") for line in _create(page, cases["squeezenet"], options))


# -- profiling --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def python_profile(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[dict[str, Any]]]:
    """The linear example profiled in Python, from a fresh working directory."""
    folder = tmp_path_factory.mktemp("profile")
    before = Path.cwd()
    os.chdir(folder)
    try:
        options = onnxruntime.SessionOptions()
        options.enable_profiling = True
        session = onnxruntime.InferenceSession(str(REPO / "models" / "linear" / "model.onnx"), options,
                                               providers=["CPUExecutionProvider"])
        session.run(None, {"input": np.array([[1, 2, 3]], np.float32)})
        name = session.end_profiling()
        events = json.loads((folder / name).read_text(encoding="utf-8"))
    finally:
        os.chdir(before)
    return name, events


def test_profiling__python_writes_a_json_file_and_returns_its_name(python_profile) -> None:
    name, events = python_profile
    assert re.fullmatch(r"onnxruntime_profile__\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d+\.json", name)
    assert isinstance(events, list) and all(event["ph"] == "X" for event in events)
    names = [event["name"] for event in events]
    assert {"session_initialization", "model_run", "/Gemm_kernel_time"} <= set(names)
    assert names[0].startswith("model_loading")


def test_profiling__each_node_event_names_its_operator_and_provider(python_profile) -> None:
    _, events = python_profile
    (node,) = [event for event in events if event["cat"] == "Node"]
    assert node["name"] == "/Gemm_kernel_time"
    assert (node["args"]["op_name"], node["args"]["provider"]) == ("Gemm", "CPUExecutionProvider")
    assert isinstance(node["ts"], int) and isinstance(node["dur"], int)


@pytest.mark.browser
def test_profiling__the_browser_prints_the_trace_through_console_log(browser) -> None:
    page, cases = browser
    plain, said = _plain_page(page)
    try:
        returned = plain.evaluate("""async (url) => {
          const session = await ort.InferenceSession.create(url,
            { executionProviders: ["webgpu"], enableProfiling: true });
          await session.run({ input: new ort.Tensor("float32", Float32Array.from([1, 2, 3]), [1, 3]) });
          const returned = session.endProfiling();
          await session.release();
          return returned === undefined ? "undefined" : String(returned);
        }""", page.files[cases["linear"].key])
        wait_until(plain, "true")  # one more frame: console events are delivered asynchronously
    finally:
        plain.close()
    assert returned == "undefined"
    start = next(i for i, (_, text) in enumerate(said) if text == "[")
    end = next(i for i in range(start, len(said)) if said[i][1] == "]")
    trace = said[start:end + 1]
    assert {kind for kind, _ in trace} == {"log"}  # every line through console.log
    events = json.loads("".join(text for _, text in trace).replace("},]", "}]"))
    node = next(event for event in events if event["cat"] == "Node")
    assert (node["args"]["op_name"], node["args"]["provider"]) == ("Gemm", WEBGPU)
    programs = [event["name"] for event in events if event["cat"] == "Api"]
    assert programs == ["/Gemm&Gemm&GemmNaive"]


def test_profiling__node_prints_the_trace_to_standard_output(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "node is needed for the claim tests (the README's set-up installs it)"
    script = tmp_path / "profile.mjs"
    script.write_text(f"""
import {{ readFileSync }} from "node:fs";
const ort = await import({json.dumps(str(PACKAGE / "dist" / "ort.wasm.bundle.min.mjs"))});
ort.env.wasm.numThreads = 1;
const said = [];
for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = (...a) => said.push(a.join(" "));
const session = await ort.InferenceSession.create(readFileSync({json.dumps(str(REPO / "models" / "linear" / "model.onnx"))}),
  {{ enableProfiling: true }});
await session.run({{ input: new ort.Tensor("float32", Float32Array.from([1, 2, 3]), [1, 3]) }});
session.endProfiling();
process.stderr.write(JSON.stringify(said));
""", encoding="utf-8")
    result = subprocess.run([node, "--liftoff-only", str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stderr) == []  # nothing through the console...
    assert '"name" :"/Gemm_kernel_time"' in result.stdout  # ...the trace on standard output
    assert '"provider" : "CPUExecutionProvider"' in result.stdout


def test_profiling__start_profiling_is_a_todo_in_onnxruntime_web() -> None:
    source = (PACKAGE / "lib" / "wasm" / "session-handler-inference.ts").read_text(encoding="utf-8")
    body = source.split("startProfiling(): void {", 1)[1].split("}", 1)[0]
    assert body.strip() == "// TODO: implement profiling"
    assert "void endProfiling(this.sessionId);" in source
