/*
 * stats.c -- Wilson intervals and campaign sizing (stats.h).
 */
#include "campaign/stats.h"

#include <math.h>

void stats_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
    if (n == 0 || k > n) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double den = 1 + z2 / nn;
    double mid = (p + z2 / (2 * nn)) / den;
    double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / den;
    *lo = k == 0 ? 0 : fmax(0, mid - half);
    *hi = k == n ? 1 : fmin(1, mid + half);
}

uint64_t stats_runs_for_margin(double margin, double p, double z)
{
    if (!(margin > 0 && margin < 1) || !(p >= 0 && p <= 1))
        return 0;
    double n = z * z * p * (1 - p) / (margin * margin);
    /* a hair below an integer is that integer (floating-point dust) */
    double r = nearbyint(n);
    if (fabs(n - r) < 1e-9 * (r > 1 ? r : 1))
        n = r;
    if (!(n < 1.8e19)) /* (beyond uint64_t: saturate rather than overflow) */
        return UINT64_MAX;
    return (uint64_t)ceil(n);
}

double stats_margin_for_runs(uint64_t n, double p, double z)
{
    return n ? z * sqrt(p * (1 - p) / (double)n) : 1;
}
