"""Benchmark: wall time and size of a full catalog build (README "Budgets").

    python bench/build.py [--runs N]

Runs `python -m tools.build_catalog` N times (default 3), each in a fresh process as a user
would, into a temporary folder, and prints the fastest and slowest time and the file size.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "catalog.sqlite"
        for _ in range(args.runs):
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "tools.build_catalog", "--out", str(out)],
                                  cwd=ROOT, check=True, capture_output=True, text=True)
            times.append(time.perf_counter() - started)
        size = out.stat().st_size
    print(done.stdout.strip())
    print(f"time: fastest {min(times):.1f} s, slowest {max(times):.1f} s over {args.runs} runs (budget 60 s)")
    print(f"size: {size / 1e6:.1f} MB (budget 150 MB)")


if __name__ == "__main__":
    main()
