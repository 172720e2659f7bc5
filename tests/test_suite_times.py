"""scripts/suite_times.py: the per-file table docs/contributing.md prints, from pytest's JUnit report."""

from __future__ import annotations

import sys
from pathlib import Path

from .sitebuild import REPO

sys.path.insert(0, str(REPO / "scripts"))

import suite_times

REPORT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="tests.test_a" name="test_one" time="1.5"/>
<testcase classname="tests.test_a" name="test_two[x]" time="2.0"/>
<testcase classname="tests.test_b.TestGroup" name="test_three" time="90.0"/>
</testsuite></testsuites>"""


def test_times_are_summed_per_file_and_the_slowest_file_comes_first(tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    report.write_text(REPORT, encoding="utf-8")
    times = suite_times.times_per_file(report)
    assert times == {"tests/test_a.py": (3.5, 2), "tests/test_b.py": (90.0, 1)}
    assert suite_times.table(times).splitlines()[2:] == [
        "| `tests/test_b.py` | 1 | 90 s |",
        "| `tests/test_a.py` | 2 | 4 s |",
        "| all | 3 | 1.6 min |",
    ]
