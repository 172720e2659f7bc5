"""One small interface for browser tests, with an implementation per browser engine.

    with open_engine("firefox") as engine:
        engine.open(server.url + "models/linear/", viewport=(390, 844))
        engine.click('button[data-action="run"]')
        engine.wait_until("document.querySelector('[data-live-example]').dataset.state === 'done'")
        assert engine.errors() == []

The engines (what each needs is installed by ``make engines``, from Debian's packages):

- ``chromium``: Debian's Chromium through Python playwright (tests/support/browser.py).
- ``firefox``: Firefox ESR through the npm package puppeteer-core over WebDriver BiDi, driven
  from Node by tests/support/firefox-bridge.mjs (JSON lines over stdin/stdout); no geckodriver.
- ``webkitgtk``: WebKitGTK's MiniBrowser in automation mode through selenium and
  WebKitWebDriver, on a private Xvfb display.
- ``wpe``: WPE WebKit 2.38's MiniBrowser (headless, no X) through selenium and WPEWebDriver.
  It is at the level of Safari 16.0: the capability check's test uses it; no live example can
  run there.

Every page an engine test opens comes from :func:`engine_server`, which adds the same-origin
recorder (tests/support/recorder.js) to each HTML page: WebKit's drivers give no console, and
the recorder is how the tests see console errors, uncaught errors and CSP violations there.

Nothing here evaluates code inside the page's policy: the site's Content-Security-Policy
forbids ``eval``, so :meth:`Engine.wait_until` polls from Python with the driver's own
evaluation (which no page policy governs) instead of an in-page ``wait_for_function``.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .browser import GITHUB_PAGES_CACHE, PageProbe, StaticServer, launch

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

FIREFOX = "/usr/bin/firefox-esr"
WEBKITGTK_MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
WPE_MINIBROWSER = "/usr/lib/x86_64-linux-gnu/wpe-webkit-1.1/MiniBrowser"
#: The web processes' names as /proc/<pid>/stat gives them (15 characters at most).
WEB_PROCESSES = ("WebKitWebProces", "WPEWebProcess")

#: The engines the suite's cross-engine tests run in (WPE only runs the capability check).
ENGINES = ("chromium", "firefox", "webkitgtk")

#: What each engine lacks, with the reason: the one place the tests take their exceptions
#: from. A gap is a feature the engine does not have here; a wrong result, a crash or an error
#: where the engine has the features is a bug, and no entry here.
KNOWN_GAPS: dict[str, dict[str, str]] = {
    "chromium": {
        "webgpu": "no adapter without --enable-unsafe-webgpu on this GPU-less machine (the "
                  "WebGPU path is tested with SwiftShader in test_browser_live.py)",
    },
    "firefox": {
        "webgpu": "Firefox has no navigator.gpu on Linux (with the pref dom.webgpu.enabled it "
                  "exists, and requestAdapter() returns null)",
    },
    "webkitgtk": {
        "webgpu": "WebKitGTK 2.50 has no navigator.gpu",
        "threads": "under COOP/COEP crossOriginIsolated is true but SharedArrayBuffer is "
                   "undefined (JSC enables it only with JSC_useSharedArrayBuffer=true), so "
                   "onnxruntime-web runs one thread",
        "console": "WebKitWebDriver gives no console log: the recorder script collects errors",
        "narrow-window": "MiniBrowser's window has a viewport of at least 447 px: narrower "
                         "layouts are measured in an iframe of the asked size",
    },
    "wpe": {
        "live-examples": "WPE WebKit 2.38 is at the level of Safari 16.0: no import maps, no "
                         "WebAssembly SIMD, no regular-expression lookbehind",
        "console": "WPEWebDriver gives no console log: the recorder script collects errors",
        "window-size": "the headless window stays 1280x720: other sizes are an iframe",
    },
}


#: Bugs an engine shows here that no fix or reproduction outside the widget has pinned down yet:
#: not gaps, and each stays open (tests/repro/ holds what was tried). The tests still require
#: everything else of such a Run: its answer checked and matched, and the failure shown.
KNOWN_BUGS: dict[str, dict[str, str]] = {
    "webkitgtk": {
        "runtime-errors": "WebKitGTK 2.50.6 gets errors from inside the runtime's wasm that no "
                          "other engine gets on the same page when the machine is short of "
                          "memory: 'Out of bounds memory access', OrtRun's 'Get feed size: 0 but "
                          "expected feed size: 1' on a run after the checked one (the same "
                          "feeds), 'OrtValue indexes should have been populated' or "
                          "'std::bad_function_call' creating a session. Reproduced with "
                          "onnxruntime-web alone (tests/repro/webkit-oob/, 5 December 2026): "
                          "3 pages in 364 with 1.3 to 1.8 GiB of 23.5 GiB available, 1 in 268 of "
                          "the widget; no error in hundreds of pages with memory to spare, loaded "
                          "cores included (one page hung instead), and none in Chromium under "
                          "the same pressure. A test machine short of memory (CI runners) can "
                          "meet it. Once (a CI run on 4 December 2026) a model page stopped "
                          "answering instead, its web process at 100 % CPU for 17 minutes: a "
                          "page that answers nothing for HUNG_S seconds is ended, the engine "
                          "started again, and the page counts as a failed one (PageHung)",
    },
}

#: How the errors of KNOWN_BUGS' "runtime-errors" read (a hung page, PageHung, included). Only
#: a problem saying one of these gets the way out that entry allows; any other fails as it is.
RUNTIME_ERROR_SIGNS = ("Out of bounds memory access", "Get feed size:",
                       "OrtValue indexes should have been populated", "std::bad_function_call",
                       "answered nothing for")


def is_known_runtime_error(engine: str, problem: str) -> bool:
    """Whether ``problem`` (a line naming the model) is ``engine``'s open runtime bug."""
    return bool(known_bug(engine, "runtime-errors")) and any(sign in problem for sign in RUNTIME_ERROR_SIGNS)


#: How long a WebKit page may go without answering a command before it counts as hung.
HUNG_S = 300


class KnownBugSeen(UserWarning):
    """A bug of :data:`KNOWN_BUGS` came up in a test that then passed the way the bug's entry
    allows. pyproject.toml's filterwarnings shows it rather than failing on it (by the message's
    start, which :func:`known_bug_seen` writes), so every run's warnings summary, CI's included,
    counts how often the bug still comes up."""


def known_bug_seen(engine: Engine, what: str) -> KnownBugSeen:
    """The warning for a known bug of ``engine`` that came up, ``what`` saying where and how."""
    return KnownBugSeen(f"known engine bug, {engine.name} {engine.version}: {what}")


class PageHung(AssertionError):
    """The page answered no command for :data:`HUNG_S` seconds; its web process was ended and
    the engine started again, so it can open the next page."""


def known_bug(engine: str, what: str) -> str | None:
    """The open bug of :data:`KNOWN_BUGS` that ``engine`` shows in ``what``, or None."""
    return KNOWN_BUGS.get(engine, {}).get(what)


def gap(engine: str, feature: str) -> str | None:
    """Why ``engine`` lacks ``feature`` (a key of :data:`KNOWN_GAPS`), or None."""
    return KNOWN_GAPS.get(engine, {}).get(feature)


# -- the server side: the recorder, and a page to hold a narrow iframe -----------------------

RECORDER = "__engines__/recorder.js"
ERROR_PROBE = "__engines__/error-probe.js"
FRAME = "__engines__/frame.html"
FRAME_ID = "engine-frame"
_FRAME_HTML = (
    "<!doctype html><html><head><meta charset='utf-8'><title>frame</title>"
    "<style>html,body{margin:0;background:#888}iframe{border:0;display:block;background:#fff}"
    "</style></head><body><iframe id='" + FRAME_ID + "'></iframe></body></html>"
).encode()
_CSP_META = re.compile(rb'<meta http-equiv="Content-Security-Policy"[^>]*>')


def add_recorder(html: bytes, prefix: str) -> bytes:
    """The page with the recorder's <script> right after its CSP <meta> (which then governs
    it), or first in <head> when the page has no policy."""
    tag = f'<script src="{prefix}{RECORDER}"></script>'.encode()
    found = _CSP_META.search(html)
    if found:
        return html[: found.end()] + tag + html[found.end():]
    return html.replace(b"<head>", b"<head>" + tag, 1)


def engine_server(root: Path, prefix: str, **options: Any) -> StaticServer:
    """A :class:`StaticServer` whose HTML pages carry the recorder, and which serves the
    recorder, the iframe holder page and the error probe (tests/support/error-probe.js) under
    ``<prefix>__engines__/`` (test-only URLs)."""
    files = {prefix + RECORDER: (HERE / "recorder.js").read_bytes(),
             prefix + ERROR_PROBE: (HERE / "error-probe.js").read_bytes(),
             prefix + FRAME: _FRAME_HTML}
    # GitHub Pages' caching, as readers get it. Firefox prefetches a page's <link rel="next">,
    # and a prefetch of a no-store response fails with an error event on the <link>.
    options.setdefault("cache_control", GITHUB_PAGES_CACHE)
    return StaticServer(
        root, prefix, extra_files=files,
        rewrite_html=lambda html: add_recorder(html, prefix),
        **options,
    )


#: The recorder's records, as "kind: text" lines.
RECORDS = "(window.__engineRecords || []).map((r) => r.kind + ': ' + r.text)"


# -- the interface ---------------------------------------------------------------------------

class Engine(ABC):
    """One browser, one page at a time. Selectors are CSS; expressions are JavaScript
    evaluated in the page (a promise is awaited) and must return JSON-able values."""

    name: str

    @abstractmethod
    def open(self, url: str, viewport: tuple[int, int] = (1280, 900)) -> None:
        """A fresh page at ``url`` with a viewport of that size, once it has loaded."""

    @abstractmethod
    def click(self, selector: str) -> None:
        """Click the first element ``selector`` matches, as a reader would."""

    @abstractmethod
    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the open page (awaited if a promise)."""

    @abstractmethod
    def errors(self) -> list[str]:
        """Console errors, uncaught errors and CSP violations of the page since :meth:`open`."""

    @abstractmethod
    def screenshot(self, path: Path, full_page: bool = False) -> None:
        """A PNG of the viewport (``full_page``: of the whole page)."""

    @abstractmethod
    def close(self) -> None: ...

    # Built on evaluate, the same in every engine.

    def attribute(self, selector: str, name: str) -> str | None:
        return self.evaluate(f"document.querySelector({json.dumps(selector)})"
                             f".getAttribute({json.dumps(name)})")

    def dataset(self, selector: str) -> dict[str, str]:
        return self.evaluate(f"Object.assign({{}}, document.querySelector({json.dumps(selector)}).dataset)")

    def text(self, selector: str) -> str:
        return self.evaluate(f"document.querySelector({json.dumps(selector)}).innerText")

    def viewport(self) -> tuple[int, int]:
        width, height = self.evaluate("[innerWidth, innerHeight]")
        return width, height

    def wait_until(self, expression: str, timeout: float = 30) -> Any:
        """Poll ``expression`` until it is truthy; return its value. Fails after ``timeout``
        seconds with the last value seen."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: gave up after {timeout} s waiting for "
                                     f"{expression} (last value {value!r})")
            time.sleep(0.1)


class Chromium(Engine):
    """Debian's Chromium through playwright, a new browser context per page (``webgpu``: with
    the software WebGPU adapter, :data:`~tests.support.browser.WEBGPU_FLAG`)."""

    name = "chromium"

    def __init__(self, *, webgpu: bool = False) -> None:
        from playwright.sync_api import sync_playwright

        self._driver = sync_playwright().start()
        self._browser = launch(self._driver, webgpu=webgpu)
        self._context = None
        self._page: Any = None
        self._probe: PageProbe | None = None
        self.version = self._browser.version

    def open(self, url: str, viewport: tuple[int, int] = (1280, 900)) -> None:
        if self._context:
            self._context.close()
        self._context = self._browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self._page = self._context.new_page()
        parts = urlsplit(url)
        self._probe = PageProbe(f"{parts.scheme}://{parts.netloc}").attach(self._page)
        self._page.goto(url, wait_until="load")

    def click(self, selector: str) -> None:
        self._page.click(selector)

    def evaluate(self, expression: str) -> Any:
        return self._page.evaluate(expression)

    def errors(self) -> list[str]:
        assert self._probe is not None
        # Playwright's sync API hands over the browser's events only while it is called.
        self._page.evaluate("0")
        return list(self._probe.errors)

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        self._page.screenshot(path=str(path), full_page=full_page)

    def close(self) -> None:
        if self._context:
            self._context.close()
        self._browser.close()
        self._driver.stop()


class Firefox(Engine):
    """Firefox ESR through tests/support/firefox-bridge.mjs (puppeteer-core, WebDriver BiDi)."""

    name = "firefox"

    def __init__(self, executable: str = FIREFOX, timeout: float = 240) -> None:
        self._timeout = timeout
        self._process = subprocess.Popen(
            ["node", str(HERE / "firefox-bridge.mjs"), executable],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=REPO)
        self._answers: queue.Queue[str] = queue.Queue()
        self._stderr: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self._process.stdout, self._answers.put), daemon=True),
            threading.Thread(target=self._read, args=(self._process.stderr, self._stderr.append), daemon=True),
        ]
        for thread in self._readers:
            thread.start()
        self._next = 0
        self.version = self._call("version")

    @staticmethod
    def _read(stream, put) -> None:  # type: ignore[no-untyped-def]
        for line in stream:
            put(line)

    def _call(self, op: str, **args: Any) -> Any:
        self._next += 1
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps({"id": self._next, "op": op, **args}) + "\n")
        self._process.stdin.flush()
        try:
            line = self._answers.get(timeout=self._timeout)
        except queue.Empty:
            raise AssertionError(f"firefox: no answer to {op} in {self._timeout} s; "
                                 f"bridge said: {''.join(self._stderr)[-2000:]}") from None
        answer = json.loads(line)
        assert answer["id"] == self._next, answer
        if not answer["ok"]:
            raise RuntimeError(f"firefox: {op} failed: {answer['error']}")
        return answer["value"]

    def open(self, url: str, viewport: tuple[int, int] = (1280, 900)) -> None:
        self._call("open", url=url, width=viewport[0], height=viewport[1])

    def click(self, selector: str) -> None:
        self._call("click", selector=selector)

    def evaluate(self, expression: str) -> Any:
        return self._call("evaluate", expression=expression)

    def errors(self) -> list[str]:
        # BiDi brings console errors and uncaught errors; the recorder adds what it does not
        # carry (CSP violations, files that failed to load).
        recorded = [r for r in self.evaluate(RECORDS) if r.startswith(("csp:", "resource:"))]
        return self._call("errors") + recorded

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        self._call("screenshot", path=str(path), fullPage=full_page)

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            assert self._process.stdin is not None
            self._process.stdin.write(json.dumps({"op": "close"}) + "\n")
            self._process.stdin.close()
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for thread in self._readers:
            thread.join(timeout=5)
        for stream in (self._process.stdout, self._process.stderr):
            if stream:
                stream.close()


_EVALUATE = """const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (EXPRESSION)).then(
  (value) => done({ok: true, value: value === undefined ? null : value}),
  (error) => done({ok: false, error: String(error && error.message || error)}));"""


class WebKit(Engine):
    """A WebKit MiniBrowser through selenium; WebKitGTK under a private Xvfb display, WPE
    headless. A viewport the window cannot have is an iframe of that size in a holder page."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._xvfb: subprocess.Popen | None = None
        try:
            self._driver = self._start(name)
        except BaseException:
            self._stop_xvfb()
            raise
        self._driver.set_script_timeout(240)
        self._framed = False
        self.version = self._driver.capabilities.get("browserVersion")

    def _start(self, name: str) -> Any:
        from selenium import webdriver

        env = dict(os.environ)
        if name == "webkitgtk":
            env["DISPLAY"] = self._start_xvfb()
            options: Any = webdriver.WebKitGTKOptions()
            options.binary_location = WEBKITGTK_MINIBROWSER
            options.add_argument("--automation")
            service: Any = webdriver.WebKitGTKService(env=env)
            return webdriver.WebKitGTK(options=options, service=service)
        elif name == "wpe":
            options = webdriver.WPEWebKitOptions()
            options.binary_location = WPE_MINIBROWSER
            options.add_argument("--automation")
            options.add_argument("--headless")
            service = webdriver.WPEWebKitService(env=env)
            return webdriver.WPEWebKit(options=options, service=service)
        raise ValueError(f"not a WebKit engine: {name}")

    def _stop_xvfb(self) -> None:
        if self._xvfb:
            self._xvfb.terminate()
            self._xvfb.wait()
            self._xvfb = None

    def _start_xvfb(self) -> str:
        """A display of its own (Xvfb picks a free number and writes it to a pipe)."""
        read, write = os.pipe()
        self._xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1400x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        return ":" + number

    def open(self, url: str, viewport: tuple[int, int] = (1280, 900)) -> None:
        driver = self._driver
        if self._framed:
            driver.switch_to.default_content()
            self._framed = False
        width, height = viewport
        for _ in range(3):  # the window's size, less its frame, until the viewport has the size
            inner = driver.execute_script("return [innerWidth, innerHeight]")
            if inner == [width, height]:
                break
            size = driver.get_window_size()
            try:
                driver.set_window_size(size["width"] + width - inner[0],
                                       size["height"] + height - inner[1])
            except Exception:  # WPE's headless window keeps its size
                break
        if inner[0] == width:
            driver.get(url)
            return
        # The window cannot have this viewport: a same-origin holder page with an iframe of
        # exactly that size (the page inside sees innerWidth == width).
        parts = urlsplit(url)
        prefix = "/" + parts.path.lstrip("/").split("/", 1)[0] + "/"
        driver.get(f"{parts.scheme}://{parts.netloc}{prefix}{FRAME}")
        if driver.execute_script("return [innerWidth, innerHeight]")[0] < width:
            driver.set_window_size(width + 100, height + 100)
        frame = driver.find_element("id", FRAME_ID)
        driver.execute_script(
            "const [f, w, h, src] = arguments; f.style.width = w + 'px'; f.style.height = h + 'px';"
            " f.src = src;", frame, width, height, url)
        driver.switch_to.frame(frame)
        self._framed = True
        deadline = time.monotonic() + 60
        while driver.execute_script("return document.readyState + ' ' + location.href") != f"complete {url}":
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: {url} did not load in its iframe")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        self._driver.find_element("css selector", selector).click()

    def evaluate(self, expression: str) -> Any:
        # A page busy for good blocks the command forever (WebKitWebDriver waits for its web
        # process, whatever the script timeout): past HUNG_S, end that process.
        ended: list[int] = []
        watchdog = threading.Timer(HUNG_S, lambda: ended.extend(self._end_web_processes()))
        watchdog.start()
        try:
            answer = self._driver.execute_async_script(_EVALUATE.replace("EXPRESSION", expression))
        except Exception as error:
            if ended:  # WebKitWebDriver ends the session with its page: start the engine again
                self._restart()
                raise PageHung(f"{self.name}: the page answered nothing for {HUNG_S} s "
                               f"(web process {ended} ended) while evaluating {expression}") from error
            raise
        finally:
            watchdog.cancel()
        if not answer["ok"]:
            raise RuntimeError(f"{self.name}: {expression} failed: {answer['error']}")
        return answer["value"]

    def errors(self) -> list[str]:
        return list(self.evaluate(RECORDS))

    def _restart(self) -> None:
        with contextlib.suppress(Exception):
            self._driver.quit()
        self._stop_xvfb()
        self._driver = self._start(self.name)
        self._driver.set_script_timeout(240)
        self._framed = False

    def _end_web_processes(self) -> list[int]:
        """Kill the web processes under this engine's driver."""
        return _kill([pid for pid, name in descendants(self._driver.service.process.pid)
                      if name in WEB_PROCESSES])

    def screenshot(self, path: Path, full_page: bool = False) -> None:  # the viewport only
        driver = self._driver
        if not self._framed:
            Path(path).write_bytes(driver.get_screenshot_as_png())
            return
        driver.switch_to.default_content()
        try:
            Path(path).write_bytes(driver.find_element("id", FRAME_ID).screenshot_as_png)
        finally:
            driver.switch_to.frame(driver.find_element("id", FRAME_ID))

    def close(self) -> None:
        # WPEWebDriver's quit now and then leaves its MiniBrowser running, adopted by init (2 of
        # 6 runs of tests/test_engines.py here): whatever ran under the driver is ended after it.
        root = self._driver.service.process.pid
        under = descendants(root)
        try:
            self._driver.quit()
        finally:
            self._stop_xvfb()
            end_tree(under, root)


def _processes() -> list[tuple[int, tuple[str, int]]]:
    """Every running process as (pid, (name, parent pid)), read from /proc; zombies (ended,
    not yet reaped) left out."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            state, parent = stat[stat.rindex(")") + 2:].split()[:2]
            if state != "Z":
                found.append((int(entry.name), (stat[stat.index("(") + 1:stat.rindex(")")], int(parent))))
    return found


def descendants(root: int) -> list[tuple[int, str]]:
    """Every process under ``root``, with its name."""
    table = dict(_processes())
    parents = {pid: parent for pid, (_, parent) in table.items()}

    def under(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == root:
                return True
        return False

    return [(pid, name) for pid, (name, _) in table.items() if under(pid)]


def survivors(before: list[tuple[int, str]], root: int) -> list[int]:
    """The processes of ``before`` (the tree under ``root``, :func:`descendants`) still
    running: the same pid and name, still under ``root`` or one of them or adopted by init, so
    never a process that took a freed pid."""
    pids = {root} | {pid for pid, _ in before}
    now = dict(_processes())
    return [pid for pid, name in before
            if pid in now and now[pid][0] == name and (now[pid][1] == 1 or now[pid][1] in pids)]


def end_tree(before: list[tuple[int, str]], root: int, grace: float = 3) -> None:
    """Wait up to ``grace`` seconds for the processes of ``before`` to end, then kill the rest
    and wait for them to go."""
    for wait in (grace, 2):
        deadline = time.monotonic() + wait
        while survivors(before, root) and time.monotonic() < deadline:
            time.sleep(0.05)
        _kill(survivors(before, root))


def _kill(pids: list[int]) -> list[int]:
    """SIGKILL each of ``pids`` still running; the list back."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
    return pids


def missing(name: str) -> str | None:
    """What the machine lacks for ``name`` (to install with ``make engines``), or None."""
    needs = {
        "chromium": ["/usr/bin/chromium"],
        "firefox": [FIREFOX, str(REPO / "node_modules" / "puppeteer-core")],
        "webkitgtk": [WEBKITGTK_MINIBROWSER, "WebKitWebDriver", "Xvfb"],
        "wpe": [WPE_MINIBROWSER, "WPEWebDriver"],
    }[name]
    absent = [n for n in needs if not (os.path.exists(n) if n.startswith("/") else shutil.which(n))]
    return ", ".join(absent) or None


def start(name: str) -> Engine:
    if name == "chromium":
        return Chromium()
    if name == "firefox":
        return Firefox()
    return WebKit(name)


@contextlib.contextmanager
def open_engine(name: str) -> Iterator[Engine]:
    engine = start(name)
    try:
        yield engine
    finally:
        engine.close()
