"""Soak of the live-example widget on the linear model's page: 500 Runs in a row, and 50
Run-then-navigate cycles with instant navigation (one document throughout). Chromium exposes
gc() and precise heap sizes; garbage is collected before every reading. The JS heap stays
within 20 MB of its size after the first 20 Runs, and every session the widget created has
been released (the widget's test hook, window.onnxLiveExample.stats, counts both).

Cost on a 2-core machine: about 25 s for the 500 Runs (each Run creates a session, checks the
result and times ~20 groups of runs), about 20 s for the 50 cycles. Nothing here is timed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .support.browser import PageProbe, StaticServer, chromium, wait_until

pytestmark = pytest.mark.browser

WIDGET = "[data-live-example]"
RUN = WIDGET + ' button[data-action="run"]'
MB = 1_000_000
#: How much the JS heap may grow over its size after the first 20 Runs.
HEAP_SLACK = 20 * MB

# Press Run `count` times, each after the last has settled; a Run that fails stops the loop.
RUNS = """async (count) => {
  const root = document.querySelector("[data-live-example]");
  for (let i = 0; i < count; i++) {
    const settled = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (["done", "error"].includes(root.dataset.state)) {
          observer.disconnect();
          resolve(root.dataset.state);
        }
      });
      observer.observe(root, { attributes: true, attributeFilter: ["data-state"] });
    });
    root.querySelector('button[data-action="run"]').click();
    if (await settled !== "done" || root.dataset.match !== "true") {
      return "Run " + (i + 1) + ": " + root.innerText;
    }
  }
  return "";
}"""

# The JS heap after garbage collection (twice: the first pass can leave finalised garbage).
HEAP = """async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
  gc();
  return performance.memory.usedJSHeapSize;
}"""

STATS = "() => ({...window.onnxLiveExample.stats})"

# Click the first link to `path` inside `within` (Material's instant navigation takes it over),
# once the page that has it has been swapped in.
FOLLOW = """async ([within, path]) => {
  const find = () => [...document.querySelectorAll(within + " a[href]")]
    .find((a) => !a.hash && new URL(a.href).pathname.endsWith(path));
  for (let tries = 0; !find() && tries < 200; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  find().click();
}"""


@pytest.fixture(scope="module")
def soak_browser() -> Iterator[object]:
    with chromium(extra_args=["--js-flags=--expose-gc", "--enable-precise-memory-info"]) as running:
        yield running


def all_released(page, created: int) -> dict[str, int]:
    """The stats once the last release() has settled (it is asynchronous)."""
    wait_until(page, "(n) => window.onnxLiveExample.stats.sessionsReleased >= n", arg=created)
    return page.evaluate(STATS)


def test_500_runs_keep_the_heap_flat_and_release_every_session(server: StaticServer,
                                                               soak_browser) -> None:
    page = soak_browser.new_context().new_page()
    probe = PageProbe(server.origin).attach(page)
    page.goto(server.url + "models/linear/", wait_until="load")
    page.wait_for_selector(RUN + ":not([disabled])")
    assert page.evaluate(RUNS, 20) == ""
    baseline = page.evaluate(HEAP)
    assert page.evaluate(RUNS, 480) == ""
    heap = page.evaluate(HEAP)
    stats = all_released(page, 500)
    print(f"500 Runs: heap {baseline / MB:.1f} MB after 20, {heap / MB:.1f} MB after 500; {stats}")
    assert heap <= baseline + HEAP_SLACK, (baseline, heap)
    assert stats == {"sessionsCreated": 500, "sessionsReleased": 500}
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()


def test_50_run_then_navigate_cycles_in_one_document(instant: StaticServer, soak_browser) -> None:
    page = soak_browser.new_context().new_page()
    probe = PageProbe(instant.origin).attach(page)
    # Material intercepts links once it has read sitemap.xml: wait for the network to idle.
    page.goto(instant.url + "models/linear/", wait_until="networkidle")
    page.evaluate("window.sameDocument = true")
    baseline = 0
    for cycle in range(1, 51):
        page.wait_for_selector(RUN + ":not([disabled])")
        assert page.evaluate(RUNS, 1) == "", cycle
        if cycle == 20:
            baseline = page.evaluate(HEAP)
        # Away to the models index and back, by the links a reader would click.
        page.evaluate(FOLLOW, ["nav", "/models/"])
        page.wait_for_url("**/models/")
        # The index's own list of models: the linear page has no such link to itself.
        page.evaluate(FOLLOW, ["article", "/models/linear/"])
        page.wait_for_url("**/models/linear/")
    page.wait_for_selector(RUN + ":not([disabled])")
    heap = page.evaluate(HEAP)
    stats = all_released(page, 50)
    print(f"50 cycles: heap {baseline / MB:.1f} MB after 20, {heap / MB:.1f} MB after 50; {stats}")
    assert page.evaluate("window.sameDocument") is True  # instant navigation all along
    assert heap <= baseline + HEAP_SLACK, (baseline, heap)
    assert stats == {"sessionsCreated": 50, "sessionsReleased": 50}
    assert probe.errors == [] and probe.other_origin == []
    page.context.close()
