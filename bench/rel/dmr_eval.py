#!/usr/bin/env python3
"""bench/rel/dmr_eval.py -- the DMR evaluation (docs/RELIABILITY.md,
"Redundant execution: DMR", "Measured"), after Sheaffer et al.'s section 4.2
(papers/redundancy-recovery-gpgpu.txt).

Three parts, each written to OUT and summed up in OUT/tables.md:

  stress    the paper's stressmark (bench/rel/stressmark.cu: 0, 1, 2, 4, 8,
            16 texture reads per element, domains 16x16 to 512x512) with no
            redundancy and with -lockstep_redundancy dmr for each pairing
            (-dmr_pair core: both copies on one SM, as the paper's redundant
            shader shares its core; sm: on two SMs), with real and perfect
            (-lockstep_perfect_tex 1) texture caches.  Table 1's analogue
            (DMR cycles over unprotected cycles per domain and read count),
            Figure 3's (texture-cache hit rate against reads at 128x128,
            unprotected and DMR), and the overhead against reads per domain.
  suite     bench/run's workloads (small) unprotected, under both
            pairings, and with SM pairs and load-value replication
            (-dmr_load_values 1): cycles, overhead, against naive 2x (twice
            the unprotected cycles), whether the output hash matches, the
            DMR counters.
  campaign  fault-injection campaigns (lockstep inject) on suite workloads
            with and without --redundancy dmr, sites inside the sphere of
            replication (registers, instruction output, shared memory, the
            L1) and outside it (L2 data, DRAM): the outcome shares side by
            side; with load-value replication on a few of those sites; and
            under DMR, faults in the comparator's log (dmr_log, outside the
            sphere; also runnable alone as the part campaign-log).

Usage: bench/rel/dmr_eval.py [--out DIR] [--config F] [--lockstep BIN]
                             [--runs N] [--jobs J] [--replot] [PART...]
PART is stress, suite, campaign or campaign-log (default: the first three;
campaign includes campaign-log).  --replot redraws
tables and figures from OUT/*.json and the campaign databases without
running anything.  Figures need gnuplot (Debian: gnuplot-nox).
"""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
import evalplot  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOMAINS = [16, 32, 64, 128, 256, 512]
READS = [0, 1, 2, 4, 8, 16]
MODES = [("none", []), ("core", ["-lockstep_redundancy dmr", "-dmr_pair core"]),
         ("sm", ["-lockstep_redundancy dmr", "-dmr_pair sm"]),
         ("lvr", ["-lockstep_redundancy dmr", "-dmr_pair sm", "-dmr_load_values 1"])]
STRESS_MODES = MODES[:3]  # the stressmark does not race: no load-value replication
CACHES = [("real", []), ("perfect", ["-lockstep_perfect_tex 1"])]
CAMPAIGN_WORKLOADS = ["hotspot", "cp"]
IN_SPHERE = ["reg_live", "insn_out", "shared", "l1d"]
OUT_SPHERE = ["l2d", "dram"]
LVR_SITES = ["reg_live", "insn_out", "l1d"]  # the campaign with load-value replication
LOG_SITES = ["dmr_log"]  # DMR's comparator log: only with redundancy
# campaign database suffix: (sites, lockstep inject's redundancy options, label)
CAMPAIGNS = {"none": (IN_SPHERE + OUT_SPHERE, [], "none"),
             "dmr": (IN_SPHERE + OUT_SPHERE, ["--redundancy", "dmr"], "DMR"),
             "lvr": (LVR_SITES, ["--redundancy", "dmr", "-O", "-dmr_load_values 1"], "DMR + LVR"),
             "dmrlog": (LOG_SITES, ["--redundancy", "dmr"], "DMR")}
OUTCOMES = ["masked", "corrected", "detected", "sdc", "due", "hang", "perf"]


def fail(msg):
    sys.exit("dmr_eval: " + msg)


def lockstep_run(args, opts, argv):
    """One `lockstep run`: its statistics (the program's totals) and RESULT line."""
    stats = os.path.join(args.out, "last-stats.json")
    cmd = [args.lockstep, "run", "--config", args.config, "--stats-json", stats]
    for o in opts:
        cmd += ["-O", o]
    r = subprocess.run(cmd + ["--"] + argv, cwd=ROOT, capture_output=True, text=True)
    result = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")]
    if r.returncode or not result or "check=pass" not in result[-1]:
        fail("%s %s: failed (exit %d)\n%s%s" % (" ".join(opts), " ".join(argv), r.returncode,
                                                r.stdout[-1500:], r.stderr[-1500:]))
    with open(stats) as f:
        st = json.load(f)
    os.remove(stats)
    tot = st.get("total", st)
    return tot, result[-1].split("hash=")[1].split()[0]


def build_stressmark(args):
    binp = os.path.join(ROOT, "build", "bench", "stressmark")
    src = os.path.join(ROOT, "bench", "rel", "stressmark.cu")
    hdr = os.path.join(ROOT, "bench", "common", "bench.h")
    if os.path.exists(binp) and os.path.getmtime(binp) >= max(os.path.getmtime(src), os.path.getmtime(hdr)):
        return binp
    nvcc = shutil.which("nvcc")
    if not nvcc:
        fail("nvcc not found: the stressmark is a CUDA program and needs the CUDA toolkit to build")
    os.makedirs(os.path.dirname(binp), exist_ok=True)
    cmd = [nvcc, "-cudart", "shared", "-O2", "-lineinfo", "-I" + os.path.dirname(hdr), "-o", binp, src]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        fail("nvcc failed:\n" + r.stdout + r.stderr)
    return binp


def counter(tot, name):
    for k in ("counters", "timing", "stats"):
        if isinstance(tot.get(k), dict) and name in tot[k]:
            return tot[k][name]
    if name in tot:
        return tot[name]
    fail("no counter %s in the statistics (keys: %s)" % (name, ", ".join(sorted(tot))[:300]))


def run_stress(args):
    binp = build_stressmark(args)
    res = []
    for d in DOMAINS:
        for r in READS:
            hashes = set()
            for cache, copts in CACHES:
                for mode, mopts in STRESS_MODES:
                    tot, h = lockstep_run(args, copts + mopts,
                                          [binp, "--domain", str(d), "--reads", str(r)])
                    hashes.add(h)
                    rec = {"domain": d, "reads": r, "cache": cache, "mode": mode, "hash": h}
                    for c in ("gpu_tot_sim_cycle", "tex_cache_accesses", "tex_cache_misses",
                              "dmr_comparisons", "dmr_mismatches", "warp_insts"):
                        rec[c] = counter(tot, c)
                    res.append(rec)
            if len(hashes) != 1:
                fail("stressmark %dx%d, %d reads: outputs differ between runs" % (d, d, r))
            print("stress %3dx%-3d %2d reads: %s" % (d, d, r, " ".join(
                "%s/%s %d" % (x["cache"], x["mode"], x["gpu_tot_sim_cycle"])
                for x in res if x["domain"] == d and x["reads"] == r)), flush=True)
    with open(os.path.join(args.out, "stress.json"), "w") as f:
        json.dump(res, f, indent=1)


def run_suite(args):
    res = {}
    for mode, mopts in MODES:
        out = os.path.join(args.out, "suite-%s.json" % mode)
        cmd = [sys.executable, os.path.join(ROOT, "bench", "run"), "--lockstep", args.lockstep,
               "--config", args.config, "--json-file", out]
        for o in mopts:
            cmd += ["-O", o]
        print("== suite, %s" % (mode if mopts else "unprotected"), flush=True)
        subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if not os.path.exists(out):
            fail("bench/run wrote no %s" % out)
        with open(out) as f:
            res[mode] = {x["name"]: x for x in json.load(f)}
    with open(os.path.join(args.out, "suite.json"), "w") as f:
        json.dump(res, f, indent=1)


def run_campaigns(args, which):
    for w in CAMPAIGN_WORKLOADS:
        for red in which:
            sites, ropts, _ = CAMPAIGNS[red]
            db = os.path.join(args.out, "campaign-%s-%s.db" % (w, red))
            for ext in ("", "-wal", "-shm"):
                if os.path.exists(db + ext):
                    os.remove(db + ext)
            cmd = [args.lockstep, "inject", "--runs", str(args.runs * len(sites)),
                   "--site", ",".join(sites), "--model", "bit1", "--seed", "1", "--db", db,
                   "--config", args.config] + ropts
            if args.jobs:
                cmd += ["--jobs", str(args.jobs)]
            cmd += ["--", os.path.join(ROOT, "build", "bench", w), "--size", "small"]
            print("== campaign %s, %s: %s" % (w, red, " ".join(cmd)), flush=True)
            r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            if r.returncode:
                fail("%s: lockstep inject failed (exit %d)\n%s" % (w, r.returncode, r.stderr[-3000:]))


def md_table(head, rows):
    out = "| " + " | ".join(head) + " |\n|" + "|".join("---" for _ in head) + "|\n"
    return out + "".join("| " + " | ".join(str(c) for c in r) + " |\n" for r in rows)


def load_results(args, name):
    """OUT/NAME as written by a part's run, or None when that part was not run."""
    path = os.path.join(args.out, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def stress_tables(args):
    res = load_results(args, "stress.json")
    if res is None:
        return ""
    cyc = {(x["domain"], x["reads"], x["cache"], x["mode"]): x for x in res}
    md = ""
    for mode, title in (("core", "DMR, both copies on one SM (`-dmr_pair core`)"),
                        ("sm", "DMR, the copies on two SMs (`-dmr_pair sm`)")):
        md += ("\n**%s: cycles over the unprotected run's.** Each cell: real texture cache / "
               "perfect, zero-latency texture cache (paper's Table 1: real over perfect).\n\n" % title)
        rows = []
        for d in DOMAINS:
            row = ["%dx%d" % (d, d)]
            for r in READS:
                v = []
                for cache in ("real", "perfect"):
                    b, x = cyc.get((d, r, cache, "none")), cyc.get((d, r, cache, mode))
                    v.append("%.2f" % (x["gpu_tot_sim_cycle"] / b["gpu_tot_sim_cycle"]) if b and x else "-")
                row.append(" / ".join(v))
            rows.append(row)
        md += md_table(["domain"] + ["%d read%s" % (r, "" if r == 1 else "s") for r in READS], rows)
    md += ("\n**Texture-cache hit rate** (1 - misses that sent a read / lines probed; a miss "
           "on a line already being fetched counts as a hit, as in the paper's Figure 3), real cache:\n\n")
    rows = []
    for d in DOMAINS:
        for r in READS[1:]:
            row = ["%dx%d" % (d, d), r]
            for mode, _ in STRESS_MODES:
                x = cyc.get((d, r, "real", mode))
                row.append("%.1f%%" % (100.0 * (1 - x["tex_cache_misses"] / x["tex_cache_accesses"]))
                           if x and x["tex_cache_accesses"] else "-")
            rows.append(row)
    md += md_table(["domain", "reads", "unprotected", "DMR core", "DMR sm"], rows)

    # Figure 3: hit rate against reads, 128x128
    data = "reads\tunprotected\tDMR (core)\tDMR (sm)\n"
    for r in READS[1:]:
        vals = []
        for mode, _ in STRESS_MODES:
            x = cyc[(128, r, "real", mode)]
            vals.append("%.4f" % (1 - x["tex_cache_misses"] / x["tex_cache_accesses"]))
        data += "%d\t%s\n" % (r, "\t".join(vals))
    evalplot.gnuplot(args.out, "dmr_fig3_hitrate", data,
                     'set title "Stressmark 128x128: texture-cache hit rate (GTX 480 config)"\n'
                     'set xlabel "texture reads per element"\nset ylabel "hit rate"\n'
                     'set logscale x 2\nset yrange [0:1]\nset key bottom right\nset grid\n'
                     'plot for [i=2:4] "DATA" using 1:i with linespoints lw 2 pt 7\n')
    # Table 1 as lines: overhead against reads per domain, core pairing, real cache
    data = "reads\t" + "\t".join("%dx%d" % (d, d) for d in DOMAINS) + "\n"
    for r in READS:
        data += "%d\t%s\n" % (r, "\t".join(
            "%.4f" % (cyc[(d, r, "real", "core")]["gpu_tot_sim_cycle"] /
                      cyc[(d, r, "real", "none")]["gpu_tot_sim_cycle"]) for d in DOMAINS))
    evalplot.gnuplot(args.out, "dmr_table1_overhead", data,
                     'set title "Stressmark: DMR (core pairs) cycles over unprotected, real cache"\n'
                     'set xlabel "texture reads per element (0 plotted at 0.5)"\n'
                     'set ylabel "DMR / unprotected cycles"\nset logscale x 2\nset yrange [1:2.2]\n'
                     'set key outside right\nset grid\n'
                     'plot for [i=2:%d] "DATA" using ($1 > 0 ? $1 : 0.5):i with linespoints lw 2 pt 7\n'
                     % (len(DOMAINS) + 1))
    return md


def suite_tables(args):
    res = load_results(args, "suite.json")
    if res is None:
        return ""
    base = res["none"]
    modes = [m for m in ("core", "sm", "lvr") if m in res]
    rows, gm = [], {m: [] for m in modes}
    for name in sorted(base):
        b = base[name]
        row = [name, b["cycles"] if b["ok"] else "fails"]
        for mode in modes:
            x = res[mode].get(name)
            if not (x and x["ok"] and b["ok"]):
                c = (x or {}).get("counters") or {}
                row += ["fails (%s mismatches, %s reissues)" % (c.get("dmr_mismatches", "?"),
                                                                c.get("dmr_reissues", "?")), "", ""]
                continue
            ov = x["cycles"] / b["cycles"]
            gm[mode].append(ov)
            row += [x["cycles"], "%.2fx" % ov, "%.2f" % (x["cycles"] / (2 * b["cycles"]))]
        x = res["core"].get(name) or {}
        row.append("same" if x.get("hash") == b["hash"] else
                   "differs (%s)" % ("order-dependent; check passes" if x.get("ok") else "run failed"))
        row.append((x.get("counters") or {}).get("dmr_comparisons", "-"))
        rows.append(row)
    title = {"core": "DMR core", "sm": "DMR sm", "lvr": "DMR sm + LVR"}
    head = ["workload", "unprotected cycles"]
    for m in modes:
        head += [title[m] + " cycles", "overhead", "/ 2x"]
    md = md_table(head + ["output (core)", "comparisons"], rows)
    md += "\nGeometric mean over the workloads that run: " + ", ".join(
        "%s %.2fx (%d workloads, %d under 1.5x)" % (
            title[m], evalplot.geomean(gm[m]), len(gm[m]), sum(v < 1.5 for v in gm[m]))
        for m in modes if gm[m]) + ".\n"
    if "lvr" in res:
        both = [n for n in sorted(base) if base[n]["ok"] and all(
            (res[m].get(n) or {}).get("ok") for m in ("sm", "lvr"))]
        md += ("Over the %d workloads both run, SM pairs %.2fx and with load-value replication "
               "%.2fx.\n" % (len(both), evalplot.geomean(
                   [res["sm"][n]["cycles"] / base[n]["cycles"] for n in both]), evalplot.geomean(
                   [res["lvr"][n]["cycles"] / base[n]["cycles"] for n in both])))
        lrows = []
        for n in sorted(base):
            c = (res["lvr"].get(n) or {}).get("counters") or {}
            if c.get("dmr_lvq_loads"):
                lrows.append([n, c.get("dmr_lvq_loads"), c.get("dmr_lvq_waits"),
                              c.get("dmr_lvq_wait_cycles"), c.get("dmr_lvq_entries_max")])
        md += "\nLoad-value replication's counters (SM pairs):\n\n" + md_table(
            ["workload", "loads replicated", "waited for copy 0", "cycles waited", "queue peak"],
            lrows)
    data = "workload\tDMR (core)\tDMR (sm)\n"
    for name in sorted(base):
        c, s = res["core"].get(name), res["sm"].get(name)
        if base[name]["ok"] and c and c["ok"] and s and s["ok"]:
            data += "%s\t%.4f\t%.4f\n" % (name, c["cycles"] / base[name]["cycles"],
                                          s["cycles"] / base[name]["cycles"])
    evalplot.gnuplot(args.out, "dmr_suite_overhead", data,
                     'set title "DMR on the suite: cycles over unprotected (GTX 480 config, small)"\n'
                     'set style data histograms\nset style histogram clustered gap 1\n'
                     'set style fill solid 0.8 border -1\nset boxwidth 0.9\nset yrange [0:2.2]\n'
                     'set xtics rotate by -45\nset grid ytics\nset key outside right top\n'
                     'set arrow from graph 0, first 2 to graph 1, first 2 nohead dt 2\n'
                     'plot "DATA" using 2:xtic(1), "" using 3\n', size="1000,440")
    return md


def campaign_tables(args):
    md = ""
    for w in CAMPAIGN_WORKLOADS:
        per = {}
        for red in CAMPAIGNS:
            db = os.path.join(args.out, "campaign-%s-%s.db" % (w, red))
            if not os.path.exists(db):
                continue
            con = sqlite3.connect(db)
            for site, outcome, n in con.execute(
                    "SELECT site, outcome, count(*) FROM inject_run GROUP BY 1, 2"):
                c = per.setdefault((site, "dmr" if red == "dmrlog" else red), {"n": 0})
                c[outcome] = c.get(outcome, 0) + n
                c["n"] += n
            con.close()
        if not per:
            continue
        md += "\n**%s** (small, bit1; %s inside the sphere, %s outside it):\n\n" % (
            w, ", ".join(IN_SPHERE), ", ".join(OUT_SPHERE + LOG_SITES))
        rows = []
        for site in IN_SPHERE + OUT_SPHERE + LOG_SITES:
            for red in ("none", "dmr", "lvr"):
                c = per.get((site, red))
                if not c:
                    continue
                n = c["n"]
                lo, hi = evalplot.wilson(c.get("sdc", 0), n)
                rows.append([site, CAMPAIGNS[red][2], n] +
                            ["%.0f%%" % (100.0 * c.get(o, 0) / n) for o in OUTCOMES] +
                            ["%.1f-%.1f%%" % (100 * lo, 100 * hi)])
        md += md_table(["site", "redundancy", "runs"] + OUTCOMES + ["SDC 95% interval"], rows)
        data = "run\t" + "\t".join(OUTCOMES) + "\n"
        for site in IN_SPHERE + OUT_SPHERE + LOG_SITES:
            for red in ("none", "dmr"):
                c = per.get((site, red))
                if c:
                    data += "%s%s\t%s\n" % (site, " DMR" if red == "dmr" else "", "\t".join(
                        "%.4f" % (c.get(o, 0) / c["n"]) for o in OUTCOMES))
        evalplot.gnuplot(args.out, "dmr_campaign_%s" % w, data,
                         'set title "%s: outcomes per fault site, without and with DMR"\n'
                         'set style data histograms\nset style histogram rowstacked\n'
                         'set style fill solid 0.85 border -1\nset boxwidth 0.75\nset yrange [0:1]\n'
                         'set xtics rotate by -45\nset key outside right\nset grid ytics\n'
                         'plot for [i=2:%d] "DATA" using i:xtic(1)\n' % (w, len(OUTCOMES) + 1),
                         size="1000,440")
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "dmr-eval"))
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "gtx480.config"))
    ap.add_argument("--lockstep", default=os.path.join(ROOT, "build", "lockstep"))
    ap.add_argument("--runs", type=int, default=100, help="campaign runs per site")
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--replot", action="store_true")
    ap.add_argument("parts", nargs="*", default=["stress", "suite", "campaign"])
    args = ap.parse_args()
    for p in args.parts:
        if p not in ("stress", "suite", "campaign", "campaign-log"):
            fail("unknown part '%s' (stress, suite, campaign or campaign-log)" % p)
    os.makedirs(args.out, exist_ok=True)
    if not args.replot:
        if "stress" in args.parts:
            run_stress(args)
        if "suite" in args.parts:
            run_suite(args)
        if "campaign" in args.parts:
            run_campaigns(args, list(CAMPAIGNS))
        elif "campaign-log" in args.parts:
            run_campaigns(args, ["dmrlog"])
    md = ("## Stressmark\n" + stress_tables(args) + "\n## Suite\n\n" + suite_tables(args) +
          "\n## Campaigns\n" + campaign_tables(args))
    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write(md)
    print("dmr_eval: results in %s%s" % (args.out, "" if shutil.which("gnuplot") else
                                         " (no gnuplot: tables only)"))


if __name__ == "__main__":
    main()
