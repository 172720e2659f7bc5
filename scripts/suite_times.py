"""What each test file costs: a markdown table of wall time per file from a pytest JUnit report.

    PYTEST_ADDOPTS=--junitxml=/tmp/junit.xml make test
    .venv/bin/python scripts/suite_times.py /tmp/junit.xml

The times are pytest's per-test times (setup, call and teardown), summed per file; a
session-scoped fixture (a built site, a browser) is charged to the first test that asks for
it. docs/contributing.md prints the table of the last full run.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path


def times_per_file(report: Path) -> dict[str, tuple[float, int]]:
    """{test file: (seconds, number of tests)}, from the classname of each test case."""
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for case in ET.parse(report).getroot().iter("testcase"):
        # classname "tests.test_x" or "tests.test_x.TestClass": the file is its first two parts.
        module = ".".join(case.get("classname", "").split(".")[:2])
        name = module.replace(".", "/") + ".py"
        seconds[name] += float(case.get("time", "0"))
        counts[name] += 1
    return {name: (seconds[name], counts[name]) for name in seconds}


def table(times: dict[str, tuple[float, int]]) -> str:
    rows = sorted(times.items(), key=lambda item: -item[1][0])
    total = sum(s for s, _ in times.values())
    lines = ["| test file | tests | wall time |", "|---|---:|---:|"]
    lines += [f"| `{name}` | {count} | {seconds:,.0f} s |" for name, (seconds, count) in rows]
    lines.append(f"| all | {sum(c for _, c in times.values())} | {total / 60:,.1f} min |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("report", type=Path, help="pytest's --junitxml file")
    print(table(times_per_file(parser.parse_args().report)))


if __name__ == "__main__":
    main()
