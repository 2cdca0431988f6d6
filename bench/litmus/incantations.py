#!/usr/bin/env python3
"""incantations.py -- the shape of the thesis's Tables 3.1 and 3.2 on a
configuration: weak outcomes observed per combination of incantations.

    python3 bench/litmus/incantations.py [-n ITER] [--config F] [--instances N] [--out FILE]

Rows: critical incantation (none, bank, stress, bank+stress) x extra
(none, random, sync, random+sync); columns: inter-CTA MP, LB, SB (Table 3.1),
intra-CTA MP in global and shared memory (Table 3.2), and the two L1 tests
of chapter 4 (MP-L1, CoRR-L2-L1), which are where this model's weak
behaviours live.  Each cell: instances showing the weak outcome / instances.
--instances N caps the instances a launch (lockstep litmus --instances):
without it, lane packing puts 32 instances in each testing warp.
"""
import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = [("MP", "MP"), ("LB", "LB"), ("SB", "SB"), ("MP-Global (intra-CTA)", "MP+cta"),
         ("MP-Shared (intra-CTA)", "MP+cta+shared"), ("MP-L1", "MP-L1"), ("CoRR-L2-L1", "CoRR-L2-L1")]
CRIT = [("None", ""), ("General bank conflicts", "bank"), ("Memory stress", "stress"),
        ("Memory stress + general bank conflicts", "bank,stress")]
EXTRA = [("None", ""), ("Randomization", "random"), ("Sync", "sync"), ("Randomization + Sync", "random,sync")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--config", default="configs/gtx480.config")
    ap.add_argument("--instances", type=int, default=0, help="at most N instances a launch (0: as many as fit)")
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    rows = ["| critical | extra | " + " | ".join(t[0] for t in TESTS) + " |",
            "|---|---|" + "---|" * len(TESTS)]
    secs = 0.0
    for cname, c in CRIT:
        for ename, e in EXTRA:
            inc = ",".join(x for x in (c, e) if x) or "none"
            cells = []
            for _, t in TESTS:
                cmd = [os.path.join(ROOT, "build/lockstep"), "litmus", "--json", "-n", str(a.n),
                       "--config", os.path.join(ROOT, a.config), "--incantations", inc]
                if a.instances:
                    cmd += ["--instances", str(a.instances)]
                cmd.append(os.path.join(ROOT, "litmus", t + ".litmus"))
                d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
                secs += d["seconds"]
                cells.append("%d / %d" % (d["positive"], d["instances"]))
            rows.append("| %s | %s | %s |" % (cname, ename, " | ".join(cells)))
            print(rows[-1], flush=True)
    cap = ", --instances %d" % a.instances if a.instances else ""
    text = "\n".join(rows) + "\n\n(%s, -n %d per cell%s; %.0f s of simulation)\n" % (a.config, a.n, cap, secs)
    if a.out == "-":
        print(text)
    else:
        open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
