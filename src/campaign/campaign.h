/*
 * campaign.h -- campaigns of many independent runs of a program:
 * fault injection (lockstep inject) today, determinism checks, litmus
 * runs and configuration sweeps later.  The module has four parts:
 *
 *   campaign.h   the job list: job i of a campaign with seed S is a pure
 *                function of (S, i), so any subset of the jobs can be run
 *                in any order, on any machine, and a resumed campaign
 *                runs exactly the jobs that have no result yet
 *   pool.h       a pool of J worker processes running jobs, results
 *                gathered in index order
 *   store.h      the SQLite results file: one row per campaign, one row
 *                per finished job, each committed as it completes (WAL),
 *                so a campaign killed at any point loses nothing
 *   stats.h      Wilson intervals and campaign sizing
 *
 * What a job means is its user's business: a job is an index and a seed
 * (its parameters are derived from the seed by the user, or carried as
 * opaque JSON); a result is an outcome (a name and a code), numeric
 * fields and a JSON detail.
 */
#ifndef LOCKSTEP_CAMPAIGN_H
#define LOCKSTEP_CAMPAIGN_H

#include <stdint.h>

#include "util/rng.h"

typedef struct campaign_job {
    uint64_t index;
    uint64_t seed; /* its own seed, campaign_job_seed(campaign seed, index): 63 bits */
} campaign_job;

/* The seed of job `index` in a campaign seeded with `seed`. */
uint64_t campaign_job_seed(uint64_t seed, uint64_t index);

/* Job `index` of a campaign seeded with `seed`. */
campaign_job campaign_job_make(uint64_t seed, uint64_t index);

/* A generator for the job's parameters, seeded from the job alone. */
void campaign_job_rng(const campaign_job *job, rng *r);

/* Uniform in [0, n) (n >= 1) without bias (rejection sampling). */
uint64_t campaign_uniform(rng *r, uint64_t n);

#endif
