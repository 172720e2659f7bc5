"""The Lighthouse benchmark's pure parts (scripts/bench_lighthouse.py) on made-up reports, and
the gzip compression of the static server it serves the site with. Lighthouse itself takes half
an hour and an idle machine, so it never runs here."""

from __future__ import annotations

import gzip
import json
import sys
import urllib.request
from pathlib import Path

import jsonschema
import pytest
from onnx_glossary.common.figures import SCHEMA_PATH

from .sitebuild import REPO
from .support.browser import StaticServer

sys.path.insert(0, str(REPO / "scripts"))

import bench_lighthouse as bl
import bench_record


def report(performance: float = 0.99, tbt: float = 90.0, lcp: float = 1400.0,
           seo: float = 1.0) -> dict:
    """The parts of a Lighthouse JSON report the benchmark reads."""
    return {
        "finalDisplayedUrl": "http://127.0.0.1/onnx-glossary/",
        "categories": {"performance": {"score": performance}, "accessibility": {"score": 1},
                       "best-practices": {"score": 1}, "seo": {"score": seo}},
        "audits": {"first-contentful-paint": {"numericValue": 1200.0},
                   "largest-contentful-paint": {"numericValue": lcp},
                   "total-blocking-time": {"numericValue": tbt},
                   "total-byte-weight": {"numericValue": 66_000}},
    }


def test_a_report_gives_scores_out_of_100_and_its_metrics() -> None:
    audit = bl.audit_from_report(report(performance=0.786))
    assert audit.performance == 79 and audit.seo == 100
    assert (audit.fcp_ms, audit.lcp_ms, audit.tbt_ms, audit.bytes) == (1200, 1400, 90, 66_000)


def test_a_report_lighthouse_could_not_finish_is_an_error_not_a_zero() -> None:
    failed = {**report(), "runtimeError": {"code": "NO_FCP", "message": "no paint"}}
    with pytest.raises(ValueError, match="no paint"):
        bl.audit_from_report(failed)
    unscored = report()
    unscored["categories"]["performance"]["score"] = None
    with pytest.raises(ValueError, match="no performance score"):
        bl.audit_from_report(unscored)


def test_each_figure_is_its_own_median_over_the_runs() -> None:
    runs = [bl.audit_from_report(report(performance=p, tbt=t))
            for p, t in ((0.90, 300), (0.99, 50), (0.95, 900))]
    median = bl.median_audit(runs)
    assert median.performance == 95 and median.tbt_ms == 300
    with pytest.raises(ValueError):
        bl.median_audit([])


def test_targets_missed_are_named_and_a_page_that_meets_them_misses_none() -> None:
    assert bl.misses(bl.audit_from_report(report())) == []
    at_the_limits = report(performance=0.95, tbt=200, lcp=2500)
    assert bl.misses(bl.audit_from_report(at_the_limits)) == []
    slow = bl.misses(bl.audit_from_report(report(performance=0.78, tbt=1040, lcp=2600, seo=0.92)))
    assert slow == ["performance 78 < 95", "TBT 1040 ms > 200 ms", "LCP 2.60 s > 2.5 s", "seo 92 < 100"]


def test_the_plain_page_only_decides_whether_the_run_counts() -> None:
    assert bl.misses(bl.audit_from_report(report(performance=0.98, tbt=900)), plain=True) == []
    low = bl.misses(bl.audit_from_report(report(performance=0.97)), plain=True)
    assert low == ["performance 97 < 98: the run does not count"]


def test_the_table_puts_each_target_beside_the_figures(tmp_path: Path) -> None:
    pages = [bl.PageType("home", "home", ""), bl.PageType("digits", "models/digits/", "models/digits/")]
    plain = bl.audit_from_report(report(performance=1.0))
    medians = {"home": bl.audit_from_report(report(performance=0.78, tbt=1040)),
               "digits": bl.audit_from_report(report())}
    lines = bl.table(pages, plain, medians)
    assert lines[2].startswith("| *target* | ≥ 95 (plain ≥ 98) |") and "≤ 200 ms" in lines[2]
    assert lines[4] == ("| home | 78 | 1.2 s | 1.4 s | 1,040 ms | 64 KB | 100 | 100 | 100 "
                        "| performance 78 < 95; TBT 1040 ms > 200 ms |")
    assert lines[5].endswith("| none |")
    # The figures are a record the data file's schema accepts.
    copy = tmp_path / "benchmarks.json"
    bench_record.append_run(bl.figures(pages, plain, medians), path=copy, command="make bench",
                            run_machine="test", run_versions={"lighthouse": "12.8.2"})
    data = json.loads(copy.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    assert data["runs"][0]["figures"]["lighthouse.home.tbt-ms"]["text"] == "1,040 ms"


def test_the_plain_page_is_the_terms_title_summary_and_body() -> None:
    text = bl.plain_markdown(REPO / "glossary" / "onnx.md")
    assert text.startswith('---\ndescription: "ONNX, short for Open Neural Network Exchange')
    assert "\n---\n# ONNX\n\nONNX, short for Open Neural Network Exchange" in text
    assert "## What does an .onnx file hold?" in text and "facts:" not in text


def test_a_404_page_is_scored_without_the_audits_its_status_fails_by_design() -> None:
    missing = report(seo=0.9)
    missing["finalDisplayedUrl"] = url = "http://127.0.0.1/onnx-glossary/no-such-page/"
    missing["categories"]["seo"]["auditRefs"] = [{"id": "http-status-code", "weight": 1},
                                                 {"id": "document-title", "weight": 1},
                                                 {"id": "structured-data", "weight": 0}]
    missing["audits"].update({"http-status-code": {"score": 0}, "document-title": {"score": 1},
                              "structured-data": {"score": None}})
    missing["audits"]["errors-in-console"] = {"details": {"items": [
        {"source": "network", "description": "Failed to load resource: 404 (Not Found)",
         "sourceLocation": {"url": url}}]}}
    assert bl.status_audits(missing) == {"http-status-code", "errors-in-console"}
    assert bl.audit_from_report(missing, missing=True).seo == 100
    assert bl.audit_from_report(missing).seo == 90  # Lighthouse's own score
    # Another error in the console still counts.
    missing["audits"]["errors-in-console"]["details"]["items"].append(
        {"source": "javascript", "description": "TypeError", "sourceLocation": {"url": url}})
    assert bl.status_audits(missing) == {"http-status-code"}


def fetch(url: str, gzip_ok: bool) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request) as answer:
        return dict(answer.headers), answer.read()


def test_the_server_compresses_text_as_github_pages_does(tmp_path: Path) -> None:
    (tmp_path / "page").mkdir()
    html = b"<!doctype html><p>" + b"words " * 500
    (tmp_path / "page" / "index.html").write_bytes(html)
    (tmp_path / "model.onnx").write_bytes(b"\x08\x07" * 500)
    with StaticServer(tmp_path, "/site/", cache_control="max-age=600", gzip=True) as server:
        headers, body = fetch(server.url + "page/", gzip_ok=True)
        assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == html
        assert headers["Cache-Control"] == "max-age=600" and "Last-Modified" in headers
        plain_headers, plain_body = fetch(server.url + "page/", gzip_ok=False)
        assert "Content-Encoding" not in plain_headers and plain_body == html
        model_headers, _ = fetch(server.url + "model.onnx", gzip_ok=True)
        assert "Content-Encoding" not in model_headers  # a binary goes as it is
