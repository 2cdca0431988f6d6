#!/usr/bin/env python3
"""bench/rel/inject_eval.py -- fault-injection campaigns on suite workloads
(docs/RELIABILITY.md, "Campaigns on the suite").

For each workload it runs `lockstep inject` (timing mode, small size) over
every fault site with the bit1 model, RUNS runs per site, into OUT/W.db,
then reads the databases and writes:

  OUT/tables.md       outcome shares per workload and site (masked, SDC,
                      DUE, hang, perf; Wilson 95% intervals for SDC), and
                      the golden runs' ACE estimates next to the matching
                      sites' injected failure shares
  OUT/inject_W.svg    outcome shares per site for workload W, drawn by
                      gnuplot when it is installed (Debian: gnuplot-nox)

Usage: bench/rel/inject_eval.py [--runs N] [--seed S] [--jobs J] [--out DIR]
                                [--lockstep BIN] [--config F] [--replot] [WORKLOAD...]
(--replot: tables and figures again from the databases in OUT, without running)
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
import evalplot  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKLOADS = ["hotspot", "cp", "bfs", "srad"]
OUTCOMES = ["masked", "sdc", "due", "hang", "perf"]
ACE = [("reg_any", "reg", "register file"), ("pred", "pred", "predicates"),
       ("shared", "shared", "shared memory")]


def wilson(k, n):
    return evalplot.wilson(k, n)


def campaign(args, w):
    db = os.path.join(args.out, w + ".db")
    if os.path.exists(db):
        os.remove(db)
    cmd = [args.lockstep, "inject", "--runs", str(args.runs), "--site", "all", "--model", "bit1",
           "--seed", str(args.seed), "--db", db]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    if args.config:
        cmd += ["--config", args.config]
    cmd += ["--", os.path.join(ROOT, "build", "bench", w), "--size", "small"]
    print("== %s: %s" % (w, " ".join(cmd)), flush=True)
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        sys.exit("inject_eval: %s: lockstep inject failed (exit %d)\n%s" % (w, r.returncode, r.stderr[-3000:]))


def load(args, w):
    db = sqlite3.connect(os.path.join(args.out, w + ".db"))
    golden = json.loads(db.execute("SELECT golden FROM campaign").fetchone()[0])
    counts = {}
    for site, outcome, landed, n in db.execute(
            "SELECT site, outcome, landed, count(*) FROM inject_run GROUP BY 1, 2, 3"):
        c = counts.setdefault(site, {"n": 0, "unlanded": 0})
        c[outcome] = c.get(outcome, 0) + n
        c["n"] += n
        if landed == 0:
            c["unlanded"] += n
    return golden, counts


def pct(k, n):
    return "%.0f%%" % (100.0 * k / n) if n else "-"


def gnuplot(args, name, data, script):
    return evalplot.gnuplot(args.out, name, data, script)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=390, help="runs per workload (all sites, round robin)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "inject-eval"))
    ap.add_argument("--lockstep", default=os.path.join(ROOT, "build", "lockstep"))
    ap.add_argument("--config", default="")
    ap.add_argument("--replot", action="store_true")
    ap.add_argument("workloads", nargs="*", default=WORKLOADS)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.replot:
        for w in args.workloads:
            campaign(args, w)
    data = {w: load(args, w) for w in args.workloads}

    md = ""
    sites = sorted({s for _, c in data.values() for s in c})
    for w in args.workloads:
        golden, counts = data[w]
        rows = []
        for s in sites:
            c = counts.get(s)
            if not c:
                continue
            n = c["n"]
            lo, hi = wilson(c.get("sdc", 0), n)
            rows.append("| %s | %d | %s | %s [%.0f, %.0f] | %s | %s | %s | %d |" % (
                s, n, pct(c.get("masked", 0), n), pct(c.get("sdc", 0), n), 100 * lo, 100 * hi,
                pct(c.get("due", 0), n), pct(c.get("hang", 0), n), pct(c.get("perf", 0), n),
                c["unlanded"]))
        md += ("### %s (golden run: %s cycles, %s warp instructions)\n\n"
               "| site | runs | masked | SDC [95%% interval] | DUE | hang | perf | unlanded |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|\n" % (
                   w, format(golden.get("total_cycles", 0), ","),
                   format(golden.get("total_warp_insts", 0), ",")))
        md += "\n".join(rows) + "\n\n"
        tsv = "site\tmasked\tSDC\tDUE\thang\tperf\n"
        for s in sites:
            c = counts.get(s)
            if c:
                tsv += s + "\t" + "\t".join("%.4f" % (c.get(o, 0) / c["n"]) for o in OUTCOMES) + "\n"
        gnuplot(args, "inject_" + w, tsv,
                'set title "%s: outcome of one bit flip, per site"\n'
                'set style data histograms\nset style histogram rowstacked\n'
                'set style fill solid 0.85 border -1\nset boxwidth 0.75\n'
                'set yrange [0:1]\nset ylabel "share of runs"\nset xtics rotate by -35\n'
                'set key outside right\n'
                'plot for [i=2:6] "DATA" using i:xtic(1)\n' % w)

    md += ("### ACE estimate of the golden run against injection\n\n"
           "AVF over the allocated structure (resident warps' registers and predicates, the "
           "launches' shared memory) from the golden run's ACE analysis, and the share of the "
           "matching site's runs that ended in SDC, DUE or hang, with its Wilson 95% interval.\n\n"
           "| workload | structure (site) | AVF allocated | AVF configured | injected failures [95%] |\n"
           "|---|---|---:|---:|---:|\n")
    for w in args.workloads:
        golden, counts = data[w]
        ace = golden.get("ace") or {}
        for site, key, name in ACE:
            a = ace.get(key)
            c = counts.get(site)
            if not a or not c:
                continue
            k = sum(c.get(o, 0) for o in ("sdc", "due", "hang"))
            lo, hi = wilson(k, c["n"])
            cfg = a.get("avf_configured")
            md += "| %s | %s (%s) | %.1f%% | %s | %.0f%% [%.0f, %.0f] of %d |\n" % (
                w, name, site, 100 * a["avf_allocated"],
                "%.1f%%" % (100 * cfg) if cfg is not None else "-",
                100.0 * k / c["n"], 100 * lo, 100 * hi, c["n"])
    md += "\n"
    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write(md)
    print(md)
    print("inject_eval: results in %s" % args.out)


if __name__ == "__main__":
    main()
