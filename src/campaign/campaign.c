/*
 * campaign.c -- the job list (campaign.h): each job's seed is SplitMix64
 * of the campaign seed and the index, so it depends on nothing else: not
 * on the number of jobs, the order they run in, or which ran before.
 */
#include "campaign/campaign.h"

/* a stream kind of our own (util/rng.h numbers the simulator's) */
enum { RNG_CAMPAIGN_JOB = 0x43414d50u };

uint64_t campaign_job_seed(uint64_t seed, uint64_t index)
{
    uint64_t x = seed;
    uint64_t a = rng_splitmix64(&x);
    x = a ^ (index * 0xd1342543de82ef95ull + 0x632be59bd9b4e019ull);
    rng_splitmix64(&x);
    return rng_splitmix64(&x) >> 1; /* 63 bits: an SQLite INTEGER */
}

campaign_job campaign_job_make(uint64_t seed, uint64_t index)
{
    return (campaign_job){index, campaign_job_seed(seed, index)};
}

void campaign_job_rng(const campaign_job *job, rng *r)
{
    rng_seed(r, job->seed, RNG_CAMPAIGN_JOB, 0);
}

uint64_t campaign_uniform(rng *r, uint64_t n)
{
    if (n <= 1)
        return 0;
    /* the largest multiple of n that fits: draws at or above it are redrawn */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rng_next(r);
    while (x >= limit);
    return x % n;
}
