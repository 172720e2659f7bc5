"""A newcomer's first `make serve` (issue 23), in a fresh copy of the repository: the tracked
files only, no .venv, no node_modules, no analysis cache. It says what it installs and about
how long that takes, echoes no recipe, prints no line that reads like a failure, and logs at
info level only what a contributor acts on, until the site is served.

It installs the pinned Python and npm packages from the package index and npm's registry (or
their caches) into the copy, so it is as slow as the wheel's test and shares its marker.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from .sitebuild import REPO

pytestmark = pytest.mark.wheel

#: Lines that read like a failure: none may appear when nothing failed.
ALARMING = re.compile(r"Could not|refuses|Traceback|ERROR")
#: MkDocs' own info lines of a build and a serve; any other info line is one to act on.
MKDOCS_INFO = re.compile(r"INFO    -  (Building documentation|Cleaning site directory|Documentation built in"
                         r"|\[[\d:]+\] (Watching paths for changes|Serving on))")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fresh_copy(target: Path) -> None:
    """The repository as a clone has it: every tracked file (as it is in the work tree) and
    the new ones not ignored, nothing git ignores."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def test_a_first_make_serve_says_what_it_installs_and_nothing_that_reads_like_a_failure(tmp_path: Path) -> None:
    clone = tmp_path / "onnx-glossary"
    fresh_copy(clone)
    assert not (clone / ".venv").exists() and not (clone / "node_modules").exists()
    address = f"127.0.0.1:{_free_port()}"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "MAKEFLAGS")}
    started = time.monotonic()
    process = subprocess.Popen(["make", "serve", f"SERVE_ADDR={address}"], cwd=clone, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    lines: list[tuple[float, str]] = []
    served = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append((time.monotonic() - started, line.rstrip("\n")))
            if "Serving on" in line:
                served.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        served.wait(timeout=1500)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        reader.join(timeout=10)
        assert process.stdout is not None
        process.stdout.close()
    for at, line in lines:  # the timings, shown when the test fails or runs with -s
        print(f"{at:7.1f} s  {line}")
    text = [line for _, line in lines]
    assert served.is_set(), "\n".join(text[-30:])
    # What it installs and how long that takes, before the quiet installs.
    first = text.index(next(line for line in text if line.startswith("setup: installing the Python")))
    assert "About 2 minutes" in " ".join(text[first:first + 3])
    assert any(line.startswith("setup: installing the npm packages") for line in text)
    assert f"make serve: building the site, then serving it on http://{address}/onnx-glossary/" in text
    # No recipe echoed, nothing alarming, and the info lines are MkDocs' own or one to act on.
    assert not [line for line in text if re.match(r"(test -x|\.venv/bin/|npm ci|touch )", line)]
    assert [line for line in text if ALARMING.search(line)] == []
    ours = [line for line in text if line.startswith("INFO") and not MKDOCS_INFO.match(line)]
    assert ours == ["INFO    -  onnx_glossary: Content-Security-Policy left out under `mkdocs serve` "
                    "(live reload); `make build` applies it"]
