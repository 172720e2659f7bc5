"""Parsing onnxruntime-web's docs/webgpu-operators.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from onnx_glossary.browser.webgpu_ops import (
    OpsetRange,
    load_webgpu_support,
    parse_ranges,
    parse_table,
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = """\
## Operators Support Table

| Operator | Opset | Comments |
|:--------:|:-------------:|-----|
| Add | ai.onnx(7-12,13,14+) |  |
| AveragePool | ai.onnx(7-9,10,11-18,19+); com.ms.internal.nhwc(7-9,10,11-18,19+) | slow |
| GridSample | ai.onnx(16-19); com.ms.internal.nhwc(16-19) |  |
| Attention | com.microsoft(1+) | no mask |
"""


@pytest.fixture(scope="module")
def support():
    return parse_table(SAMPLE, source="sample.md", version="0.0.0")


def test_parse_ranges():
    assert parse_ranges("7-12,13,14+") == (
        OpsetRange(7, 12), OpsetRange(13, 13), OpsetRange(14, None)
    )
    assert [str(r) for r in parse_ranges("1-10, 11+")] == ["1-10", "11+"]
    with pytest.raises(ValueError, match="bad opset range"):
        parse_ranges("7-")


@pytest.mark.parametrize(
    ("domain", "op", "opset", "expected"),
    [
        ("", "Add", 14, True),
        ("ai.onnx", "Add", 26, True),
        ("ai.onnx", "Add", 6, False),
        ("ai.onnx", "GridSample", 19, True),
        ("ai.onnx", "GridSample", 20, False),  # closed range: newer version has no kernel
        ("com.ms.internal.nhwc", "AveragePool", 11, True),
        ("com.microsoft", "Attention", 1, True),
        ("ai.onnx", "Loop", 17, False),  # known domain, not listed: runs on WASM
        ("ai.onnx.ml", "LinearClassifier", 1, False),
        ("my.custom", "Thing", 1, None),
    ],
)
def test_supports(support, domain, op, opset, expected):
    assert support.supports(domain, op, opset) is expected


def test_ranges_and_notes(support):
    assert support.ranges("", "Add") == "7-12,13,14+"
    assert support.ranges("ai.onnx", "Missing") == ""
    assert support.notes["AveragePool"] == "slow"


def test_bad_row_names_the_line():
    with pytest.raises(ValueError, match=r"^bad.md:3: "):
        parse_table("| Operator | Opset |\n|---|---|\n| Add | whatever |\n", source="bad.md",
                    version="x")


def test_empty_table_is_an_error():
    with pytest.raises(ValueError, match="no operator rows"):
        parse_table("# nothing here\n", source="empty.md", version="x")


def test_installed_table():
    support = load_webgpu_support(ROOT / "node_modules")
    assert support.version == "1.30.0"
    assert support.source == "onnxruntime-web/docs/webgpu-operators.md (onnxruntime-web 1.30.0)"
    assert len(support.kernels) > 100
    assert support.supports("ai.onnx", "Conv", 11) is True
    assert support.supports("ai.onnx", "Gemm", 13) is True


def test_missing_package_says_what_to_do(tmp_path):
    with pytest.raises(FileNotFoundError, match="npm ci"):
        load_webgpu_support(tmp_path)
