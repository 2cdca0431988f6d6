/*
 * pool.h -- a pool of worker processes: n jobs, at most J running at a
 * time, each in a forked child.  The child runs ops->child (which usually
 * execs a program and never returns); the parent calls ops->finished as
 * each child ends, in the order they end (so a result can be stored the
 * moment it exists), and fills status[] in index order.
 *
 * The pool reaps children with waitpid(-1): the calling process must have
 * no other children it wants to wait for while the pool runs.
 */
#ifndef LOCKSTEP_CAMPAIGN_POOL_H
#define LOCKSTEP_CAMPAIGN_POOL_H

#include <stddef.h>

typedef struct pool_ops {
    /* In the child, for job i: its exit status if it returns. */
    int (*child)(void *ctx, size_t i);
    /* In the parent when job i has ended, with its exit code
     * (pool_exit_code).  Non-zero: start no more jobs (those running are
     * still waited for and reported). */
    int (*finished)(void *ctx, size_t i, int code);
    void *ctx;
} pool_ops;

/* Run jobs 0..n-1, at most `jobs` at a time (>= 1).  status (n entries,
 * may be NULL) gets each job's exit code by index; -1 for a job never
 * started.  0 when every job ran and no `finished` asked to stop, 1 when
 * one asked to stop, -1 when a child could not be forked (errno). */
int pool_run(size_t n, unsigned jobs, const pool_ops *ops, int *status);

/* A wait status as one number: the exit status, or 128 + the signal. */
int pool_exit_code(int wait_status);

#endif
