/*
 * hostwatch.c -- telling the program when the host changes mapped memory
 * that a kernel saw before the program synchronized with that kernel.
 *
 * On a GPU a launch returns at once and the kernel runs while the host goes
 * on: a kernel can wait for a flag the host writes into pinned or managed
 * memory after the launch (a host latch: cuda-samples' cudaGraphsPerfScaling,
 * nvbench's blocking kernel), and a host write into memory a kernel still
 * uses is a race.  lockstep runs each launch to completion inside the launch
 * call, so such a kernel never sees the write: it ends by its own timeout
 * with that result, or at the cycle limit.  Rather than let that pass
 * silently, the runtime watches the mapped buffers kernels accessed (the
 * core records them: lockstep_mapped_accesses) from the end of the launch
 * to the next synchronization (hostwatch_clear: cudaDeviceSynchronize,
 * stream and event synchronization or a query that says the work is done,
 * blocking copies, a host callback, which runs after the work before it):
 *
 *   - after each launch, a copy of each such buffer is kept (buffers of up
 *     to WATCH_BUF bytes, WATCH_TOTAL in all; larger ones are not watched);
 *   - every runtime call compares the buffers with their copies on entry
 *     (hostwatch_check): a difference is a host write since the last call,
 *     said once a buffer, naming the kernel; and takes new copies on return
 *     (hostwatch_refresh), so that what the call itself wrote (a copy into
 *     the buffer, another launch) is not taken for the host's.
 *
 * The check changes nothing the program sees but stderr; it costs a compare
 * and a copy of the watched bytes per runtime call while a watch is open.
 * All functions run with the runtime's lock held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/runtime.h"

enum {
    WATCH_BUF = 64 * 1024,    /* the largest buffer watched */
    WATCH_TOTAL = 256 * 1024, /* watched bytes in all */
    WATCH_MAX = 64,           /* buffers watched at once */
    WATCH_SAID_MAX = 8        /* reports in a run */
};

typedef struct watch {
    const unsigned char *host;
    size_t size;
    unsigned char *copy;
    char kernel[96];
} watch;

static watch watches[WATCH_MAX];
static size_t nwatch, watched_bytes;
static unsigned said;

static void drop(size_t i)
{
    watched_bytes -= watches[i].size;
    free(watches[i].copy);
    watches[i] = watches[--nwatch];
}

void hostwatch_kernel(lockstep_device *dev, const char *kernel)
{
    void *host[WATCH_MAX];
    size_t size[WATCH_MAX];
    size_t n = lockstep_mapped_accesses(dev, host, size, WATCH_MAX);
    if (n > WATCH_MAX)
        n = WATCH_MAX;
    for (size_t i = 0; i < n; i++) {
        if (size[i] > WATCH_BUF)
            continue;
        size_t j = 0;
        while (j < nwatch && watches[j].host != host[i])
            j++;
        if (j == nwatch) {
            if (nwatch == WATCH_MAX || watched_bytes + size[i] > WATCH_TOTAL)
                continue;
            unsigned char *copy = malloc(size[i]);
            if (!copy)
                continue; /* a check the host cannot afford: not made */
            watches[nwatch++] = (watch){host[i], size[i], copy, ""};
            watched_bytes += size[i];
        }
        memcpy(watches[j].copy, host[i], size[i]);
        snprintf(watches[j].kernel, sizeof watches[j].kernel, "%s", kernel);
    }
}

void hostwatch_check(void)
{
    for (size_t i = 0; i < nwatch;) {
        const watch *w = &watches[i];
        if (!memcmp(w->copy, w->host, w->size)) {
            i++;
            continue;
        }
        size_t at = 0;
        while (w->copy[at] == w->host[at])
            at++;
        if (said < WATCH_SAID_MAX)
            cudart_say("the host wrote mapped memory at %p (byte %zu of the %zu-byte buffer at %p) "
                       "that kernel '%s' accessed, after its launch returned and before the "
                       "program synchronized with it. On a GPU the kernel may still have been "
                       "running and could have seen the write (a flag it waits for, or a race); "
                       "lockstep ran it to completion inside its launch, so it did not "
                       "(docs/CUDART.md, \"What cannot run\")%s",
                       (const void *)(w->host + at), at, w->size, (const void *)w->host, w->kernel,
                       ++said == WATCH_SAID_MAX ? "; further such writes are not reported" : "");
        drop(i);
    }
}

void hostwatch_refresh(void)
{
    for (size_t i = 0; i < nwatch; i++)
        memcpy(watches[i].copy, watches[i].host, watches[i].size);
}

void hostwatch_clear(void)
{
    while (nwatch)
        drop(nwatch - 1);
}

void hostwatch_forget(const void *host, size_t size)
{
    const unsigned char *lo = host, *hi = lo + size;
    for (size_t i = 0; i < nwatch;) {
        if (watches[i].host < hi && lo < watches[i].host + watches[i].size)
            drop(i);
        else
            i++;
    }
}
