"""Two versions of the service side by side, against the bare route: is a change faster in the worker?

    python bench/ab.py [--base HEAD] [--path "/api/v1/random?count=10"] [--rounds 20] [--seconds 2] [--app wsgi:app]

A path with {id} (`/api/v1/kaomojis/{id}`, `/kaomoji/{id}`) asks for random ids through a wrk script, as
bench/throughput.py's rows with random ids do, and the bare route is driven by a like script.

The strict setting of bench/throughput.py (one sync worker each, all pinned to core 0, wrk on core 1, the bare route
sending a body as large as the endpoint's), with three servers up at once: `--base` (a git ref, checked out into a
temporary worktree), this working tree, and the bare route. Each round runs all three, in an order that rotates from
round to round, so that a machine slower for a while slows every version alike. A ratio of two runs of one round is
less noisy than either against the other rounds: the table gives each version's median ratio to the bare route, and
the median of this tree's paired ratio to the base, with how many rounds this tree won. Both versions serve the same
catalog file (`--catalog`).

Each server runs its app inside bench/timed_app.py, which adds up the CPU time of the app's calls in the worker: the
table also gives each version's median microseconds an app call and the paired ratio of those. That time leaves out
what gunicorn and the kernel spend on a request, the same for every app, and with it most of the noise of requests
per second.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)

from bench.throughput import body_size, free_port, random_id_script, sample_ids, start, stop, wrk  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="the git ref this working tree is compared with")
    parser.add_argument("--path", default="/api/v1/random?count=10")
    parser.add_argument("--time", action="append", default=[], metavar="MODULE:QUALNAME",
                        help="also time this function in both versions (bench/timed_app.py TIMED_FUNCTIONS); may be repeated")
    parser.add_argument("--app", default="wsgi:app", help="the app of both versions, as gunicorn names it (bench.bare_app:app: the yardstick itself)")
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=2)
    args = parser.parse_args()
    args.worker_class, args.threads = "sync", 1
    env = {"KAOMOJI_CATALOG": str(Path(args.catalog).resolve()), "KAOMOJI_RATELIMIT_ENABLED": "false", "KAOMOJI_GATE_RATE": "0"}
    with tempfile.TemporaryDirectory() as folder:
        base_tree = Path(folder) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(base_tree), args.base], check=True)
        ports = {"base": free_port(), "this": free_port(), "bare": free_port()}
        servers = {}
        try:
            for who, tree, app in (("base", base_tree, args.app), ("this", ROOT, args.app), ("bare", ROOT, "bench.bare_app:app")):
                timed = {"PYTHONPATH": str(ROOT / "bench"), "TIMED_ROOT": str(tree), "TIMED_APP": app,
                         "TIMED_FUNCTIONS": " ".join(args.time) if who != "bare" else ""}
                servers[who] = start("timed_app:app", ports[who], args, {**env, **timed}, workers=1, cpus="0", cwd=tree)
            ids = sample_ids(args.catalog) if "{id}" in args.path else None
            prefix = args.path.split("{id}")[0]
            size = body_size(f"http://127.0.0.1:{ports['this']}{prefix}{ids[0] if ids else ''}", ids)
            urls = {who: f"http://127.0.0.1:{port}{args.path}" for who, port in ports.items()}
            urls["bare"] = f"http://127.0.0.1:{ports['bare']}/bare?size={size}"
            scripts = dict.fromkeys(urls)
            if ids:  # the script writes each request's path
                urls = {who: f"http://127.0.0.1:{port}" for who, port in ports.items()}
                scripts = {who: random_id_script(ids, folder, prefix if who != "bare" else f"/bare?size={size}&id=") for who in urls}
            for who, url in urls.items():  # warm each worker's caches
                wrk(url, 1, scripts[who], cpus="1")
            order, rounds, calls, functions = list(urls), [], [], []
            for number in range(args.rounds):
                turn = order[number % 3:] + order[:number % 3]
                rounds.append({})
                calls.append({})
                functions.append({})
                for who in turn:
                    app_time(ports[who])  # starts the count
                    rounds[-1][who] = wrk(urls[who], args.seconds, scripts[who], cpus="1")["rps"]
                    calls[-1][who], functions[-1][who] = app_time(ports[who])
        finally:
            for server in servers.values():
                stop(server)
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)], check=True)

    paired = [r["this"] / r["base"] for r in rounds]
    print(f"{args.path}: {args.rounds} rotating rounds of {args.seconds} s, body {size} bytes; base {args.base}\n")
    print("| version | median req/s | median ratio to bare | rounds | µs an app call (median) |")
    print("|---|---|---|---|---|")
    for who in ("base", "this", "bare"):
        ratios = [r[who] / r["bare"] for r in rounds]
        print(f"| {who} | {statistics.median(r[who] for r in rounds):.0f} | **{statistics.median(ratios):.3f}** "
              f"| {' '.join(f'{x:.2f}' for x in ratios)} | {statistics.median(c[who] for c in calls):.1f} |")
    print(f"\nthis / base, paired by round: req/s median **{statistics.median(paired):.3f}**, mean {statistics.mean(paired):.3f}, "
          f"this faster in {sum(p > 1 for p in paired)} of {len(paired)}; app-call time median "
          f"**{statistics.median(c['this'] / c['base'] for c in calls):.3f}**")
    if args.time:
        print("\n| function | base µs an app call (median) | this µs an app call (median) |")
        print("|---|---|---|")
        for name in args.time:
            print(f"| {name} | {statistics.median(f['base'][name] for f in functions):.1f} "
                  f"| {statistics.median(f['this'][name] for f in functions):.1f} |")


def app_time(port: int) -> tuple[float, dict[str, float]]:
    """Microseconds of CPU an app call took in the worker since the last asking, and those of each timed function per
    app call (bench/timed_app.py)."""
    first, *lines = urllib.request.urlopen(f"http://127.0.0.1:{port}/__timing", timeout=10).read().decode().splitlines()
    calls, seconds = first.split()
    per_call = 1e6 / max(1, int(calls))
    return float(seconds) * per_call, {name: float(spent) * per_call for spent, name in (line.split(" ", 1) for line in lines)}


if __name__ == "__main__":
    main()
