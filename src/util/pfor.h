/*
 * pfor.h -- a fixed pool of host threads that run "for i in [0, n):
 * fn(ctx, i)" together, for the timing engine's windows: every SM and
 * every memory partition of a window is one item.  Items are independent
 * by construction, so which thread runs which item does not matter; each
 * thread takes its share first (items t, t + T, ..., claimed through its
 * own counter) and threads that finish early take the others' remaining
 * items.
 * pfor_run returns when every item is done, so a window's writes are
 * visible to the serial step after it.
 *
 * The workers spin briefly between windows (a window is microseconds of
 * work) and then sleep on a condition variable, so an idle pool costs no
 * CPU.  A pool of 1 thread runs everything on the caller, in item order.
 */
#ifndef LOCKSTEP_UTIL_PFOR_H
#define LOCKSTEP_UTIL_PFOR_H

#include <stdint.h>

typedef struct pfor pfor;

/* A pool of nthreads (>= 1) threads, the caller being one of them; NULL if
 * the host cannot make the threads (the caller then runs alone). */
pfor *pfor_create(uint32_t nthreads);
void pfor_free(pfor *p);
uint32_t pfor_threads(const pfor *p);
/* Run fn(ctx, i) for every i in [0, n) on the pool's threads; returns when
 * all are done.  With one thread (or p NULL), in order on the caller. */
void pfor_run(pfor *p, uint32_t n, void (*fn)(void *ctx, uint32_t i), void *ctx);
/* Which of its pool's threads calls: 0 for the thread that calls pfor_run
 * (and any thread outside a pool), 1 .. n - 1 for the workers.  Lets an
 * item add to a per-thread tally without sharing a cache line. */
uint32_t pfor_self(void);

#endif
