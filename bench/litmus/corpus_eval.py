#!/usr/bin/env python3
"""corpus_eval.py -- run the litmus corpus on the shipped configurations and
write the tables of docs/LITMUS.md (what each configuration shows).

    python3 bench/litmus/corpus_eval.py [-n ITER] [--incantations LIST] [--out FILE]

For every test in litmus/ and litmus/ptx/, and every configuration, it runs
`lockstep litmus --json` once with the given incantations and records how
many instances satisfied the condition (the weak outcome the test asks
about) out of how many.  The output is a Markdown table, one row per test.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIGS = [("GTX 480 (Fermi)", "configs/gtx480.config"),
           ("GTX Titan (Kepler)", "configs/gtxtitan.config"),
           ("TITAN V (Volta)", "configs/titanv.config")]


def run(test, config, n, inc, extra):
    cmd = [os.path.join(ROOT, "build/lockstep"), "litmus", "--json", "-n", str(n), "--config",
           os.path.join(ROOT, config), "--incantations", inc] + extra + [test]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr.strip()
    return json.loads(p.stdout), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--incantations", default="stress")
    ap.add_argument("--out", default="-")
    ap.add_argument("--filter", default="")
    a = ap.parse_args()
    tests = sorted(glob.glob(os.path.join(ROOT, "litmus/*.litmus"))) + \
        sorted(glob.glob(os.path.join(ROOT, "litmus/ptx/*.litmus")))
    tests = [t for t in tests if a.filter in t]
    lines = ["| test | SC outcomes | " + " | ".join(c[0] for c in CONFIGS) + " |",
             "|---|---|" + "---|" * len(CONFIGS)]
    total_s = 0.0
    for t in tests:
        cells = []
        sc = "?"
        for _, cfg in CONFIGS:
            d, err = run(t, cfg, a.n, a.incantations, [])
            if d is None:
                cells.append("error")
                print("%s on %s: %s" % (t, cfg, err), file=sys.stderr)
                continue
            sc = d["sc_outcomes"]
            total_s += d["seconds"]
            cells.append("%d / %d" % (d["positive"], d["instances"]) if d["condition"]["quantifier"] == "exists"
                         else "%s %d / %d" % (d["observation"], d["positive"], d["instances"]))
        name = os.path.relpath(t, os.path.join(ROOT, "litmus"))[:-len(".litmus")]
        lines.append("| %s | %s | %s |" % (name, sc, " | ".join(cells)))
        print(lines[-1], file=sys.stderr)
    text = "\n".join(lines) + "\n\n(-n %d, incantations %s; %.0f s of simulation)\n" % (
        a.n, a.incantations, total_s)
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
