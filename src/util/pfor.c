/*
 * pfor.c -- the thread pool behind pfor_run (pfor.h).
 *
 * DESIGN
 * One job at a time: pfor_run writes (fn, ctx) into the job slot of its
 * generation g (two slots, by g's parity), deals the items out to the
 * threads (thread t's share: items t, t + T, t + 2T, ... of T threads, so
 * the busy low-numbered SMs a breadth-first dispatch leaves are spread
 * over all threads) and publishes each share as its own word `slot[t]` =
 * (g, count, next of the share) with a release store, bumps `gen`,
 * wakes sleepers, then takes items itself.  Each thread takes the items
 * of its own share first (its own cache line: claims do not bounce
 * between cores), then helps with the others' shares, each from its
 * front.  An item is claimed by a compare-and-swap of its share's word
 * that only succeeds while the word's generation is still g and items are
 * left, so a worker that arrives late, after job g finished and g + 1
 * began, can never run an item of the wrong job: it sees another
 * generation and stops, and it reads the job's fields only after a
 * successful claim, while job g is still unfinished and its slot
 * untouched.  Each thread adds the items it finished to `done`; the caller
 * returns when done == n, which also means every claimer of job g is
 * finished with it.  A worker with nothing to do spins (yielding the CPU,
 * so more threads than cores still progress) for a few thousand rounds,
 * then sleeps on `cv`.  Orderings: the job's fields and the share words
 * are written before the release store of `gen`; a claim's acquire reads
 * them; each item's writes come before the release add to `done`, read by
 * the caller's acquire load.
 */
#define _DEFAULT_SOURCE /* sched_yield */
#include "util/pfor.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SPIN_ROUNDS 20000

/* A thread's share of the current job, alone on its cache line. */
typedef struct pslot {
    _Atomic uint64_t w; /* generation (24 bits), share size (20), next of the share (20) */
    char pad[64 - sizeof(uint64_t)];
} pslot;

struct pfor {
    uint32_t nthreads;
    pthread_t *threads;    /* nthreads - 1 workers */
    struct pworker {
        pfor *p;
        uint32_t self;     /* its share: 1 .. nthreads - 1 (the caller's is 0) */
    } *args;
    uint32_t started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_uint gen;       /* job generation */
    atomic_int quit;
    atomic_uint sleepers;
    struct job {
        void (*fn)(void *ctx, uint32_t i);
        void *ctx;
    } job[2];               /* by generation parity */
    pslot *slot;            /* nthreads shares */
    atomic_uint done;
};

#define ITEM_BITS 20
#define ITEM_MASK ((1u << ITEM_BITS) - 1)
#define GEN_MASK 0xffffffu

static uint64_t share_word(unsigned gen, uint32_t end, uint32_t next)
{
    return (uint64_t)(gen & GEN_MASK) << (2 * ITEM_BITS) | (uint64_t)end << ITEM_BITS | next;
}

/* Take and run items of job `gen` until none is left (or a later job
 * began): those of share `self` first, then the other shares'. */
static void work(pfor *p, unsigned gen, uint32_t self)
{
    uint32_t mine = 0;
    for (uint32_t k = 0; k < p->nthreads; k++) {
        uint32_t t = self + k < p->nthreads ? self + k : self + k - p->nthreads;
        _Atomic uint64_t *w = &p->slot[t].w;
        uint64_t v = atomic_load_explicit(w, memory_order_acquire);
        for (;;) {
            uint32_t i = (uint32_t)v & ITEM_MASK, end = (uint32_t)(v >> ITEM_BITS) & ITEM_MASK;
            if ((unsigned)(v >> (2 * ITEM_BITS)) != (gen & GEN_MASK) || i >= end)
                break;
            if (!atomic_compare_exchange_weak_explicit(w, &v, v + 1, memory_order_acq_rel,
                                                       memory_order_acquire))
                continue; /* v now holds the current value */
            const struct job *j = &p->job[gen & 1];
            j->fn(j->ctx, t + i * p->nthreads);
            mine++;
            v = atomic_load_explicit(w, memory_order_acquire);
        }
    }
    if (mine)
        atomic_fetch_add_explicit(&p->done, mine, memory_order_release);
}

/* The calling thread's index in its pool (pfor_self). */
static _Thread_local uint32_t tl_self;

uint32_t pfor_self(void) { return tl_self; }

static void *worker(void *arg)
{
    const struct pworker *me = arg;
    pfor *p = me->p;
    tl_self = me->self;
    unsigned seen = atomic_load_explicit(&p->gen, memory_order_acquire);
    for (;;) {
        unsigned g;
        uint32_t spins = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen &&
               !atomic_load_explicit(&p->quit, memory_order_acquire)) {
            if (++spins < SPIN_ROUNDS) {
                if ((spins & 63) == 0)
                    sched_yield();
                continue;
            }
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen &&
                   !atomic_load_explicit(&p->quit, memory_order_acquire))
                pthread_cond_wait(&p->cv, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
            spins = 0;
        }
        if (atomic_load_explicit(&p->quit, memory_order_acquire))
            return NULL;
        seen = g;
        work(p, g, me->self);
    }
}

pfor *pfor_create(uint32_t nthreads)
{
    if (nthreads < 1)
        nthreads = 1;
    pfor *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nthreads = nthreads;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    atomic_init(&p->gen, 0);
    atomic_init(&p->quit, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->done, 0);
    p->slot = aligned_alloc(64, nthreads * sizeof *p->slot);
    if (!p->slot) {
        pfor_free(p);
        return NULL;
    }
    for (uint32_t t = 0; t < nthreads; t++)
        atomic_init(&p->slot[t].w, 0);
    if (nthreads > 1) {
        p->threads = calloc(nthreads - 1, sizeof *p->threads);
        p->args = calloc(nthreads - 1, sizeof *p->args);
        if (!p->threads || !p->args) {
            pfor_free(p);
            return NULL;
        }
        for (uint32_t t = 0; t + 1 < nthreads; t++) {
            p->args[t] = (struct pworker){p, t + 1};
            if (pthread_create(&p->threads[t], NULL, worker, &p->args[t])) {
                pfor_free(p);
                return NULL;
            }
            p->started++;
        }
    }
    return p;
}

void pfor_free(pfor *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, 1);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t t = 0; t < p->started; t++)
        pthread_join(p->threads[t], NULL);
    free(p->threads);
    free(p->args);
    free(p->slot);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

uint32_t pfor_threads(const pfor *p) { return p ? p->nthreads : 1; }

void pfor_run(pfor *p, uint32_t n, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    if (!p || p->nthreads == 1 || n < 2 || n > ITEM_MASK) {
        for (uint32_t i = 0; i < n; i++)
            fn(ctx, i);
        return;
    }
    unsigned g = atomic_load_explicit(&p->gen, memory_order_relaxed) + 1;
    p->job[g & 1] = (struct job){fn, ctx};
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    for (uint32_t t = 0; t < p->nthreads; t++) {
        uint32_t cnt = t < n ? (n - t + p->nthreads - 1) / p->nthreads : 0;
        atomic_store_explicit(&p->slot[t].w, share_word(g, cnt, 0), memory_order_release);
    }
    atomic_store_explicit(&p->gen, g, memory_order_release);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    work(p, g, 0);
    uint32_t spins = 0;
    while (atomic_load_explicit(&p->done, memory_order_acquire) < n)
        if ((++spins & 63) == 0)
            sched_yield();
}
