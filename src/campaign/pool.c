/*
 * pool.c -- the process pool (pool.h): fork up to J children, reap them
 * with waitpid(-1) as they end, start the next job in each freed slot.
 */
#include "campaign/pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int pool_exit_code(int ws)
{
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    if (WIFSIGNALED(ws))
        return 128 + WTERMSIG(ws);
    return 255;
}

int pool_run(size_t n, unsigned jobs, const pool_ops *ops, int *status)
{
    if (jobs < 1)
        jobs = 1;
    pid_t *pids = calloc(jobs, sizeof *pids);
    size_t *slot_job = calloc(jobs, sizeof *slot_job);
    if (!pids || !slot_job) {
        free(pids);
        free(slot_job);
        errno = ENOMEM;
        return -1;
    }
    if (status)
        for (size_t i = 0; i < n; i++)
            status[i] = -1;
    size_t next = 0;
    unsigned running = 0;
    int rc = 0, fork_errno = 0;
    for (;;) {
        /* fill the free slots */
        for (unsigned s = 0; s < jobs && next < n && rc == 0; s++) {
            if (pids[s])
                continue;
            fflush(NULL); /* nothing buffered is written twice */
            pid_t p = fork();
            if (p < 0) {
                fork_errno = errno;
                rc = -1;
                break;
            }
            if (p == 0)
                _exit(ops->child(ops->ctx, next) & 0xff);
            pids[s] = p;
            slot_job[s] = next++;
            running++;
        }
        if (!running)
            break;
        int ws;
        pid_t p = waitpid(-1, &ws, 0);
        if (p < 0) {
            if (errno == EINTR)
                continue;
            fork_errno = errno;
            rc = -1;
            break; /* no children left to wait for: should not happen */
        }
        for (unsigned s = 0; s < jobs; s++) {
            if (pids[s] != p)
                continue;
            pids[s] = 0;
            running--;
            int code = pool_exit_code(ws);
            if (status)
                status[slot_job[s]] = code;
            if (ops->finished && ops->finished(ops->ctx, slot_job[s], code) && rc == 0)
                rc = 1;
        }
        if (rc && !running)
            break;
    }
    free(pids);
    free(slot_job);
    if (rc < 0)
        errno = fork_errno;
    return rc;
}
