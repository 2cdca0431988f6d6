/*
 * test_gpudet.c -- GPUDet (-lockstep_det gpudet, src/timing/gpudet.c):
 * racy programs give one result whatever the modelled hardware does.
 *
 *   - the ticket kernel (tests/e2e/kernels/nondet.cu: lane 0 of each of
 *     384 warps takes a ticket with atomicAdd) gives one order over 6 seeds,
 *     on 1 and 2 host threads, with CU-Ser and with W-Ser, with Z-buffer and
 *     lock-based commit, with and without DWP, on the GTX 480
 *     and TITAN V configurations, where the baseline gives 6;
 *   - a racy last-writer-wins kernel (every thread stores to one word)
 *     and a store-then-load of the warp's own buffered bytes give one
 *     result over seeds, the second the value the warp itself stored;
 *   - the store buffer's Bloom filter: an ideal filter (0 bits) has no
 *     false positives, a 256-bit one on a kernel with many chunks does,
 *     and both give the same result;
 *   - the statistics add up: quanta, quantum ends, serial operations, modes;
 *   - barrier termination avoidance: a kernel with CTA barriers ends quanta
 *     at them with -gpudet_bta 0 and never with BTA, same results;
 *   - a store out of bounds faults at once, as without GPUDet; warps stuck
 *     at different barriers are reported as a deadlock, not left to hang;
 *   - livelocks are reported, not left to spin: a flag no one sets, a spin
 *     lock no one releases; a producer/consumer flag that is set, and a long
 *     loop that stores nothing, run to the end;
 *   - the commit's Z-test: a racy kernel's losing words are counted as
 *     drops; a small depth field resets the Z-buffers, same results;
 *   - the store buffer's L1 traffic: counted with -gpudet_sb_l1 1, none with
 *     0, same results;
 *   - bad values of the options are refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test.h"
#include "e2e.h"

enum { CTAS = 48, THREADS = 256, WARPS = CTAS * THREADS / 32 };

/* Kernel `name` of PTX text (loaded as `file`), or NULL after a failed
 * check; *mod: the module. */
static lockstep_kernel *ptx_kernel(lockstep_device *dev, const char *ptx, const char *file,
                                   const char *name, lockstep_module **mod)
{
    if (!dev || !E2E_OK(dev, lockstep_module_load_ptx(dev, ptx, strlen(ptx), file, mod)))
        return NULL;
    return e2e_kernel(dev, *mod, name);
}

/* The ticket order and the launch's statistics; 0 on failure. */
static int tickets(const char *config, const char *opts, uint32_t order[WARPS],
                   lockstep_launch_stats *st)
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
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(CTAS, 1, 1),
                                              e2e_dim3(THREADS, 1, 1), 0, args, st)) &&
             e2e_download(dev, order, out, WARPS * 4);
    }
    e2e_device_destroy(dev);
    return ok;
}

static uint32_t first[WARPS], other[WARPS];

static void test_ticket_order(void)
{
    const char *configs[] = {"configs/gtx480.config", "configs/titanv.config"};
    const char *variants[] = {"-lockstep_det gpudet\n-lockstep_threads 1\n",
                              "-lockstep_det gpudet\n-lockstep_threads 2\n",
                              "-lockstep_det gpudet\n-gpudet_serial warp\n",
                              "-lockstep_det gpudet\n-gpudet_quantum_size 50\n",
                              "-lockstep_det gpudet\n-gpudet_commit lock\n",
                              "-lockstep_det gpudet\n-gpudet_dwp 0\n"};
    for (int c = 0; c < 2; c++)
        for (int v = 0; v < 6; v++) {
            int distinct = 0;
            for (int s = 1; s <= 6; s++) {
                char opts[256];
                snprintf(opts, sizeof opts, "%s-lockstep_nondet_seed %d\n", variants[v], s);
                lockstep_launch_stats st;
                if (!tickets(configs[c], opts, s == 1 ? first : other, &st))
                    return;
                if (s > 1 && memcmp(first, other, sizeof first))
                    distinct++;
                /* every warp's atomic ran in serial mode */
                CHECK_EQ_U64(st.t.det_serial_ops, WARPS);
                CHECK_EQ_U64(st.t.det_end_atomic, WARPS);
                CHECK(st.t.det_quanta >= 2);
                CHECK(st.t.det_serial_cycles > 0 && st.t.det_parallel_cycles > 0);
            }
            CHECK_MSG(distinct == 0, "%s %s: the ticket order moved with the seed", configs[c],
                      variants[v]);
        }
}

/* racy_last (nondet.cu): every thread stores to one word after work of a
 * thread-dependent length; under GPUDet the last writer is fixed. */
static int racy_last_st(const char *opts, uint32_t *last, uint32_t sums[4], int N,
                        lockstep_launch_stats *st)
{
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", opts);
    lockstep_module *mod = e2e_load(dev, "nondet.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "racy_last");
    lockstep_dptr ds = k ? e2e_alloc(dev, 16) : 0, dl = k ? e2e_alloc(dev, 4) : 0;
    int ok = 0, n = N;
    if (k && ds && dl) {
        uint32_t zero[4] = {0};
        lockstep_memcpy_htod(dev, ds, zero, sizeof zero);
        void *args[] = {&ds, &dl, &n};
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(N / 128, 1, 1),
                                              e2e_dim3(128, 1, 1), 0, args, st)) &&
             e2e_download(dev, last, dl, 4) && e2e_download(dev, sums, ds, 16);
    }
    e2e_device_destroy(dev);
    return ok;
}

static int racy_last_n(const char *opts, uint32_t *last, uint32_t sums[4], int N)
{
    return racy_last_st(opts, last, sums, N, NULL);
}

static int racy_last(const char *opts, uint32_t *last, uint32_t sums[4])
{
    return racy_last_n(opts, last, sums, 4096);
}

/* More CTAs (400) than slots (120): with DWP a slot takes its next CTA in
 * the middle of a quantum; the result still does not move. */
static void test_dwp(void)
{
    uint32_t l0 = 0, l = 0, s0[4], s[4];
    for (int seed = 1; seed <= 3; seed++) {
        char opts[128];
        snprintf(opts, sizeof opts, "-lockstep_det gpudet\n-lockstep_nondet_seed %d\n", seed);
        if (!racy_last_n(opts, seed == 1 ? &l0 : &l, seed == 1 ? s0 : s, 128 * 400))
            return;
        if (seed > 1) {
            CHECK_MSG(l == l0, "DWP, seed %d: last %08x, seed 1: %08x", seed, l, l0);
            CHECK(!memcmp(s, s0, sizeof s));
        }
    }
}

static void test_racy_store(void)
{
    uint32_t l0 = 0, l = 0, s0[4], s[4];
    for (int seed = 1; seed <= 5; seed++) {
        char opts[128];
        snprintf(opts, sizeof opts, "-lockstep_det gpudet\n-lockstep_nondet_seed %d\n", seed);
        if (!racy_last(opts, seed == 1 ? &l0 : &l, seed == 1 ? s0 : s))
            return;
        if (seed > 1) {
            CHECK_MSG(l == l0, "seed %d: last %08x, seed 1: %08x", seed, l, l0);
            CHECK(!memcmp(s, s0, sizeof s));
        }
    }
    for (int j = 0; j < 4; j++) {
        uint32_t want = 0;
        for (uint32_t i = (uint32_t)j; i < 4096; i += 4)
            want += i;
        CHECK_EQ_U64(s0[j], want);
    }
}

/* A warp reads back what it stored in the same quantum (from its store
 * buffer), and a filter that is too small for the chunks it holds says
 * "maybe" for chunks the log does not hold. */
static const char own_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry own(.param .u64 p_a, .param .u64 p_out)\n{\n"
    "  .reg .u64 %rd<8>;\n  .reg .u32 %r<8>;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p_a];\n  ld.param.u64 %rd2, [p_out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mad.lo.u32 %r3, %r2, 64, %r1;\n"
    "  mul.wide.u32 %rd3, %r3, 4;\n"
    /* 64 stores per thread, 2 KiB apart: 64 chunks per warp */
    "  mov.u32 %r4, 0;\n"
    "LOOP:\n"
    "  mul.wide.u32 %rd4, %r4, 2048;\n  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd5, %rd5, %rd3;\n"
    "  add.u32 %r5, %r3, %r4;\n  st.global.u32 [%rd5], %r5;\n"
    "  add.u32 %r4, %r4, 1;\n  setp.lt.u32 %p, %r4, 64;\n  @%p bra LOOP;\n"
    /* read back the 5th, and words of 16 chunks nobody wrote (zero) */
    "  add.s64 %rd5, %rd1, 10240;\n  add.s64 %rd5, %rd5, %rd3;\n  ld.global.u32 %r6, [%rd5];\n"
    "  mov.u32 %r4, 0;\n"
    "LOOP2:\n"
    "  mul.wide.u32 %rd4, %r4, 2048;\n  add.s64 %rd6, %rd1, %rd4;\n  add.s64 %rd6, %rd6, 200000;\n"
    "  add.s64 %rd6, %rd6, %rd3;\n  ld.global.u32 %r7, [%rd6];\n  add.u32 %r6, %r6, %r7;\n"
    "  add.u32 %r4, %r4, 1;\n  setp.lt.u32 %p, %r4, 16;\n  @%p bra LOOP2;\n"
    "  add.s64 %rd7, %rd2, %rd3;\n  st.global.u32 [%rd7], %r6;\n  ret;\n}\n";

static int own_run(const char *opts, uint32_t out[128], lockstep_launch_stats *st)
{
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", opts);
    lockstep_module *mod = NULL;
    lockstep_kernel *k = ptx_kernel(dev, own_ptx, "own.ptx", "own", &mod);
    lockstep_dptr a = k ? e2e_alloc(dev, 240000) : 0, o = k ? e2e_alloc(dev, 512) : 0;
    int ok = 0;
    if (k && a && o) {
        lockstep_memset(dev, a, 0, 240000);
        void *args[] = {&a, &o};
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(2, 1, 1), e2e_dim3(64, 1, 1), 0,
                                              args, st)) &&
             e2e_download(dev, out, o, 512);
    }
    e2e_device_destroy(dev);
    return ok;
}

/* The Z-test: every thread of racy_last stores to one word, so every
 * quantum's commit drops all but one warp's word; a depth field so small
 * that the quantum id overflows every few quanta resets the Z-buffers. */
static void test_ztest(void)
{
    uint32_t l0 = 0, l1 = 0, s0[4], s1[4];
    lockstep_launch_stats a, b;
    if (!racy_last_st("-lockstep_det gpudet\n", &l0, s0, 4096, &a) ||
        !racy_last_st("-lockstep_det gpudet\n-gpudet_zdepth_bits 8\n", &l1, s1, 4096, &b))
        return;
    CHECK(a.t.det_ztest_drops > 0);
    CHECK_EQ_U64(a.t.det_zbuffer_resets, 0);
    CHECK(b.t.det_zbuffer_resets > 0);
    CHECK(l0 == l1 && !memcmp(s0, s1, sizeof s0));
    CHECK_EQ_U64(a.t.det_ztest_drops, b.t.det_ztest_drops);
    printf("Z-test: %llu words dropped over %llu quanta; 8-bit depths: %llu resets, %llu -> "
           "%llu cycles\n", (unsigned long long)a.t.det_ztest_drops,
           (unsigned long long)a.t.det_quanta, (unsigned long long)b.t.det_zbuffer_resets,
           (unsigned long long)a.t.cycles, (unsigned long long)b.t.cycles);
}

static void test_store_buffer(void)
{
    uint32_t a[128], b[128];
    lockstep_launch_stats sa, sb;
    if (!own_run("-lockstep_det gpudet\n-gpudet_bloom_bits 0\n-gpudet_quantum_size 1000\n", a,
                 &sa) ||
        !own_run("-lockstep_det gpudet\n-gpudet_bloom_bits 256\n-gpudet_quantum_size 1000\n", b,
                 &sb))
        return;
    for (uint32_t t = 0; t < 128; t++)
        CHECK_MSG(a[t] == t + 5, "thread %u read back %u, stored %u", t, a[t], t + 5);
    CHECK(!memcmp(a, b, sizeof a));
    CHECK(sa.t.det_sb_load_hits > 0);
    CHECK_EQ_U64(sa.t.det_bloom_false_positives, 0);
    /* 256 bits, 64 per sub-array, 64 chunks a warp: unwritten chunks often pass */
    CHECK(sb.t.det_bloom_false_positives > 0);
    CHECK(sa.t.det_sb_entries >= 4 * 64 && sa.t.det_commit_entries == sa.t.det_sb_entries);
    /* every committed entry went through a Z-cache: hit or miss */
    CHECK_EQ_U64(sa.t.det_zcache_hits + sa.t.det_zcache_misses, sa.t.det_commit_entries);
    /* the logs' lines go through the L1: each new entry's line is written,
     * each search reads every entry's line */
    CHECK(sa.t.det_sb_l1_accesses >= sa.t.det_sb_entries);
    CHECK(sa.t.det_sb_l1_misses <= sa.t.det_sb_l1_accesses);
    uint32_t c[128];
    lockstep_launch_stats sc;
    if (own_run("-lockstep_det gpudet\n-gpudet_bloom_bits 0\n-gpudet_quantum_size 1000\n"
                "-gpudet_sb_l1 0\n", c, &sc)) {
        CHECK(!memcmp(a, c, sizeof a));
        CHECK_EQ_U64(sc.t.det_sb_l1_accesses, 0);
        CHECK_EQ_U64(sc.t.det_sb_entries, sa.t.det_sb_entries);
    }
    printf("store buffer: %llu L1 accesses, %llu misses, %llu write-backs\n",
           (unsigned long long)sa.t.det_sb_l1_accesses,
           (unsigned long long)sa.t.det_sb_l1_misses,
           (unsigned long long)sa.t.det_sb_l1_writebacks);
    printf("store buffer: %llu entries, %llu loads answered from it, %llu false positives of "
           "a 256-bit filter\n", (unsigned long long)sa.t.det_sb_entries,
           (unsigned long long)sa.t.det_sb_load_hits,
           (unsigned long long)sb.t.det_bloom_false_positives);
}

/* A kernel with CTA barriers: 4 rounds of store to shared, barrier, read
 * the neighbour's word, with more work than a quantum between them. */
static const char bar_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry rounds(.param .u64 p_out)\n{\n"
    "  .reg .u64 %rd<4>;\n  .reg .u32 %r<12>;\n  .reg .pred %p, %q;\n"
    "  .shared .align 4 .b32 sh[128];\n"
    "  ld.param.u64 %rd1, [p_out];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sh;\n"
    "  shl.b32 %r3, %r1, 2;\n  add.u32 %r4, %r2, %r3;\n"
    "  add.u32 %r5, %r1, 1;\n  and.b32 %r5, %r5, 127;\n  shl.b32 %r5, %r5, 2;\n  add.u32 %r5, %r2, %r5;\n"
    "  mov.u32 %r6, %r1;\n  mov.u32 %r7, 0;\n"
    "ROUND:\n  mov.u32 %r8, 0;\n"
    "WORK:\n  mad.lo.u32 %r6, %r6, 1664525, 1013904223;\n  add.u32 %r8, %r8, 1;\n"
    "  setp.lt.u32 %p, %r8, 150;\n  @%p bra WORK;\n"
    "  st.shared.u32 [%r4], %r6;\n  bar.sync 0;\n  ld.shared.u32 %r9, [%r5];\n  bar.sync 0;\n"
    "  xor.b32 %r6, %r6, %r9;\n  add.u32 %r7, %r7, 1;\n  setp.lt.u32 %q, %r7, 4;\n  @%q bra ROUND;\n"
    "  mov.u32 %r10, %ctaid.x;\n  mad.lo.u32 %r11, %r10, 128, %r1;\n"
    "  mul.wide.u32 %rd2, %r11, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r6;\n"
    "  ret;\n}\n";

static int bar_run(const char *opts, uint32_t out[16 * 128], lockstep_launch_stats *st)
{
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", opts);
    lockstep_module *mod = NULL;
    lockstep_kernel *k = ptx_kernel(dev, bar_ptx, "bar.ptx", "rounds", &mod);
    lockstep_dptr o = k ? e2e_alloc(dev, 16 * 128 * 4) : 0;
    int ok = 0;
    if (k && o) {
        void *args[] = {&o};
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(16, 1, 1), e2e_dim3(128, 1, 1), 0,
                                              args, st)) &&
             e2e_download(dev, out, o, 16 * 128 * 4);
    }
    e2e_device_destroy(dev);
    return ok;
}

static void test_bta(void)
{
    static uint32_t base[16 * 128], bta[16 * 128], ref[16 * 128];
    lockstep_launch_stats sb, st, sr;
    if (!bar_run("-lockstep_det gpudet\n-gpudet_bta 0\n", base, &sb) ||
        !bar_run("-lockstep_det gpudet\n-gpudet_bta 1\n", bta, &st) ||
        !bar_run("-lockstep_det none\n", ref, &sr))
        return;
    CHECK(!memcmp(base, ref, sizeof ref) && !memcmp(bta, ref, sizeof ref));
    CHECK(sb.t.det_end_barrier > 0);
    CHECK_EQ_U64(st.t.det_end_barrier, 0);
    CHECK(st.t.det_quanta < sb.t.det_quanta);
    printf("BTA: %llu quanta (%llu ended at barriers) -> %llu; cycles %llu -> %llu\n",
           (unsigned long long)sb.t.det_quanta, (unsigned long long)sb.t.det_end_barrier,
           (unsigned long long)st.t.det_quanta, (unsigned long long)sb.t.cycles,
           (unsigned long long)st.t.cycles);
}

/* A store out of bounds is a fault at once, not a write the commit drops. */
static void test_fault(void)
{
    static const char ptx[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry oob(.param .u64 p)\n{\n  .reg .u64 %rd<3>;\n  .reg .u32 %r1;\n"
        "  ld.param.u64 %rd1, [p];\n  add.s64 %rd2, %rd1, 4096;\n  mov.u32 %r1, 7;\n"
        "  st.global.u32 [%rd2], %r1;\n  ret;\n}\n";
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", "-lockstep_det gpudet\n");
    lockstep_module *mod = NULL;
    lockstep_kernel *k = ptx_kernel(dev, ptx, "oob.ptx", "oob", &mod);
    lockstep_dptr a = k ? e2e_alloc(dev, 256) : 0;
    if (k && a) {
        void *args[] = {&a};
        lockstep_status st = lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(32, 1, 1),
                                                  0, args, NULL);
        CHECK_MSG(st == LOCKSTEP_ERROR_ILLEGAL_ADDRESS, "%s", lockstep_status_name(st));
        CHECK_STR_CONTAINS(lockstep_device_last_error(dev), "oob");
    }
    e2e_device_destroy(dev);
}

/* A kernel whose first instruction is an atomic on a module variable: every
 * quantum's parallel mode issues nothing, serial mode does the work. */
static void test_atomic_first(void)
{
    static const char ptx[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".global .align 4 .u32 ctr;\n"
        ".visible .entry first()\n{\n  .reg .u32 %r1;\n"
        "  atom.global.add.u32 %r1, [ctr], 1;\n  ret;\n}\n";
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", "-lockstep_det gpudet\n");
    lockstep_module *mod = NULL;
    lockstep_kernel *k = ptx_kernel(dev, ptx, "first.ptx", "first", &mod);
    if (k) {
        lockstep_launch_stats st;
        CHECK(E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(4, 1, 1), e2e_dim3(64, 1, 1), 0,
                                               NULL, &st)));
        CHECK_EQ_U64(st.t.det_serial_ops, 8);
        lockstep_dptr a;
        uint32_t v = 0;
        size_t sz;
        if (E2E_OK(dev, lockstep_module_get_symbol(mod, "ctr", &a, &sz)))
            e2e_download(dev, &v, a, 4);
        CHECK_EQ_U64(v, 256);
    }
    e2e_device_destroy(dev);
}

/* Warps that wait for each other at different barriers: reported, not hung. */
static void test_deadlock(void)
{
    static const char ptx[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry stuck()\n{\n  .reg .u32 %r1;\n  .reg .pred %p;\n"
        "  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p, %r1, 32;\n  @%p bra A;\n"
        "  bar.sync 1;\n  ret;\nA:\n  bar.sync 0;\n  ret;\n}\n";
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config", "-lockstep_det gpudet\n");
    lockstep_module *mod = NULL;
    lockstep_kernel *k = ptx_kernel(dev, ptx, "stuck.ptx", "stuck", &mod);
    if (k) {
        lockstep_status st = lockstep_launch_args(dev, k, e2e_dim3(2, 1, 1), e2e_dim3(64, 1, 1),
                                                  0, NULL, NULL);
        CHECK_MSG(st == LOCKSTEP_ERROR_BARRIER_DEADLOCK, "%s: %s", lockstep_status_name(st),
                  lockstep_device_last_error(dev));
    }
    e2e_device_destroy(dev);
}

/* Livelocks: reported as soon as the state repeats, not spun until the
 * cycle limit.  spin(p_flag, p_out, mode): warp 1 of CTA 0 waits for *flag
 * (mode 0: set by nobody; mode 1: set by CTA 1 after a long loop that
 * stores nothing); mode 2: every warp's lane 0 spins on a lock (atom.cas)
 * that starts taken and is never released. */
static const char spin_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry spin(.param .u64 p_flag, .param .u64 p_out, .param .u32 p_mode)\n{\n"
    "  .reg .u64 %rd<4>;\n  .reg .u32 %r<12>;\n  .reg .pred %p<6>;\n"
    "  ld.param.u64 %rd1, [p_flag];\n  ld.param.u64 %rd2, [p_out];\n"
    "  ld.param.u32 %r1, [p_mode];\n  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n"
    "  setp.eq.u32 %p1, %r1, 2;\n  @%p1 bra LOCK;\n"
    "  setp.eq.u32 %p2, %r3, 1;\n  @%p2 bra PRODUCER;\n"
    "  setp.lt.u32 %p3, %r2, 32;\n  @%p3 bra DONE;\n"
    "WAIT:\n  ld.volatile.global.u32 %r4, [%rd1];\n  setp.eq.u32 %p4, %r4, 0;\n  @%p4 bra WAIT;\n"
    "  st.global.u32 [%rd2], %r4;\n  bra DONE;\n"
    "PRODUCER:\n  setp.ne.u32 %p3, %r2, 0;\n  @%p3 bra DONE;\n  setp.eq.u32 %p4, %r1, 0;\n"
    "  @%p4 bra DONE;\n  mov.u32 %r5, 0;\n  mov.u32 %r6, 7;\n"
    "LONG:\n  mad.lo.u32 %r6, %r6, 1664525, 1013904223;\n  add.u32 %r5, %r5, 1;\n"
    "  setp.lt.u32 %p5, %r5, 3000;\n  @%p5 bra LONG;\n  or.b32 %r6, %r6, 1;\n"
    "  st.global.u32 [%rd1], %r6;\n  bra DONE;\n"
    "LOCK:\n  and.b32 %r7, %r2, 31;\n  setp.ne.u32 %p3, %r7, 0;\n  @%p3 bra DONE;\n"
    "TRY:\n  atom.global.cas.b32 %r8, [%rd1], 0, 1;\n  setp.ne.u32 %p4, %r8, 0;\n  @%p4 bra TRY;\n"
    "  st.global.u32 [%rd2], %r2;\n  st.global.u32 [%rd1], 0;\n"
    "DONE:\n  ret;\n}\n";

static lockstep_status spin_run(uint32_t mode, uint32_t flag0, uint32_t *out,
                                lockstep_launch_stats *st, char *err, size_t errlen)
{
    lockstep_device *dev = e2e_timing_device("configs/gtx480.config",
                                             "-lockstep_det gpudet\n-lockstep_max_cycles 20000000\n");
    lockstep_module *mod = NULL;
    lockstep_kernel *k = ptx_kernel(dev, spin_ptx, "spin.ptx", "spin", &mod);
    lockstep_dptr f = k ? e2e_alloc(dev, 4) : 0, o = k ? e2e_alloc(dev, 4) : 0;
    lockstep_status rc = LOCKSTEP_ERROR_INVALID_VALUE;
    if (k && f && o) {
        uint32_t zero = 0;
        lockstep_memcpy_htod(dev, f, &flag0, 4);
        lockstep_memcpy_htod(dev, o, &zero, 4);
        void *args[] = {&f, &o, &mode};
        rc = lockstep_launch_args(dev, k, e2e_dim3(2, 1, 1), e2e_dim3(64, 1, 1), 0, args, st);
        snprintf(err, errlen, "%s", lockstep_device_last_error(dev));
        if (rc == LOCKSTEP_SUCCESS)
            e2e_download(dev, out, o, 4);
    }
    e2e_device_destroy(dev);
    return rc;
}

static void test_livelock(void)
{
    char err[1024];
    uint32_t out = 0;
    lockstep_launch_stats st;
    /* a flag nobody sets */
    lockstep_status rc = spin_run(0, 0, &out, &st, err, sizeof err);
    CHECK_MSG(rc == LOCKSTEP_ERROR_BARRIER_DEADLOCK, "%s: %s", lockstep_status_name(rc), err);
    CHECK_STR_CONTAINS(err, "livelock");
    /* a lock taken from the start */
    rc = spin_run(2, 1, &out, &st, err, sizeof err);
    CHECK_MSG(rc == LOCKSTEP_ERROR_BARRIER_DEADLOCK, "%s: %s", lockstep_status_name(rc), err);
    CHECK_STR_CONTAINS(err, "livelock");
    /* a flag set after 3000 iterations that store nothing: not a livelock */
    rc = spin_run(1, 0, &out, &st, err, sizeof err);
    CHECK_MSG(rc == LOCKSTEP_SUCCESS, "%s: %s", lockstep_status_name(rc), err);
    CHECK(out & 1);
    /* a free lock: every warp takes it in turn */
    rc = spin_run(2, 0, &out, &st, err, sizeof err);
    CHECK_MSG(rc == LOCKSTEP_SUCCESS, "%s: %s", lockstep_status_name(rc), err);
}

/* Release orders the warp's earlier stores before it (PTX memory model):
 * warp 1 stores 32 words, then releases a flag in shared memory (kernel
 * rel: st.release) or arrives on an mbarrier (kernel mbar: release by
 * default); warp 0 waits for it with acquire and copies the words.  Under
 * GPUDet the stores sit in warp 1's store buffer until a commit, and the
 * flag and the mbarrier are in shared memory, which is not buffered: the
 * release ends the quantum as a fence does, or warp 0 reads zeros. */
static const char release_ptx[] =
    ".version 7.8\n.target sm_80\n.address_size 64\n"
    ".visible .entry rel(.param .u64 buf)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    "  .shared .align 4 .b32 flag;\n"
    "  ld.param.u64 %rd1, [buf]; mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0; @%p1 bra S;\n  st.shared.u32 [flag], 0;\nS:\n  bar.sync 0;\n"
    "  setp.lt.u32 %p3, %r1, 32; @%p3 bra WAITER;\n"
    "  and.b32 %r3, %r1, 31; mul.wide.u32 %rd4, %r3, 4; add.s64 %rd4, %rd4, 4096;\n"
    "  add.s64 %rd4, %rd1, %rd4; add.u32 %r6, %r1, 1000; st.global.u32 [%rd4], %r6;\n"
    "  st.release.cta.shared.u32 [flag], 1;\n  ret;\n"
    "WAITER:\n  ld.acquire.cta.shared.u32 %r7, [flag];\n"
    "  setp.eq.u32 %p2, %r7, 0; @%p2 bra WAITER;\n"
    "  mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd4, 4096; add.s64 %rd5, %rd1, %rd5;\n"
    "  ld.global.u32 %r6, [%rd5]; add.s64 %rd3, %rd1, %rd4; st.global.u32 [%rd3], %r6;\n"
    "  ret;\n}\n"
    ".visible .entry mbar(.param .u64 buf)\n{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n"
    "  .shared .align 8 .b64 mb;\n"
    "  ld.param.u64 %rd1, [buf]; mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0; @%p1 bra S;\n  mbarrier.init.shared.b64 [mb], 32;\nS:\n"
    "  bar.sync 0;\n"
    "  setp.lt.u32 %p3, %r1, 32; @%p3 bra WAITER;\n"
    "  and.b32 %r3, %r1, 31; mul.wide.u32 %rd4, %r3, 4; add.s64 %rd4, %rd4, 4096;\n"
    "  add.s64 %rd4, %rd1, %rd4; add.u32 %r6, %r1, 1000; st.global.u32 [%rd4], %r6;\n"
    "  mbarrier.arrive.shared.b64 %rd2, [mb];\n  ret;\n"
    "WAITER:\n  mbarrier.try_wait.parity.shared.b64 %p2, [mb], 0;\n  @!%p2 bra WAITER;\n"
    "  mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd4, 4096; add.s64 %rd5, %rd1, %rd5;\n"
    "  ld.global.u32 %r6, [%rd5]; add.s64 %rd3, %rd1, %rd4; st.global.u32 [%rd3], %r6;\n"
    "  ret;\n}\n";

static void test_release(void)
{
    static const char *const kernels[] = {"rel", "mbar"};
    for (int i = 0; i < 2; i++) {
        lockstep_device *dev = e2e_timing_device("configs/gtx480.config", "-lockstep_det gpudet\n");
        lockstep_module *mod = NULL;
        lockstep_kernel *k = ptx_kernel(dev, release_ptx, "release.ptx", kernels[i], &mod);
        lockstep_dptr b = k ? e2e_alloc(dev, 8192) : 0;
        uint32_t out[32];
        if (k && b) {
            lockstep_memset(dev, b, 0, 8192);
            void *args[] = {&b};
            if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(64, 1, 1),
                                                 0, args, NULL)) &&
                e2e_download(dev, out, b, sizeof out)) {
                int bad = 0;
                for (uint32_t t = 0; t < 32; t++)
                    bad += out[t] != 1032 + t;
                CHECK_MSG(!bad, "%s: %d of 32 words read before the release wrong (word 0: %u)",
                          kernels[i], bad, out[0]);
            }
        }
        e2e_device_destroy(dev);
    }
}

static void test_bad_options(void)
{
    static const char *const bad[] = {
        "-lockstep_det gpudet2", "-gpudet_serial both",   "-gpudet_bloom_bits 100",
        "-gpudet_quantum_size 0", "-gpudet_bta 2",        "-gpudet_commit z",
        "-gpudet_zcache_kb 0",    "-gpudet_zdepth_bits 4", "-gpudet_livelock 2",
        "-gpudet_sb_l1 3",        "-gpudet_bloom_bits 2048"};
    e2e_check_bad_det_options(bad, sizeof bad / sizeof *bad, "gpudet");
}

int main(void)
{
    RUN(test_ticket_order);
    RUN(test_racy_store);
    RUN(test_dwp);
    RUN(test_store_buffer);
    RUN(test_bta);
    RUN(test_fault);
    RUN(test_deadlock);
    RUN(test_livelock);
    RUN(test_ztest);
    RUN(test_atomic_first);
    RUN(test_release);
    RUN(test_bad_options);
    return test_summary();
}
