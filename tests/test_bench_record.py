"""The benchmark scripts append one record per run to the benchmarks' data file, under the keys
the pages print (scripts/bench_record.py). The benchmarks themselves take 20 minutes and an idle
machine, so they never run here: the appending is run on a copy of docs/benchmarks.json, and
the scripts' figure functions on made-up measurements."""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest
from onnx_glossary.common.figures import SCHEMA_PATH, load_figures

from .sitebuild import REPO

sys.path.insert(0, str(REPO / "scripts"))

import bench_build
import bench_lighthouse
import bench_live
import bench_record

DATA = REPO / "docs" / "benchmarks.json"
USED = re.compile(r"\[\[figure:\s*([a-z0-9._-]+)\s*\]\]")


def validate(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    return data


def made_up_figures() -> dict[str, dict]:
    """What each script records for one run, from invented measurements."""
    p1 = {n: {"plain": 10.0, "plugin": 12.0, "plain_cpu": 10.0, "plugin_cpu": 12.2, "hand": 9.0,
              "hand_cpu": 8.8} for n in (20, 1000)}
    errors = {"working": 14.0, "broken": 13.0, "working_cpu": 14.0, "broken_cpu": 13.3}
    live = {"cold": 0.3, "article": 0.66, "return": 0.15, "same-process": 0.13, "third": 0.12,
            "kept": 0.12}
    capture = {"cold": 0.31, "cold-bare": 0.3}
    audit = bench_lighthouse.Audit(97, 100, 100, 100, 1200.0, 1400.0, 120.0, 300_000.0)
    pages = [bench_lighthouse.PageType(key, key, "") for key in (
        "home", "glossary-index", "term-diagram", "term-plain", "models-index", "digits",
        "heaviest-model", "operators", "not-found")]
    return {**bench_build.build_figures(1000, p1, errors),
            **bench_lighthouse.figures(pages, audit, {page.key: audit for page in pages}),
            **bench_live.live_figures(live, 31.2, 31.0, "text-detection", 0.01, 0.047),
            **bench_live.capture_figures(capture, (31.5, 31.0, 0), (5.2, 5.0, 22), "text-detection")}


def test_a_run_is_appended_after_the_others_and_its_figures_become_the_newest(tmp_path) -> None:
    copy = tmp_path / "benchmarks.json"
    copy.write_text(DATA.read_text(encoding="utf-8"), encoding="utf-8")
    before = validate(copy)
    # A day after the newest run in the file, at 09:30: whatever `make bench` recorded last.
    newest = max(dt.date.fromisoformat(run["date"][:10]) for run in before["runs"])
    when = dt.datetime.combine(newest + dt.timedelta(days=1), dt.time(9, 30), tzinfo=dt.UTC)
    record = bench_record.append_run(made_up_figures(), path=copy, command="make bench",
                                     run_machine="2-core test machine", when=when,
                                     run_versions={"python": "3.11.7"})
    after = validate(copy)
    assert after["runs"][:-1] == before["runs"] and after["page"] == before["page"]
    assert after["runs"][-1] == record and record["date"] == when.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert record["machine"] == "2-core test machine" and record["command"] == "make bench"
    figures, problems = load_figures(copy, "benchmarks.json")
    assert problems == []
    assert figures.get("live.cold-run-s").text == "0.30 s"
    assert figures.get("live.digits-wasm-vs-native").text == "4.7\u00d7"
    assert figures.get("build.p1").text == "1.22" and figures.get("build.p1").date == record["date"]
    assert not list(tmp_path.glob("*.tmp"))  # written whole, then renamed


def test_the_scripts_record_every_figure_the_pages_print() -> None:
    """Every [[figure: KEY]] of the glossary and the docs is a key a benchmark run writes, so
    the next `make bench` updates what the pages say."""
    written = set(made_up_figures())
    pages = [*REPO.glob("glossary/*.md"), *REPO.glob("docs/**/*.md")]
    used = {key for page in pages for key in USED.findall(page.read_text(encoding="utf-8"))}
    assert used, "the pages quote measured figures"
    assert sorted(used - written) == []
    # And the data file in the repository has each of them.
    figures, problems = load_figures(DATA, "docs/benchmarks.json")
    assert problems == [] and sorted(used - set(figures.by_key)) == []


def test_a_missing_file_is_made_and_a_bad_key_is_refused(tmp_path) -> None:
    path = tmp_path / "new.json"
    bench_record.append_run({"build.p1": bench_record.figure(1.2, "1.20", "P1")}, path=path,
                            command="c", run_machine="m", run_versions={})
    assert validate(path)["page"] == "benchmarks.md"
    with pytest.raises(ValueError, match="Build P1"):
        bench_record.append_run({"Build P1": bench_record.figure(1.2, "1.20", "P1")}, path=path,
                                command="c", run_machine="m", run_versions={})
    assert len(validate(path)["runs"]) == 1


def test_only_runs_with_the_default_sizes_are_recorded(capsys) -> None:
    class Args:
        record = False
        no_record = False

    assert bench_record.should_record(Args(), defaults=True)
    assert not bench_record.should_record(Args(), defaults=False)
    assert "not recorded" in capsys.readouterr().out
    Args.record = True
    assert bench_record.should_record(Args(), defaults=False)
    Args.record, Args.no_record = False, True
    assert not bench_record.should_record(Args(), defaults=True)


def test_the_machine_line_names_cores_memory_and_load() -> None:
    line = bench_record.machine()
    assert re.match(r"^\d+-core .+, \d+ GB, (no GPU|a GPU device); load average \d+\.\d\d", line), line
