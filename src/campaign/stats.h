/*
 * stats.h -- the statistics of a campaign of independent runs: the Wilson
 * score interval for a share (k of n runs), and the number of runs a
 * campaign needs for a given margin of error.  Pure functions, no state.
 */
#ifndef LOCKSTEP_CAMPAIGN_STATS_H
#define LOCKSTEP_CAMPAIGN_STATS_H

#include <stdint.h>

/* z for a two-sided 95% interval */
#define STATS_Z95 1.959963984540054

/* The Wilson score interval of the share k/n at normal quantile z: *lo and
 * *hi in [0, 1].  n == 0 gives [0, 1]. */
void stats_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);

/* The runs needed so that the normal-approximation interval of a share
 * near p has half-width at most `margin` at quantile z:
 * ceil(z^2 p (1-p) / margin^2).  p = 0.5 is the worst case; z = 1.96 gives
 * the textbook 385 runs for 5% and 1068 for 3%.  0 for a margin not in
 * (0, 1). */
uint64_t stats_runs_for_margin(double margin, double p, double z);

/* The half-width of that interval for n runs at share p (the inverse). */
double stats_margin_for_runs(uint64_t n, double p, double z);

#endif
