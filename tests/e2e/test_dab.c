/*
 * test_dab.c -- DAB (-lockstep_det dab, src/timing/dab.c): programs whose
 * only races are atomics give one result whatever the modelled hardware
 * does (tests/e2e/kernels/dab.cu).
 *
 *   - fsum (float adds that cancel, so the order shows in the bits) varies
 *     over seeds on the baseline and with -no_reordering (the partitions
 *     apply flushed atomics as they arrive), and gives one result under DAB over 8
 *     seeds, on the GTX 480 and TITAN V configurations, on 1 and 2 host
 *     threads, with each determinism-aware scheduler, with warp-level
 *     buffers, without fusion, with offset flushing and overlapped flushes;
 *   - every atomic operation (add, min, max, and, or, xor on 32 and 64 bits,
 *     f64 add, exch, inc) gives the CPU's answer where the order does not
 *     matter, one answer over seeds where it does, and the used-result
 *     ticket gives one order;
 *   - the buffers: fusion merges fsum's lanes (hits counted; none with
 *     -buffer_coalesce 0); a kernel needing 32 entries a warp fills them
 *     (full stalls) and coalescing packs a sector's entries into one
 *     transaction (none with -atomic_coalesce 0); more CTAs than slots gives
 *     tiers that wait;
 *   - Figure 7: two warps of one scheduler take turns with compare-and-
 *     swaps, one with more work between them: gwat and gtar keep the turns
 *     (the swaps all succeed), srr and gtrr issue by instruction and do not;
 *     each gives one answer over seeds;
 *   - a plain data race (racy_last of nondet.ptx) is outside DAB's
 *     guarantee: its race-free sums stay right;
 *   - bad option values are refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"
#include "e2e.h"

enum { N = 48 * 256 };

/* fsum's four sums and the launch's statistics; 0 on failure. */
static int fsum(const char *config, const char *opts, int n, uint32_t sums[4],
                lockstep_launch_stats *st)
{
    lockstep_device *dev = e2e_timing_device(config, opts);
    lockstep_module *mod = e2e_load(dev, "dab.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "fsum");
    lockstep_dptr d = k ? e2e_alloc(dev, 16) : 0;
    int ok = 0;
    if (k && d) {
        lockstep_memset(dev, d, 0, 16);
        void *args[] = {&d, &n};
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3((uint32_t)(n + 255) / 256, 1, 1),
                                              e2e_dim3(256, 1, 1), 0, args, st)) &&
             e2e_download(dev, sums, d, 16);
    }
    e2e_device_destroy(dev);
    return ok;
}

/* Distinct fsum results over seeds 1..8 with these options (-1: failure). */
static int fsum_distinct(const char *config, const char *opts)
{
    uint32_t seen[8][4];
    int distinct = 0;
    for (int s = 1; s <= 8; s++) {
        char o[512];
        snprintf(o, sizeof o, "%s-lockstep_nondet_seed %d\n", opts, s);
        if (!fsum(config, o, N, seen[s - 1], NULL))
            return -1;
        int j = 0;
        while (j < s - 1 && memcmp(seen[j], seen[s - 1], sizeof seen[j]))
            j++;
        distinct += j == s - 1;
    }
    return distinct;
}

static void test_fsum_seeds(void)
{
    const char *configs[] = {"configs/gtx480.config", "configs/titanv.config"};
    const char *variants[] = {
        "-lockstep_det dab\n-lockstep_threads 1\n",  "-lockstep_det dab\n-lockstep_threads 2\n",
        "-lockstep_det dab\n-dab_scheduler srr\n",   "-lockstep_det dab\n-dab_scheduler gtrr\n",
        "-lockstep_det dab\n-dab_scheduler gtar\n",  "-lockstep_det dab\n-dab_level warp\n",
        "-lockstep_det dab\n-buffer_coalesce 0\n",   "-lockstep_det dab\n-dab_offset_flush 1\n",
        "-lockstep_det dab\n-overlap_flushes 1\n",   "-lockstep_det dab\n-num_buffer_entries 64\n"};
    for (int c = 0; c < 2; c++) {
        int base = fsum_distinct(configs[c], "-lockstep_det none\n");
        CHECK_MSG(base > 1, "%s: the baseline gave %d result(s) over 8 seeds", configs[c], base);
        /* the partitions' reordering is what makes the flush deterministic:
         * applied in arrival order (the limit study), the sums move */
        int nr = fsum_distinct(configs[c], "-lockstep_det dab\n-no_reordering 1\n");
        CHECK_MSG(nr > 1, "%s: -no_reordering gave %d result(s) over 8 seeds", configs[c], nr);
        for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
            int d = fsum_distinct(configs[c], variants[v]);
            CHECK_MSG(d == 1, "%s %s: %d distinct results over 8 seeds", configs[c], variants[v],
                      d);
        }
    }
}

/* mixed: every atomic, against the CPU where the order does not matter. */
static void test_mixed(void)
{
    enum { M = 40 * 128 };
    uint32_t u0[8], t0[M / 32];
    double d0 = 0;
    for (int s = 1; s <= 3; s++) {
        char o[128];
        snprintf(o, sizeof o, "-lockstep_det dab\n-lockstep_nondet_seed %d\n", s);
        lockstep_device *dev = e2e_timing_device("configs/titanv.config", o);
        lockstep_module *mod = e2e_load(dev, "dab.ptx");
        lockstep_kernel *k = e2e_kernel(dev, mod, "mixed");
        lockstep_dptr du = k ? e2e_alloc(dev, 32) : 0, ds = k ? e2e_alloc(dev, 8) : 0;
        lockstep_dptr dl = k ? e2e_alloc(dev, 8) : 0, dd = k ? e2e_alloc(dev, 8) : 0;
        lockstep_dptr dt = k ? e2e_alloc(dev, M / 32 * 4) : 0;
        uint32_t u[8], t[M / 32];
        int32_t sv[2];
        uint64_t l;
        double dv;
        int n = M;
        if (k && du && ds && dl && dd && dt) {
            uint32_t ui[8] = {0, 0xffffffffu, 0, 0, 0, 0, 0, 0};
            int32_t si[2] = {1 << 30, -(1 << 30)};
            lockstep_memcpy_htod(dev, du, ui, sizeof ui);
            lockstep_memcpy_htod(dev, ds, si, sizeof si);
            lockstep_memset(dev, dl, 0, 8);
            lockstep_memset(dev, dd, 0, 8);
            void *args[] = {&du, &ds, &dl, &dd, &dt, &n};
            lockstep_launch_stats st;
            if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(M / 128, 1, 1),
                                                 e2e_dim3(128, 1, 1), 0, args, &st)) &&
                e2e_download(dev, u, du, 32) && e2e_download(dev, sv, ds, 8) &&
                e2e_download(dev, &l, dl, 8) && e2e_download(dev, &dv, dd, 8) &&
                e2e_download(dev, t, dt, sizeof t)) {
                uint32_t sum = 0, orv = 0, xorv = 0;
                uint64_t sq = 0;
                for (uint32_t i = 0; i < M; i++) {
                    sum += i;
                    orv |= 1u << (i % 29);
                    xorv ^= i * 2654435761u;
                    sq += (uint64_t)i * i;
                }
                CHECK_EQ_U64(u[0], sum);
                CHECK_EQ_U64(u[2], orv);
                CHECK_EQ_U64(u[3], xorv);
                CHECK_EQ_U64(l, sq);
                CHECK_EQ_U64((uint64_t)(int64_t)sv[0], (uint64_t)(int64_t)(0 - M / 2));
                CHECK_EQ_U64((uint64_t)sv[1], M - 1);
                CHECK(u[4] < M);                  /* exch: some thread's id */
                CHECK_EQ_U64(u[5], M);            /* inc: below the bound */
                CHECK_EQ_U64(u[6], M / 32);       /* the tickets */
                CHECK(dv > 9.0 && dv < 9.2);      /* the harmonic sum H(5120) ~ 9.12 */
                /* the used-result tickets ran in the serial phase */
                CHECK_EQ_U64(st.t.dab_serial_atomics, M / 32);
                CHECK(st.t.dab_buffered >= 9u * M);
                if (s == 1) {
                    memcpy(u0, u, sizeof u);
                    memcpy(t0, t, sizeof t);
                    d0 = dv;
                } else {
                    CHECK_MSG(!memcmp(u0, u, sizeof u), "seed %d: the integers moved", s);
                    CHECK_MSG(!memcmp(t0, t, sizeof t), "seed %d: the ticket order moved", s);
                    CHECK_MSG(!memcmp(&d0, &dv, 8), "seed %d: the double sum moved", s);
                }
            }
        }
        e2e_device_destroy(dev);
    }
}

static void test_buffers(void)
{
    uint32_t a[4], b[4];
    lockstep_launch_stats sa, sb;
    if (!fsum("configs/titanv.config", "-lockstep_det dab\n", N, a, &sa) ||
        !fsum("configs/titanv.config", "-lockstep_det dab\n-buffer_coalesce 0\n", N, b, &sb))
        return;
    CHECK_EQ_U64(sa.t.dab_buffered, N);
    CHECK(sa.t.dab_fusion_hits > N / 2); /* 32 lanes, 4 addresses */
    CHECK_EQ_U64(sb.t.dab_fusion_hits, 0);
    CHECK(sa.t.dab_flushes >= 1 && sa.t.dab_flush_cycles > 0);
    CHECK_EQ_U64(sa.t.dab_flush_entries, sa.t.dab_buffered - sa.t.dab_fusion_hits);
    printf("fsum: %llu atomics, %llu fused, %llu flushes (%llu cycles), %llu entries in %llu "
           "transactions\n", (unsigned long long)sa.t.dab_buffered,
           (unsigned long long)sa.t.dab_fusion_hits, (unsigned long long)sa.t.dab_flushes,
           (unsigned long long)sa.t.dab_flush_cycles, (unsigned long long)sa.t.dab_flush_entries,
           (unsigned long long)sa.t.dab_flush_transactions);
    /* scatter: 32 entries a warp, so buffers fill; 400 CTAs on 90 slots */
    for (int co = 0; co < 2; co++) {
        lockstep_device *dev = e2e_timing_device(
            "configs/gtx480.config", co ? "-lockstep_det dab\n" : "-lockstep_det dab\n-atomic_coalesce 0\n");
        lockstep_module *mod = e2e_load(dev, "dab.ptx");
        lockstep_kernel *k = e2e_kernel(dev, mod, "scatter");
        int n = 400 * 256, m = 4096;
        lockstep_dptr d = k ? e2e_alloc(dev, (size_t)m * 4) : 0;
        if (k && d) {
            lockstep_memset(dev, d, 0, (size_t)m * 4);
            void *args[] = {&d, &n, &m};
            lockstep_launch_stats st;
            static float out[4096];
            if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(400, 1, 1), e2e_dim3(256, 1, 1),
                                                 0, args, &st)) &&
                e2e_download(dev, out, d, sizeof out)) {
                float total = 0;
                for (int i = 0; i < m; i++)
                    total += out[i];
                CHECK_MSG(total == (float)n, "scatter: %g of %d adds", total, n);
                CHECK(st.t.dab_full_stalls > 0);
                CHECK(st.t.dab_tier_stalls > 0);
                CHECK(st.t.dab_flushbuf_max > 0); /* early arrivals waited for their turn */
                if (co)
                    CHECK(st.t.dab_flush_transactions < st.t.dab_flush_entries);
                else
                    CHECK_EQ_U64(st.t.dab_flush_transactions, st.t.dab_flush_entries);
                printf("scatter%s: %llu full stalls, %llu tier stalls, %llu flushes, %llu entries "
                       "in %llu transactions, flush buffer up to %llu\n",
                       co ? "" : " (no coalescing)", (unsigned long long)st.t.dab_full_stalls,
                       (unsigned long long)st.t.dab_tier_stalls, (unsigned long long)st.t.dab_flushes,
                       (unsigned long long)st.t.dab_flush_entries,
                       (unsigned long long)st.t.dab_flush_transactions,
                       (unsigned long long)st.t.dab_flushbuf_max);
            }
        }
        e2e_device_destroy(dev);
    }
}

/* turns: x after `rounds` turns with these options and seed. */
static uint32_t turns(const char *opts, int seed, int work0, int work2)
{
    char o[256];
    snprintf(o, sizeof o, "-lockstep_det dab\n%s-lockstep_nondet_seed %d\n", opts, seed);
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", o);
    lockstep_module *mod = e2e_load(dev, "dab.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "turns");
    lockstep_dptr d = k ? e2e_alloc(dev, 4) : 0;
    uint32_t x = UINT32_MAX;
    int rounds = 8;
    if (k && d) {
        lockstep_memset(dev, d, 0, 4);
        void *args[] = {&d, &rounds, &work0, &work2};
        if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(96, 1, 1), 0,
                                              args, NULL)))
            e2e_download(dev, &x, d, 4);
    }
    e2e_device_destroy(dev);
    return x;
}

static void test_scheduler_order(void)
{
    const char *pol[] = {"-dab_scheduler gwat\n", "-dab_scheduler gtar\n",
                         "-dab_scheduler srr\n", "-dab_scheduler gtrr\n", "-dab_level warp\n"};
    for (int p = 0; p < 5; p++) {
        uint32_t x1 = turns(pol[p], 1, 20, 0);
        for (int s = 2; s <= 3; s++)
            CHECK_MSG(turns(pol[p], s, 20, 0) == x1, "%s: x moved with the seed", pol[p]);
        if (p < 2)
            CHECK_MSG(x1 == 16, "%s: x = %u, the turns did not alternate", pol[p], x1);
        else
            CHECK_MSG(x1 < 16, "%s: x = %u, yet it orders instructions, not atomics", pol[p],
                      x1);
        printf("turns, %.*s: x = %u of 16\n", (int)strlen(pol[p]) - 1, pol[p], x1);
    }
    /* with equal work every scheduler alternates */
    CHECK_EQ_U64(turns("-dab_scheduler srr\n", 1, 5, 5), 16);
}

/* A plain race is outside DAB's guarantee; what is race-free stays right. */
static void test_plain_race(void)
{
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", "-lockstep_det dab\n");
    lockstep_module *mod = e2e_load(dev, "nondet.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "racy_last");
    lockstep_dptr ds = k ? e2e_alloc(dev, 16) : 0, dl = k ? e2e_alloc(dev, 4) : 0;
    int n = 4096;
    if (k && ds && dl) {
        lockstep_memset(dev, ds, 0, 16);
        void *args[] = {&ds, &dl, &n};
        uint32_t sums[4];
        if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(32, 1, 1), e2e_dim3(128, 1, 1), 0,
                                             args, NULL)) &&
            e2e_download(dev, sums, ds, 16))
            for (int j = 0; j < 4; j++) {
                uint32_t want = 0;
                for (int i = j; i < n; i += 4)
                    want += (uint32_t)i;
                CHECK_EQ_U64(sums[j], want);
            }
    }
    e2e_device_destroy(dev);
}

static void test_bad_options(void)
{
    static const char *const bad[] = {
        "-lockstep_det dabx",     "-dab_scheduler lrr",  "-dab_level cta",    "-num_buffer_entries 16",
        "-flush_chunk_size 0",    "-buffer_coalesce 2",  "-no_reordering 3"};
    e2e_check_bad_det_options(bad, sizeof bad / sizeof *bad, "dab");
}

int main(void)
{
    RUN(test_fsum_seeds);
    RUN(test_mixed);
    RUN(test_buffers);
    RUN(test_scheduler_order);
    RUN(test_plain_race);
    RUN(test_bad_options);
    return test_summary();
}
