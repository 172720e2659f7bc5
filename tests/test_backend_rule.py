"""The live example's ``auto`` rule on the benchmarks page ([[backend-rule: all]]): every model's
multiply-adds a run as the build counted them (its reference.json), and what ``auto`` runs it
on, agreeing with the threshold each built example.mjs carries."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from onnx_glossary.browser.runtime import WEBGPU_MIN_MULTIPLY_ADDS

from .sitebuild import REPO, Built


class _Rows(HTMLParser):
    """The text of each cell of the table with class gl-backend-table, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._in_table = self._in_body = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and "gl-backend-table" in (dict(attrs).get("class") or ""):
            self._in_table = True
        elif self._in_table and tag == "tbody":
            self._in_body = True
        elif self._in_body and tag == "tr":
            self.rows.append([])
        elif self._in_body and tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_table = self._in_body = False

    def handle_data(self, data: str) -> None:
        if self._in_body and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data


def test_the_benchmarks_page_gives_each_models_work_and_backend(real_site: Built) -> None:
    parser = _Rows()
    parser.feed((real_site.site / "benchmarks" / "index.html").read_text(encoding="utf-8"))
    rows = {cells[0].strip().removesuffix(" (test file)"): [c.strip() for c in cells[1:]]
            for cells in parser.rows}
    live = sorted(p.parent.name for p in real_site.site.glob("models/*/reference.json"))
    assert sorted(rows) == live and "text-detection" in rows
    page = (real_site.site / "benchmarks" / "index.html").read_text(encoding="utf-8")
    assert f"{WEBGPU_MIN_MULTIPLY_ADDS:,}" in page
    for name, (count, backend) in rows.items():
        folder = real_site.site / "models" / name
        counted = json.loads((folder / "reference.json").read_text(encoding="utf-8"))["cost"]["multiply_adds"]
        assert count == f"{counted:,}", name
        snippet = (folder / "example.mjs").read_text(encoding="utf-8")
        threshold = re.search(r"WEBGPU_FROM = (\d+);", snippet)
        if threshold is None:  # an ai.onnx.ml model: only the WebAssembly build runs it
            assert backend == "WebAssembly (ai.onnx.ml)", name
            continue
        assert int(threshold.group(1)) == WEBGPU_MIN_MULTIPLY_ADDS
        above = counted >= WEBGPU_MIN_MULTIPLY_ADDS
        assert backend == ("WebGPU (hardware)" if above else "WebAssembly"), name
    # The rule's two outcomes both occur among the shipped models.
    assert rows["text-detection"][1].startswith("WebGPU") and rows["digits"][1] == "WebAssembly"
    assert (REPO / "docs" / "benchmarks.md").read_text(encoding="utf-8").count("[[backend-rule: all]]") == 1
