/*
 * test_timing.c -- microbenchmarks of the timing model (issue 5), each
 * checked against what the configuration says:
 *
 *   latency     pointer chasing: an L1 hit, an L2 hit (ld.cg) and a DRAM
 *               access each take the configured latency, within the margin
 *               stated at each check
 *   bandwidth   a streaming copy reaches a stated fraction of the
 *               configured DRAM bandwidth
 *   banks       an N-way shared-memory bank conflict costs N cycles (N-1
 *               extra conflict cycles per access)
 *   occupancy   resident CTAs per SM follow the thread, register, shared
 *               memory and CTA-slot limits
 *   seeds       the same nondeterminism seed gives identical statistics;
 *               values are the same as functional mode's for race-free code
 *   watchdog    a kernel that makes no progress for the configured number
 *               of cycles stops with an error
 *   sleep       nanosleep sleeps for its delay at the core clock, which
 *               %globaltimer counts in nanoseconds
 *   after fault a launch stopped with memory requests in flight, its module
 *               unloaded, leaves nothing behind for the next launch (the
 *               PTX fuzzer found late DRAM fills reaching freed requests)
 *   write merge a store that reaches a line while its L2 fill is out is
 *               performed at once with -lockstep_l2_write_merge 1 (the
 *               waiting load reads it), and waits behind the fill with 0
 */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "test.h"

static const char *chase_ptx =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    "// chase(next, steps, out): one thread follows next[] for `steps` loads\n"
    ".visible .entry chase(.param .u64 p_next, .param .u32 p_steps, .param .u64 p_out)\n{\n"
    "  .reg .u64 %rd<4>;\n  .reg .u32 %r<3>;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p_next];\n  ld.param.u32 %r1, [p_steps];\n"
    "  mov.u32 %r2, 0;\n"
    "LOOP:\n"
    "  ld.global.u64 %rd1, [%rd1];\n"
    "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p, %r2, %r1;\n  @%p bra LOOP;\n"
    "  ld.param.u64 %rd2, [p_out];\n  st.global.u64 [%rd2], %rd1;\n  ret;\n}\n"
    ".visible .entry chase_cg(.param .u64 p_next, .param .u32 p_steps, .param .u64 p_out)\n{\n"
    "  .reg .u64 %rd<4>;\n  .reg .u32 %r<3>;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p_next];\n  ld.param.u32 %r1, [p_steps];\n"
    "  mov.u32 %r2, 0;\n"
    "LOOP:\n"
    "  ld.global.cg.u64 %rd1, [%rd1];\n"
    "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p, %r2, %r1;\n  @%p bra LOOP;\n"
    "  ld.param.u64 %rd2, [p_out];\n  st.global.u64 [%rd2], %rd1;\n  ret;\n}\n"
    "// copy(src, dst, n): dst[i] = src[i] over a grid-stride loop\n"
    ".visible .entry copy(.param .u64 p_src, .param .u64 p_dst, .param .u32 p_n)\n{\n"
    "  .reg .u64 %rd<6>;\n  .reg .u32 %r<8>;\n  .reg .f32 %f;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p_src];\n  ld.param.u64 %rd2, [p_dst];\n  ld.param.u32 %r1, [p_n];\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.u32 %r5, %r2, %r3, %r4;\n  mov.u32 %r6, %nctaid.x;\n  mul.lo.u32 %r7, %r6, %r3;\n"
    "  setp.ge.u32 %p, %r5, %r1;\n  @%p bra DONE;\n"
    "LOOP:\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n  add.u64 %rd4, %rd1, %rd3;\n  add.u64 %rd5, %rd2, %rd3;\n"
    "  ld.global.cg.f32 %f, [%rd4];\n  st.global.f32 [%rd5], %f;\n"
    "  add.u32 %r5, %r5, %r7;\n  setp.lt.u32 %p, %r5, %r1;\n  @%p bra LOOP;\n"
    "DONE:\n  ret;\n}\n"
    "// banks(out, stride): 32 lanes read shared word lane*stride, 64 times\n"
    ".visible .entry banks(.param .u64 p_out, .param .u32 p_stride)\n{\n"
    "  .reg .u64 %rd<3>;\n  .reg .u32 %r<8>;\n  .reg .pred %p;\n"
    "  .shared .align 4 .b32 sh[1024];\n"
    "  ld.param.u32 %r1, [p_stride];\n  mov.u32 %r2, %tid.x;\n"
    "  mul.lo.u32 %r3, %r2, %r1;\n  and.b32 %r3, %r3, 1023;\n  shl.b32 %r3, %r3, 2;\n"
    "  mov.u32 %r4, sh;\n  add.u32 %r4, %r4, %r3;\n  mov.u32 %r5, 0;\n  mov.u32 %r6, 0;\n"
    "LOOP:\n"
    "  ld.shared.u32 %r7, [%r4];\n  add.u32 %r6, %r6, %r7;\n"
    "  add.u32 %r5, %r5, 1;\n  setp.lt.u32 %p, %r5, 64;\n  @%p bra LOOP;\n"
    "  ld.param.u64 %rd1, [p_out];\n  mul.wide.u32 %rd2, %r2, 4;\n  add.u64 %rd1, %rd1, %rd2;\n"
    "  st.global.u32 [%rd1], %r6;\n  ret;\n}\n"
    "// ticket(ctr, out): out[gid] = atomicAdd(ctr, 1): the arrival order at the partition\n"
    ".visible .entry ticket(.param .u64 p_ctr, .param .u64 p_out)\n{\n"
    "  .reg .u64 %rd<4>;\n  .reg .u32 %r<6>;\n"
    "  ld.param.u64 %rd1, [p_ctr];\n  ld.param.u64 %rd2, [p_out];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.u32 %r4, %r1, %r2, %r3;\n"
    "  atom.global.add.u32 %r5, [%rd1], 1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n  add.u64 %rd2, %rd2, %rd3;\n  st.global.u32 [%rd2], %r5;\n"
    "  ret;\n}\n"
    "// straight(): 64 independent adds in a straight line, for the fetch model\n"
    ".visible .entry straight()\n{\n"
    "  .reg .u32 %r<65>;\n  mov.u32 %r0, %tid.x;\n"
    "  add.u32 %r1, %r0, 0;\n"
    "  add.u32 %r2, %r0, 1;\n"
    "  add.u32 %r3, %r0, 2;\n"
    "  add.u32 %r4, %r0, 3;\n"
    "  add.u32 %r5, %r0, 4;\n"
    "  add.u32 %r6, %r0, 5;\n"
    "  add.u32 %r7, %r0, 6;\n"
    "  add.u32 %r8, %r0, 7;\n"
    "  add.u32 %r9, %r0, 8;\n"
    "  add.u32 %r10, %r0, 9;\n"
    "  add.u32 %r11, %r0, 10;\n"
    "  add.u32 %r12, %r0, 11;\n"
    "  add.u32 %r13, %r0, 12;\n"
    "  add.u32 %r14, %r0, 13;\n"
    "  add.u32 %r15, %r0, 14;\n"
    "  add.u32 %r16, %r0, 15;\n"
    "  add.u32 %r17, %r0, 16;\n"
    "  add.u32 %r18, %r0, 17;\n"
    "  add.u32 %r19, %r0, 18;\n"
    "  add.u32 %r20, %r0, 19;\n"
    "  add.u32 %r21, %r0, 20;\n"
    "  add.u32 %r22, %r0, 21;\n"
    "  add.u32 %r23, %r0, 22;\n"
    "  add.u32 %r24, %r0, 23;\n"
    "  add.u32 %r25, %r0, 24;\n"
    "  add.u32 %r26, %r0, 25;\n"
    "  add.u32 %r27, %r0, 26;\n"
    "  add.u32 %r28, %r0, 27;\n"
    "  add.u32 %r29, %r0, 28;\n"
    "  add.u32 %r30, %r0, 29;\n"
    "  add.u32 %r31, %r0, 30;\n"
    "  add.u32 %r32, %r0, 31;\n"
    "  add.u32 %r33, %r0, 32;\n"
    "  add.u32 %r34, %r0, 33;\n"
    "  add.u32 %r35, %r0, 34;\n"
    "  add.u32 %r36, %r0, 35;\n"
    "  add.u32 %r37, %r0, 36;\n"
    "  add.u32 %r38, %r0, 37;\n"
    "  add.u32 %r39, %r0, 38;\n"
    "  add.u32 %r40, %r0, 39;\n"
    "  add.u32 %r41, %r0, 40;\n"
    "  add.u32 %r42, %r0, 41;\n"
    "  add.u32 %r43, %r0, 42;\n"
    "  add.u32 %r44, %r0, 43;\n"
    "  add.u32 %r45, %r0, 44;\n"
    "  add.u32 %r46, %r0, 45;\n"
    "  add.u32 %r47, %r0, 46;\n"
    "  add.u32 %r48, %r0, 47;\n"
    "  add.u32 %r49, %r0, 48;\n"
    "  add.u32 %r50, %r0, 49;\n"
    "  add.u32 %r51, %r0, 50;\n"
    "  add.u32 %r52, %r0, 51;\n"
    "  add.u32 %r53, %r0, 52;\n"
    "  add.u32 %r54, %r0, 53;\n"
    "  add.u32 %r55, %r0, 54;\n"
    "  add.u32 %r56, %r0, 55;\n"
    "  add.u32 %r57, %r0, 56;\n"
    "  add.u32 %r58, %r0, 57;\n"
    "  add.u32 %r59, %r0, 58;\n"
    "  add.u32 %r60, %r0, 59;\n"
    "  add.u32 %r61, %r0, 60;\n"
    "  add.u32 %r62, %r0, 61;\n"
    "  add.u32 %r63, %r0, 62;\n"
    "  add.u32 %r64, %r0, 63;\n"
    "  ret;\n}\n"
    "// empty(): occupancy probe\n"
    ".visible .entry empty()\n{\n  ret;\n}\n"
    "// sleeper(out, ns): out[0] = %globaltimer across nanosleep ns, out[1] = its start\n"
    ".visible .entry sleeper(.param .u64 p_out, .param .u32 p_ns)\n{\n"
    "  .reg .u64 %rd<5>;\n  .reg .u32 %r<2>;\n"
    "  ld.param.u64 %rd1, [p_out];\n  ld.param.u32 %r1, [p_ns];\n"
    "  mov.u64 %rd2, %globaltimer;\n  nanosleep.u32 %r1;\n  mov.u64 %rd3, %globaltimer;\n"
    "  sub.u64 %rd4, %rd3, %rd2;\n  st.global.u64 [%rd1], %rd4;\n  st.global.u64 [%rd1+8], %rd2;\n"
    "  ret;\n}\n"
    "// merge(a, out, delay): CTA 0 reads a[0] (a cold L2 miss) into out[0], then stores 9 to\n"
    "// a[0]; CTA 1, on another SM, spins `delay` trips, then stores 7 to a[0]\n"
    ".visible .entry merge(.param .u64 p_a, .param .u64 p_out, .param .u32 p_delay)\n{\n"
    "  .reg .u64 %rd<3>;\n  .reg .u32 %r<4>;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p_a];\n  ld.param.u64 %rd2, [p_out];\n  ld.param.u32 %r1, [p_delay];\n"
    "  mov.u32 %r2, %ctaid.x;\n  setp.ne.u32 %p, %r2, 0;\n  @%p bra WRITER;\n"
    "  ld.global.cg.u32 %r3, [%rd1];\n  st.global.cg.u32 [%rd1], 9;\n"
    "  st.global.u32 [%rd2], %r3;\n  ret;\n"
    "WRITER:\n  mov.u32 %r3, 0;\n"
    "SPIN:\n  add.u32 %r3, %r3, 1;\n  setp.lt.u32 %p, %r3, %r1;\n  @%p bra SPIN;\n"
    "  st.global.cg.u32 [%rd1], 7;\n  ret;\n}\n";

/* A device with the built-in (GTX 480-like) config plus `opts` (option text). */
static lockstep_device *device_with(const char *opts)
{
    lockstep_config *cfg;
    lockstep_device *dev = NULL;
    if (lockstep_config_create(&cfg))
        return NULL;
    if (opts && lockstep_config_parse(cfg, opts, strlen(opts), "test") != LOCKSTEP_SUCCESS) {
        CHECK_MSG(0, "config: %s", lockstep_config_last_error(cfg));
        lockstep_config_destroy(cfg);
        return NULL;
    }
    E2E_OK(NULL, lockstep_device_create(cfg, &dev));
    lockstep_config_destroy(cfg);
    return dev;
}

static lockstep_kernel *kernel(lockstep_device *dev, const char *name)
{
    lockstep_module *mod = NULL;
    if (!dev || !E2E_OK(dev, lockstep_module_load_ptx(dev, chase_ptx, strlen(chase_ptx),
                                                      "timing.ptx", &mod)))
        return NULL;
    return e2e_kernel(dev, mod, name);
}

/* A ring of n nodes, `stride` bytes apart; returns the first node. */
static lockstep_dptr make_ring(lockstep_device *dev, uint32_t n, uint32_t stride)
{
    size_t bytes = (size_t)n * stride;
    lockstep_dptr base = e2e_alloc(dev, bytes);
    uint64_t *host = calloc(bytes / 8, 8);
    if (!base || !host) {
        free(host);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        host[(size_t)i * stride / 8] = base + (uint64_t)((i + 1) % n) * stride;
    lockstep_memcpy_htod(dev, base, host, bytes);
    free(host);
    return base;
}

/* Cycles per step of a chase of `steps` loads over the ring (the second
 * of two launches, so caches hold what the first one brought in). */
static double chase_cycles(lockstep_device *dev, const char *kname, lockstep_dptr ring,
                           uint32_t steps)
{
    lockstep_kernel *k = kernel(dev, kname);
    lockstep_dptr out = e2e_alloc(dev, 8);
    if (!k || !out)
        return -1;
    double per[2] = {0, 0};
    uint32_t counts[2] = {steps, 2 * steps};
    for (int warm = 0; warm < 2; warm++)
        for (int i = 0; i < 2; i++) {
            uint32_t n = counts[i];
            void *args[] = {&ring, &n, &out};
            lockstep_launch_stats st;
            if (!E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(1, 1, 1),
                                                  0, args, &st)))
                return -1;
            per[i] = (double)st.t.cycles;
        }
    /* the difference of two chase lengths cancels launch and drain costs */
    return (per[1] - per[0]) / steps;
}

static void test_latency(void)
{
    /* round numbers so the expected latencies are easy to read */
    const char *opts = "-gpgpu_l1_latency 20 -rop_latency 100 -lockstep_l2_latency 10 "
                       "-lockstep_icnt_latency 8 -dram_latency 50 -lockstep_nondet 0 "
                       "-gpgpu_clock_domains 1000.0:1000.0:1000.0:1000.0 "
                       "-lockstep_dram_tREFI 0 "
                       "-gpgpu_cache:dl2 N:16:128:4,L:B:m:W:L,A:32:4,4";
    lockstep_device *dev = device_with(opts);
    if (!dev)
        return;
    /* L1: 16 nodes in 16 lines (2 KB) stay in a 16 KB L1.  One step is the
     * hit latency plus the cycle the LD/ST unit takes the access. */
    lockstep_dptr small = make_ring(dev, 16, 128);
    double l1 = chase_cycles(dev, "chase", small, 64);
    CHECK_MSG(l1 >= 20 && l1 <= 20 + 2, "L1 hit chase: %.2f cycles per load, configured 20 (+2)",
              l1);
    /* L2: ld.cg skips the L1; 64 nodes stay in the L2.  The round trip is
     * the ROP latency, the L2 access and the crossbar both ways (latency
     * plus one flit in, one header and a 32-byte sector (2 flits) back). */
    lockstep_dptr mid = make_ring(dev, 64, 256);
    double l2 = chase_cycles(dev, "chase_cg", mid, 64);
    double l2_expected = 100 + 10 + (1 + 8) + (2 + 8);
    CHECK_MSG(l2 >= l2_expected - 2 && l2 <= l2_expected + 6,
              "L2 hit chase: %.2f cycles per load, configured %.0f (-2..+6)", l2, l2_expected);
    /* DRAM: 4096 nodes 8 KB apart miss the L2 (6 slices of 64 lines).  A miss adds
     * the DRAM latency and, with every access opening a new row, the row
     * cycle tRP+tRCD+CL plus the burst (DRAM clock = core clock here). */
    lockstep_dptr big = make_ring(dev, 4096, 8192);
    double dram = chase_cycles(dev, "chase_cg", big, 256);
    double dram_expected = l2_expected + 50 + 12 + 12 + 12 + 2;
    CHECK_MSG(dram >= dram_expected - 15 && dram <= dram_expected + 25,
              "DRAM chase: %.2f cycles per load, configured %.0f (-15..+25: write-backs and "
              "bank state)", dram, dram_expected);
    e2e_device_destroy(dev);
}

static void test_bandwidth(void)
{
    lockstep_device *dev = device_with("-lockstep_nondet 0");
    lockstep_kernel *k = kernel(dev, "copy");
    uint32_t n = 1u << 20;
    lockstep_dptr src = e2e_alloc(dev, (size_t)n * 4), dst = e2e_alloc(dev, (size_t)n * 4);
    if (!k || !src || !dst) {
        e2e_device_destroy(dev);
        return;
    }
    void *args[] = {&src, &dst, &n};
    lockstep_launch_stats st;
    if (E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(120, 1, 1), e2e_dim3(256, 1, 1), 0,
                                         args, &st))) {
        /* peak: 6 channels x 2 chips x 4 bytes x 4 beats per DRAM cycle
         * (GDDR5) at 924 MHz against the 700 MHz core */
        double peak_per_core_cycle = 6.0 * 2 * 4 * 4 * 924.0 / 700.0;
        double bytes = (double)(st.t.dram_reads + st.t.dram_writes) * 128.0;
        double frac = bytes / (double)st.t.cycles / peak_per_core_cycle;
        CHECK_MSG(st.t.dram_reads >= n * 4 / 128, "reads %llu", (unsigned long long)st.t.dram_reads);
        CHECK_MSG(frac >= 0.5 && frac <= 1.0,
                  "streaming copy reached %.1f%% of the configured DRAM bandwidth (want >= 50%%)",
                  100 * frac);
        printf("streaming copy: %.1f%% of peak DRAM bandwidth\n", 100 * frac);
    }
    e2e_device_destroy(dev);
}

static void test_bank_conflicts(void)
{
    lockstep_device *dev = device_with("-lockstep_nondet 0");
    lockstep_kernel *k = kernel(dev, "banks");
    lockstep_dptr out = e2e_alloc(dev, 32 * 4);
    if (!k || !out) {
        e2e_device_destroy(dev);
        return;
    }
    uint64_t base_cycles = 0;
    for (uint32_t stride = 1; stride <= 32; stride *= 2) {
        void *args[] = {&out, &stride};
        lockstep_launch_stats st;
        if (!E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(32, 1, 1), 0,
                                              args, &st)))
            break;
        /* stride s over 32 four-byte banks: s lanes share each bank */
        uint32_t ways = stride;
        CHECK_MSG(st.t.shmem_accesses == 64, "stride %u: %llu shared accesses", stride,
                  (unsigned long long)st.t.shmem_accesses);
        CHECK_MSG(st.t.shmem_conflict_cycles == 64ull * (ways - 1),
                  "stride %u: %llu conflict cycles, want 64 x (%u - 1)", stride,
                  (unsigned long long)st.t.shmem_conflict_cycles, ways);
        if (stride == 1)
            base_cycles = st.t.cycles;
        else
            CHECK_MSG(st.t.cycles >= base_cycles + 64ull * (ways - 1),
                      "stride %u: %llu cycles, conflict-free %llu", stride,
                      (unsigned long long)st.t.cycles, (unsigned long long)base_cycles);
    }
    e2e_device_destroy(dev);
}

static uint64_t occupancy(const char *opts, uint32_t threads, uint32_t dyn_shared)
{
    lockstep_device *dev = device_with(opts);
    lockstep_kernel *k = kernel(dev, "empty");
    uint64_t occ = 0;
    lockstep_launch_stats st;
    if (k && E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(200, 1, 1),
                                              e2e_dim3(threads, 1, 1), dyn_shared, NULL, &st)))
        occ = st.t.max_ctas_per_sm;
    e2e_device_destroy(dev);
    return occ;
}

static void test_occupancy(void)
{
    /* defaults: 1536 threads, 8 CTAs, 32768 registers, 48 KB shared per SM */
    CHECK_EQ_U64(occupancy(NULL, 64, 0), 8);               /* CTA slots */
    CHECK_EQ_U64(occupancy(NULL, 256, 0), 6);              /* threads: 1536 / 256 */
    CHECK_EQ_U64(occupancy(NULL, 1024, 0), 1);
    CHECK_EQ_U64(occupancy(NULL, 128, 20000), 2);          /* shared: 49152 / 20000 */
    CHECK_EQ_U64(occupancy("-lockstep_regs_per_thread 63", 256, 0), 2); /* 32768 / (63 x 256) */
    CHECK_EQ_U64(occupancy("-gpgpu_shader_cta 3", 64, 0), 3);
    CHECK_EQ_U64(occupancy("-gpgpu_shader_core_pipeline 2048:32 -gpgpu_shader_cta 32", 256, 0), 8);
}

/* A memory-bound run: statistics and output under one seed. */
static int seeded_run(uint64_t seed, lockstep_launch_stats *st, uint32_t *out_host)
{
    char opts[128];
    snprintf(opts, sizeof opts, "-lockstep_nondet_seed %llu", (unsigned long long)seed);
    lockstep_device *dev = device_with(opts);
    lockstep_kernel *k = kernel(dev, "copy");
    uint32_t n = 1u << 16;
    uint32_t *host = malloc((size_t)n * 4);
    lockstep_dptr src = e2e_alloc(dev, (size_t)n * 4), dst = e2e_alloc(dev, (size_t)n * 4);
    int ok = 0;
    if (k && host && src && dst) {
        for (uint32_t i = 0; i < n; i++)
            host[i] = i * 2654435761u;
        lockstep_memcpy_htod(dev, src, host, (size_t)n * 4);
        void *args[] = {&src, &dst, &n};
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(30, 1, 1), e2e_dim3(128, 1, 1), 0,
                                              args, st)) &&
             e2e_download(dev, out_host, dst, 64 * 4);
        for (uint32_t i = 0; ok && i < 64; i++)
            ok = out_host[i] == host[i];
    }
    free(host);
    e2e_device_destroy(dev);
    return ok;
}

static void test_seeds(void)
{
    lockstep_launch_stats a, b, c;
    uint32_t oa[64], ob[64], oc[64];
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    CHECK(seeded_run(11, &a, oa));
    CHECK(seeded_run(11, &b, ob));
    CHECK(seeded_run(12, &c, oc));
    CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "seed 11 twice: statistics differ (%llu / %llu cycles)",
              (unsigned long long)a.t.cycles, (unsigned long long)b.t.cycles);
    CHECK_MSG(a.t.cycles != c.t.cycles,
              "seeds 11 and 12 give the same cycle count %llu: the seed drives nothing",
              (unsigned long long)a.t.cycles);
    CHECK(memcmp(oa, oc, sizeof oa) == 0);
}

/* Windows: running the SMs and partitions of each window in reverse index
 * order (-lockstep_window_order 1) must change nothing -- not the order in
 * which atomics reach the partitions, not one statistic -- since nothing
 * crosses between components within a window (docs/ARCHITECTURE.md). */
static int ticket_run(const char *opts, lockstep_launch_stats *st, uint32_t *out_host, uint32_t n)
{
    lockstep_device *dev = device_with(opts);
    lockstep_kernel *k = kernel(dev, "ticket");
    lockstep_dptr ctr = e2e_alloc(dev, 4), out = e2e_alloc(dev, (size_t)n * 4);
    int ok = 0;
    if (k && ctr && out) {
        uint32_t zero = 0;
        lockstep_memcpy_htod(dev, ctr, &zero, 4);
        void *args[] = {&ctr, &out};
        ok = E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(n / 128, 1, 1),
                                              e2e_dim3(128, 1, 1), 0, args, st)) &&
             e2e_download(dev, out_host, out, (size_t)n * 4);
    }
    e2e_device_destroy(dev);
    return ok;
}

static void test_window_order(void)
{
    enum { N = 128 * 60 };
    static uint32_t a[N], b[N], c[N];
    lockstep_launch_stats sa, sb, sc;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    memset(&sc, 0, sizeof sc);
    CHECK(ticket_run("-lockstep_nondet_seed 5", &sa, a, N));
    CHECK(ticket_run("-lockstep_nondet_seed 5 -lockstep_window_order 1", &sb, b, N));
    CHECK(ticket_run("-lockstep_nondet_seed 6", &sc, c, N));
    CHECK_MSG(memcmp(a, b, sizeof a) == 0, "reversed window order changed the atomics' order");
    CHECK_MSG(memcmp(&sa, &sb, sizeof sa) == 0,
              "reversed window order changed the statistics (%llu / %llu cycles)",
              (unsigned long long)sa.t.cycles, (unsigned long long)sb.t.cycles);
    /* the order is timing-dependent at all: another seed gives another one */
    CHECK_MSG(memcmp(a, c, sizeof a) != 0, "seeds 5 and 6 give the same ticket order");
    /* and every ticket was handed out once */
    static uint8_t seen[N];
    memset(seen, 0, sizeof seen);
    int once = 1;
    for (uint32_t i = 0; i < N; i++) {
        if (a[i] >= N || seen[a[i]])
            once = 0;
        else
            seen[a[i]] = 1;
    }
    CHECK(once);
}

/* Fetch: one warp runs a straight line of independent instructions.  With
 * a B-entry instruction buffer each fetch brings B instructions, and the
 * warp waits fetch_latency for each; so raising the fetch latency by D
 * costs D cycles per fetch, ceil(N / B) fetches for N instructions (one
 * fetch of slack for the kernel's start and end). */
static uint64_t straight_cycles(const char *opts, uint64_t *insts, uint64_t *no_inst)
{
    lockstep_device *dev = device_with(opts);
    lockstep_kernel *k = kernel(dev, "straight");
    lockstep_launch_stats st;
    uint64_t c = 0;
    if (k && E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(32, 1, 1), 0,
                                              NULL, &st))) {
        c = st.t.cycles;
        *insts = st.warp_insts;
        *no_inst = st.t.stall[LOCKSTEP_STALL_NO_INST];
    }
    e2e_device_destroy(dev);
    return c;
}

static void test_fetch(void)
{
    uint64_t n = 0, ni0 = 0, ni1 = 0, ni2 = 0;
    for (uint32_t b = 1; b <= 4; b *= 2) {
        char lo[128], hi[128];
        snprintf(lo, sizeof lo, "-lockstep_ibuffer %u -lockstep_fetch_latency 2", b);
        snprintf(hi, sizeof hi, "-lockstep_ibuffer %u -lockstep_fetch_latency 12", b);
        uint64_t c_lo = straight_cycles(lo, &n, &ni1), c_hi = straight_cycles(hi, &n, &ni2);
        uint64_t fetches = (n + b - 1) / b, want = fetches * 10;
        CHECK_MSG(c_hi - c_lo + 10 >= want && c_hi - c_lo <= want + 10,
                  "ibuffer %u: fetch latency 2 -> 12 costs %llu cycles, expected %llu (+-10)", b,
                  (unsigned long long)(c_hi - c_lo), (unsigned long long)want);
        CHECK(ni2 > ni1); /* the wait shows as no_inst */
    }
    /* without the fetch model no cycle is charged to it */
    uint64_t c0 = straight_cycles("-lockstep_ibuffer 0", &n, &ni0);
    CHECK(c0 > 0);
    CHECK_EQ_U64(ni0, 0);
}

static void test_watchdog(void)
{
    /* with a watchdog shorter than one DRAM round trip, a dependent chase
     * "makes no progress" and is stopped; with the default it finishes */
    lockstep_device *dev = device_with("-lockstep_deadlock_cycles 60 -lockstep_nondet 0");
    lockstep_kernel *k = kernel(dev, "chase_cg");
    lockstep_dptr ring = dev ? make_ring(dev, 64, 8192) : 0, out = dev ? e2e_alloc(dev, 8) : 0;
    if (k && ring && out) {
        uint32_t n = 8;
        void *args[] = {&ring, &n, &out};
        lockstep_status s = lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(1, 1, 1), 0,
                                                 args, NULL);
        CHECK_EQ_INT(s, LOCKSTEP_ERROR_BARRIER_DEADLOCK);
        CHECK_STR_CONTAINS(lockstep_device_last_error(dev), "no progress for");
        CHECK_STR_CONTAINS(lockstep_device_last_error(dev), "-lockstep_deadlock_cycles");
        lockstep_synchronize(dev);
    }
    e2e_device_destroy(dev);
    dev = device_with(NULL);
    k = kernel(dev, "chase_cg");
    ring = dev ? make_ring(dev, 64, 8192) : 0;
    out = dev ? e2e_alloc(dev, 8) : 0;
    if (k && ring && out) {
        uint32_t n = 8;
        void *args[] = {&ring, &n, &out};
        E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(1, 1, 1), 0, args,
                                         NULL));
    }
    e2e_device_destroy(dev);
}

/* nanosleep puts the warp to sleep for its delay at the core clock (the
 * built-in config's 700 MHz), capped at PTX's 1 ms; %globaltimer counts
 * nanoseconds; a sleep longer than the deadlock watchdog is not a deadlock;
 * the scheduler's idle cycles show as "sleep". */
static void test_sleep(void)
{
    lockstep_device *dev = device_with("-lockstep_deadlock_cycles 100000 -lockstep_nondet 0");
    lockstep_kernel *k = kernel(dev, "sleeper");
    lockstep_dptr out = dev ? e2e_alloc(dev, 16) : 0;
    static const uint32_t delays[] = {0, 2000, 20000, 1000000, 5000000};
    uint64_t cycles[5] = {0};
    for (int i = 0; k && out && i < 5; i++) {
        uint32_t ns = delays[i];
        void *args[] = {&out, &ns};
        lockstep_launch_stats st;
        if (!E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(32, 1, 1), 0,
                                             args, &st)))
            break;
        uint64_t got[2];
        if (!e2e_download(dev, got, out, sizeof got))
            break;
        uint64_t want = ns < 1000000 ? ns : 1000000; /* PTX caps the delay at 1 ms */
        CHECK_MSG(got[0] >= want && got[0] <= want + 100,
                  "nanosleep %u: %%globaltimer advanced %llu ns, expected %llu to %llu", ns,
                  (unsigned long long)got[0], (unsigned long long)want,
                  (unsigned long long)want + 100);
        CHECK(got[1] > 0); /* ns since the device's clock started, not 0 */
        cycles[i] = st.t.cycles;
        if (ns)
            CHECK_MSG(st.t.stall[LOCKSTEP_STALL_SLEEP] > 0, "nanosleep %u: no sleep cycles", ns);
        else
            CHECK_EQ_U64(st.t.stall[LOCKSTEP_STALL_SLEEP], 0);
    }
    /* 20 us at 700 MHz is 14,000 cycles; the 1 ms sleep (700,000 cycles)
     * outlasts the 100,000-cycle watchdog and still succeeds */
    CHECK_MSG(cycles[2] + 2 >= cycles[0] + 14000 && cycles[2] <= cycles[0] + 14100,
              "20 us sleep: %llu cycles against %llu without", (unsigned long long)cycles[2],
              (unsigned long long)cycles[0]);
    CHECK_MSG(cycles[3] + 2 >= cycles[0] + 700000 && cycles[3] <= cycles[0] + 700100, "1 ms sleep: %llu cycles", (unsigned long long)cycles[3]);
    CHECK_EQ_U64(cycles[4], cycles[3]);
    CHECK(strcmp(lockstep_stall_name(LOCKSTEP_STALL_SLEEP), "sleep") == 0);
    e2e_device_destroy(dev);
}

static void test_after_fault(void)
{
    lockstep_device *dev = device_with("-lockstep_max_warp_insts 20000");
    uint32_t n = 1u << 16;
    for (int round = 0; dev && round < 2; round++) {
        lockstep_module *mod = NULL;
        if (!E2E_OK(dev, lockstep_module_load_ptx(dev, chase_ptx, strlen(chase_ptx), "timing.ptx",
                                                  &mod)))
            break;
        lockstep_kernel *k = e2e_kernel(dev, mod, "copy");
        lockstep_dptr src = e2e_alloc(dev, (size_t)n * 4), dst = e2e_alloc(dev, (size_t)n * 4);
        void *args[] = {&src, &dst, &n};
        /* many CTAs, each missing to DRAM, stopped by the instruction limit */
        lockstep_status s = k ? lockstep_launch_args(dev, k, e2e_dim3(120, 1, 1),
                                                     e2e_dim3(256, 1, 1), 0, args, NULL)
                              : LOCKSTEP_SUCCESS;
        CHECK_EQ_INT(s, LOCKSTEP_ERROR_INSN_LIMIT);
        lockstep_synchronize(dev);
        lockstep_module_unload(mod);
        e2e_free(dev, src);
        e2e_free(dev, dst);
    }
    e2e_device_destroy(dev);
}

/* A regression here has shown up as a hang (a launch that never ends), not
 * a crash: stop with a message instead of running into CI's time limit. */
static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_timing: no result after 600 s: a launch does not end\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(3);
}

/* -lockstep_l2_write_merge: a store that reaches a line while its L2 fill
 * is out is performed at once, and the load waiting for the fill reads it
 * (with 0 it waits behind the fill, and the load reads the old value);
 * the reader's own later store to the line never reaches its load.  A
 * sweep of the writer's delay finds delays at which the store arrives
 * after the load (merge 0 reads 0) and is merged (merge 1 reads 7). */
static uint32_t merge_read(int merge, uint32_t delay)
{
    char opts[128];
    snprintf(opts, sizeof opts, "-lockstep_nondet 0 -lockstep_l2_write_merge %d", merge);
    lockstep_device *dev = device_with(opts);
    lockstep_kernel *k = kernel(dev, "merge");
    lockstep_dptr a = e2e_alloc(dev, 128), out = e2e_alloc(dev, 4);
    uint32_t got = UINT32_MAX;
    void *args[] = {&a, &out, &delay};
    if (k && a && out &&
        E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(2, 1, 1), e2e_dim3(1, 1, 1), 0, args,
                                         NULL)))
        lockstep_memcpy_dtoh(dev, &got, out, 4);
    e2e_device_destroy(dev);
    return got;
}

static void test_write_merge(void)
{
    int merged = 0, before = 0;
    for (uint32_t delay = 0; delay <= 200; delay += 10) {
        uint32_t r0 = merge_read(0, delay), r1 = merge_read(1, delay);
        CHECK_MSG(r0 == 0 || r0 == 7, "merge 0, delay %u: read %u", delay, r0);
        CHECK_MSG(r1 == 0 || r1 == 7, "merge 1, delay %u: read %u (its own later store is 9)",
                  delay, r1);
        CHECK_MSG(r0 != 7 || r1 == 7, "delay %u: a store before the load is seen either way",
                  delay);
        merged += r0 == 0 && r1 == 7;
        before += r0 == 7;
    }
    CHECK_MSG(merged > 0, "no delay put the store inside the load's L2 miss");
    CHECK_MSG(merged < 21 - before, "every delay merged: the sweep does not reach past the fill");
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    alarm(600); /* the sanitizer build takes about 20 s */
    RUN(test_latency);
    RUN(test_bandwidth);
    RUN(test_bank_conflicts);
    RUN(test_occupancy);
    RUN(test_fetch);
    RUN(test_seeds);
    RUN(test_window_order);
    RUN(test_watchdog);
    RUN(test_sleep);
    RUN(test_after_fault);
    RUN(test_write_merge);
    return test_summary();
}
