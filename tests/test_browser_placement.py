"""Where each node ran, the shape sweep and both backends side by side, in real headless Chromium
with the real onnxruntime-web, against the project's own site.

The widget reads the placement from onnxruntime-web's own log of the Run's session
(assets/live-example-capture.mjs). Placement is logged while a session is created, so the
placement tests set the widget's test hook ``sessionOnly``: each Run creates its session, shows
where the nodes went and runs nothing. The hook ``logs`` hands the test the runtime's raw lines,
which the test reads with its own parser below (not the widget's).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from onnx_glossary.render.sweep import SWEEP_ROWS, SWEEP_SIDES

from .sitebuild import REPO, Built, cards_site
from .support.browser import SHORT_TIMING, PageProbe, StaticServer, choose_backend, launch, wait_until
from .support.placement import BASELINE_WASM

pytestmark = pytest.mark.browser

PREFIX = "/repo/"
WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
WEBGPU_EP, CPU_EP = "WebGpuExecutionProvider", "CPUExecutionProvider"
#: Chromium itself logs this when requestAdapter() finds no adapter.
BROWSER_WARNINGS = {"No available adapters."}
MODELS = sorted(p.parent.name for p in (REPO / "models").glob("*/model.onnx"))
#: Models only the WebAssembly build runs (ai.onnx.ml operators): their switch has no WebGPU.
WASM_ONLY = {"iris"}

#: The test's own reading of a placement block (the widget has its own, in JavaScript).
COLOUR = re.compile("\x1b\\[[0-9;]*m")
TOTAL = re.compile(r"VerifyEachNodeIsAssignedToAnEp\]  (?:All nodes|Node\(s\)) placed on "
                   r"\[(\w+)\]\. Number of nodes: (\d+)$")
NODE = re.compile(r"VerifyEachNodeIsAssignedToAnEp\]   (\S+) \((.*)\)$")
#: A model page's operator row: the operator's name and its WebGPU cell.
OPERATOR_ROW = re.compile(r"<tr><td>[^<]*</td><td><a [^>]*>(.*?)</a></td><td>\d+</td><td>\d+</td>"
                          r"<td>(.*?)</td></tr>")

HOOKS = "() => { window.onnxLiveExample.sessionOnly = true; window.onnxLiveExample.logs = []; }"
SETTLED = "(s) => ['done', 'error'].includes(document.querySelector(s).dataset.state)"
ALL_SETTLED = """(s) => [...document.querySelectorAll(s)]
  .every((root) => ['done', 'error'].includes(root.dataset.state))"""
#: Each card of the page, by its model's name: what it shows, and the runtime's lines of its
#: sessions (the hook `logs`, in the order the sessions were created).
SHOWN = """(selector) => Object.fromEntries([...document.querySelectorAll(selector)].map((root) => [
  root.dataset.modelUrl.split('/').slice(-2)[0], {
    state: root.dataset.state,
    backend: root.dataset.backend,
    placement: root.dataset.placement ? JSON.parse(root.dataset.placement) : null,
    line: root.querySelector('[data-le="placement"]').textContent,
    listed: Object.fromEntries([...root.querySelectorAll('[data-le="node-list"] ol')].map(
      (list) => [list.dataset.provider, [...list.querySelectorAll('li code')].map((c) => c.textContent)])),
    logs: window.onnxLiveExample.logs.filter((log) => log.widget === root.id).map((log) => log.lines),
    error: root.querySelector('[data-le="error"]').textContent,
  }]))"""


def read_log(lines: list[str]) -> tuple[dict[str, int], dict[str, list[str]]]:
    """The log's own totals per provider, and the op type of each node line per provider."""
    totals: dict[str, int] = {}
    nodes: dict[str, list[str]] = {}
    provider = None
    for raw in lines:
        line = COLOUR.sub("", raw).rstrip()
        if total := TOTAL.search(line):
            provider = total.group(1)
            totals[provider] = totals.get(provider, 0) + int(total.group(2))
        elif (node := NODE.search(line)) and provider:
            nodes.setdefault(provider, []).append(node.group(1))
    return totals, nodes


def marked_webgpu(built: Built, name: str) -> set[str]:
    """The operators a model page marks as having a WebGPU kernel ("yes")."""
    html = built.page(f"models/{name}")
    section = html[html.index('id="operators"'):]
    section = section[:section.index("</table>")]
    return {re.sub(r"<[^>]+>", "", op) for op, cell in OPERATOR_ROW.findall(section)
            if "gl-flag-yes" in cell}


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """A site whose one page holds a card of every shipped model: one document, so each
    runtime starts once for all of them (a page per model took four times as long)."""
    built = cards_site(tmp_path_factory.mktemp("placement-cards"), MODELS)
    with StaticServer(Path(built.site), PREFIX) as running:
        yield running


@pytest.fixture(scope="module")
def server(real_site: Built) -> Iterator[StaticServer]:
    with StaticServer(real_site.site, PREFIX) as running:
        yield running


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


def _browser(driver: Any, webgpu: bool) -> Iterator[Any]:
    # Baseline WebAssembly code only: where a node goes does not depend on how fast the code
    # is, and V8's optimising compiler would triple every page's start on a busy machine.
    browser = launch(driver, webgpu=webgpu, extra_args=BASELINE_WASM)
    context = browser.new_context()
    try:
        yield context
    finally:
        browser.close()


@pytest.fixture(scope="module")
def gpu(driver: Any) -> Iterator[Any]:
    """One context of a Chromium with a software WebGPU adapter (SwiftShader)."""
    yield from _browser(driver, webgpu=True)


@pytest.fixture(scope="module")
def cpu(driver: Any) -> Iterator[Any]:
    """One context of a Chromium without a WebGPU adapter."""
    yield from _browser(driver, webgpu=False)


def open_widget(context: Any, server: StaticServer, path: str) -> tuple[Any, PageProbe]:
    page = context.new_page()
    probe = PageProbe(server.origin).attach(page)
    page.goto(server.url + path, wait_until="load")
    wait_until(page, """(s) => [...document.querySelectorAll(s)].every((b) => !b.disabled)""",
               arg=RUN)
    return page, probe


def assert_clean(probe: PageProbe) -> None:
    assert probe.errors == []
    assert set(probe.warnings) <= BROWSER_WARNINGS, probe.warnings
    assert not [text for _, text in probe.console if "onnxruntime" in text], probe.console


def press_all(page: Any) -> dict[str, dict]:
    """Every card's Run pressed in one task (each creates its session and runs nothing)."""
    page.eval_on_selector_all(RUN, "(all) => all.forEach((button) => button.click())")
    wait_until(page, ALL_SETTLED, arg=WIDGET, timeout=300_000)
    return page.evaluate(SHOWN, WIDGET)


@pytest.fixture(scope="module")
def on_webgpu(gpu: Any, cards: StaticServer) -> dict[str, dict]:
    """Every shipped model with WebGPU picked on its switch (WebAssembly where only it runs)."""
    page, probe = open_widget(gpu, cards, "cards/")
    page.evaluate(HOOKS)
    for name in MODELS:
        choose_backend(page, "wasm" if name in WASM_ONLY else "webgpu", f'{WIDGET}[data-model-url*="/{name}/"]')
    shown = press_all(page)
    assert_clean(probe)
    page.close()
    return shown


@pytest.mark.parametrize("name", MODELS)
def test_the_record_shows_where_each_node_ran_as_the_runtime_logged_it(
    on_webgpu: dict[str, dict], real_site: Built, name: str
) -> None:
    shown = on_webgpu[name]
    assert shown["state"] == "done", shown["error"]
    (lines,) = shown["logs"]  # one session, its log read once
    totals, nodes = read_log(lines)
    assert totals and shown["placement"] == totals
    if nodes:  # split: every node listed, as many lines as the totals, in the log's order
        assert {ep: len(types) for ep, types in nodes.items()} == totals
        assert shown["listed"] == nodes
    else:
        assert len(totals) == 1 and shown["listed"] == {}
    if name in WASM_ONLY:
        assert shown["backend"] == "wasm" and set(totals) == {CPU_EP}
        return
    assert shown["backend"] == "webgpu" and WEBGPU_EP in totals
    # Every operator the page marks as running on WebGPU that is in the log has a node placed
    # on WebGPU. (An operator may be absent from the log: graph optimisation fuses some into
    # others, Relu into Conv say. With every node on WebGPU the log lists none: all are.)
    marked = marked_webgpu(real_site, name)
    assert marked, name  # the page's table was read: the check below has something to check
    if nodes:
        logged = set().union(*nodes.values())
        assert sorted((marked & logged) - set(nodes.get(WEBGPU_EP, ()))) == [], (name, nodes)
    total = sum(totals.values())
    assert shown["line"].startswith(
        f"{totals[WEBGPU_EP]} of {total} nodes on WebGPU" if len(totals) > 1
        else "its one node on WebGPU" if total == 1 else f"all {total} nodes on WebGPU")


def test_without_an_adapter_every_node_is_on_webassembly_and_each_card_gets_its_own(
    cpu: Any, cards: StaticServer
) -> None:
    page, probe = open_widget(cpu, cards, "cards/")
    page.evaluate(HOOKS)
    at_once = press_all(page)  # thirteen Runs at once: the queue creates one session at a time
    for name, shown in at_once.items():
        assert shown["state"] == "done", (name, shown["error"])
        (lines,) = shown["logs"]
        assert shown["placement"] == read_log(lines)[0], name
        assert list(shown["placement"]) == [CPU_EP], (name, shown["placement"])
        assert shown["line"].startswith(("all ", "its one node")) and "on WebAssembly" in shown["line"]
    # The same cards one at a time: each its own placement, the same as when pressed at once.
    for name in MODELS:
        page.click(f'{WIDGET}[data-model-url*="/{name}/"] button[data-action="run"]')
        wait_until(page, ALL_SETTLED, arg=WIDGET, timeout=120_000)
    alone = page.evaluate(SHOWN, WIDGET)
    assert {n: s["placement"] for n, s in alone.items()} == {n: s["placement"] for n, s in at_once.items()}
    assert len({str(s["placement"]) for s in alone.values()}) > 5  # the models differ
    assert_clean(probe)


#: A console line of the page's own every millisecond while a Run goes on; each says whether
#: console.log was the page's own function at that moment (or the widget's tap on it).
TICKER = """() => {
  const own = console.log;
  window.ticks = { sent: 0, tapped: 0 };
  window.ticker = setInterval(() => {
    window.ticks.sent += 1;
    if (console.log !== own) window.ticks.tapped += 1;
    console.log('page tick', window.ticks.sent);
  }, 1);
}"""


@pytest.fixture(scope="module")
def linear(gpu: Any, server: StaticServer) -> Iterator[Any]:
    """linear's page with a software adapter, shared by the tests below (in this order): the
    runtimes start once, as on a reader's page where they press one button after another."""
    page, _ = open_widget(gpu, server, "models/linear/")
    yield page
    page.close()


def settle(page: Any, part: str = "", timeout: float = 300_000) -> None:
    """Wait for the widget (or one of its parts, data-le=part) to be done or failed."""
    wait_until(page, SETTLED, arg=WIDGET + (f' [data-le="{part}"]' if part else ""), timeout=timeout)


def test_the_capture_adds_no_console_message_and_the_pages_own_pass_through(
    linear: Any, server: StaticServer
) -> None:
    page = linear
    probe = PageProbe(server.origin).attach(page)
    choose_backend(page, "webgpu")
    before = page.evaluate("() => ({ ...window.onnxLiveExample.captured })")
    page.evaluate(TICKER)
    page.click(RUN)  # a whole Run: the session, the first run, the timed runs
    settle(page)
    ticks = page.evaluate("() => { clearInterval(window.ticker); return window.ticks; }")
    after = page.evaluate("() => ({ ...window.onnxLiveExample.captured })")
    # The WebGPU provider logged while the session ran (a line per shader it started), and the
    # taps dropped those lines too, beyond the creation's own.
    kept, dropped = after["kept"] - before["kept"], after["dropped"] - before["dropped"]
    assert kept > 100 and dropped > kept, (kept, dropped)
    page.wait_for_timeout(200)  # the console's last messages reach the test
    state = page.eval_on_selector(WIDGET, "(root) => ({ ...root.dataset })")
    assert state["state"] == "done" and state["match"] == "true"
    assert state["placement"] == '{"WebGpuExecutionProvider":1}'
    assert ticks["tapped"] > 0, ticks  # some of the page's lines went through the tap
    own = [text for kind, text in probe.console if kind == "log"]
    assert own == [f"page tick {n}" for n in range(1, ticks["sent"] + 1)]
    assert [m for m in probe.console if m[0] != "log"] == [], probe.console
    assert probe.errors == [] and probe.other_origin == []


SWEPT = """(root) => {
  const box = root.querySelector('[data-le="sweep"]');
  const rows = (name) => [...box.querySelectorAll(`[data-le="${name}"] tbody tr`)].map(
    (row) => [...row.cells].map((cell) => cell.textContent));
  return { state: box.dataset.state, exported: rows('sweep-exported'), pinned: rows('sweep-pinned'),
           reading: box.querySelector('[data-le="sweep-reading"]')?.textContent || '',
           status: box.querySelector('[data-le="sweep-state"]').textContent,
           stats: { ...window.onnxLiveExample.stats } };
}"""


def assert_swept(page: Any, sizes: list[str], backend: str, before: int) -> None:
    """The sweep is done: both tables, a row per size, the reading for the backend, and a
    session as exported plus one per pinned size, each released."""
    swept = page.eval_on_selector(WIDGET, SWEPT)
    assert swept["state"] == "done", swept["status"]
    assert [row[0] for row in swept["exported"]] == sizes
    assert [row[0] for row in swept["pinned"]] == sizes
    assert all(len(row) == 3 for row in swept["exported"]) and all(len(row) == 4 for row in swept["pinned"])
    assert all(cell.endswith(" ms") for row in swept["exported"] + swept["pinned"] for cell in row[1:])
    assert swept["reading"].startswith(
        "On WebAssembly nothing is compiled per shape" if backend == "wasm" else "On this device")
    stats = swept["stats"]
    assert stats["sessionsCreated"] - before == 1 + len(sizes)
    assert stats["sessionsReleased"] == stats["sessionsCreated"]
    assert not page.is_disabled(RUN)


def sweep(page: Any, backend: str, sizes: list[str]) -> None:
    """Run the widget's shape sweep on ``backend`` and check what it shows."""
    choose_backend(page, backend)
    before = page.evaluate("window.onnxLiveExample.stats.sessionsCreated")
    page.click(WIDGET + ' button[data-action="sweep"]')
    settle(page, "sweep")
    assert_swept(page, sizes, backend, before)


def both_backends(page: Any) -> list[list[str]]:
    """Press "both backends" and check the table: a row per backend, timed, each matching the
    reference. Returns the rows (the backend, then the cells)."""
    choose_backend(page, "auto")
    page.click(WIDGET + ' button[data-action="both"]')
    settle(page, "both")
    box = WIDGET + ' [data-le="both"]'
    rows = page.eval_on_selector_all(box + " tbody tr", """(all) => all.map((row) =>
      [row.dataset.backend, ...[...row.cells].map((cell) => cell.textContent)])""")
    assert [row[:2] for row in rows] == [["webgpu", "WebGPU"], ["wasm", "WebAssembly"]], rows
    for row in rows:
        assert len(row) == 8 and row[-1] == "matches", row
        assert all(cell.endswith(" ms") for cell in row[3:6]), row
        assert int(row[6]) >= 3  # TIMING.minRuns
    assert page.get_attribute(box, "data-webgpu-match") == page.get_attribute(box, "data-wasm-match") == "true"
    return rows


@pytest.mark.parametrize("backend", ["webgpu", "wasm"])
def test_the_shape_sweep_of_linear_shows_both_tables(
    linear: Any, cpu: Any, server: StaticServer, backend: str
) -> None:
    if backend == "webgpu":
        page = linear
        probe = PageProbe(server.origin).attach(page)
    else:
        page, probe = open_widget(cpu, server, "models/linear/")
    sweep(page, backend, [f"{rows} row" + ("s" if rows > 1 else "") for rows in SWEEP_ROWS])
    assert_clean(probe)
    if backend == "wasm":
        page.close()


def test_both_backends_side_by_side(linear: Any, server: StaticServer) -> None:
    page = linear
    probe = PageProbe(server.origin).attach(page)
    rows = both_backends(page)
    # The tests before ran on WebGPU only: this page's WebAssembly runtime starts here.
    assert rows[0][2].endswith(" ms") and rows[1][2].endswith(" ms (with the runtime's own start)")
    assert_clean(probe)


def test_an_image_model_sweeps_its_picture_and_runs_on_both_backends(
    gpu: Any, server: StaticServer
) -> None:
    """edges: a picture whose height and width are free. The sweep scales it to each square
    side, on WebAssembly (on the software adapter a 128 px call alone takes a second); then
    both backends run the shipped picture side by side, WebGPU on the software adapter."""
    page, probe = open_widget(gpu, server, "models/edges/")
    sweep(page, "wasm", [f"{side}\u00d7{side} px" for side in SWEEP_SIDES])
    page.evaluate(SHORT_TIMING)  # each backend times its fewest runs (TIMING.minRuns groups)
    rows = both_backends(page)
    # The sweep started the WebAssembly runtime; WebGPU's starts here.
    assert rows[0][2].endswith(" ms (with the runtime's own start)") and rows[1][2].endswith(" ms")
    assert_clean(probe)
    page.close()
