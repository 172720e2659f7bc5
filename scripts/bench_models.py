"""Benchmark: cold versus warm builds of this site (the model analysis cache).

Cold: the analysis cache is empty, so every model is checked, shape-inferred and run with
Python onnxruntime for its reference outputs. Warm: the cache (keyed by file content hash) is
full, so no model is analysed again. Also reports a rebuild inside one process, as under
`mkdocs serve`, where the in-memory cache answers.

    python scripts/bench_models.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

REPO = Path(__file__).resolve().parent.parent


def timed_build(site: Path, cache: Path, plugin_cache_dir: str) -> tuple[float, int]:
    config = load_config(str(REPO / "mkdocs.yml"), site_dir=str(site))
    plugin = config.plugins["glossary"]
    plugin.config.cache_dir = plugin_cache_dir
    config.plugins.on_startup(command="build", dirty=False)
    start = time.perf_counter()
    build(config)
    elapsed = time.perf_counter() - start
    return elapsed, plugin.analysis_cache.misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    cold, warm, analysed_cold, analysed_warm = [], [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        for _ in range(args.repeat):
            shutil.rmtree(cache, ignore_errors=True)
            seconds, analysed_cold = timed_build(Path(tmp) / "site", cache, str(cache))
            cold.append(seconds)
            seconds, analysed_warm = timed_build(Path(tmp) / "site", cache, str(cache))
            warm.append(seconds)
        # One process, two builds: the second is what every `mkdocs serve` rebuild costs.
        shutil.rmtree(cache, ignore_errors=True)
        config = load_config(str(REPO / "mkdocs.yml"), site_dir=str(Path(tmp) / "site"))
        config.plugins["glossary"].config.cache_dir = str(cache)
        config.plugins.on_startup(command="serve", dirty=False)
        build(config)
        start = time.perf_counter()
        build(config, serve_url="http://127.0.0.1:8000/")
        rebuild = time.perf_counter() - start
        rebuild_analyses = config.plugins["glossary"].analysis_cache.misses
    models = len(list((REPO / "models").glob("*/model.onnx")))
    print(f"{models} models, median of {args.repeat} builds each")
    print("| build | seconds | models analysed |")
    print("|---|---:|---:|")
    print(f"| cold (empty cache) | {statistics.median(cold):.2f} | {analysed_cold} |")
    print(f"| warm (disk cache) | {statistics.median(warm):.2f} | {analysed_warm} |")
    print(f"| rebuild in one process (mkdocs serve) | {rebuild:.2f} | "
          f"{rebuild_analyses - models} |")
    print(f"\nwarm / cold: {statistics.median(warm) / statistics.median(cold):.2f}")


if __name__ == "__main__":
    main()
