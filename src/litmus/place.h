/*
 * place.h -- where each instance of a litmus test runs and lives, one
 * iteration at a time: the role table (which hardware thread plays which
 * litmus thread of which instance), the location offsets (permuted between
 * instances) and the bank incantation's access types.
 *
 * Plain C99 with no lockstep headers: the CUDA generator copies place.h and
 * place.c verbatim into every program it writes, so a real GPU places its
 * instances exactly as the simulator does for the same seed.
 */
#ifndef LOCKSTEP_LITMUS_PLACE_H
#define LOCKSTEP_LITMUS_PLACE_H

#include <stdint.h>

#define LP_MAX_THREADS 8
#define LP_MAX_LOCS 16
#define LP_MAX_MEM 64        /* memory instructions per thread */
#define LP_ROLE_NONE 15u
#define LP_ROLE_TEST 16u
#define LP_ROLE_STRESS 32u
#define LP_INC_BANK 1u
#define LP_INC_STRESS 2u
#define LP_INC_RANDOM 4u
#define LP_INC_SYNC 8u
#define LP_ACC_STRESS (LP_MAX_THREADS * LP_MAX_MEM) /* acc[] word: the stress area's offset */
#define LP_ACC_WORDS (LP_ACC_STRESS + 1)
#define LP_ACC_PARALLEL 0u
#define LP_ACC_BROADCAST 1u
#define LP_ACC_CONFLICT 2u

/* The test's shape, as placement needs it. */
typedef struct lp_test {
    int nthreads;
    int thread_cta[LP_MAX_THREADS];  /* CTA group of each thread */
    int thread_warp[LP_MAX_THREADS]; /* warp group of each thread (0..nwarps-1) */
    int nctas, nwarps;
    int nlocs;
    int loc_shared[LP_MAX_LOCS];     /* 1: in shared memory */
    int loc_cta[LP_MAX_LOCS];        /* shared: the CTA group whose threads use it, else -1 */
    int loc_bytes[LP_MAX_LOCS];      /* 4 or 8 */
    int nmem[LP_MAX_THREADS];        /* memory instructions of each thread */
    int mem_load[LP_MAX_THREADS][LP_MAX_MEM]; /* 1: a plain load (may broadcast) */
    int loops;                       /* a backward branch: companions broadcast every load */
} lp_test;

typedef struct lp_opts {
    uint32_t ctas, warps;   /* grid */
    unsigned incant;
    uint32_t stride;        /* bytes between instances' copies of a global location */
    uint32_t max_instances; /* 0: no cap */
    uint32_t stress_stride; /* bytes between the stress lines; over 128 (e.g. partitions x
                             * interleave), they share a partition, drawn each iteration */
} lp_opts;

/* Each global location's copies start on a boundary of this many bytes: a
 * line of every shipped configuration and the Fermi and Kepler configs'
 * partition interleave, so two locations of one instance never share a
 * line, however few instances a launch holds (with one, x and y would
 * otherwise be 16 bytes apart, and one line keeps their accesses in order). */
#define LP_LOC_ALIGN 256u

/* Sizes that do not change over a run (allocate once). */
typedef struct lp_sizes {
    uint32_t threads;       /* ctas * warps * 32: role-table entries */
    uint32_t max_inst;      /* instances a launch can hold */
    uint64_t region_bytes;  /* the global locations' region */
    uint64_t loc_span;      /* bytes from one global location's copies to the next's: the
                               copies' extent rounded up to LP_LOC_ALIGN */
    uint32_t smem_loc_bytes;/* the shared locations' part of each CTA's shared array */
    uint32_t sstride;       /* bytes between instances' copies of a shared location */
} lp_sizes;

/* One iteration's tables (arrays sized from lp_sizes). */
typedef struct lp_layout {
    uint32_t ninst;
    uint32_t *roles;        /* [threads] */
    uint64_t *offs;         /* [max_inst * nlocs]: byte offset in the region (global) or
                             * in the CTA's shared array (shared) */
    uint32_t *acc;          /* [LP_ACC_WORDS]: bank access types, then the stress offset */
    uint32_t *scratch_u32;  /* [max_inst]: work space */
} lp_layout;

/* 0, or -1 if the test cannot be placed on this grid (the message in msg). */
int lp_sizes_of(const lp_test *t, const lp_opts *o, lp_sizes *s, char *msg, int msglen);
/* Fill the tables for the next iteration from the stream *rng. */
void lp_place(const lp_test *t, const lp_opts *o, const lp_sizes *s, uint64_t *rng, lp_layout *l);

uint64_t lp_next(uint64_t *state);       /* splitmix64 */
uint32_t lp_below(uint64_t *state, uint32_t n);

#endif
