"""Several live examples of one page run at once, in real headless Chromium with the real
onnxruntime-web: every Run pressed in the same task, each one's use of the runtime (session
creation, runs, release) one after the other through the widget's page-wide queue, every
result right, and the page's own ``fetch``, ``WebAssembly.instantiateStreaming`` and console
functions back in place afterwards, never a wrapper of a wrapper on the way.

Three cards, not two: with two, the Runs did not overlap on this machine even before the
queue, so the test passed there too. With three, the widget code before the queue (commit
77ab6ad) left both globals wrapped after the Runs, and one Run failed ("null function",
"Cannot read properties of null (reading '3')") in each of seven tries. With session
creations queued but runs not, the globals were right but one Run in two failed ("operation
does not support unaligned accesses"): two sessions' runs of one runtime at once."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from .sitebuild import cards_site
from .support.browser import PageProbe, StaticServer, chromium, wait_until

pytestmark = pytest.mark.browser

WIDGETS = "[data-live-example]"
#: Three small models. Without a WebGPU adapter all run on WASM, from the one .wasm file: the
#: first creation takes it through the wrappers, the others find the runtime started.
CARDS = ("linear", "iris", "pixel-shuffle")

#: Saves, from the page itself (same origin, before any Run), the page's own fetch and
#: instantiateStreaming, and records every later assignment to either: whether the value
#: assigned is the page's own. The properties stay writable and read back what was assigned.
RECORD = """() => {
  const record = { sets: [], originals: {} };
  for (const [owner, key] of [[window, 'fetch'], [WebAssembly, 'instantiateStreaming']]) {
    const original = owner[key];
    let value = original;
    record.originals[key] = original;
    Object.defineProperty(owner, key, {
      configurable: true,
      get: () => value,
      set: (next) => { value = next; record.sets.push([key, next === original]); },
    });
  }
  record.console = { log: console.log, error: console.error };  // the widget taps both
  window.__glRecord = record;
}"""

#: Every Run button pressed in one task; returns the widgets' states right after.
PRESS_ALL = """(selector) => {
  const widgets = [...document.querySelectorAll(selector)];
  for (const widget of widgets) widget.querySelector('button[data-action="run"]').click();
  return widgets.map((widget) => widget.dataset.state);
}"""

SETTLED = """(selector) => [...document.querySelectorAll(selector)]
  .every((widget) => ['done', 'error'].includes(widget.dataset.state))"""

AFTER = """() => ({
  fetch: window.fetch === window.__glRecord.originals.fetch,
  instantiateStreaming:
    WebAssembly.instantiateStreaming === window.__glRecord.originals.instantiateStreaming,
  console: console.log === window.__glRecord.console.log
    && console.error === window.__glRecord.console.error,
  sets: window.__glRecord.sets,
  stats: { ...window.onnxLiveExample.stats },
})"""


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """A site whose one docs page embeds the CARDS' live examples, served under /repo/."""
    built = cards_site(tmp_path_factory.mktemp("runs-at-once"), CARDS)
    with StaticServer(Path(built.site), "/repo/") as server:
        yield server


def test_runs_pressed_at_once_all_match_and_the_globals_are_the_pages_own(cards) -> None:
    with chromium() as browser:
        page = browser.new_context().new_page()
        probe = PageProbe(cards.origin).attach(page)
        page.goto(cards.url + "cards/", wait_until="load")
        assert page.locator(WIDGETS).count() == len(CARDS)
        wait_until(page, """(selector) => [...document.querySelectorAll(selector)]
          .every((widget) => !widget.querySelector('button[data-action="run"]').disabled)""", arg=WIDGETS)
        page.evaluate(RECORD)

        # Every Run starts in this one task: each has left "ready" before the others' first await.
        assert page.evaluate(PRESS_ALL, WIDGETS) == ["loading"] * len(CARDS)
        wait_until(page, SETTLED, arg=WIDGETS, timeout=180_000)

        states = page.eval_on_selector_all(WIDGETS, """(all) => all.map((widget) => [
          widget.dataset.state, widget.dataset.match, widget.querySelector('[data-le="error"]').textContent])""")
        after = page.evaluate(AFTER)
        assert [state[:2] for state in states] == [["done", "true"]] * len(CARDS), (states, after)
        assert after["stats"]["sessionsCreated"] == len(CARDS)
        assert after["fetch"] is True and after["instantiateStreaming"] is True
        assert after["console"] is True
        # The wrappers went in (the first creation took the .wasm through them) and each was
        # taken out before the next went in: per global, wrapper and original alternate.
        for key in ("fetch", "instantiateStreaming"):
            sets = [is_original for name, is_original in after["sets"] if name == key]
            assert sets and sets[0] is False and sets[-1] is True, (key, sets)
            assert all(a != b for a, b in itertools.pairwise(sets)), (key, sets)
        assert probe.errors == []
        assert probe.other_origin == []
