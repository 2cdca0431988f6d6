#!/usr/bin/env python3
"""bench/det/det_eval.py -- GPUDet's evaluation on lockstep (docs/DETERMINISM.md).

Runs the GPUDet paper's workloads of the suite (bench/run, small size,
timing mode, one configuration) under the nondeterministic baseline and
under -lockstep_det gpudet with the paper's knobs varied, and writes:

  OUT/results.json      every run's cycles and GPUDet counters
  OUT/tables.md         the tables (Markdown)
  OUT/*.svg             the figures, drawn by gnuplot when it is installed
                        (Debian: gnuplot-nox); without it the tables alone

Figures, in the shape of the paper's:
  fig3_quantum_ends     why warps end their quanta (GPUdet-base, quantum 200)
  fig7_overhead         cycles against the baseline, split into parallel,
                        commit and serial mode
  fig8_bta              GPUdet-base, with BTA, with BTA and DWP (GPUdet-WA)
  fig9_commit           commit-mode cycles: Z-buffer units against locks
  fig10_serial          W-Ser against CU-Ser
  fig11_quantum         overhead against quantum size (geometric mean)
  fig12_bloom           overhead and false positives against Bloom-filter size

Usage: bench/det/det_eval.py [--config F] [--out DIR] [--lockstep BIN] [--replot] [WORKLOAD...]
(--replot: tables and figures again from OUT/results.json, without running)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
import evalplot  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAPER = ["aes", "bfs_racy", "bfs", "cfd", "cp", "hotspot", "lib", "lps", "srad",
         "cl", "clopt", "ht", "atm"]
ATOMIC = ["cl", "clopt", "ht", "atm", "bfs"]

RUNS = [  # name, options
    ("baseline", []),
    ("gpudet", ["-lockstep_det gpudet"]),
    ("base", ["-lockstep_det gpudet", "-gpudet_bta 0", "-gpudet_dwp 0"]),
    ("bta", ["-lockstep_det gpudet", "-gpudet_dwp 0"]),
    ("wser", ["-lockstep_det gpudet", "-gpudet_serial warp"]),
    ("lock", ["-lockstep_det gpudet", "-gpudet_commit lock"]),
    ("q100", ["-lockstep_det gpudet", "-gpudet_quantum_size 100"]),
    ("q600", ["-lockstep_det gpudet", "-gpudet_quantum_size 600"]),
    ("q1000", ["-lockstep_det gpudet", "-gpudet_quantum_size 1000"]),
    ("bloom0", ["-lockstep_det gpudet", "-gpudet_bloom_bits 0"]),
    ("bloom128", ["-lockstep_det gpudet", "-gpudet_bloom_bits 128"]),
    ("bloom256", ["-lockstep_det gpudet", "-gpudet_bloom_bits 256"]),
    ("bloom512", ["-lockstep_det gpudet", "-gpudet_bloom_bits 512"]),
]


def run_suite(args, name, opts, names):
    out = os.path.join(args.out, "run-%s.json" % name)
    cmd = [sys.executable, os.path.join(ROOT, "bench", "run"), "--lockstep", args.lockstep,
           "--json-file", out]
    if args.config:
        cmd += ["--config", args.config]
    for o in opts:
        cmd += ["-O", o]
    cmd += names
    print("== %s: %s" % (name, " ".join(opts) or "(nondeterministic baseline)"), flush=True)
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    with open(out) as f:
        recs = {x["name"]: x for x in json.load(f)}
    bad = [n for n, x in recs.items() if not x["ok"]]
    if r.returncode or bad:
        sys.exit("det_eval: %s: workloads failed: %s\n%s" % (name, " ".join(bad), r.stdout[-2000:]))
    return recs


def geomean(v):
    return evalplot.geomean(v)


def md_table(head, rows):
    s = "| " + " | ".join(head) + " |\n|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|\n"
    for r in rows:
        s += "| " + " | ".join(r) + " |\n"
    return s


def gnuplot(args, name, data, script):
    return evalplot.gnuplot(args.out, name, data, script)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default=None, help="GPU configuration (default: lockstep's)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "det-eval"))
    ap.add_argument("--lockstep", default=os.path.join(ROOT, "build", "lockstep"))
    ap.add_argument("--replot", action="store_true", help="only redraw from OUT/results.json")
    ap.add_argument("workloads", nargs="*", default=PAPER)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    names = args.workloads
    if args.replot:
        with open(os.path.join(args.out, "results.json")) as f:
            res = json.load(f)
    else:
        res = {name: run_suite(args, name, opts, names) for name, opts in RUNS}
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump({k: v for k, v in res.items()}, f, indent=1)
    base = res["baseline"]
    cyc = lambda run, n: res[run][n]["cycles"]
    ctr = lambda run, n, k: res[run][n]["counters"].get(k, 0)
    md = ""

    # Figure 7: overhead and mode breakdown
    rows, data = [], "workload\tparallel\tcommit\tserial\n"
    for n in names:
        t = cyc("gpudet", n)
        par, com, ser = (ctr("gpudet", n, "gpudet_%s_cycles" % m) for m in ("parallel", "commit", "serial"))
        tot = max(par + com + ser, 1)
        ov = t / cyc("baseline", n)
        rows.append([n, "{:,}".format(cyc("baseline", n)), "{:,}".format(t), "%.2fx" % ov,
                     "%.0f%%" % (100 * par / tot), "%.0f%%" % (100 * com / tot), "%.0f%%" % (100 * ser / tot)])
        data += "%s\t%f\t%f\t%f\n" % (n, ov * par / tot, ov * com / tot, ov * ser / tot)
    gm = geomean([cyc("gpudet", n) / cyc("baseline", n) for n in names])
    rows.append(["**geomean**", "", "", "**%.2fx**" % gm, "", "", ""])
    md += "### Overhead and time in each mode (Figure 7)\n\n" + md_table(
        ["workload", "baseline cycles", "GPUDet cycles", "overhead", "parallel", "commit", "serial"], rows) + "\n"
    gnuplot(args, "fig7_overhead", data,
            'set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n'
            'set boxwidth 0.7\nset ylabel "cycles / baseline"\nset xtics rotate by -30\nset key top left\n'
            'set title "GPUDet overhead by mode (normalised to the nondeterministic baseline)"\n'
            'plot "DATA" using 2:xtic(1) title "parallel", "" using 3 title "commit", "" using 4 title "serial"\n')

    # Figure 3: quantum ends (GPUdet-base)
    causes = ["count", "atomic", "fence", "barrier", "call", "exit"]
    rows, data = [], "workload\t" + "\t".join(causes) + "\n"
    for n in names:
        v = [ctr("base", n, "gpudet_end_" + c) for c in causes]
        tot = max(sum(v), 1)
        rows.append([n] + ["%.0f%%" % (100 * x / tot) for x in v])
        data += n + "\t" + "\t".join("%f" % (100 * x / tot) for x in v) + "\n"
    md += "### Why warps end their quanta, GPUdet-base, quantum 200 (Figure 3)\n\n" + md_table(
        ["workload"] + causes, rows) + "\n"
    gnuplot(args, "fig3_quantum_ends", data,
            'set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n'
            'set boxwidth 0.7\nset ylabel "% of quantum ends"\nset yrange [0:100]\nset xtics rotate by -30\n'
            'set key outside right\nset title "Events that end a warp\'s quantum (GPUdet-base, quantum 200)"\n'
            'plot for [i=2:7] "DATA" using i:xtic(1) title columnheader(i)\n')

    # Figure 8: BTA and DWP (GPUdet-WA)
    rows, data = [], "workload\tbase\tBTA\tBTA+DWP\n"
    for n in names:
        a, b, c = (cyc(r, n) / cyc("baseline", n) for r in ("base", "bta", "gpudet"))
        rows.append([n, "%.2fx" % a, "%.2fx" % b, "%.2fx" % c])
        data += "%s\t%f\t%f\t%f\n" % (n, a, b, c)
    rows.append(["**geomean**"] + ["**%.2fx**" % geomean([cyc(r, n) / cyc("baseline", n) for n in names])
                                   for r in ("base", "bta", "gpudet")])
    md += "### Workgroup-aware quanta: BTA and DWP (Figure 8)\n\n" + md_table(
        ["workload", "GPUdet-base", "with BTA", "with BTA and DWP"], rows) + "\n"
    gnuplot(args, "fig8_bta", data,
            'set style data histograms\nset style histogram clustered\nset style fill solid 0.8 border -1\n'
            'set ylabel "cycles / baseline"\nset xtics rotate by -30\nset key top left\n'
            'set title "GPUdet-base, barrier termination avoidance (BTA), and deterministic workgroup partitioning (DWP)"\n'
            'plot "DATA" using 2:xtic(1) title "GPUdet-base", "" using 3 title "BTA", "" using 4 title "BTA + DWP"\n')

    # Figure 9: Z-buffer commit against lock-based commit
    rows, data = [], "workload\tZ-buffer\tlock\n"
    for n in names:
        z, l = ctr("gpudet", n, "gpudet_commit_cycles"), ctr("lock", n, "gpudet_commit_cycles")
        hits, miss = ctr("gpudet", n, "gpudet_zcache_hits"), ctr("gpudet", n, "gpudet_zcache_misses")
        rows.append([n, "{:,}".format(z), "{:,}".format(l), "%.2fx" % (cyc("gpudet", n) / cyc("baseline", n)),
                     "%.2fx" % (cyc("lock", n) / cyc("baseline", n)),
                     "%.0f%%" % (100.0 * hits / (hits + miss)) if hits + miss else "-"])
        data += "%s\t%d\t%d\n" % (n, max(z, 1), max(l, 1))
    rows.append(["**geomean**", "", "", "**%.2fx**" % gm,
                 "**%.2fx**" % geomean([cyc("lock", n) / cyc("baseline", n) for n in names]), ""])
    md += "### Commit: Z-buffer units against locks (Figure 9)\n\n" + md_table(
        ["workload", "commit cycles, Z-buffer", "commit cycles, locks", "overhead, Z-buffer",
         "overhead, locks", "Z-cache hit rate"], rows) + "\n"
    gnuplot(args, "fig9_commit", data,
            'set style data histograms\nset style histogram clustered\nset style fill solid 0.8 border -1\n'
            'set logscale y\nset ylabel "cycles in commit mode (log)"\nset xtics rotate by -30\nset key top left\n'
            'set title "Commit mode: Z-buffer units against lock-based commit"\n'
            'plot "DATA" using 2:xtic(1) title "Z-buffer", "" using 3 title "locks"\n')

    # Figure 10: W-Ser vs CU-Ser
    at = [n for n in names if n in ATOMIC]
    rows, data = [], "workload\tW-Ser\tCU-Ser\n"
    for n in at:
        a, b = cyc("wser", n) / cyc("baseline", n), cyc("gpudet", n) / cyc("baseline", n)
        rows.append([n, "%.2fx" % a, "%.2fx" % b])
        data += "%s\t%f\t%f\n" % (n, a, b)
    md += "### Serial mode: W-Ser against CU-Ser (Figure 10)\n\n" + md_table(["workload", "W-Ser", "CU-Ser"], rows) + "\n"
    if at:
        gnuplot(args, "fig10_serial", data,
                'set style data histograms\nset style histogram clustered\nset style fill solid 0.8 border -1\n'
                'set logscale y\nset ylabel "cycles / baseline (log)"\nset key top left\n'
                'set title "Serial mode: one warp at a time (W-Ser) or one SM at a time (CU-Ser)"\n'
                'plot "DATA" using 2:xtic(1) title "W-Ser", "" using 3 title "CU-Ser"\n')

    # Figure 11: quantum size
    qs = [("q100", 100), ("gpudet", 200), ("q600", 600), ("q1000", 1000)]
    rows, data = [], "quantum\tgeomean\n"
    for run, q in qs:
        g = geomean([cyc(run, n) / cyc("baseline", n) for n in names])
        rows.append([str(q), "%.2fx" % g] + ["%.2fx" % (cyc(run, n) / cyc("baseline", n)) for n in names])
        data += "%d\t%f\n" % (q, g)
    md += "### Quantum size (Figure 11)\n\n" + md_table(["quantum", "geomean"] + names, rows) + "\n"
    gnuplot(args, "fig11_quantum", data,
            'set logscale x\nset xlabel "quantum size (warp instructions)"\nset ylabel "cycles / baseline (geomean)"\n'
            'set key off\nset title "GPUDet overhead against quantum size"\n'
            'plot "DATA" using 1:2 with linespoints lw 2 pt 7\n')

    # Figure 12: Bloom filter size
    bs = [("bloom128", "128"), ("bloom256", "256"), ("bloom512", "512"), ("gpudet", "1024"), ("bloom0", "ideal")]
    rows, data = [], "bits\tgeomean\tfalse_positives\n"
    for run, label in bs:
        g = geomean([cyc(run, n) / cyc("baseline", n) for n in names])
        fp = sum(ctr(run, n, "gpudet_bloom_false_positives") for n in names)
        rows.append([label, "%.3fx" % g, "{:,}".format(fp)] +
                    ["{:,}".format(ctr(run, n, "gpudet_bloom_false_positives")) for n in names])
        data += "%s\t%f\t%d\n" % (label, g, fp)
    md += "### Bloom-filter size (Figure 12): overhead and false positives\n\n" + md_table(
        ["bits", "geomean", "false positives"] + names, rows) + "\n"
    gnuplot(args, "fig12_bloom", data,
            'set style data histograms\nset style fill solid 0.8 border -1\nset ylabel "false positives (all workloads)"\n'
            'set y2label "cycles / baseline (geomean)"\nset y2tics\nset y2range [1:2]\nset ytics nomirror\nset key top right\n'
            'set title "Store-buffer Bloom filter size"\n'
            'plot "DATA" using 3:xtic(1) title "false positives", "" using 0:2 axes x1y2 with linespoints lw 2 pt 7 title "overhead"\n')

    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write(md)
    print(md)
    print("det_eval: results in %s%s" % (args.out, "" if shutil.which("gnuplot") else
                                        " (no gnuplot: tables only; Debian: apt-get install gnuplot-nox)"))


if __name__ == "__main__":
    main()
