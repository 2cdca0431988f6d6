/*
 * test_pfor.c -- the thread pool of the timing engine (src/util/pfor.c):
 * every item of every job runs exactly once, on pools of 1 to 8 threads,
 * over thousands of jobs of all sizes one after another (so a worker late
 * for one job can never run an item of the next), and a pool sleeps and
 * wakes between bursts.  Run in the ThreadSanitizer build too.
 */
#include <stdatomic.h>
#include <time.h>

#include "test.h"
#include "util/pfor.h"

typedef struct job {
    atomic_uint *hits;
    uint32_t tag;
    atomic_uint wrong;
} job;

static void item(void *ctx, uint32_t i)
{
    job *j = ctx;
    atomic_fetch_add(&j->hits[i], 1);
}

static uint32_t seq[16], seq_n;

static void record(void *ctx, uint32_t i)
{
    (void)ctx;
    seq[seq_n++] = i;
}

static void test_every_item_once(void)
{
    enum { MAXN = 300 };
    static atomic_uint hits[MAXN];
    for (uint32_t threads = 1; threads <= 8; threads++) {
        pfor *p = pfor_create(threads);
        CHECK(p != NULL);
        CHECK_EQ_INT(pfor_threads(p), threads);
        int bad = 0;
        for (uint32_t round = 0; round < 2000; round++) {
            uint32_t n = (round * 37 + threads) % MAXN;
            for (uint32_t i = 0; i < MAXN; i++)
                atomic_store(&hits[i], 0);
            job j = {hits, round, 0};
            pfor_run(p, n, item, &j);
            for (uint32_t i = 0; i < MAXN; i++)
                if (atomic_load(&hits[i]) != (i < n ? 1u : 0u))
                    bad++;
            if (round == 1000) { /* let the workers fall asleep, then wake them */
                struct timespec ts = {0, 20 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
        }
        CHECK_MSG(bad == 0, "%u threads: %d items ran a wrong number of times", threads, bad);
        pfor_free(p);
    }
    /* no pool (or one thread): in order, on the caller */
    seq_n = 0;
    pfor_run(NULL, 10, record, NULL);
    int in_order = seq_n == 10;
    for (uint32_t i = 0; i < seq_n; i++)
        in_order &= seq[i] == i;
    CHECK(in_order);
}

int main(void)
{
    RUN(test_every_item_once);
    return test_summary();
}
