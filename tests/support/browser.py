"""Real-browser test helpers: a static server for a built site, headless Chromium, a page probe.

Used by the live-example tests and the lead's term-page checks. Nothing here mocks the browser
or the runtime: the server sends real files with real headers, Chromium is the system one.
"""

from __future__ import annotations

import contextlib
import email.utils
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote, urlsplit

CHROMIUM = "/usr/bin/chromium"

#: Flags that work as root on a machine without a GPU. Without the background-networking ones,
#: Chromium keeps trying to reach Google's hosts, which a closed network refuses.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

#: What GitHub Pages sends with every file: ten minutes fresh, then revalidated (ETag,
#: Last-Modified). The default of :class:`StaticServer` is ``no-store`` (every test starts cold).
GITHUB_PAGES_CACHE = "max-age=600"

#: A software WebGPU adapter (SwiftShader): tests the WebGPU path, says nothing about speed.
WEBGPU_FLAG = "--enable-unsafe-webgpu"

#: The content types GitHub Pages compresses for a client that accepts gzip: text, scripts, JSON,
#: SVG and WebAssembly (a model's .onnx, an image or a font goes as it is).
GZIP_TYPES = ("text/", "application/javascript", "application/json", "application/manifest+json",
              "application/xml", "image/svg+xml", "application/wasm")

ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves ``root`` under ``prefix``; 404 for ``missing``; optional extra headers."""

    extensions_map = {  # noqa: RUF012 - class attribute of the stdlib handler
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".onnx": "application/octet-stream",
        ".css": "text/css",
        ".svg": "image/svg+xml",
    }

    def __init__(self, *args, server_state: StaticServer, **kwargs):
        self.state = server_state
        super().__init__(*args, directory=str(server_state.root), **kwargs)

    def translate_path(self, path: str) -> str:
        # Only URLs under the prefix exist; the rest of the origin is empty, like GitHub Pages.
        url_path = unquote(urlsplit(path).path)
        if not url_path.startswith(self.state.prefix):
            return str(self.state.root / ".outside-the-prefix" / "missing")
        return super().translate_path("/" + url_path[len(self.state.prefix) :])

    def send_head(self):  # type: ignore[override]
        url_path = unquote(urlsplit(self.path).path)
        self.state.log.append((self.command, url_path))
        if url_path in self.state.missing:
            self.send_error(404, "Not Found")
            return None
        if (self.state.not_found and url_path not in self.state.extra_files
                and not os.path.exists(self.translate_path(self.path))):
            return self._not_found()
        if self.state.extra_files or self.state.rewrite_html:
            body = self._rewritten(url_path)
            if body is not None:
                return body
        self._etag = self._validator(self.translate_path(self.path))
        if self._etag and self._etag in self.headers.get("If-None-Match", ""):
            self.send_response(304)  # revalidated: the browser keeps its copy
            self.end_headers()
            return None
        if self._accepts_gzip():
            body = self._gzipped_file(url_path)
            if body is not None:
                return body
        return super().send_head()

    def _accepts_gzip(self) -> bool:
        """Whether answers go gzip-compressed: the server compresses and the client asks."""
        return self.state.gzip and "gzip" in self.headers.get("Accept-Encoding", "")

    def _gzipped_file(self, url_path: str) -> io.BytesIO | None:
        """A file of a compressed type, compressed; None leaves it to the standard handler
        (a folder without its slash is redirected, a missing file is a 404)."""
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not url_path.endswith("/"):
                return None
            path = path / "index.html"
        content_type = self.guess_type(str(path))
        if not path.is_file() or not content_type.startswith(GZIP_TYPES):
            return None
        modified = email.utils.formatdate(path.stat().st_mtime, usegmt=True)
        return self._send(200, content_type, path.read_bytes(), modified)

    def _send(self, status: int, content_type: str, body: bytes,
              last_modified: str | None = None) -> io.BytesIO:
        """Send the status and headers of ``body``, gzip-compressed when the server compresses,
        the client accepts it and the type is one of :data:`GZIP_TYPES`; return the bytes the
        standard handler then copies out."""
        encode = self._accepts_gzip() and content_type.startswith(GZIP_TYPES)
        if encode:
            body = self.state.compressed(body)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if encode:
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        if last_modified:
            self.send_header("Last-Modified", last_modified)
        self.end_headers()
        return io.BytesIO(body)

    def _not_found(self) -> io.BytesIO | None:
        """The site's own 404.html with status 404, as GitHub Pages answers a missing path."""
        page = self.state.root / "404.html"
        if not page.is_file():
            self.send_error(404, "Not Found")
            return None
        body = page.read_bytes()
        if self.state.rewrite_html:
            body = self.state.rewrite_html(body)
        return self._send(404, "text/html; charset=utf-8", body)

    def _rewritten(self, url_path: str) -> io.BytesIO | None:
        """A test-only file of ``extra_files``, or an HTML page passed through ``rewrite_html``."""
        content_type = "text/html; charset=utf-8"
        if url_path in self.state.extra_files:
            body = self.state.extra_files[url_path]
            content_type = self.guess_type(url_path)
        elif self.state.rewrite_html:
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                if not url_path.endswith("/"):
                    return None  # the standard handler redirects to the slashed URL
                path = path / "index.html"
            if path.suffix != ".html" or not path.is_file():
                return None
            body = self.state.rewrite_html(path.read_bytes())
        else:
            return None
        return self._send(200, content_type, body)

    def _validator(self, path: str) -> str | None:
        """An ETag from the file's size and modification time, like a static host's."""
        if self.state.cache_control == "no-store" or not os.path.isfile(path):
            return None
        stat = os.stat(path)
        return f'"{stat.st_size:x}-{stat.st_mtime_ns:x}"'

    def end_headers(self) -> None:
        for name, value in self.state.headers.items():
            self.send_header(name, value)
        self.send_header("Cache-Control", self.state.cache_control)
        etag = getattr(self, "_etag", None)
        if etag:  # the standard handler sends Last-Modified and answers If-Modified-Since
            self.send_header("ETag", etag)
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    """A browser that cancels a download (the widget drops the runtime's download when the
    Run fails or the runtime never asks for it) resets the connection: not an error of the
    site."""

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@dataclass
class StaticServer:
    """A threaded HTTP server on 127.0.0.1 (random port) serving ``root`` at ``prefix``.

    ``headers`` are added to every response (e.g. :data:`ISOLATION_HEADERS`); URL paths in
    ``missing`` answer 404 (fault tests); ``log`` records every (method, path) asked for,
    ``requests`` the paths alone.
    ``not_found``: a missing path gets the site's ``404.html`` (status 404), as on GitHub Pages.
    ``gzip``: files of :data:`GZIP_TYPES` go gzip-compressed to a client that accepts it, as
    GitHub Pages sends them (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``).
    ``cache_control`` is sent with every file; anything but ``no-store`` (e.g.
    :data:`GITHUB_PAGES_CACHE`) also sends ETag and Last-Modified and answers revalidations
    with 304, as GitHub Pages does.
    Test-only additions, never part of a built site: ``extra_files`` maps URL paths to bytes
    served as they are; ``rewrite_html`` is applied to every HTML page sent (tests/support/
    engines.py adds its error recorder to each page this way).
    """

    root: Path
    prefix: str = "/"
    headers: dict[str, str] = field(default_factory=dict)
    cache_control: str = "no-store"
    missing: set[str] = field(default_factory=set)
    log: list[tuple[str, str]] = field(default_factory=list)
    extra_files: dict[str, bytes] = field(default_factory=dict)
    rewrite_html: Callable[[bytes], bytes] | None = None
    not_found: bool = False
    gzip: bool = False
    _gzipped: dict[bytes, bytes] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if not (self.prefix.startswith("/") and self.prefix.endswith("/")):
            raise ValueError(f"prefix must start and end with '/': {self.prefix!r}")
        handler = functools.partial(_Handler, server_state=self)
        self._httpd = _QuietServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def compressed(self, body: bytes) -> bytes:
        """``body`` gzip-compressed at level 6 (a common server setting; GitHub does not say
        its own), kept for the next request of the same bytes."""
        key = hashlib.sha256(body).digest()
        if key not in self._gzipped:
            self._gzipped[key] = gzip.compress(body, compresslevel=6, mtime=0)
        return self._gzipped[key]

    @property
    def requests(self) -> list[str]:
        """Every path asked for, in order (``log`` without the methods)."""
        return [path for _, path in self.log]

    @property
    def origin(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        """The site root URL, e.g. ``http://127.0.0.1:PORT/repo/``."""
        return self.origin + self.prefix

    def __enter__(self) -> StaticServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


#: Set by the suite's conftest for each test: whether it carries the ``browser`` marker. A
#: test that opens a browser without it would make ``make test-fast`` open one.
BROWSER_ALLOWED = {"now": True}


def launch(playwright, *, webgpu: bool = False, extra_args: Iterable[str] = ()):
    """Launch the system Chromium from a running ``sync_playwright()`` on a fresh profile.

    Playwright's ``launch`` gives every browser its own new user-data-dir and every
    ``browser.new_context()`` its own cache and storage, so tests do not share state.
    """
    if not BROWSER_ALLOWED["now"]:
        raise AssertionError("this test opens a browser: mark it @pytest.mark.browser")
    args = [*CHROMIUM_FLAGS, *([WEBGPU_FLAG] if webgpu else []), *extra_args]
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)


def launch_beside(browser, *, extra_args: Iterable[str] = ()):  # type: ignore[no-untyped-def]
    """Another system Chromium with more flags (a fake camera), from the driver of a running
    one: Playwright allows one sync driver at a time."""
    return launch(SimpleNamespace(chromium=browser.browser_type), extra_args=extra_args)


@contextlib.contextmanager
def chromium(*, webgpu: bool = False, extra_args: Iterable[str] = ()) -> Iterator:
    """One headless system Chromium (a playwright ``Browser``).

    Playwright allows one sync driver at a time: for several browsers at once, open
    ``sync_playwright()`` yourself and call :func:`launch` for each.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright, webgpu=webgpu, extra_args=extra_args)
        try:
            yield browser
        finally:
            browser.close()


#: Reports each Content-Security-Policy violation of a document (and of every later document of
#: the page) to the binding ``__glCspViolation``; runs before the page's own scripts.
CSP_LISTENER = """document.addEventListener('securitypolicyviolation', (e) => {
  window.__glCspViolation(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`
    + ` in ${e.sourceFile || e.documentURI}:${e.lineNumber} ${e.sample}`);
}, true);"""


def watch_csp(page, report) -> None:
    """Call ``report(text)`` for every CSP violation in ``page``, across navigations.

    A page can be watched by several probes (a benchmark attaches one per visit): the binding
    is registered once per page and hands each violation to every probe.
    """
    reports = _CSP_REPORTS.get(page)
    if reports is None:
        reports = _CSP_REPORTS[page] = []
        page.expose_function("__glCspViolation", lambda text: [r(text) for r in reports])
        page.add_init_script(CSP_LISTENER)
    reports.append(report)


#: The probes' report functions per watched page (a page holds its list alive, nothing else).
_CSP_REPORTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


#: A predicate written as a function: ``(x) => ...``, ``x => ...``, ``async ...``, ``function``.
_FUNCTION = re.compile(r"^\s*(async\b|function\b|\([^()]*\)\s*=>|[\w$]+\s*=>)")

_POLL = """async ([arg, timeout]) => {
  const predicate = PREDICATE;
  const deadline = performance.now() + timeout;
  for (;;) {  // once per animation frame, like wait_for_function's default polling
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const value = await predicate(arg);
    if (value) return value;
    if (performance.now() > deadline) throw new Error('gave up waiting for: ' + SOURCE);
  }
}"""


def wait_until(page, predicate: str, arg: object = None, timeout: float = 30_000) -> object:
    """``page.wait_for_function`` for pages with a Content-Security-Policy.

    Playwright's own runs ``eval()`` on the predicate inside the page, which a policy without
    ``'unsafe-eval'`` blocks (and reports as a violation). ``page.evaluate`` compiles through
    DevTools, which no page policy governs: the predicate goes into the polling function's own
    source. It polls once per animation frame, as ``wait_for_function`` does by default, so
    the page has drawn a frame when it returns. A navigation while waiting (coi-serviceworker's reload) starts the wait again in the
    new document, as ``wait_for_function`` does.
    """
    from playwright.sync_api import Error

    body = predicate if _FUNCTION.match(predicate) else f"() => ({predicate})"
    script = _POLL.replace("PREDICATE", body).replace("SOURCE", json.dumps(predicate))
    deadline = time.monotonic() + timeout / 1000
    while True:
        left = max(deadline - time.monotonic(), 0.001) * 1000
        try:
            return page.evaluate(script, [arg, left])
        except Error as error:
            destroyed = "context was destroyed" in str(error) or "navigat" in str(error)
            if not destroyed or time.monotonic() > deadline:
                raise
            page.wait_for_load_state("domcontentloaded")


@dataclass
class PageProbe:
    """Everything a page said or asked for that a reader would not want to see.

    ``other_origin`` lists every request that left the site's origin (CDNs, fonts, analytics);
    ``csp_violations`` every ``securitypolicyviolation`` event of the page's documents.
    """

    origin: str
    console: list[tuple[str, str]] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    other_origin: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)

    def attach(self, page) -> PageProbe:
        page.on("console", lambda m: self.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("request", self._request)
        watch_csp(page, self.csp_violations.append)
        return self

    def _request(self, request) -> None:
        url = request.url
        self.requests.append(url)
        if not url.startswith((self.origin + "/", "data:", "blob:")):
            self.other_origin.append(url)

    @property
    def errors(self) -> list[str]:
        return ([text for kind, text in self.console if kind == "error"] + self.page_errors
                + [f"CSP violation: {text}" for text in self.csp_violations])

    @property
    def warnings(self) -> list[str]:
        return [text for kind, text in self.console if kind == "warning"]

    def fetched(self, fragment: str) -> list[str]:
        """Requests whose URL contains ``fragment``."""
        return [url for url in self.requests if fragment in url]


#: The timing runs after the check (a Run's, each backend's in "both backends") cut to their
#: fewest groups: the hook timingBudgetMs (types/page-globals.d.ts).
SHORT_TIMING = "window.onnxLiveExample.timingBudgetMs = 0"


def choose_backend(page, backend: str, root: str = "[data-live-example]") -> None:  # type: ignore[no-untyped-def]
    """Pick a backend on a live example's "Run on" switch (inside its folded record)."""
    record = root + ' [data-le="record"]'
    if page.get_attribute(record, "open") is None:
        page.click(record + " > summary")
    page.check(f'{root} input[data-le-backend][value="{backend}"]')
