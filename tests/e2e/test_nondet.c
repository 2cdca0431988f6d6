/*
 * test_nondet.c -- the timing model's seeded nondeterminism is as real as a
 * GPU's (docs/MEMORY-MODEL.md, "Seeded sources of nondeterminism").
 *
 * tests/e2e/kernels/nondet.cu: in `ticket`, lane 0 of every warp (48 CTAs
 * x 8 warps) takes a ticket with atomicAdd and writes its warp id at the
 * ticket's position, so the array is the order in which the warps' atomics
 * reached memory.  On a GPU that order differs almost every run.  Checked
 * on each shipped configuration:
 *
 *   - 6 seeds give at least 5 distinct orders, and distinct in more than a
 *     rotation: the orders' successive differences (order[i+1] - order[i])
 *     must differ too, since a seeded start alone (a rotated round-robin)
 *     would give rotations of one order;
 *   - the same seed gives the same order, bit for bit;
 *   - with -lockstep_nondet 0 every seed gives one order;
 *   - each run-time source alone (the others off) still moves the order;
 *   - `racy_last`'s race-free sums are the same for every seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"
#include "e2e.h"

enum { CTAS = 48, THREADS = 256, WARPS = CTAS * THREADS / 32, SEEDS = 6 };

static const char *const configs[] = {"configs/gtx480.config", "configs/titanv.config",
                                      "configs/m2070.config"};

/* Every seeded source's option, and whether it alone must move the
 * ticket order (the sources that change when the warps' atomics arrive);
 * the others act on other traffic, and alone must move the cycle count. */
static const struct {
    const char *name;
    int moves_order;
    const char *with; /* what it needs to act: a seeded start position means
                         nothing to a greedy-then-oldest scheduler */
} sources[] = {
    {"-lockstep_sm_skew", 1, ""},       {"-lockstep_clock_drift", 1, ""},
    {"-lockstep_cta_delay", 1, ""},     {"-lockstep_icnt_random", 1, ""},
    {"-lockstep_l2_jitter", 0, ""},     {"-lockstep_reply_shuffle", 0, ""},
    {"-lockstep_sched_start", 0, "-gpgpu_scheduler lrr\n"},
    {"-lockstep_part_start", 0, ""},    {"-lockstep_dram_phase", 0, ""},
    {"-lockstep_dram_jitter", 0, ""},   {"-lockstep_icnt_start", 0, ""},
};
enum { NSOURCES = sizeof sources / sizeof *sources };

/* The ticket order under config and options (and the launch's cycles,
 * if cycles is not NULL); 0 on failure. */
static int ticket_order_cycles(const char *config, const char *opts, uint32_t order[WARPS],
                               uint64_t *cycles)
{
    lockstep_device *dev = e2e_timing_device(config, opts);
    lockstep_module *mod = e2e_load(dev, "nondet.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "ticket");
    lockstep_dptr ctr = k ? e2e_alloc(dev, 4) : 0, out = k ? e2e_alloc(dev, WARPS * 4) : 0;
    int ok = 0;
    if (k && ctr && out) {
        uint32_t zero = 0;
        lockstep_memcpy_htod(dev, ctr, &zero, 4);
        void *args[] = {&ctr, &out};
        lockstep_launch_stats st;
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(CTAS, 1, 1),
                                              e2e_dim3(THREADS, 1, 1), 0, args, &st)) &&
             e2e_download(dev, order, out, WARPS * 4);
        if (cycles)
            *cycles = st.t.cycles;
    }
    e2e_device_destroy(dev);
    if (ok) {
        /* every warp took exactly one ticket */
        static uint8_t seen[WARPS];
        memset(seen, 0, sizeof seen);
        for (uint32_t i = 0; i < WARPS; i++)
            if (order[i] < WARPS)
                seen[order[i]]++;
        for (uint32_t i = 0; i < WARPS; i++)
            if (seen[i] != 1) {
                CHECK_MSG(0, "%s: warp %u took %u tickets", config, i, seen[i]);
                return 0;
            }
    }
    return ok;
}

/* Cycles of stream_copy over n floats (0 on failure). */
static uint64_t copy_cycles(const char *config, const char *opts)
{
    enum { N = 1 << 18 };
    lockstep_device *dev = e2e_timing_device(config, opts);
    lockstep_module *mod = e2e_load(dev, "nondet.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "stream_copy");
    lockstep_dptr in = k ? e2e_alloc(dev, N * 4) : 0, out = k ? e2e_alloc(dev, N * 4) : 0;
    uint64_t cycles = 0;
    if (k && in && out) {
        int n = N;
        void *args[] = {&in, &out, &n};
        lockstep_launch_stats st;
        if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(60, 1, 1), e2e_dim3(256, 1, 1), 0,
                                             args, &st)))
            cycles = st.t.cycles;
    }
    e2e_device_destroy(dev);
    return cycles;
}

static int ticket_order(const char *config, const char *opts, uint32_t order[WARPS])
{
    return ticket_order_cycles(config, opts, order, NULL);
}

/* Distinct orders among n, and distinct successive-difference sequences
 * (an order and its rotations, order[i] + c mod WARPS, share one). */
static void count_distinct(uint32_t (*orders)[WARPS], int n, int *distinct, int *shapes)
{
    static uint32_t diff[SEEDS][WARPS];
    for (int s = 0; s < n; s++)
        for (uint32_t i = 0; i + 1 < WARPS; i++)
            diff[s][i] = (orders[s][i + 1] - orders[s][i] + WARPS) % WARPS;
    *distinct = *shapes = 0;
    for (int s = 0; s < n; s++) {
        int new_order = 1, new_shape = 1;
        for (int t = 0; t < s; t++) {
            if (!memcmp(orders[s], orders[t], sizeof orders[s]))
                new_order = 0;
            if (!memcmp(diff[s], diff[t], sizeof diff[s]))
                new_shape = 0;
        }
        *distinct += new_order;
        *shapes += new_shape;
    }
}

static uint32_t orders[SEEDS][WARPS];

static void test_ticket_orders(void)
{
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
        char opts[128];
        int ok = 1;
        for (int s = 0; s < SEEDS && ok; s++) {
            snprintf(opts, sizeof opts, "-lockstep_nondet_seed %d", s + 1);
            ok = ticket_order(configs[c], opts, orders[s]);
        }
        if (!ok)
            continue;
        int distinct, shapes;
        count_distinct(orders, SEEDS, &distinct, &shapes);
        printf("%s: %d distinct ticket orders over %d seeds (%d distinct up to rotation)\n",
               configs[c], distinct, SEEDS, shapes);
        CHECK_MSG(shapes >= 5, "%s: only %d distinct ticket orders (up to rotation) over %d seeds",
                  configs[c], shapes, SEEDS);
        /* the same seed again: the same order */
        static uint32_t again[WARPS];
        if (ticket_order(configs[c], "-lockstep_nondet_seed 1", again))
            CHECK_MSG(!memcmp(again, orders[0], sizeof again), "%s: seed 1 twice: orders differ",
                      configs[c]);
    }
}

static void test_nondet_off(void)
{
    const char *config = configs[0];
    int ok = 1;
    for (int s = 0; s < 3 && ok; s++) {
        char opts[128];
        snprintf(opts, sizeof opts, "-lockstep_nondet 0 -lockstep_nondet_seed %d", s + 1);
        ok = ticket_order(config, opts, orders[s]);
    }
    if (!ok)
        return;
    int distinct, shapes;
    count_distinct(orders, 3, &distinct, &shapes);
    CHECK_MSG(distinct == 1, "-lockstep_nondet 0: %d orders over 3 seeds", distinct);
}

/* Options that turn every seeded source off except source `on` (-1: all
 * off): 0, or 1 for the reply shuffle (one reply: in order). */
static void sources_off_except(int on, char *buf, size_t len)
{
    buf[0] = 0;
    for (int k = 0; k < NSOURCES; k++)
        if (k != on) {
            size_t n = strlen(buf);
            snprintf(buf + n, len - n, "%s %d\n", sources[k].name,
                     strcmp(sources[k].name, "-lockstep_reply_shuffle") ? 0 : 1);
        }
}

/* With every source's option off (and -lockstep_nondet still 1), the seed
 * drives nothing: each seeded source has its option. */
static void test_all_sources_off(void)
{
    char base[1024], opts[1100];
    sources_off_except(-1, base, sizeof base);
    uint64_t cycles[3];
    int ok = 1;
    for (int s = 0; s < 3 && ok; s++) {
        snprintf(opts, sizeof opts, "%s-lockstep_nondet_seed %d", base, s + 1);
        ok = ticket_order_cycles(configs[0], opts, orders[s], &cycles[s]);
    }
    if (!ok)
        return;
    int distinct, shapes;
    count_distinct(orders, 3, &distinct, &shapes);
    CHECK_MSG(distinct == 1 && cycles[0] == cycles[1] && cycles[1] == cycles[2],
              "every source off: %d orders and cycles %llu %llu %llu over 3 seeds", distinct,
              (unsigned long long)cycles[0], (unsigned long long)cycles[1],
              (unsigned long long)cycles[2]);
}

/* Each source on its own (the others off) moves the ticket order, or, for
 * those that act on other traffic, the cycle count. */
static void test_each_source(void)
{
    const char *config = configs[0];
    for (int on = 0; on < NSOURCES; on++) {
        char base[1024], opts[1100];
        sources_off_except(on, base, sizeof base);
        uint64_t cycles[3];
        int ok = 1;
        for (int s = 0; s < 3 && ok; s++) {
            snprintf(opts, sizeof opts, "%s%s-lockstep_nondet_seed %d", base, sources[on].with,
                     s + 1);
            ok = ticket_order_cycles(config, opts, orders[s], NULL);
            cycles[s] = copy_cycles(config, opts);
            ok = ok && cycles[s];
        }
        if (!ok)
            continue;
        int distinct, shapes;
        count_distinct(orders, 3, &distinct, &shapes);
        int ncyc = 1 + (cycles[1] != cycles[0]) + (cycles[2] != cycles[0] && cycles[2] != cycles[1]);
        printf("%s alone: %d distinct ticket orders (%d up to rotation), %d distinct copy cycle "
               "counts over 3 seeds\n", sources[on].name, distinct, shapes, ncyc);
        if (sources[on].moves_order)
            CHECK_MSG(shapes >= 2, "%s alone: the ticket order moves by no more than a rotation "
                      "over 3 seeds", sources[on].name);
        CHECK_MSG(ncyc >= 2, "%s alone: the copy's cycle count does not move over 3 seeds",
                  sources[on].name);
    }
}

/* The race-free part of racy_last does not move with the seed. */
static void test_race_free_sums(void)
{
    enum { N = 4096 };
    uint32_t first[4] = {0};
    for (int s = 0; s < SEEDS; s++) {
        char opts[64];
        snprintf(opts, sizeof opts, "-lockstep_nondet_seed %d", s + 1);
        lockstep_device *dev = e2e_timing_device(configs[s % 3], opts);
        lockstep_module *mod = e2e_load(dev, "nondet.ptx");
        lockstep_kernel *k = e2e_kernel(dev, mod, "racy_last");
        lockstep_dptr sums = k ? e2e_alloc(dev, 16) : 0, last = k ? e2e_alloc(dev, 4) : 0;
        uint32_t got[4] = {0}, zero[4] = {0};
        int n = N;
        if (k && sums && last) {
            lockstep_memcpy_htod(dev, sums, zero, sizeof zero);
            void *args[] = {&sums, &last, &n};
            if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(N / 128, 1, 1),
                                                 e2e_dim3(128, 1, 1), 0, args, NULL)) &&
                e2e_download(dev, got, sums, sizeof got)) {
                for (int j = 0; j < 4; j++) {
                    uint32_t want = 0;
                    for (uint32_t i = (uint32_t)j; i < N; i += 4)
                        want += i;
                    CHECK_MSG(got[j] == want, "seed %d: sums[%d] = %u, want %u", s + 1, j,
                              got[j], want);
                }
                if (s == 0)
                    memcpy(first, got, sizeof got);
                CHECK(!memcmp(first, got, sizeof got));
            }
        }
        e2e_device_destroy(dev);
    }
}

int main(void)
{
    RUN(test_ticket_orders);
    RUN(test_nondet_off);
    RUN(test_all_sources_off);
    RUN(test_each_source);
    RUN(test_race_free_sums);
    return test_summary();
}
