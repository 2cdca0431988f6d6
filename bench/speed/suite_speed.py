#!/usr/bin/env python3
"""bench/speed/suite_speed.py -- the timing model's speed on the workload suite.

Runs bench/run (the suite, small size, timing mode) under a few settings and
prints Markdown tables for docs/PERFORMANCE.md:

  rates      per workload, one host thread, one configuration: warp and
             thread instructions per host second, simulated cycles per host
             second, host microseconds per SM-cycle (host time / (cycles x
             SMs)); and the suite's totals
  threads    the suite's rate on 1, 2, ... host threads (-lockstep_threads),
             and the speedup over one thread; the statistics must not move
  window     relaxed synchronisation (-lockstep_window K, inexact): per K,
             the suite's speed and how far each workload's cycle count moves
             from the exact run (mean and largest |error|)

Wall-clock figures depend on the machine and on what else runs on it: the
script prints the machine's CPU model and core count with the tables.
Usage:

  bench/speed/suite_speed.py rates   [--config configs/gtx480.config] [--repeat N]
  bench/speed/suite_speed.py threads [--config F] [--threads 1,2,4]
  bench/speed/suite_speed.py window  [--config F] [--windows 16,32,64] [--nthreads N]

Every run also keeps bench/run's JSON under --out (default build/speed/).
"""
import argparse
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def nsms(config):
    """The configuration's SM count (-gpgpu_n_clusters x -gpgpu_n_cores_per_cluster)."""
    out = subprocess.run([os.path.join(ROOT, "build", "lockstep"), "config", "--config", config,
                          "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("suite_speed: cannot read %s: %s" % (config, out.stderr.strip()))
    cfg = json.loads(out.stdout)
    return int(cfg["gpgpu_n_clusters"]) * int(cfg["gpgpu_n_cores_per_cluster"])


def suite(args, tag, options):
    """Run the suite once with these -O options; return bench/run's records."""
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "%s.json" % tag)
    cmd = [sys.executable, os.path.join(ROOT, "bench", "run"), "--size", "small",
           "--config", args.config, "--nondet-seed", "0", "--json-file", path]
    for o in options:
        cmd += ["-O", o]
    cmd += args.names
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("suite_speed: bench/run failed (%s):\n%s" % (tag, r.stderr[-2000:]))
    with open(path) as f:
        return {rec["name"]: rec for rec in json.load(f)}


def best_of(args, tag, options):
    """The suite run --repeat times; each workload keeps its fastest run."""
    best = None
    for i in range(args.repeat):
        recs = suite(args, "%s-%d" % (tag, i), options)
        if best is None:
            best = recs
            continue
        for name, rec in recs.items():
            if rec["host_seconds"] < best[name]["host_seconds"]:
                best[name] = rec
    return best


def totals(recs):
    wi = sum(r["warp_insts"] for r in recs.values())
    ti = sum(r["thread_insts"] for r in recs.values())
    hs = sum(r["host_seconds"] for r in recs.values())
    return wi, ti, hs


def header(args, what):
    print("%s; %s, config %s, small size, timing mode; %s (%d CPUs)" %
          (what, "best of %d" % args.repeat if args.repeat > 1 else "one run",
           os.path.relpath(args.config, ROOT), cpu_model(), os.cpu_count() or 0))
    print()


def cmd_rates(args):
    recs = best_of(args, "rates", ["-lockstep_threads 1"])
    n = nsms(args.config)
    header(args, "One host thread")
    print("| workload | warp insts | M warp insts/s | M thread insts/s | k cycles/s "
          "| us per SM-cycle |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in sorted(recs):
        r = recs[name]
        hs = r["host_seconds"]
        print("| %s | %d | %.2f | %.2f | %.1f | %.3f |" %
              (name, r["warp_insts"], r["warp_insts"] / hs / 1e6, r["thread_insts"] / hs / 1e6,
               r["cycles"] / hs / 1e3, hs * 1e6 / (r["cycles"] * n)))
    wi, ti, hs = totals(recs)
    cyc = sum(r["cycles"] for r in recs.values())
    print("| **suite** | %d | %.2f | %.2f | %.1f | %.3f |" %
          (wi, wi / hs / 1e6, ti / hs / 1e6, cyc / hs / 1e3, hs * 1e6 / (cyc * n)))


def same_stats(a, b):
    keys = ("hash", "warp_insts", "thread_insts", "cycles")
    return [n for n in a if any(a[n][k] != b[n][k] for k in keys)]


def cmd_threads(args):
    counts = [int(x) for x in args.threads.split(",")]
    runs = {t: best_of(args, "threads-%d" % t, ["-lockstep_threads %d" % t]) for t in counts}
    header(args, "Host threads")
    print("| threads | host s | M warp insts/s | speedup | identical results |")
    print("|---:|---:|---:|---:|---|")
    base = totals(runs[counts[0]])[2]
    for t in counts:
        wi, _, hs = totals(runs[t])
        diff = same_stats(runs[counts[0]], runs[t])
        print("| %d | %.2f | %.2f | %.2fx | %s |" %
              (t, hs, wi / hs / 1e6, base / hs, "yes" if not diff else "NO: " + ", ".join(diff)))
    print()
    print("| workload | " + " | ".join("%d thr M/s" % t for t in counts) + " |")
    print("|---|" + "|".join("---:" for _ in counts) + "|")
    for name in sorted(runs[counts[0]]):
        cells = ["%.2f" % (runs[t][name]["warp_insts"] / runs[t][name]["host_seconds"] / 1e6)
                 for t in counts]
        print("| %s | %s |" % (name, " | ".join(cells)))


def cmd_window(args):
    ks = [int(x) for x in args.windows.split(",")]
    thr = ["-lockstep_threads %d" % args.nthreads]
    exact = best_of(args, "window-exact", thr)
    runs = {k: best_of(args, "window-%d" % k, thr + ["-lockstep_window %d" % k]) for k in ks}
    header(args, "Relaxed synchronisation, %d host thread(s)" % args.nthreads)
    print("| window | host s | speedup | mean abs cycle error | largest | on | failed checks |")
    print("|---|---:|---:|---:|---:|---|---|")
    hs0 = totals(exact)[2]
    print("| exact | %.2f | 1.00x | 0 | 0 | | |" % hs0)
    for k in ks:
        hs = totals(runs[k])[2]
        errs = {n: abs(runs[k][n]["cycles"] - exact[n]["cycles"]) / exact[n]["cycles"]
                for n in exact}
        worst = max(errs, key=errs.get)
        bad = [n for n in runs[k] if not runs[k][n]["ok"]]
        print("| %d | %.2f | %.2fx | %.2f%% | %.2f%% | %s | %s |" %
              (k, hs, hs0 / hs, 100 * sum(errs.values()) / len(errs), 100 * errs[worst], worst,
               ", ".join(bad) or "none"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["rates", "threads", "window"])
    ap.add_argument("names", nargs="*", help="workloads (default: the whole suite)")
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "gtx480.config"))
    ap.add_argument("--repeat", type=int, default=1, help="runs per setting; keep the fastest")
    ap.add_argument("--threads", default="1,2", help="thread counts (threads)")
    ap.add_argument("--windows", default="16,32,64", help="window lengths in cycles (window)")
    ap.add_argument("--nthreads", type=int, default=1, help="host threads (window)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "speed"))
    args = ap.parse_args()
    args.config = os.path.abspath(args.config)
    {"rates": cmd_rates, "threads": cmd_threads, "window": cmd_window}[args.what](args)


if __name__ == "__main__":
    main()
