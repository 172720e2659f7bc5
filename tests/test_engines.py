"""The live examples and the site's pages in every browser engine a reader may bring: Chromium,
Firefox ESR and WebKitGTK, through the one interface of tests/support/engines.py, against the
project's built site served under /repo/ (like a GitHub Pages project site). WPE WebKit 2.38
(Safari 16.0's level) checks that a browser without what the examples need is told why.

What an engine lacks is stated once, in ``KNOWN_GAPS`` (tests/support/engines.py); every other
difference from Chromium is a failure here.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from .sitebuild import Built
from .support.browser import ISOLATION_HEADERS, StaticServer
from .support.engines import (
    ENGINES,
    ERROR_PROBE,
    WEB_PROCESSES,
    Engine,
    PageHung,
    descendants,
    engine_server,
    gap,
    is_known_runtime_error,
    known_bug_seen,
    missing,
    start,
    survivors,
)

pytestmark = [pytest.mark.browser, pytest.mark.engines]

PREFIX = "/repo/"
WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
READY = f"document.querySelector('{RUN}') && !document.querySelector('{RUN}').disabled"
SETTLED = f"['done', 'error'].includes(document.querySelector('{WIDGET}').dataset.state)"
#: Under COOP/COEP: the smallest model, and one whose input is a picture (decoded by the browser).
ISOLATED_MODELS = ("linear", "edges")


def models_in(site: Path) -> list[str]:
    return sorted(p.parent.name for p in site.glob("models/*/example.mjs"))


@pytest.fixture(scope="module")
def servers(real_site: Built) -> Iterator[dict[str, StaticServer]]:
    """The site with plain headers, as GitHub Pages sends them, and with COOP/COEP."""
    isolation = dict(ISOLATION_HEADERS)
    with (engine_server(real_site.site, PREFIX) as plain,
          engine_server(real_site.site, PREFIX, headers=isolation) as isolated):
        yield {"plain": plain, "isolated": isolated}


def started(name: str) -> Engine:
    """The engine started, or the test failed with what the machine lacks for it."""
    lacking = missing(name)
    if lacking:
        pytest.fail(f"{name} needs {lacking}: run 'make engines' (Debian packages, root or sudo)")
    return start(name)


def running(name: str) -> Iterator[Engine]:
    engine = started(name)
    try:
        yield engine
    finally:
        engine.close()


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    """Each engine once per module; pytest runs every test of one engine before the next."""
    yield from running(request.param)


@pytest.fixture(scope="module")
def wpe() -> Iterator[Engine]:
    yield from running("wpe")


def run_model(engine: Engine, server: StaticServer, name: str) -> dict[str, str]:
    """Open a model page, press Run, wait until it settles; the widget's data attributes."""
    engine.open(server.url + f"models/{name}/")
    engine.wait_until(READY)
    engine.click(RUN)
    engine.wait_until(SETTLED, timeout=300)
    return engine.dataset(WIDGET)


def problems_of_run(engine: Engine, name: str, state: dict[str, str], site: Path) -> list[str]:
    """Everything wrong with a settled Run, as lines naming the model (empty when all is well)."""
    found = []
    if state["state"] != "done" or state.get("match") != "true":
        found.append(f"{name}: {state['state']}, match={state.get('match')}: "
                     f"{engine.text(WIDGET + ' [data-le=error]') or engine.text(WIDGET)}")
    if state.get("sample") != "0":
        found.append(f"{name}: ran sample {state.get('sample')}, not the default one")
    reference = json.loads((site / "models" / name / "reference.json").read_text())
    label = (reference.get("samples") or [{}])[0].get("label")
    classifier = (reference.get("reading") or {}).get("kind") == "classes"
    if classifier and label and state.get("answerClass") != label:  # it answers its sample right
        found.append(f"{name}: answered {state.get('answerClass')!r} ({state.get('answer')}), the sample is {label!r}")
    if state["state"] != "done":
        return found  # no answer, so no timing runs to wait for: the error above says why
    # The runs are timed after the answer is shown: a median of 0 ms would mean groups shorter
    # than the engine's clock step (WebKit reads 1 ms steps).
    try:
        timed = engine.wait_until(f"(w => w.dataset.medianMs || (w.dataset.timingError && 'error: ' + "
                                  f"w.dataset.timingError))(document.querySelector('{WIDGET}'))", timeout=120)
    except AssertionError as gave_up:  # named with its model, beside the other pages' problems
        return [*found, f"{name}: timings never finished: {gave_up}"]
    if timed.startswith("error") and is_known_runtime_error(engine.name, timed):
        # The answer above was checked and matched; the record must say the timings failed.
        if "timing runs failed" not in (engine.text(WIDGET + " [data-le=timings]") or ""):
            found.append(f"{name}: the timings' failure is not shown ({timed})")
        warnings.warn(known_bug_seen(engine, f"{name}: timing runs failed after the checked answer: "
                                             f"{timed}"), stacklevel=1)
    elif timed.startswith("error") or not float(timed) > 0:
        found.append(f"{name}: timed as {timed}")
    # None of the engines here has a WebGPU adapter (KNOWN_GAPS): every example runs on WASM.
    assert gap(engine.name, "webgpu"), engine.name
    if state.get("backend") != "wasm":
        found.append(f"{name}: ran on {state.get('backend')}")
    found += [f"{name}: {error}" for error in engine.errors()]
    return found


def checked_run(engine: Engine, server: StaticServer, name: str,
                site: Path) -> tuple[dict[str, str], list[str]]:
    """A model page's Run and what is wrong with it; a page that hung is one such problem."""
    try:
        state = run_model(engine, server, name)
        return state, problems_of_run(engine, name, state, site)
    except PageHung as hung:
        return {}, [f"{name}: {hung}"]


# Chromium runs every model page in tests/test_browser_live.py (four ways: with and without an
# adapter, with and without COOP/COEP), so here only the other engines do.
@pytest.mark.parametrize("engine", [name for name in ENGINES if name != "chromium"], indirect=True)
def test_every_model_page_runs_and_matches_the_reference(engine: Engine, servers, real_site: Built) -> None:
    models = models_in(real_site.site)
    assert {"linear", "edges", "text-detection"} <= set(models)
    found = []
    for name in models:
        state, problems = checked_run(engine, servers["plain"], name, real_site.site)
        if any(is_known_runtime_error(engine.name, problem) for problem in problems):
            # The open bug (KNOWN_BUGS): the reader's way out is to load the page and press Run
            # again, and that must work. A page that fails twice fails the test.
            warnings.warn(known_bug_seen(engine, f"{name}: page loaded again after: {problems}"),
                          stacklevel=1)
            state, problems = checked_run(engine, servers["plain"], name, real_site.site)
        found += problems
        if state.get("threads") != "1":  # no SharedArrayBuffer without COOP/COEP
            found.append(f"{name}: {state.get('threads')} threads on a page that is not isolated")
    assert found == [], f"{engine.name} {engine.version}:\n" + "\n".join(found)


@pytest.mark.parametrize("name", ISOLATED_MODELS)
def test_isolated_pages_run_with_the_threads_the_engine_has(engine: Engine, servers, real_site: Built,
                                                            name: str) -> None:
    state = run_model(engine, servers["isolated"], name)
    assert problems_of_run(engine, name, state, real_site.site) == []
    assert engine.evaluate("crossOriginIsolated") is True
    if gap(engine.name, "threads"):
        # Isolated, yet no SharedArrayBuffer: onnxruntime-web falls back to one thread.
        assert engine.evaluate("typeof SharedArrayBuffer") == "undefined"
        assert state["threads"] == "1"
        # ...and the record says why, instead of "isolated: yes" beside one thread.
        threads = engine.evaluate("document.querySelector('[data-live-example] [data-le=\"threads\"]').textContent")
        assert "no SharedArrayBuffer" in threads, threads
        isolated = engine.evaluate("document.querySelector('[data-live-example] [data-le=\"isolated\"]').textContent")
        assert isolated.startswith("yes, but no SharedArrayBuffer"), isolated
    else:
        assert engine.evaluate("typeof SharedArrayBuffer") == "function"
        assert int(state["threads"]) > 1


@pytest.mark.parametrize(("path", "heading"), [("", "ONNX in the browser"),
                                               ("glossary/onnx/", "ONNX")])
def test_home_and_term_page_load_without_errors(engine: Engine, servers, path: str, heading: str) -> None:
    engine.open(servers["plain"].url + path)
    assert engine.text("article h1").rstrip("¶").startswith(heading)
    # The capability check passed: nothing missing, and the loader it adds readied the widget
    # (the ONNX term page embeds the linear model's).
    assert engine.evaluate("window.onnxLiveExampleCheck.missing") == []
    if path:
        engine.wait_until(READY)
        assert engine.text(WIDGET + ' [data-le="state"]') == "Ready: press Run."
    assert engine.errors() == []


def test_the_home_title_is_one_line_at_a_phones_width_and_a_laptops(engine: Engine, servers) -> None:
    """Firefox 153 put the title's hidden permalink on a second line at 360 px (83 px tall
    instead of 42); a page's title has no permalink now, in every engine."""
    heights = {}
    for width in (360, 390, 1280):
        engine.open(servers["plain"].url, viewport=(width, 844))
        heights[width] = engine.evaluate(
            "(() => { const h = document.querySelector('article h1');"
            " return [h.getBoundingClientRect().height, parseFloat(getComputedStyle(h).lineHeight),"
            " h.querySelectorAll('.headerlink').length, getComputedStyle(h.querySelector('.headerlink') || h).display] })()")
    for width, (height, line, links, display) in heights.items():
        assert height <= 1.2 * line, (width, height, line)
        assert links == 0 or display == "none", width
    assert engine.errors() == []


def test_errors_are_seen_in_every_engine(engine: Engine, servers) -> None:
    """The error checks above can fail: a console error, an uncaught error and a blocked
    inline script (the site's Content-Security-Policy applies in each engine) all show up."""
    engine.open(servers["plain"].url)
    assert engine.errors() == []
    # A script of the site's origin that errs twice, and an inline one the policy must block.
    engine.evaluate(
        f"document.head.appendChild(Object.assign(document.createElement('script'), "
        f"{{src: '{PREFIX}{ERROR_PROBE}'}})), document.head.appendChild(Object.assign("
        f"document.createElement('script'), {{textContent: 'window.probeRan = 1'}})), 0")
    # The drivers report errors as events: wait until the three have arrived.
    expected = ("probe: console", "probe: uncaught", "script-src")
    deadline = time.monotonic() + 20
    while not all(any(part in e for e in engine.errors()) for part in expected):
        assert time.monotonic() < deadline, engine.errors()
        time.sleep(0.1)
    assert engine.evaluate("typeof window.probeRan") == "undefined"  # the policy blocked it


@pytest.mark.parametrize("engine", ["webkitgtk"], indirect=True)
def test_a_page_that_never_answers_is_ended_and_the_engine_goes_on(engine: Engine, servers,
                                                                   monkeypatch) -> None:
    """A WebKit page busy for good would hold the suite forever (WebKitWebDriver waits for its
    web process): past HUNG_S it is ended, the command fails as PageHung, and the next page
    opens in the same engine."""
    import tests.support.engines as engines

    monkeypatch.setattr(engines, "HUNG_S", 5)
    engine.open(servers["plain"].url)
    with pytest.raises(PageHung, match="answered nothing for 5 s"):
        engine.evaluate("(() => { for (;;) {} })()")
    engine.open(servers["plain"].url + "glossary/")
    assert engine.evaluate("document.querySelector('article h1').firstChild.textContent") == "Glossary"


def test_a_browser_without_what_the_examples_need_is_told_why(wpe: Engine, real_site: Built) -> None:
    """WPE WebKit 2.38 (Safari 16.0's level) has no import maps and no WebAssembly SIMD, and its
    regular expressions have no lookbehind (the widget's presenters use one): the capability
    check loads none of the widget, and every widget says why in one line."""
    with engine_server(real_site.site, PREFIX) as server:
        for path in ("models/linear/", "glossary/onnx/"):
            wpe.open(server.url + path)
            wpe.wait_until(f"document.querySelector('{WIDGET}').dataset.state === 'unsupported'")
            line = wpe.text(WIDGET + ' [data-le="state"]')
            assert line == ("This browser cannot run the live example: it has no import maps, "
                            "no WebAssembly SIMD, no regular-expression lookbehind, no "
                            "OffscreenCanvas. It runs in Chrome or Edge 111, Firefox 115, "
                            "Safari 16.4 or newer."), line
            assert wpe.evaluate(f"document.querySelector('{RUN}').disabled") is True
            assert wpe.errors() == []
        # Nothing of the widget was fetched but the check and the stylesheet: not its loader,
        # its modules, the example or the runtime.
        fetched = {p.rsplit("/", 1)[1] for p in server.requests
                   if "live-example" in p or p.endswith("example.mjs") or "/assets/ort/" in p}
        assert fetched == {"live-example-check.js", "live-example.css"}


@pytest.mark.parametrize("name", ["wpe", "webkitgtk"])
def test_closing_a_webkit_engine_leaves_none_of_its_processes(name: str, servers) -> None:
    """WPEWebDriver's quit now and then left its MiniBrowser running under init (2 of 6 runs of
    this module here), one more idle browser after every test run: close ends the driver's
    whole process tree, web processes included."""
    engine = started(name)
    try:
        engine.open(servers["plain"].url)
        root = engine._driver.service.process.pid  # type: ignore[attr-defined]
        tree = descendants(root)
        names = {process for _, process in tree}
        assert "MiniBrowser" in names and names & set(WEB_PROCESSES), tree
    finally:
        engine.close()
    assert survivors(tree, root) == [], tree
