#!/usr/bin/env python3
"""bench/det/dab_eval.py -- DAB's evaluation on lockstep (docs/DETERMINISM.md).

Runs the DAB paper's workloads of the suite (bc, pagerank, conv_wgrad,
atomic_reduce) and the atomic ones of GPUDet's set (ht, bfs, atm) with
bench/run (small size, timing mode) on the TITAN V configuration (DAB's
Table I machine), under the nondeterministic baseline, GPUDet, and DAB with
the paper's knobs varied, and writes:

  OUT/results.json      every run's cycles and counters
  OUT/tables.md         the tables (Markdown)
  OUT/*.svg             the figures, drawn by gnuplot when it is installed
                        (Debian: gnuplot-nox); without it the tables alone

Figures, in the shape of the paper's:
  dab_fig10_overall         DAB (GWAT-64, fusion, coalescing) and GPUDet against
                        the baseline
  dab_fig11_schedulers      SRR, GTRR, GTAR, GWAT (256 entries) and warp-level
                        buffers
  dab_fig12_buffers         GWAT with 32, 64, 128 and 256 entries (no fusion)
  dab_fig13_fusion          GWAT-64 with and without atomic fusion
  dab_fig15_breakdown       DAB's cycles beyond the baseline: waiting for the
                        flush to start, flushing, serial phases
  dab_fig16_offset          offset flushing
  dab_fig17_coalescing      flush coalescing
  dab_fig18_limits          the relaxed (not deterministic) variants: no
                        reordering, and overlapped flushes, and cluster-
                        independent flushes

Usage: bench/det/dab_eval.py [--config F] [--out DIR] [--lockstep BIN] [--replot] [WORKLOAD...]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from det_eval import ROOT, run_suite, geomean, md_table, gnuplot  # noqa: E402

WORKLOADS = ["bc", "pagerank", "conv_wgrad", "atomic_reduce", "ht", "bfs", "atm"]
DAB = ["-lockstep_det dab"]
E64 = DAB + ["-num_buffer_entries 64"]
RUNS = [  # name, options
    ("baseline", []),
    ("gpudet", ["-lockstep_det gpudet"]),
    ("dab", E64),                                               # GWAT-64-AF-coalescing
    ("srr256", DAB + ["-num_buffer_entries 256", "-dab_scheduler srr"]),
    ("gtrr256", DAB + ["-num_buffer_entries 256", "-dab_scheduler gtrr"]),
    ("gtar256", DAB + ["-num_buffer_entries 256", "-dab_scheduler gtar"]),
    ("gwat256", DAB + ["-num_buffer_entries 256"]),
    ("warp256", DAB + ["-num_buffer_entries 256", "-dab_level warp"]),
    ("noaf32", DAB + ["-num_buffer_entries 32", "-buffer_coalesce 0"]),
    ("noaf64", E64 + ["-buffer_coalesce 0"]),
    ("noaf128", DAB + ["-num_buffer_entries 128", "-buffer_coalesce 0"]),
    ("noaf256", DAB + ["-num_buffer_entries 256", "-buffer_coalesce 0"]),
    ("offset", E64 + ["-dab_offset_flush 1"]),
    ("nocoal", E64 + ["-atomic_coalesce 0"]),
    ("nr", E64 + ["-no_reordering 1"]),
    ("nrof", E64 + ["-no_reordering 1", "-overlap_flushes 1"]),
    ("nrcif", E64 + ["-no_reordering 1", "-overlap_flushes 1", "-no_sync_flush 1"]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "titanv.config"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "dab-eval"))
    ap.add_argument("--lockstep", default=os.path.join(ROOT, "build", "lockstep"))
    ap.add_argument("--replot", action="store_true", help="only redraw from OUT/results.json")
    ap.add_argument("workloads", nargs="*", default=WORKLOADS)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    names = args.workloads
    if args.replot:
        with open(os.path.join(args.out, "results.json")) as f:
            res = json.load(f)
    else:
        res = {name: run_suite(args, name, opts, names) for name, opts in RUNS}
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump(res, f, indent=1)
    cyc = lambda run, n: res[run][n]["cycles"]
    ctr = lambda run, n, k: res[run][n]["counters"].get(k, 0)
    ov = lambda run, n: cyc(run, n) / cyc("baseline", n)
    md = ""

    def compare(title, fig, runs, ylabel, note=""):
        nonlocal md
        rows, data = [], "workload\t" + "\t".join(label for _, label in runs) + "\n"
        for n in names:
            rows.append([n] + ["%.2fx" % ov(r, n) for r, _ in runs])
            data += n + "\t" + "\t".join("%f" % ov(r, n) for r, _ in runs) + "\n"
        gms = [geomean([ov(r, n) for n in names]) for r, _ in runs]
        rows.append(["**geomean**"] + ["**%.2fx**" % g for g in gms])
        data += "geomean\t" + "\t".join("%f" % g for g in gms) + "\n"
        md += "#### %s\n\n%s" % (title, note) + md_table(["workload"] + [l for _, l in runs], rows) + "\n"
        cols = " ".join('"" using %d title columnhead(%d)%s' % (i + 2, i + 2, ", " if i + 1 < len(runs) else "")
                        for i in range(len(runs)))
        gnuplot(args, fig, data,
                'set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n'
                'set ylabel "%s (log scale)"\nset logscale y\nset key top left\nset xtics nomirror\nset title "%s"\n'
                'plot "DATA" using 2:xtic(1) title columnhead(2)%s\n'
                % (ylabel, title, ", " + cols.split(", ", 1)[1] if len(runs) > 1 else ""))
        return gms

    rel = "cycles / nondeterministic baseline"
    compare("DAB and GPUDet against the baseline (Figure 10)", "dab_fig10_overall",
            [("dab", "DAB (GWAT-64-AF-C)"), ("gpudet", "GPUDet")], rel)
    compare("Schedulers, 256 entries (Figure 11)", "dab_fig11_schedulers",
            [("srr256", "SRR"), ("gtrr256", "GTRR"), ("gtar256", "GTAR"), ("gwat256", "GWAT"),
             ("warp256", "warp-level")], rel)
    compare("Buffer entries, GWAT without fusion (Figure 12)", "dab_fig12_buffers",
            [("noaf32", "32"), ("noaf64", "64"), ("noaf128", "128"), ("noaf256", "256")], rel)
    compare("Atomic fusion, GWAT-64 (Figure 13)", "dab_fig13_fusion",
            [("noaf64", "without fusion"), ("dab", "with fusion")], rel)
    compare("Offset flushing, GWAT-64-AF (Figure 16)", "dab_fig16_offset",
            [("dab", "plain"), ("offset", "offset")], rel)
    compare("Flush coalescing, GWAT-64-AF (Figure 17)", "dab_fig17_coalescing",
            [("nocoal", "no coalescing"), ("dab", "coalescing")], rel)
    compare("Relaxed constraints, not deterministic (Figure 18)", "dab_fig18_limits",
            [("dab", "DAB"), ("nr", "DAB-NR"), ("nrof", "DAB-NR-OF"), ("nrcif", "DAB-NR-CIF")], rel)

    # Figure 15: where DAB's cycles go, and its buffers' statistics
    rows, data = [], "workload\twaiting for the flush\tflushing\tserial phases\n"
    for n in names:
        sync, fl, ser = (ctr("dab", n, "dab_%s_cycles" % k) for k in ("sync", "flush", "serial"))
        ent, tx = ctr("dab", n, "dab_flush_entries"), ctr("dab", n, "dab_flush_transactions")
        rows.append([n, "{:,}".format(cyc("baseline", n)), "{:,}".format(cyc("dab", n)),
                     "{:,}".format(sync), "{:,}".format(fl), "{:,}".format(ser),
                     "{:,}".format(ctr("dab", n, "dab_flushes")),
                     "{:,}".format(ctr("dab", n, "dab_buffered")),
                     "%.0f%%" % (100.0 * ctr("dab", n, "dab_fusion_hits") / max(ctr("dab", n, "dab_buffered"), 1)),
                     "%.2f" % (ent / tx if tx else 0),
                     "{:,}".format(ctr("dab", n, "dab_full_stalls")),
                     "{:,}".format(ctr("dab", n, "dab_serial_atomics")),
                     "{:,}".format(ctr("dab", n, "dab_flushbuf_max"))])
        b = cyc("baseline", n)
        data += "%s\t%f\t%f\t%f\n" % (n, sync / b, fl / b, ser / b)
    md += ("#### Where DAB's time goes, GWAT-64-AF-C (Figure 15)\n\n"
           "Cycles from the first warp's wait to the flush's start (the GPU-wide "
           "implicit barrier), in flushes, and in serial phases (atomics whose result "
           "is used), with the buffers' counters.\n\n" +
           md_table(["workload", "baseline cycles", "DAB cycles", "waiting for the flush", "flushing",
                     "serial phases", "flushes", "atomics buffered", "fused", "entries per transaction",
                     "full stalls", "serial atomics", "flush buffer max"], rows) + "\n")
    gnuplot(args, "dab_fig15_breakdown", data,
            'set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n'
            'set ylabel "cycles / baseline cycles"\nset key top left\nset xtics nomirror\nset boxwidth 0.6\n'
            'set title "DAB: cycles waiting for flushes, flushing, and in serial phases, per baseline cycle"\n'
            'plot "DATA" using 2:xtic(1), "" using 3, "" using 4\n')

    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main()
