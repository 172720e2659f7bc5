"""Hold memory until the machine has only about --leave GB available (MemAvailable in
/proc/meminfo), for --minutes: the memory pressure under which WebKitGTK's runtime errors come
back (README.md beside this file). Run it beside run.py or widget.py:

    .venv/bin/python tests/repro/webkit-oob/pressure.py --leave 2.2 --minutes 25 &
    .venv/bin/python tests/repro/webkit-oob/run.py --site site --rotate --pages 200 --runs 3 --minutes 20

The memory is anonymous and written to, so the kernel cannot drop it (with no swap, as here).
Leave room for the browser (its web process grows to about 1 GB): with too little, the kernel's
OOM killer ends the largest process, which is this one.
"""

from __future__ import annotations

import argparse
import mmap
import time

CHUNK = 256 << 20
PAGE = mmap.PAGESIZE


def available_gb() -> float:
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / (1 << 20)
    raise RuntimeError("no MemAvailable in /proc/meminfo")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--leave", type=float, default=2.2, help="GB left available")
    parser.add_argument("--minutes", type=float, default=25)
    args = parser.parse_args()
    held = []
    while available_gb() - CHUNK / (1 << 30) > args.leave:
        chunk = mmap.mmap(-1, CHUNK, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        for offset in range(0, CHUNK, PAGE):
            chunk[offset] = 1
        held.append(chunk)
    print(f"holding {len(held) * CHUNK / (1 << 30):.2f} GB; {available_gb():.2f} GB available", flush=True)
    time.sleep(args.minutes * 60)


if __name__ == "__main__":
    main()
