"""bench/common/evalplot.py -- what the evaluation scripts (bench/det,
bench/rel) share: drawing a figure with gnuplot from tab-separated data,
Wilson score intervals for shares of runs, and geometric means.

A figure is drawn only when gnuplot is installed (Debian: gnuplot-nox); the
tables never need it."""
import math
import os
import shutil
import subprocess

Z95 = 1.959964


def gnuplot(out, name, data, script, size="900,420"):
    """Write OUT/NAME.svg: DATA in the script stands for a file holding
    `data` (tab-separated, a header row naming the columns).  False when
    gnuplot is not installed."""
    if not shutil.which("gnuplot"):
        return False
    dat = os.path.join(out, name + ".dat")
    with open(dat, "w") as f:
        f.write(data)
    svg = os.path.join(out, name + ".svg")
    full = ('set terminal svg size %s font "sans,11" background rgb "white"\n'
            'set output "%s"\nset datafile separator "\\t"\nset termoption noenhanced\n'
            'set key autotitle columnhead\n' % (size, svg)) + script.replace("DATA", dat)
    subprocess.run(["gnuplot"], input=full, text=True, check=True)
    os.remove(dat)
    return True


def geomean(v):
    """The geometric mean of the positive values of v (0 when there are none)."""
    v = [x for x in v if x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else 0


def wilson(k, n, z=Z95):
    """The Wilson score interval of k successes in n trials (0, 0 for n = 0)."""
    if not n:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)
