"""The answer first, in real Chromium: after Run each example model says what it decided, in
words (data-answer, and the status line, a live region), right under Run and in view at 390 and
1280 px wide, with its picture or bars; how it ran is folded under it; the backend is the
fastest for the reader (WebAssembly on a software GPU adapter) unless they choose."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import onnxruntime
import pytest

from .sitebuild import REPO, Built
from .support.browser import PageProbe, StaticServer, launch, wait_until

pytestmark = pytest.mark.browser

WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

#: Each example model's answer on its default sample, as a reader reads it. (Percentages are
#: whole: none of these lies near a rounding edge, so another CPU's last bits cannot move it.)
ANSWERS = {
    "digits": "Read as 7 · 97 %",
    "digits-int8": "Read as 7 · 97 %",
    "digits-keras": "Read as 7 · 98 %",
    "iris": "Iris setosa · 97 %",
    "text-detection": "3 lines of text found",
    "background-removal": "Foreground: 54 % of the picture",
    "face-detection": "1 face, 0.92",
    "face-landmarks": "468 points placed on the face (face score 1)",
    "edges": "A 96×64 pencil sketch of the picture",
    "edges-int8": "A 96×64 pencil sketch of the picture",
    "pixel-shuffle": "A 12×12 picture of the nine channels",
    "linear": "2 rows in, 2 answers out: -0.364168 · -0.535928",
}


@pytest.fixture(scope="module")
def served(real_site: Built) -> Iterator[StaticServer]:
    with StaticServer(real_site.site, "/repo/") as server:
        yield server


@pytest.fixture(scope="module")
def browsers() -> Iterator[dict[bool, object]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        running = {False: launch(playwright), True: launch(playwright, webgpu=True)}
        try:
            yield running
        finally:
            for browser in running.values():
                browser.close()


def open_model(browser, server: StaticServer, path: str, viewport: dict[str, int]):
    page = browser.new_context(viewport=viewport).new_page()
    probe = PageProbe(server.origin).attach(page)
    page.goto(server.url + path, wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    return page, probe


def press_run(page, timeout: float = 180_000) -> dict[str, str]:
    page.click(RUN)
    wait_until(page, "['done', 'error'].includes(document.querySelector('[data-live-example]')"
                     ".dataset.state)", timeout=timeout)
    return page.eval_on_selector(WIDGET, "e => ({...e.dataset})")


def answer_place(page) -> dict[str, float]:
    """Where the first widget's answer line (and its picture or bars) lies in the viewport,
    and where the sticky header ends."""
    return page.evaluate("""() => {
        const root = document.querySelector('[data-live-example]');
        const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
        const answer = root.querySelector('[data-le="answer"]').getBoundingClientRect();
        // The answer's picture or bars: the first drawing in the result.
        const shown = root.querySelector('[data-le="result"] :is(ol, canvas, img, dl, .live-example__readable)');
        const picture = shown ? shown.getBoundingClientRect() : null;
        const run = root.querySelector('[data-action="run"]').getBoundingClientRect();
        return {header, top: answer.top, bottom: answer.bottom, view: innerHeight,
                picture: picture && picture.top, rows: root.querySelectorAll('[data-le-row-out]').length,
                run: run.top};
    }""")


def test_every_example_model_is_in_the_table() -> None:
    """Each model that is an example (not a test file) has its expected answer here."""
    examples = {p.parent.name for p in (REPO / "models").glob("*/example.yml")
                if "role: test-file" not in p.read_text(encoding="utf-8")}
    assert examples == set(ANSWERS)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_the_answer_comes_first_and_in_view(served, browsers, name: str,
                                            viewport: dict[str, int]) -> None:
    page, probe = open_model(browsers[False], served, f"models/{name}/", viewport)
    # A reader who scrolled until Run sits at the bottom edge of the screen, then pressed it.
    page.eval_on_selector(RUN, "b => window.scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 1)")
    state = press_run(page)
    assert state["state"] == "done", page.inner_text(WIDGET + ' [data-le="error"]')
    assert state["match"] == "true", name
    assert state["answer"] == ANSWERS[name]
    # The live region (the status line) says the same words; the record is folded.
    assert page.inner_text(WIDGET + ' [data-le="state"]') == ANSWERS[name]
    assert page.inner_text(WIDGET + ' [data-le="answer"]') == ANSWERS[name]
    assert page.get_attribute(WIDGET + ' [data-le="record"]', "open") is None
    place = answer_place(page)
    assert place["top"] >= place["header"] and place["bottom"] <= place["view"], place
    # The button pressed stays in view above its answer, not under the sticky header.
    assert place["header"] <= place["run"] < place["top"], place
    if place["rows"] == 0:  # a batch model answers beside each row of its form instead
        assert place["picture"] is not None and place["header"] <= place["picture"] < place["view"], place
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_term_pages_card_shows_its_answer_in_view(served, browsers, viewport: dict[str, int]) -> None:
    """The linear card on glossary/onnx/: Run pressed at the bottom edge of the screen, its
    answer lands inside the viewport, below the sticky header."""
    page, probe = open_model(browsers[False], served, "glossary/onnx/", viewport)
    assert page.eval_on_selector(WIDGET, "e => e.dataset.exampleUrl").endswith("models/linear/example.mjs")
    page.eval_on_selector(RUN, "b => window.scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 1)")
    state = press_run(page)
    assert (state["state"], state["match"], state["answer"]) == ("done", "true", ANSWERS["linear"])
    place = answer_place(page)
    assert place["header"] <= place["top"] and place["bottom"] <= place["view"], place
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()


def test_the_pad_shows_only_for_your_own_drawing_with_run_in_reach(served, browsers) -> None:
    page, _ = open_model(browsers[False], served, "models/digits/", PHONE)
    pad = WIDGET + ' [data-le="pad-area"]'
    assert not page.is_visible(pad)
    page.check(WIDGET + ' [data-le="use-own"]')
    assert page.is_visible(pad)
    page.eval_on_selector(WIDGET + ' [data-le="pad"]', "p => p.scrollIntoView({block: 'start'})")
    box = page.eval_on_selector(RUN, "b => b.getBoundingClientRect().bottom")
    assert box <= PHONE["height"], "Run is out of reach below the pad"
    page.check(WIDGET + " input[data-le-sample='1']")
    assert not page.is_visible(pad)
    # The sample pictures are large enough to read.
    side = page.eval_on_selector(WIDGET + " canvas[data-le-thumb]", "c => c.getBoundingClientRect().width")
    assert side >= 64
    page.context.close()


def _rows(page) -> list[list[float]]:
    return page.eval_on_selector_all(
        WIDGET + " [data-le-row]",
        "rows => rows.map(r => [...r.querySelectorAll('input[data-le-field]')].map(f => Number(f.value)))")


def test_linear_answers_each_row_beside_it_for_one_to_four_rows(served, browsers) -> None:
    page, _ = open_model(browsers[False], served, "models/linear/", PHONE)
    session = onnxruntime.InferenceSession(str(REPO / "models" / "linear" / "model.onnx"))
    assert len(_rows(page)) == 2  # the sample is a batch of two
    for clicks, button in ((2, "add-row"), (3, "remove-row")):
        for _ in range(clicks):
            page.click(f'{WIDGET} button[data-action="{button}"]')
        rows = _rows(page)
        state = press_run(page)
        assert state["state"] == "done"
        shown = page.eval_on_selector_all(WIDGET + " [data-le-row-out]", "o => o.map(e => e.textContent)")
        expected = session.run(None, {"input": np.array(rows, np.float32)})[0]
        assert len(shown) == len(rows) == expected.shape[0]
        got = [float(text.removeprefix("→ ")) for text in shown]
        np.testing.assert_allclose(got, expected[:, 0], rtol=1e-4, atol=1e-5)
    assert len(_rows(page)) == 1
    assert page.is_disabled(f'{WIDGET} button[data-action="remove-row"]')
    page.context.close()


def _iou(a: list[float], b: list[float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union else 0.0


def test_text_detection_boxes_the_samples_three_lines(served, browsers) -> None:
    page, _ = open_model(browsers[False], served, "models/text-detection/", DESKTOP)
    state = press_run(page)
    boxes = json.loads(state["boxes"])
    lines = json.loads((REPO / "models" / "text-detection" / "sample.boxes.json").read_text())["lines"]
    assert len(boxes) == 3
    matched = [max(range(3), key=lambda i, box=box: _iou(box, lines[i]["ink_box"])) for box in boxes]
    assert sorted(matched) == [0, 1, 2]  # each box on a different line
    for box, line in zip(boxes, matched, strict=True):
        assert _iou(box, lines[line]["ink_box"]) >= 0.5, (box, lines[line])
    page.context.close()


def test_on_a_software_adapter_auto_runs_wasm_above_the_threshold(served, browsers) -> None:
    """text-detection's multiply-adds are above the rule's threshold, so auto asks for an
    adapter: the only one here is a software adapter, and auto says so and runs WebAssembly."""
    page, _ = open_model(browsers[True], served, "models/text-detection/", DESKTOP)
    state = press_run(page)
    assert (state["state"], state["backend"], state["match"]) == ("done", "wasm", "true")
    wait_until(page, "document.querySelector('[data-live-example]').dataset.adapter !== undefined")
    assert page.eval_on_selector(WIDGET, "e => e.dataset.adapter") == "software"
    assert "software adapter" in page.text_content(WIDGET + ' [data-le="backend"]')
    page.context.close()


@pytest.mark.parametrize("name", ["linear", "digits"])
def test_the_switch_runs_both_backends_and_the_record_keeps_both(served, browsers, name: str) -> None:
    page, _ = open_model(browsers[True], served, f"models/{name}/", DESKTOP)
    state = press_run(page)
    assert state["backend"] == "wasm"  # below the threshold: no adapter asked for
    page.click(WIDGET + ' [data-le="record"] > summary')
    label = WIDGET + ' [data-le="webgpu-label"]'
    wait_until(page, "document.querySelector('[data-live-example]').dataset.adapter !== undefined")
    assert "software adapter" in page.inner_text(label)
    page.check(WIDGET + ' input[data-le-backend][value="webgpu"]')
    state = press_run(page, timeout=300_000)
    assert (state["backend"], state["match"]) == ("webgpu", "true")
    downloads = page.inner_text(WIDGET + ' [data-le="downloads"]')
    assert downloads.startswith("model ") and "webgpu runtime 28.7 MB" in downloads, downloads
    page.check(WIDGET + ' input[data-le-backend][value="wasm"]')
    state = press_run(page)
    assert (state["backend"], state["match"]) == ("wasm", "true")
    assert "wasm runtime 14.8 MB" in page.inner_text(WIDGET + ' [data-le="downloads"]')
    timings = json.loads(state["timingsByBackend"])
    assert set(timings) == {"wasm", "webgpu"}
    shown = page.inner_text(WIDGET + ' [data-le="timings"]')
    assert "webgpu:" in shown and "wasm:" in shown
    page.context.close()


def test_a_failure_after_the_checked_result_keeps_the_result(served, browsers) -> None:
    """An error in the timing runs (WebKit once trapped inside the runtime there) leaves the
    checked answer on the page, still matched, and reports the timings' failure on its own."""
    context = browsers[False].new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(served.url + "models/iris/", wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    # The page's hook into the timing runs (the benchmark's), made to fail.
    page.evaluate("() => { window.onnxLiveExample.afterTimings = () => { throw new Error('trapped (test)'); }; }")
    state = press_run(page)
    assert (state["state"], state["match"], state["answer"]) == ("done", "true", ANSWERS["iris"])
    assert "trapped (test)" in state["timingError"]
    assert "the timing runs failed" in page.text_content(WIDGET + ' [data-le="timings"]')
    assert page.is_hidden(WIDGET + ' [data-le="error"]')
    context.close()
