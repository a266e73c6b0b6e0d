"""Where a worker's CPU goes, C function by C function: the service's worker and the bare route's, each sampled by perf
while wrk loads it, in microseconds a request.

    python bench/worker_profile.py [--path "/api/v1/random?count=10"] [--seconds 6] [--top 15] [--catalog catalog.sqlite]

The strict setting of bench/throughput.py: one sync worker pinned to core 0, wrk on core 1, the bare route sending a
body as large as the endpoint's. A path with {id} asks for random ids. perf samples the worker's CPU clock (software
events: a virtual machine has no hardware counters), so each row is the CPU time a request spends in one function of
the interpreter, the C library, an extension or the kernel. cProfile (bench/request_profile.py) says which Python
function; this says what the machine does in a worker, where the caches hold little of the last request: reading a
cold byte string shows up as memmove, a cold array item as its getitem. Needs perf (Debian: linux-perf).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)

from bench.throughput import body_size, free_port, random_id_script, sample_ids, start, stop, wrk  # noqa: E402

FREQUENCY = 4000  # samples a second: one is 250 µs of CPU


def worker_pid(master) -> int:
    [pid] = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()
    return int(pid)


def profile(app: str, url_path: str, script: str | None, args, env: dict, folder: str) -> tuple[float, dict]:
    """Requests a second under wrk, and microseconds a request by (shared object, symbol)."""
    port = free_port()
    server = start(app, port, args, env, workers=1, cpus="0")
    data = Path(folder) / f"{app.split(':')[0]}.data"
    try:
        base = f"http://127.0.0.1:{port}"
        wrk(base + url_path, 1, script, cpus="1")  # the worker's caches and the locale's pieces made once
        load = subprocess.Popen(["taskset", "-c", "1", "wrk", "-t1", "-c8", f"-d{args.seconds + 2}s", *(["-s", script] if script else []),
                                 base + url_path], stdout=subprocess.PIPE, text=True)
        time.sleep(1)
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(FREQUENCY), "-p", str(worker_pid(server)), "-o", str(data),
                        "--", "sleep", str(args.seconds)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", load.communicate()[0]).group(1))
    finally:
        stop(server)
    report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "dso,sym", "--stdio", "-F", "sample,dso,sym"],
                            capture_output=True, text=True, check=True).stdout
    per_request = 1e6 / FREQUENCY / (rps * args.seconds)
    rows: dict[tuple[str, str], float] = {}
    for line in report.splitlines():
        found = re.match(r"\s*(\d+)\s+(\S+)\s+\[.\]\s+(.+)", line)
        if found:
            key = (found.group(2), found.group(3).strip())
            rows[key] = rows.get(key, 0.0) + int(found.group(1)) * per_request
    return rps, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default="/api/v1/random?count=10")
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("perf is not installed (Debian: apt-get install linux-perf)")
    args.worker_class, args.threads = "sync", 1
    env = {"KAOMOJI_CATALOG": str(Path(args.catalog).resolve()), "KAOMOJI_RATELIMIT_ENABLED": "false", "KAOMOJI_GATE_RATE": "0"}
    with tempfile.TemporaryDirectory() as folder:
        ids = sample_ids(args.catalog) if "{id}" in args.path else None
        prefix = args.path.split("{id}")[0]
        port = free_port()
        server = start("wsgi:app", port, args, env, workers=1, cpus="0")
        try:
            size = body_size(f"http://127.0.0.1:{port}{prefix}{ids[0] if ids else ''}", ids)
        finally:
            stop(server)
        ours_path, bare_path = (prefix, f"/bare?size={size}&id=") if ids else (args.path, f"/bare?size={size}")
        script = random_id_script(ids, folder, prefix) if ids else None
        bare_script = random_id_script(ids, folder, bare_path) if ids else None
        ours_rps, ours = profile("wsgi:app", "/" if ids else ours_path, script, args, env, folder)
        bare_rps, bare = profile("bench.bare_app:app", "/" if ids else bare_path, bare_script, args, {}, folder)

    def by_object(rows: dict) -> dict[str, float]:
        totals: dict[str, float] = {}
        for (shared, _), took in rows.items():
            name = "kernel" if shared.startswith("[kernel") else re.sub(r"(\.cpython-\S+)?\.so.*$", "", shared)
            totals[name] = totals.get(name, 0.0) + took
        return totals

    print(f"{args.path}: body {size} bytes; {ours_rps:.0f} req/s, the bare route {bare_rps:.0f} (perf attached)\n")
    print("| CPU µs a request | ours | bare | ours − bare |")
    print("|---|---|---|---|")
    ours_objects, bare_objects = by_object(ours), by_object(bare)
    for name in sorted(set(ours_objects) | set(bare_objects), key=lambda n: -max(ours_objects.get(n, 0), bare_objects.get(n, 0)))[:8]:
        mine, theirs = ours_objects.get(name, 0.0), bare_objects.get(name, 0.0)
        print(f"| {name} | {mine:.1f} | {theirs:.1f} | {mine - theirs:+.1f} |")
    print(f"| **all** | **{sum(ours.values()):.1f}** | **{sum(bare.values()):.1f}** | **{sum(ours.values()) - sum(bare.values()):+.1f}** |")
    print(f"\nThe {args.top} functions that cost ours the most more than the bare route's, in µs a request:\n")
    print("| function | object | ours | bare | ours − bare |")
    print("|---|---|---|---|---|")
    for key in sorted(set(ours) | set(bare), key=lambda k: bare.get(k, 0.0) - ours.get(k, 0.0))[:args.top]:
        print(f"| {key[1][:50]} | {key[0][:24]} | {ours.get(key, 0.0):.1f} | {bare.get(key, 0.0):.1f} | {ours.get(key, 0.0) - bare.get(key, 0.0):+.1f} |")


if __name__ == "__main__":
    main()
